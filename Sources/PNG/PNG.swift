import Imaging
import CPNGShim

/// What the header of a PNG says (IHDR and the ancillary chunks before the image data).
public struct PNGInfo: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var bitDepth: Int
    /// The PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
    public var colorType: Int
    public var isInterlaced: Bool
    /// The TIFF structure of an eXIf chunk, if one comes before the image data.
    public var exif: [UInt8]?
}

public enum PNGError: Error, Sendable, Equatable, CustomStringConvertible {
    case notPNG
    case corrupt(String)
    case tooLarge(width: Int, height: Int, limit: Int)
    case cancelled
    public var description: String {
        switch self {
        case .notPNG: return "not a PNG file"
        case .corrupt(let why): return "corrupt PNG (\(why))"
        case .tooLarge(let w, let h, let limit): return "image is \(w)x\(h) pixels, more than the limit of \(limit)"
        case .cancelled: return "cancelled"
        }
    }
}

public enum PNGDecoder {
    public static func readInfo(_ data: [UInt8]) throws(PNGError) -> PNGInfo {
        fatalError("STUB: PNG helper implements this")
    }
    /// Decodes to 8-bit RGB, transparency composited over white.
    public static func decode(_ data: [UInt8], maxPixels: Int,
                              shouldCancel: () -> Bool = { false }) throws(PNGError) -> RGBImage {
        fatalError("STUB: PNG helper implements this")
    }
}
