// Metadata written into real photo bytes, for the engine's and the command line's tests.

/// The metadata a test wants a photo to carry, and the EXIF, XMP and file bytes that carry it.
package struct PhotoMetadata {
    package var date: String?
    package var subSeconds: String?
    package var offset: String?
    package var imageDescription: [UInt8]?
    package var xmpDescription: String?

    package init(date: String? = nil, subSeconds: String? = nil, offset: String? = nil,
                 imageDescription: [UInt8]? = nil, xmpDescription: String? = nil) {
        self.date = date
        self.subSeconds = subSeconds
        self.offset = offset
        self.imageDescription = imageDescription
        self.xmpDescription = xmpDescription
    }

    /// A big-endian TIFF structure: IFD0 with ImageDescription and the Exif pointer, then the Exif sub-IFD with
    /// DateTimeOriginal (0x9003), OffsetTimeOriginal (0x9011) and SubSecTimeOriginal (0x9291); every value
    /// in a data area after the directories, NUL-terminated (as cameras write them).
    package var tiff: [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let ifd0Values: [(UInt16, [UInt8])] = imageDescription.map { [(0x010E, $0 + [0])] } ?? []
        let exifValues: [(UInt16, [UInt8])] = [(0x9003, date), (0x9011, offset), (0x9291, subSeconds)]
            .compactMap { tag, text in text.map { (UInt16(tag), Array($0.utf8) + [0]) } }
        let ifd0Size = 2 + 12 * (ifd0Values.count + 1) + 4, exifSize = 2 + 12 * exifValues.count + 4
        let exifAt = 8 + ifd0Size
        var data: [UInt8] = []
        let dataAt = exifAt + exifSize
        func directory(_ values: [(UInt16, [UInt8])], extra: [UInt8]) -> [UInt8] {
            var out = u16(values.count + extra.count / 12)
            for (tag, bytes) in values {
                out += u16(Int(tag)) + u16(2) + u32(bytes.count)
                if bytes.count <= 4 {  // a value of 4 bytes or fewer lives in the entry itself
                    out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
                } else {
                    out += u32(dataAt + data.count)
                    data += bytes
                }
            }
            return out + extra + u32(0)
        }
        let ifd0 = directory(ifd0Values, extra: u16(0x8769) + u16(4) + u32(1) + u32(exifAt))
        let exif = directory(exifValues, extra: [])
        return Array("MM".utf8) + u16(42) + u32(8) + ifd0 + exif + data
    }

    /// An XMP packet with `xmpDescription` as the x-default dc:description.
    package var xmp: [UInt8]? {
        xmpDescription.map { text in
            Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description><rdf:Alt>\
            <rdf:li xml:lang="x-default">\(text)</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF>\
            </x:xmpmeta>
            """.utf8)
        }
    }

    /// `jpeg` with an APP1 EXIF segment and, when there is a description for it, an APP1 XMP segment after SOI.
    package func inserted(intoJPEG jpeg: [UInt8]) -> [UInt8] {
        func segment(_ payload: [UInt8]) -> [UInt8] {
            [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        var segments = segment(Array("Exif".utf8) + [0, 0] + tiff)
        if let xmp { segments += segment(Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + xmp) }
        return Array(jpeg.prefix(2)) + segments + jpeg.dropFirst(2)
    }

    /// `png` with an eXIf chunk and, when there is a description for it, an iTXt XMP chunk after IHDR.
    package func inserted(intoPNG png: [UInt8]) -> [UInt8] {
        var chunks = Self.chunk("eXIf", tiff)
        if let xmp { chunks += Self.chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + xmp) }
        let afterIHDR = 8 + 12 + 13
        return Array(png.prefix(afterIHDR)) + chunks + png.dropFirst(afterIHDR)
    }

    /// A PNG of one colour (8-bit RGB), its image data in stored (uncompressed) deflate blocks.
    package static func solidPNG(width: Int, height: Int, rgb: (UInt8, UInt8, UInt8)) -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        var row: [UInt8] = [0]  // filter type 0, then the pixels
        for _ in 0..<width { row += [rgb.0, rgb.1, rgb.2] }
        var raw: [UInt8] = []
        for _ in 0..<height { raw += row }
        var zlib: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(raw.count, start + 65_535)
            let length = end - start
            let header: [UInt8] = [end == raw.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8),
                                   UInt8(~length & 0xFF), UInt8(~length >> 8 & 0xFF)]
            zlib += header
            zlib += raw[start..<end]
            start = end
        } while start < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        zlib += be32(Int(b << 16 | a))
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
        return signature + header + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    package static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        let length = UInt32(data.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + body + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }
}
