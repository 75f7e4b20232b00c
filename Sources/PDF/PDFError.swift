import CHaru

/// A failure reported by libharu, or noticed by us around a libharu call.
///
/// `status` is libharu's error code (`HPDF_*` in hpdf_error.h, e.g. 0x1031 "invalid JPEG data",
/// 0x1017 "cannot open file"), `detail` its detail number (often an `errno`), `during` what we were doing.
public enum PDFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libharu reported an error: its status code and detail number, and what we were doing.
    case libharu(status: UInt, detail: Int, during: String)
    /// Writing the file failed; `reason` is the operating system's, e.g. "no space left on device".
    case write(reason: String)
    /// A font file could not be used: missing, not a TrueType font, damaged, or refused by libharu.
    case font(path: String, reason: String)
    /// The file of an image stream (`loadJPEG(file:)`) could not be read, when embedded or at the save.
    case imageFile(path: String, reason: String)
    /// The save was asked to stop before it was complete.
    case stopped

    public var description: String {
        switch self {
        case .write(let reason):
            return reason
        case .font(let path, let reason), .imageFile(let path, let reason):
            return "\(path): \(reason)"
        case .stopped:
            return "the save was stopped"
        case .libharu(let status, let detail, let during):
            return "PDF library error 0x\(String(status, radix: 16, uppercase: true)) (detail \(detail)) while \(during)"
        }
    }

    /// libharu's status code, for callers that react to one kind of failure.
    public var status: UInt {
        switch self {
        case .libharu(let status, _, _): return status
        case .write: return UInt(HPDF_FILE_IO_ERROR)
        case .font: return UInt(HPDF_TTF_INVALID_FOMAT)
        case .imageFile: return UInt(HPDF_FILE_IO_ERROR)
        case .stopped: return UInt(HPDF_INVALID_OPERATION)
        }
    }
}
