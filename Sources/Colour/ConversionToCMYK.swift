import CLCMS

/// How colours outside the press's gamut are brought into it (ICC.1:2010 6.1.5).
public enum RenderingIntent: String, Sendable, Equatable, CaseIterable {
    /// Relative colorimetric with black-point compensation: colours the press can print stay as they are, the
    /// others are clipped to the gamut's edge, and the photo's black maps to the press's black.
    case relative
    /// Perceptual: the whole photo is compressed into the gamut, so saturated colours keep their differences.
    /// Trap: a profile's perceptual table is whatever its maker put there; photobook's FOGRA39L (colprof without a
    /// source gamut) has one within about a level of its colorimetric table.
    case perceptual

    var littleCMS: cmsUInt32Number {
        cmsUInt32Number(self == .relative ? INTENT_RELATIVE_COLORIMETRIC : INTENT_PERCEPTUAL)
    }
}

/// A conversion of 8-bit RGB rows (as the render stage holds them) into the press's CMYK through Little CMS,
/// written Adobe-inverted (0 = full ink), as a CMYK JPEG stores it. One conversion serves one thread at a time
/// (Little CMS's one-pixel cache): make one per photo.
public final class ConversionToCMYK: @unchecked Sendable {
    /// What the RGB rows hold.
    public enum Source: Sendable, Equatable {
        /// RGB pixels described by this RGB profile.
        case rgb(profile: [UInt8])
        /// Grey pixels copied into R, G and B, described by this grey profile: only R is read.
        case greyInRGB(profile: [UInt8])
    }

    private let transform: cmsHTRANSFORM

    /// A conversion from `source` into `outputProfile` (a CMYK output profile's bytes) with `intent`; black-point
    /// compensation is on for either intent (Little CMS ignores it where the perceptual tables already map black).
    public init(from source: Source, to outputProfile: [UInt8], intent: RenderingIntent) throws(ColourError) {
        let (bytes, format, space): ([UInt8], cmsUInt32Number, cmsColorSpaceSignature)
        switch source {
        case .rgb(let profile): (bytes, format, space) = (profile, pb_lcms_type_rgb_8(), cmsSigRgbData)
        case .greyInRGB(let profile): (bytes, format, space) = (profile, pb_lcms_type_gray_8_in_rgb(), cmsSigGrayData)
        }
        let input = try ICCHandle(bytes, what: "the photo's ICC profile", space: space)
        let output = try ICCHandle(outputProfile, what: "the output profile", space: cmsSigCmykData)
        guard let transform = cmsCreateTransform(input.profile, format, output.profile, pb_lcms_type_cmyk_8_reversed(),
                                                 intent.littleCMS, cmsUInt32Number(cmsFLAGS_BLACKPOINTCOMPENSATION)) else {
            throw ColourError("Little CMS cannot convert from the photo's profile to the output profile")
        }
        self.transform = transform
    }

    deinit { cmsDeleteTransform(transform) }

    /// Converts `pixels` RGB pixels at `rgb` (3 bytes each) into inverted CMYK at `cmyk` (4 bytes each).
    public func convert(_ rgb: UnsafeRawPointer, into cmyk: UnsafeMutableRawPointer, pixels: Int) {
        precondition(pixels >= 0 && pixels <= Int(UInt32.max), "pixel count out of range")
        cmsDoTransform(transform, rgb, cmyk, cmsUInt32Number(pixels))
    }
}

/// An opened ICC profile, closed when it goes.
private final class ICCHandle {
    let profile: cmsHPROFILE

    init(_ bytes: [UInt8], what: String, space: cmsColorSpaceSignature) throws(ColourError) {
        guard let opened = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
        else { throw ColourError("Little CMS cannot read \(what)") }
        profile = opened
        guard cmsGetColorSpace(opened) == space else {
            throw ColourError("\(what) is not for the colour of the pixels it is to convert")
        }
    }

    deinit { cmsCloseProfile(profile) }
}
