/// Finds metadata segments in a JPEG's bytes by walking its markers, without decoding anything.
///
/// libjpeg already reads the markers, but it hands photobook only the EXIF segment; XMP lives in another
/// APP1 segment, and walking the markers here keeps the C shim as it is and this code fuzzable on its own.
public enum JPEGSegments {
    /// What an XMP APP1 segment starts with (XMP Specification Part 3, §1.1.3).
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// The main XMP packet: the payload after the signature of the first APP1 segment that has one, found
    /// among the segments before the first scan; nil when there is none or the markers are broken before it.
    ///
    /// Extended XMP (packets split over several "http://ns.adobe.com/xmp/extension/" segments) is not read:
    /// writers put only what does not fit in 64 KB there (thumbnails, histories), never a description.
    public static func xmpPacket(inJPEG bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var position = 2
        while position + 4 <= bytes.count {
            guard bytes[position] == 0xFF else { return nil }
            let marker = bytes[position + 1]
            if marker == 0xFF { position += 1; continue }  // fill byte before a marker
            if marker == 0xDA || marker == 0xD9 { return nil }  // the scan starts, or the image ends: no more headers
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { position += 2; continue }  // markers without a length
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let payloadStart = position + 4, payloadEnd = position + 2 + length
            guard length >= 2, payloadEnd <= bytes.count else { return nil }
            if marker == 0xE1, bytes[payloadStart..<payloadEnd].starts(with: xmpSignature) {
                return Array(bytes[(payloadStart + xmpSignature.count)..<payloadEnd])
            }
            position = payloadEnd
        }
        return nil
    }
}
