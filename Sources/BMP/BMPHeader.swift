import ImageCodec

/// What a BMP's headers say: the file header, one of the info headers (OS/2 1.x's 12 bytes, OS/2 2.x's 16 to 64,
/// Windows' 40, 52, 56, 108 and 124), the colour masks and the palette. Every size and offset is checked against
/// the file's size before anything is read through it.
struct BMPHeader: Equatable {
    enum Compression: Equatable { case none, rle8, rle4, bitfields }

    /// How a stored pixel is coded and what colour it makes: all that `BMPPixels` needs to turn rows into RGB,
    /// and `BMPRunLength` to decode RLE data.
    struct PixelFormat: Equatable {
        var bitCount: Int
        var compression: Compression
        /// 256 RGB entries, black past the entries the file has (an index past the palette is black).
        var palette: [UInt8]
        /// Red, green, blue and alpha masks of a 16- or 32-bit pixel (alpha 0: none).
        var masks: [UInt32]

        var hasAlpha: Bool { masks[3] != 0 }
    }

    var width: Int, height: Int
    /// Rows are stored top row first (a negative height); else bottom row first.
    var topDown: Bool
    var pixelFormat: PixelFormat
    /// Where the pixel data starts in the file.
    var pixelOffset: Int
    /// Bytes from one stored row to the next (rows are padded to 4 bytes).
    var stride: Int
    /// Where an embedded ICC profile (V5, PROFILE_EMBEDDED) lies in the file.
    var profile: Range<Int>?
    var notes: [String] = []
    /// "OS/2 1.x", "BITMAPINFOHEADER", "BITMAPV5HEADER"...
    var headerName: String

    /// Bytes of one row's pixels, without the padding.
    var rowBytes: Int { (width * pixelFormat.bitCount + 7) / 8 }

    static let signature: [UInt8] = [0x42, 0x4D]  // "BM"
    /// The most pixels a side may have: far past any real picture, small enough that no size computed from it
    /// overflows.
    static let maximumSide = 1 << 24

