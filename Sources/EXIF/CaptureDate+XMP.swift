extension CaptureDate {
    /// Reads an XMP date: ISO 8601 as XMP writes it ("2024-05-01T14:03:07.25+02:00", seconds, fraction and
    /// offset optional, "Z" for UTC) or EXIF's own "2024:05:01 14:03:07", which darktable writes into XMP too.
    /// Nil for a date without a time of day ("2024-05-01"): a capture time of midnight would be made up.
    public init?(xmpDate text: String) {
        let trimmed = text.trimmingSpaces
        let bytes = Array(trimmed.utf8)
        guard bytes.count >= 16, bytes[10] == 0x54 || bytes[10] == 0x20 else { return nil }  // "T" or " "
        let date = String(decoding: bytes[0..<10], as: UTF8.self)
        var rest = bytes[11...]
        // hh:mm, then :ss, then a fraction: everything up to the offset.
        let clockEnd = rest.firstIndex { $0 == 0x2B || $0 == 0x2D || $0 == 0x5A } ?? rest.endIndex  // + - Z
        let clock = String(decoding: rest[..<clockEnd], as: UTF8.self)
        rest = rest[clockEnd...]
        let offset: String?
        switch rest.first {
        case nil: offset = nil
        case 0x5A?:
            guard rest.count == 1 else { return nil }
            offset = "+00:00"
        default: offset = String(decoding: rest, as: UTF8.self)
        }
        let parts = clock.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let time = String(parts[0])
        guard time.utf8.count == 5 || time.utf8.count == 8 else { return nil }
        let fraction = parts.count == 2 ? String(parts[1]) : nil
        if let fraction, CaptureDate.nanoseconds(fraction) == nil { return nil }
        self.init(exifDateTime: date + " " + time, subSeconds: fraction, offset: offset)
    }
}

extension XMP {
    static let exifNamespace = "http://ns.adobe.com/exif/1.0/"
    static let photoshopNamespace = "http://ns.adobe.com/photoshop/1.0/"

    /// When the photo was taken, as the packet says: `exif:DateTimeOriginal`, else `photoshop:DateCreated` (which
    /// Adobe's programs and IPTC's guidelines give the same meaning); nil when neither is a date with a time.
    public static func captureDate(inPacket packet: [UInt8]) -> CaptureDate? {
        guard let tree = XMPTree(packet: packet) else { return nil }
        for (namespace, name) in [(exifNamespace, "DateTimeOriginal"), (photoshopNamespace, "DateCreated")] {
            for description in tree.descriptions {
                if let text = description.field(namespace, name)?.value, let date = CaptureDate(xmpDate: text) {
                    return date
                }
            }
        }
        return nil
    }
}
