/// What photobook needs from a photo's EXIF block.
public struct EXIFMetadata: Sendable, Equatable {
    /// EXIF Orientation of the main image (IFD0), 1-8; 1 when absent or invalid.
    public var orientation: Int
    /// `DateTimeOriginal` as written, "YYYY:MM:DD HH:MM:SS", when present.
    public var dateTimeOriginal: String?
    public init(orientation: Int = 1, dateTimeOriginal: String? = nil) {
        self.orientation = orientation
        self.dateTimeOriginal = dateTimeOriginal
    }
}

public enum EXIFParser {
    /// Parses a TIFF-structured EXIF block (a leading "Exif\0\0" is accepted and skipped).
    /// Never throws and never traps: whatever cannot be read is reported as absent.
    public static func parse(_ bytes: [UInt8]) -> EXIFMetadata {
        fatalError("STUB: EXIF helper implements this")
    }
}
