import Colour

/// The printing condition a PDF/X-1a book's photos are converted to: the output intent's profile and the intent.
struct CMYKTarget: Sendable {
    var profile: [UInt8]
    var intent: RenderingIntent
}

extension ResizeCropOperation {
    /// The conversion of this photo's rendered RGB into `target`'s CMYK: from the photo's own profile when it
    /// still describes the rendered pixels (an RGB profile; a grey one, the grey copied into R, G and B), else
    /// from sRGB, as the RGB book shows it. A profile Little CMS refuses is left for sRGB, said in --verbose.
    func cmykConversion(to target: CMYKTarget) -> Result<ConversionToCMYK, ColourError> {
        let source: ConversionToCMYK.Source? = job.info.colorProfile.flatMap { profile in
            guard profile.describesDecodedPixels else { return nil }
            switch profile.space {
            case .rgb: return .rgb(profile: profile.bytes)
            case .grey: return .greyInRGB(profile: profile.bytes)
            case .cmyk: return nil
            }
        }
        if let source {
            do {
                return .success(try ConversionToCMYK(from: source, to: target.profile, intent: target.intent))
            } catch {
                job.decodeNotes.withLock { $0.append("its ICC profile cannot be converted to CMYK (\(error)): taken as sRGB") }
            }
        }
        return Result { () throws(ColourError) in
            try ConversionToCMYK(from: .rgb(profile: BuildPDFOperation.sRGBProfile), to: target.profile,
                                 intent: target.intent)
        }
    }
}
