/// A tiny PNG writer for tests: 8-bit samples, filter type 0, deflate "stored" blocks (no compression).
///
/// Enough to make images of any size, interlaced or not, and hand-crafted hostile files with valid CRCs,
/// without a dependency on anything but the PNG specification.
package enum TestPNGEncoder {
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Adam7 passes: first column, first row, column step, row step.
    package static let adam7: [(x: Int, y: Int, dx: Int, dy: Int)] = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// A PNG of 8-bit samples, `pixels` holding them as the colour type says (for type 3, one palette index
    /// a pixel: give the PLTE in `chunksBeforeIDAT`).
    package static func encode(width: Int, height: Int, colorType: UInt8, pixels: [UInt8], interlaced: Bool = false,
                               chunksBeforeIDAT: [(type: String, data: [UInt8])] = []) -> [UInt8] {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]!
        precondition(pixels.count == width * height * channels)
        var raw: [UInt8] = []
        raw.reserveCapacity(pixels.count + height * 8)
        func appendRow(y: Int, x0: Int, dx: Int) {
            raw.append(0)  // filter type None
            for x in stride(from: x0, to: width, by: dx) {
                let i = (y * width + x) * channels
                raw.append(contentsOf: pixels[i..<i + channels])
            }
        }
        if interlaced {
            for pass in adam7 where pass.x < width && pass.y < height {
                for y in stride(from: pass.y, to: height, by: pass.dy) { appendRow(y: y, x0: pass.x, dx: pass.dx) }
            }
        } else {
            for y in 0..<height { appendRow(y: y, x0: 0, dx: 1) }
        }
        var file = signature
        file += chunk("IHDR", ihdr(width: UInt32(width), height: UInt32(height), bitDepth: 8, colorType: colorType,
                                   interlaced: interlaced))
        for extra in chunksBeforeIDAT { file += chunk(extra.type, extra.data) }
        let compressed = zlibStored(raw)
        var start = 0
        repeat {  // several IDAT chunks, as real encoders write them
            let end = min(start + 65_536, compressed.count)
            file += chunk("IDAT", Array(compressed[start..<end]))
            start = end
        } while start < compressed.count
        file += chunk("IEND", [])
        return file
    }

    package static func ihdr(width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8, interlaced: Bool) -> [UInt8] {
        bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0]
    }

    /// length, type, data, CRC over type and data.
    package static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(Checksums.crc32(typeAndData))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    package static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, raw.count)
            let length = UInt16(end - start)
            out.append(end == raw.count ? 1 : 0)  // BFINAL, BTYPE 00
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += raw[start..<end]
            start = end
        } while start < raw.count
        return out + bigEndian(Checksums.adler32(raw))
    }

    package static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// Every chunk of a PNG, in file order, as its header says (the last may claim more bytes than remain).
    package static func chunks(of file: [UInt8]) -> [PNGChunk] {
        var result: [PNGChunk] = []
        var offset = 8
        while offset + 8 <= file.count {
            let length = file[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: file[offset + 4..<offset + 8], as: UTF8.self)
            result.append(PNGChunk(type: type, offset: offset, length: length))
            offset += 12 + length
        }
        return result
    }
}

/// Where one chunk sits in a PNG file.
package struct PNGChunk {
    package var type: String
    /// Offset of the length field.
    package var offset: Int
    /// The data length the chunk declares.
    package var length: Int
    /// The first byte after the chunk's CRC.
    package var end: Int { offset + 12 + length }
}