    /// The headers of a BMP file whose first bytes are `bytes` and whose whole size is `fileSize`.
    static func parse(_ bytes: [UInt8], fileSize: Int) throws(CodecError) -> BMPHeader {
        guard bytes.starts(with: signature) else { throw .unsupported("not a BMP file") }
        guard bytes.count >= 18 else { throw truncated }
        let pixelOffset = Int(u32(bytes, 10)), headerSize = Int(u32(bytes, 14))
        var width = 0, height = 0, planes = 0, bitCount = 0, code = 0, colorsUsed = 0
        var entrySize = 4
        var headerName: String
        let os2: Bool
        switch headerSize {
        case 12:
            headerName = "OS/2 1.x"
            os2 = true
            entrySize = 3
        case 40: headerName = "BITMAPINFOHEADER"; os2 = false
        case 52: headerName = "BITMAPV2INFOHEADER"; os2 = false
        case 56: headerName = "BITMAPV3INFOHEADER"; os2 = false
        case 108: headerName = "BITMAPV4HEADER"; os2 = false
        case 124: headerName = "BITMAPV5HEADER"; os2 = false
        // Trap: an OS/2 2.x header may stop after any field (16 to 64 bytes); ImageMagick and bmptopnm misread
        // a 64-byte one (bmpsuite's pal8os2v2.bmp).
        case 16...64: headerName = "OS/2 2.x"; os2 = true
        default: throw .corrupt("corrupt BMP (an info header of \(headerSize) bytes)")
        }
        guard bytes.count >= 14 + headerSize else { throw truncated }
        // An OS/2 2.x header shorter than 64 bytes stops anywhere: its missing fields are zero.
        var header = Array(bytes[14..<(14 + headerSize)])
        if headerSize < 64 { header += [UInt8](repeating: 0, count: 64 - headerSize) }
        if headerSize == 12 {
            width = Int(u16(header, 4)); height = Int(u16(header, 6))
            planes = Int(u16(header, 8)); bitCount = Int(u16(header, 10))
        } else {
            width = Int(Int32(bitPattern: u32(header, 4))); height = Int(Int32(bitPattern: u32(header, 8)))
            planes = Int(u16(header, 12)); bitCount = Int(u16(header, 14))
            code = Int(u32(header, 16)); colorsUsed = Int(u32(header, 32))
        }
        let topDown = height < 0
        height = abs(height)
        guard width > 0, height > 0 else { throw .corrupt("corrupt BMP (a picture of \(width)x\(height) pixels)") }
        guard width <= maximumSide, height <= maximumSide else {
            throw .tooLarge("image is \(width)x\(height) pixels, more than photobook reads")
        }
        guard planes == 1 else { throw .corrupt("corrupt BMP (\(planes) planes)") }

        var compression = Compression.none
        var masksAfterHeader = 0
        switch (code, os2) {
        case (0, _): compression = .none
        case (1, _): compression = .rle8
        case (2, _): compression = .rle4
        case (3, false): compression = .bitfields; masksAfterHeader = headerSize == 40 ? 3 : 0
        case (6, false): compression = .bitfields; masksAfterHeader = headerSize == 40 ? 4 : 0
        // Trap: OS/2 2.x gives 3 and 4 other meanings than Windows does (not bit fields and JPEG).
        case (3, true): throw .unsupported("OS/2 BMP with Huffman 1D compression is not supported")
        case (4, true): throw .unsupported("OS/2 BMP with RLE24 compression is not supported")
        case (4, false): throw .unsupported("BMP holding a JPEG is not supported")
        case (5, false): throw .unsupported("BMP holding a PNG is not supported")
        case (11...13, false): throw .unsupported("CMYK BMP is not supported")
        default: throw .corrupt("corrupt BMP (compression \(code))")
        }
        switch (bitCount, compression) {
        case (1, .none), (2, .none), (4, .none), (8, .none), (16, .none), (24, .none), (32, .none),
             (8, .rle8), (4, .rle4), (16, .bitfields), (32, .bitfields):
            break
        case (64, _): throw .unsupported("64-bit BMP is not supported")
        case (_, .none): throw .corrupt("corrupt BMP (\(bitCount) bits a pixel)")
        default: throw .corrupt("corrupt BMP (\(bitCount) bits a pixel with \(compression) compression)")
        }
        if compression == .rle8 || compression == .rle4, topDown {
            throw .corrupt("corrupt BMP (a top-down picture cannot be RLE-compressed)")
        }

        // Masks: in the header from V2 on, else after a 40-byte header; only BI_BITFIELDS uses them (as Windows
        // does: a 32-bit BI_RGB pixel's fourth byte is padding, whatever a V4 header's alpha mask says).
        var masks: [UInt32] = bitCount == 16 ? [0x7C00, 0x03E0, 0x001F, 0] : [0xFF_0000, 0xFF00, 0xFF, 0]
        var paletteStart = 14 + headerSize
        if compression == .bitfields {
            if masksAfterHeader > 0 {
                guard bytes.count >= paletteStart + 4 * masksAfterHeader else { throw truncated }
                for i in 0..<masksAfterHeader { masks[i] = u32(bytes, paletteStart + 4 * i) }
                masks[3] = masksAfterHeader == 4 ? masks[3] : 0
                paletteStart += 4 * masksAfterHeader
            } else {
                for i in 0..<3 { masks[i] = u32(header, 40 + 4 * i) }
                masks[3] = headerSize >= 56 ? u32(header, 52) : 0
            }
            try checkMasks(masks, bitCount: bitCount)
        }

        guard pixelOffset < fileSize else { throw truncated }
        guard pixelOffset >= paletteStart else {
            throw .corrupt("corrupt BMP (its pixels start at byte \(pixelOffset), inside its headers)")
        }
        var palette = [UInt8](repeating: 0, count: 256 * 3)
        var paletteCount = 0
        if bitCount <= 8 {
            let declared = colorsUsed == 0 ? 1 << bitCount : colorsUsed
            // A palette may not reach into the pixels: a shorter one is what the file has room for.
            paletteCount = min(declared, 1 << bitCount, (pixelOffset - paletteStart) / entrySize)
            guard bytes.count >= paletteStart + paletteCount * entrySize else { throw truncated }
            for i in 0..<paletteCount {
                let at = paletteStart + i * entrySize
                palette[i * 3] = bytes[at + 2]; palette[i * 3 + 1] = bytes[at + 1]; palette[i * 3 + 2] = bytes[at]
            }
            guard paletteCount > 0 else { throw .corrupt("corrupt BMP (no palette)") }
        }

        let stride = ((width * bitCount + 31) / 32) * 4
        let pixelFormat = PixelFormat(bitCount: bitCount, compression: compression, palette: palette, masks: masks)
        var result = BMPHeader(width: width, height: height, topDown: topDown, pixelFormat: pixelFormat,
                               pixelOffset: pixelOffset, stride: stride, headerName: headerName)
        if compression == .none || compression == .bitfields {
            // The last row may lack its padding. stride and height are at most 2^27 and 2^24: no overflow.
            guard pixelOffset + stride * (height - 1) + result.rowBytes <= fileSize else { throw truncated }
        }
        if headerSize == 124 {
            switch u32(header, 56) {
            case 0x4D42_4544:  // 'MBED': PROFILE_EMBEDDED, its offset from the info header's start
                let offset = 14 + Int(u32(header, 112)), size = Int(u32(header, 116))
                if size > 0, size <= EmbeddedProfile.maximumSize, offset + size <= fileSize {
                    result.profile = offset..<(offset + size)
                } else {
                    result.notes.append("its embedded colour profile (\(size) bytes at \(offset)) lies outside the file "
                                        + "and was ignored")
                }
            case 0x4C49_4E4B:  // 'LINK': PROFILE_LINKED, a file name on the machine that wrote it
                result.notes.append("its linked colour profile (a file elsewhere) was ignored")
            default: break
            }
        }
        return result
    }

    /// Masks that select bits of the pixel, each a contiguous run (a colour of scattered bits is no colour).
    private static func checkMasks(_ masks: [UInt32], bitCount: Int) throws(CodecError) {
        guard masks[0] | masks[1] | masks[2] != 0 else { throw .corrupt("corrupt BMP (colour masks of zero)") }
        for mask in masks where mask != 0 {
            if bitCount == 16, mask > 0xFFFF {
                throw .corrupt("corrupt BMP (colour mask \(hex(mask)) past a 16-bit pixel)")
            }
            let shifted = mask >> UInt32(mask.trailingZeroBitCount)
            guard shifted & (shifted &+ 1) == 0 else {
                throw .corrupt("corrupt BMP (colour mask \(hex(mask)) is not one run of bits)")
            }
        }
    }

    private static func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16, uppercase: true) }

    static let truncated = CodecError.corrupt("corrupt BMP (truncated file)")

    static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
