import ImageCodec
import Platform
import Imaging

/// The colour space libjpeg infers from a JPEG's markers (JFIF, Adobe APP14, component ids).
public enum JPEGColorSpace: Sendable, Equatable { case grayscale, ycbcr, rgb, cmyk, ycck, unknown }

/// What the header of a JPEG says, read without decoding any pixels.
public struct JPEGInfo: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var components: Int
    public var colorSpace: JPEGColorSpace
    public var isProgressive: Bool
    /// Arithmetic entropy coding (SOF9-11), which many PDF readers cannot decode.
    public var isArithmetic: Bool = false
    /// The TIFF structure of the first APP1 "Exif" segment (the "Exif\0\0" prefix removed), if any.
    public var exif: [UInt8]?
    /// The ICC profile of the APP2 "ICC_PROFILE" segments, put together, or why it cannot be; nil when none.
    public var iccProfile: EmbeddedProfile?

    /// The profile to convert a CMYK file's pixels through (`JPEGDecoder.decode(cmykProfile:)`): its own, when
    /// it has a usable one; nil for other files.
    public var cmykProfile: [UInt8]? {
        guard components == 4, case .profile(let bytes)? = iccProfile else { return nil }
        return bytes
    }
}

/// Why a JPEG could not be read or written; `description` is a short reason fit for a diagnostic line.
public enum JPEGError: FormatError, Sendable, CustomStringConvertible {
    case notJPEG
    case unsupported(String)
    case corrupt(String)
    case tooLarge(width: Int, height: Int, limit: Int)
    /// libjpeg could not have the memory it asked for (the words say for what).
    case outOfMemory(String)
    /// libjpeg says photobook called it wrongly: a fault of ours, whatever the file.
    case internalError(String)
    case cancelled
    public var description: String {
        switch self {
        case .notJPEG: return "not a JPEG file"
        case .unsupported(let why): return "unsupported JPEG (\(why))"
        case .corrupt(let why): return "corrupt JPEG (\(why))"
        case .tooLarge(let w, let h, let limit): return "image is \(w)x\(h) pixels, more than the limit of \(limit)"
        case .outOfMemory(let why): return "not enough memory for the JPEG (\(why))"
        case .internalError(let why): return "internal error reading the JPEG (\(why))"
        case .cancelled: return "cancelled"
        }
    }

    /// The kind of the failure, with these words, as it crosses the codec interface.
    public var failure: Failure {
        switch self {
        case .notJPEG, .unsupported: return Failure(.unsupported, description)
        case .corrupt: return Failure(.corrupt, description)
        case .tooLarge: return Failure(.tooLarge, description)
        case .outOfMemory: return Failure(.outOfMemory, description)
        case .internalError: return Failure(.internalError, description)
        case .cancelled: return Failure(.cancelled, description)
        }
    }
}
