import CLCMS

/// Why Little CMS could not build a conversion.
public struct ColourError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A conversion of 8-bit pixels through their ICC profile into 8-bit sRGB (Little CMS, relative colorimetric
/// with black-point compensation). One conversion serves one thread at a time: Little CMS keeps a one-pixel
/// cache in each transform (make one per decode).
public final class ConversionToSRGB {
    /// The pixels' layout: the profile must be for the same colour space.
    public enum Layout: Sendable, Equatable {
        /// Four bytes a pixel; `inverted` for Adobe's inverted CMYK (0 = full ink).
        case cmyk(inverted: Bool)
        case rgb
        case grey

        var bytesPerPixel: Int {
            switch self {
            case .cmyk: return 4
            case .rgb: return 3
            case .grey: return 1
            }
        }
    }

    public let layout: Layout
    private let transform: cmsHTRANSFORM

    /// A conversion from `profile` (the bytes of an ICC profile for `layout`'s colour space) into sRGB.
    public init(profile: [UInt8], layout: Layout) throws(ColourError) {
        guard let input = profile.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
        else { throw ColourError("Little CMS cannot read the ICC profile") }
        defer { cmsCloseProfile(input) }
        let space = cmsGetColorSpace(input)
        let (format, expected): (cmsUInt32Number, cmsColorSpaceSignature)
        switch layout {
        case .cmyk(let inverted):
            (format, expected) = (inverted ? pb_lcms_type_cmyk_8_reversed() : pb_lcms_type_cmyk_8(), cmsSigCmykData)
        case .rgb: (format, expected) = (pb_lcms_type_rgb_8(), cmsSigRgbData)
        case .grey: (format, expected) = (pb_lcms_type_gray_8(), cmsSigGrayData)
        }
        guard space == expected else { throw ColourError("the ICC profile is not for the photo's colour space") }
        guard let output = cmsCreate_sRGBProfile() else { throw ColourError("Little CMS cannot make sRGB") }
        defer { cmsCloseProfile(output) }
        guard let transform = cmsCreateTransform(input, format, output, pb_lcms_type_rgb_8(),
                                                 cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
                                                 cmsUInt32Number(cmsFLAGS_BLACKPOINTCOMPENSATION)) else {
            throw ColourError("Little CMS cannot convert from the ICC profile")
        }
        self.layout = layout
        self.transform = transform
    }

    deinit { cmsDeleteTransform(transform) }

    /// Converts `pixels` pixels from `input` (`layout`'s bytes a pixel) into `output` (3 bytes a pixel).
    public func convert(_ input: UnsafeRawPointer, into output: UnsafeMutableRawPointer, pixels: Int) {
        precondition(pixels >= 0 && pixels <= Int(UInt32.max), "pixel count out of range")
        cmsDoTransform(transform, input, output, cmsUInt32Number(pixels))
    }
}
