import Imaging

/// Writes an 8-bit RGB PNG with no library: Paeth-filtered rows, compressed by a Huffman-only deflate (one
/// dynamic Huffman table per block, no string matches), which is what zlib's `Z_HUFFMAN_ONLY` strategy does.
///
/// Why not stored (uncompressed) blocks: the file would be 36 MB and the reader would skip inflate's Huffman
/// decoding, so PNG decoding would look cheaper than it is. Huffman-only keeps that work and, on a filtered
/// photo where string matches find little, comes within a few per cent of zlib's default size.
enum PNGWriter {
    static func encode(_ image: RGBImage, exif: [UInt8]? = nil) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        appendBigEndian(UInt32(image.width), to: &header)
        appendBigEndian(UInt32(image.height), to: &header)
        header += [8, 2, 0, 0, 0]  // 8 bits, RGB, deflate, adaptive filtering, not interlaced
        appendChunk("IHDR", header, to: &png)
        if let exif { appendChunk("eXIf", exif, to: &png) }
        let compressed = ZlibStream.compress(filteredRows(image))
        // IDAT in 256 KiB pieces, as common encoders split it.
        var start = 0
        while start < compressed.count {
            let end = min(compressed.count, start + 1 << 18)
            appendChunk("IDAT", compressed[start..<end], to: &png)
            start = end
        }
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// Every row as filter type 4 (Paeth) followed by its residuals.
    static func filteredRows(_ image: RGBImage) -> [UInt8] {
        let stride = image.bytesPerRow
        var out = [UInt8](repeating: 0, count: (stride + 1) * image.height)
        image.pixels.withUnsafeBufferPointer { pixels in
            out.withUnsafeMutableBufferPointer { out in
                for y in 0..<image.height {
                    let row = y * stride, prior = row - stride, target = y * (stride + 1)
                    out[target] = 4
                    for i in 0..<stride {
                        let a = i >= 3 ? Int(pixels[row + i - 3]) : 0
                        let b = y > 0 ? Int(pixels[prior + i]) : 0
                        let c = i >= 3 && y > 0 ? Int(pixels[prior + i - 3]) : 0
                        let p = a + b - c
                        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                        let predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                        out[target + 1 + i] = pixels[row + i] &- UInt8(predictor)
                    }
                }
            }
        }
        return out
    }

    private static func appendChunk<C: Collection>(_ type: String, _ data: C, to png: inout [UInt8])
    where C.Element == UInt8 {
        appendBigEndian(UInt32(data.count), to: &png)
        let typeAndData = Array(type.utf8) + Array(data)
        png += typeAndData
        appendBigEndian(Checksums.crc32(typeAndData), to: &png)
    }

    static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// CRC-32 (PNG chunks) and Adler-32 (the zlib trailer).
enum Checksums {
    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var start = 0
        // 5552 bytes is the most that can be summed before b could overflow 32 bits.
        while start < bytes.count {
            let end = min(bytes.count, start + 5552)
            for i in start..<end { a &+= UInt32(bytes[i]); b &+= a }
            a %= 65521; b %= 65521
            start = end
        }
        return b << 16 | a
    }
}
