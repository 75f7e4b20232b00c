/// The image formats photobook reads, recognised by their first bytes, never by the file name.
public enum ImageFormat: String, Sendable {
    case jpeg = "JPEG"
    case png = "PNG"

    /// The format whose signature starts `bytes`, if any.
    public init?(sniffing bytes: [UInt8]) {
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF {
            self = .jpeg
        } else if bytes.count >= 8, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else {
            return nil
        }
    }
}
