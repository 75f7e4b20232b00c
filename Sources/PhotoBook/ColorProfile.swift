import ImageCodec

/// An ICC profile a photo carries, checked against the photo: it goes into the PDF as the image's colour space.
/// A photo without one is sRGB, as PDF readers take /DeviceRGB.
public struct ColorProfile: Sendable, Equatable {
    /// The profile's data colour space (header bytes 16...19).
    public enum Space: String, Sendable, Equatable {
        case rgb = "RGB ", cmyk = "CMYK", grey = "GRAY"

        var components: Int {
            switch self {
            case .grey: return 1
            case .rgb: return 3
            case .cmyk: return 4
            }
        }
    }

    public let bytes: [UInt8]
    public let space: Space
    /// False when the codec converted the pixels through the profile (a CMYK TIFF): they are sRGB now.
    public var describesDecodedPixels = true

    /// The largest profile photobook carries (as for JPEG APP2 chunks).
    public static let maximumSize = 4 << 20

    /// `bytes` as a profile for a photo of `components` colour components (1 grey, 3 RGB, 4 CMYK), or why it
    /// is not one (worded for a warning). Only the header is read: a profile whose tags are broken passes here
    /// and is the PDF reader's to refuse.
    static func check(_ bytes: [UInt8], components: Int) -> Result<ColorProfile, PhotoError> {
        guard bytes.count <= maximumSize else {
            return .failure(.tooLarge("ICC profile is larger than \(maximumSize >> 20) MB"))
        }
        guard bytes.count >= 128 else {
            return .failure(.corrupt("ICC profile is truncated (\(bytes.count) bytes, shorter than its header)"))
        }
        let declared = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard declared == bytes.count else {
            return .failure(.corrupt("ICC profile is \(bytes.count) bytes but its header says \(declared)"))
        }
        guard bytes[36..<40].elementsEqual("acsp".utf8) else {
            return .failure(.corrupt("ICC profile has no 'acsp' signature"))
        }
        let name = String(decoding: bytes[16..<20], as: UTF8.self)
        guard let space = Space(rawValue: name) else {
            return .failure(.unsupported("ICC profile is for colour space '\(Self.printable(name))', not the photo's"))
        }
        guard space.components == components else {
            return .failure(.unsupported("ICC profile is for \(space.components)-component colour ('\(name)') "
                                       + "but the photo has \(components) component\(components == 1 ? "" : "s")"))
        }
        return .success(ColorProfile(bytes: bytes, space: space))
    }

    private static func printable(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
    }

    /// The profile for the JPEG that goes into the PDF, when it describes that JPEG's pixels.
    ///
    /// A passed-through JPEG is the photo's own, so its checked profile fits it. A rendered one holds RGB
    /// pixels: an RGB profile still describes them (decoding and resampling keep the values), but a CMYK
    /// photo's pixels went through photobook's own conversion to RGB and a grey photo's were copied to R, G and
    /// B, so their CMYK or grey profile no longer fits and the rendered photo is left sRGB.
    func bytes(forPassThrough passThrough: Bool) -> [UInt8]? {
        passThrough || (space == .rgb && describesDecodedPixels) ? bytes : nil
    }
}
