/// Finds metadata chunks in a PNG's bytes by walking its chunk list, without libpng.
///
/// libpng is told to skip text chunks (they are compressed, and photobook uses none of the others), so the one
/// text chunk that matters, XMP, is picked out here: a bounded walk over lengths and names, nothing inflated.
public enum PNGChunks {
    /// Packets larger than this are ignored: a real XMP packet with a caption is a few kilobytes.
    public static let xmpLimit = 1 << 20
    static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)

    /// The text of the first uncompressed iTXt chunk with keyword "XML:com.adobe.xmp" before the image data;
    /// nil when there is none, it is compressed, or the chunks are broken before it.
    ///
    /// The XMP specification (Part 3, §1.1.5) asks writers not to compress it, so that the packet can be found
    /// by scanning; a compressed one is left out rather than inflated from hostile bytes. CRCs are not checked
    /// here: libpng checks them as it reads the same chunks, and a damaged one only costs the caption.
    public static func xmpPacket(inPNG bytes: [UInt8]) -> [UInt8]? {
        let packet = firstChunk(inPNG: bytes) { name, data in
            name == "iTXt" && data.starts(with: xmpKeyword + [0])
        }
        return packet.flatMap { Self.itxtText($0.dropFirst(xmpKeyword.count + 1)) }
    }

    /// The data of the first chunk named `name` before the image data; nil when there is none or the chunk
    /// list is broken before it. CRCs are not checked (libpng checks them as it reads).
    static func chunkData(named name: String, inPNG bytes: [UInt8]) -> ArraySlice<UInt8>? {
        firstChunk(inPNG: bytes) { found, _ in found == name }
    }

    /// The data of the first chunk before the image data that `matches` its name and data; nil when there is
    /// none or the chunk list is broken before it.
    private static func firstChunk(inPNG bytes: [UInt8], where matches: (String, ArraySlice<UInt8>) -> Bool)
        -> ArraySlice<UInt8>? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.starts(with: signature) else { return nil }
        var position = signature.count
        while position + 8 <= bytes.count {
            let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16
                | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let name = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            let dataStart = position + 8
            // Lengths are at most 2^31 - 1 (PNG §5.3); the data and its CRC must be there.
            guard length < 1 << 31, length <= bytes.count - dataStart - 4 else { return nil }
            if name == "IDAT" || name == "IEND" { return nil }
            let data = bytes[dataStart..<(dataStart + length)]
            if matches(name, data) { return data }
            position = dataStart + length + 4
        }
        return nil
    }

    /// The text of an iTXt chunk after its keyword's NUL: flag, method, language tag, translated keyword, text.
    private static func itxtText(_ rest: ArraySlice<UInt8>) -> [UInt8]? {
        guard rest.count >= 2, rest[rest.startIndex] == 0 else { return nil }  // compressed: not read
        var fields = rest.dropFirst(2)
        for _ in 0..<2 {  // the language tag and the translated keyword, each ending in NUL
            guard let end = fields.firstIndex(of: 0) else { return nil }
            fields = fields[(end + 1)...]
        }
        guard fields.count <= xmpLimit else { return nil }
        return Array(fields)
    }
}
