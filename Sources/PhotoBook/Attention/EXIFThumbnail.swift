/// The JPEG thumbnail a camera or phone stores in its EXIF (IFD1's JPEGInterchangeFormat and its length, TIFF 6.0
/// and EXIF 2.3 section 4.5.8): a 160x120 or so copy of the picture, in the picture's stored orientation, whose
/// decode costs nothing beside the 1/8 decode of a 12-megapixel JPEG (that still reads every coefficient).
enum EXIFThumbnail {
    /// The thumbnail's bytes in `tiff` (an EXIF block: byte order mark, IFD0...), or nil when it has none whole.
    static func jpeg(in tiff: [UInt8]) -> ArraySlice<UInt8>? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let first = u16(at), let second = u16(at + 2) else { return nil }
            return little ? first | second << 16 : first << 16 | second
        }
        guard let ifd0 = u32(4), let entries0 = u16(ifd0), let ifd1 = u32(ifd0 + 2 + 12 * entries0),
              ifd1 > ifd0, let entries1 = u16(ifd1) else { return nil }
        var offset: Int?, length: Int?
        for index in 0..<entries1 {
            let entry = ifd1 + 2 + 12 * index
            guard let tag = u16(entry), let value = u32(entry + 8) else { return nil }
            if tag == 0x0201 { offset = value }
            if tag == 0x0202 { length = value }
        }
        guard let offset, let length, length > 0, offset >= 8, offset <= tiff.count - length else { return nil }
        return tiff[offset..<offset + length]
    }
}
