import COpenJPEG
import ImageCodec

/// The colour specification of a `.jp2` file (its `jp2h` box's first `colr` box), read by walking the box
/// headers through the source: a bare codestream has none.
///
/// Trap: OpenJPEG 2.5 reads the `colr` box in `opj_read_header` but hands its colour space and ICC profile
/// to the image only in `opj_decode` (before it, `color_space` is "unspecified" and `icc_profile_buf` NULL;
/// after it, a picture with a profile says OPJ_CLRSPC_UNKNOWN): a probe reads them here.
struct JP2Header {
    var colourSpace: OPJ_COLOR_SPACE = OPJ_CLRSPC_UNSPECIFIED
    var iccProfile: [UInt8]?
    var iccNote: String?
    /// A `pclr` box: the codestream's one component indexes a palette of colours (OpenJPEG expands it at decode).
    var hasPalette = false
    /// Where the codestream starts: 0 for a bare one, the `jp2c` box's payload in a `.jp2`.
    var codestream = 0

    /// Boxes looked at before the `jp2h` box (a real file has 2 or 3: signature, ftyp, maybe xml or rreq).
    static let boxLimit = 64

    static func read(_ source: any ByteSource) throws(CodecError) -> JP2Header {
        var header = JP2Header()
        let head = try source.read(from: 0, count: 12)
        guard head.starts(with: OpenJPEGSession.jp2Signature) else { return header }
        var position = 12
        header.codestream = -1
        for _ in 0..<boxLimit {
            guard let (type, payload, end) = try box(source, at: position, within: source.count) else { break }
            if type == "jp2c" {
                header.codestream = payload
                break
            }
            if type == "jp2h" {
                var inner = payload
                var sawColour = false
                while let (innerType, innerPayload, innerEnd) = try box(source, at: inner, within: end) {
                    if innerType == "pclr" { header.hasPalette = true }
                    if innerType == "colr" && !sawColour {
                        try header.readColour(source, innerPayload, innerEnd)
                        sawColour = true
                    }
                    inner = innerEnd
                }
            }
            position = end
        }
        return header
    }

    /// The most memory OpenJPEG may spend on its records of a codestream's tiles before reading any of them.
    /// Trap: OpenJPEG 2.5's `opj_read_header` allocates a coding-parameter record for every tile (about 8 KB)
    /// and every component of every tile (about 1.2 KB) up front: a 700-byte header declaring 255x255 tiles of
    /// 40 components took 13 GB and 4 s in a probe (3 components: 770 MB). Real files have one tile, or a few
    /// thousand of a big scan (20000x20000 in 256-pixel tiles: 6100 tiles of 3 components, 72 MB).
    static let tileRecordLimit = 128 << 20

    /// Refuses a codestream whose SIZ marker declares tiles whose records would take more than
    /// `tileRecordLimit`, before OpenJPEG reads it.
    func checkTiles(_ source: any ByteSource) throws(CodecError) {
        guard codestream >= 0 else { return }
        let siz = try source.read(from: codestream, count: 42)
        guard siz.count == 42, siz[0] == 0xFF, siz[1] == 0x4F, siz[2] == 0xFF, siz[3] == 0x51 else { return }
        func u32(_ i: Int) -> Int { Int(siz[i]) << 24 | Int(siz[i + 1]) << 16 | Int(siz[i + 2]) << 8 | Int(siz[i + 3]) }
        let width = u32(8), height = u32(12), tileWidth = u32(24), tileHeight = u32(28)
        let tileX = u32(32), tileY = u32(36)
        let components = Int(siz[40]) << 8 | Int(siz[41])
        // OpenJPEG refuses the impossible ones itself, with its reason.
        guard tileWidth > 0, tileHeight > 0, width > tileX, height > tileY else { return }
        let across = (width - tileX + tileWidth - 1) / tileWidth, down = (height - tileY + tileHeight - 1) / tileHeight
        let (tiles, overflow) = across.multipliedReportingOverflow(by: down)
        let (bytes, overflow2) = tiles.multipliedReportingOverflow(by: 8192 + 1200 * max(1, components))
        guard !overflow, !overflow2, bytes <= Self.tileRecordLimit else {
            throw .tooLarge("JPEG 2000 of \(across)x\(down) tiles of \(components) components: OpenJPEG's "
                            + "records of them alone would take more than \(Self.tileRecordLimit >> 20) MB")
        }
    }

    private mutating func readColour(_ source: any ByteSource, _ payload: Int, _ end: Int) throws(CodecError) {
        let fields = try source.read(from: payload, count: 7)
        guard fields.count >= 3 else { return }
        switch fields[0] {
        case 1 where fields.count == 7:
            let value = UInt32(fields[3]) << 24 | UInt32(fields[4]) << 16 | UInt32(fields[5]) << 8 | UInt32(fields[6])
            switch value {
            case 16: colourSpace = OPJ_CLRSPC_SRGB
            case 17: colourSpace = OPJ_CLRSPC_GRAY
            case 18: colourSpace = OPJ_CLRSPC_SYCC
            case 24: colourSpace = OPJ_CLRSPC_EYCC
            case 12: colourSpace = OPJ_CLRSPC_CMYK
            default: colourSpace = OPJ_CLRSPC_UNKNOWN
            }
        case 2, 3:
            let size = end - payload - 3
            if size <= 0 { return }
            if size > EmbeddedProfile.maximumSize {
                iccNote = "its ICC profile is larger than \(EmbeddedProfile.maximumSize >> 20) MB"
            } else {
                iccProfile = try source.read(from: payload + 3, count: size)
            }
        default:
            break
        }
    }

    /// The box at `position`: its type, where its payload starts and where it ends; nil past `limit` or when
    /// its header is damaged.
    private static func box(_ source: any ByteSource, at position: Int,
                            within limit: Int) throws(CodecError) -> (String, Int, Int)? {
        guard position + 8 <= limit else { return nil }
        let bytes = try source.read(from: position, count: 16)
        guard bytes.count >= 8 else { return nil }
        var size = Int(UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3]))
        var headerSize = 8
        if size == 1 {
            guard bytes.count == 16 else { return nil }
            var large: UInt64 = 0
            for i in 8..<16 { large = large << 8 | UInt64(bytes[i]) }
            guard large <= UInt64(Int.max / 2) else { return nil }
            size = Int(large)
            headerSize = 16
        } else if size == 0 {
            size = limit - position
        }
        guard size >= headerSize, size <= limit - position else { return nil }
        return (String(decoding: bytes[4..<8], as: UTF8.self), position + headerSize, position + size)
    }
}
