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

    /// Boxes looked at before the `jp2h` box (a real file has 2 or 3: signature, ftyp, maybe xml or rreq).
    static let boxLimit = 64

    static func read(_ source: any ByteSource) throws(CodecError) -> JP2Header {
        var header = JP2Header()
        let head = try source.read(from: 0, count: 12)
        guard head.starts(with: OpenJPEGSession.jp2Signature) else { return header }
        var position = 12
        for _ in 0..<boxLimit {
            guard let (type, payload, end) = try box(source, at: position, within: source.count) else { break }
            if type == "jp2c" { break }
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
                break
            }
            position = end
        }
        return header
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
