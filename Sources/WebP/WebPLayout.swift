import ImageCodec

/// Where things are in a WebP file: its RIFF chunk list walked through the source, chunk header by chunk header,
/// without reading any image data. It finds the still image's chunks (or the first animation frame's), counts the
/// frames, and reads the metadata chunks (ICCP, EXIF, XMP) wherever they are.
///
/// Why not libwebpdemux: `WebPDemux` needs every byte up to the chunks it reports, and a WebP's EXIF and XMP come
/// after the image data (the container spec puts them last), so it would read the whole file for a probe. The
/// walk here reads a few hundred bytes; libwebp still parses and checks every header it decodes.
struct WebPLayout {
    /// The end of the RIFF payload (the file may go on: libwebp ignores bytes after it, and so do we).
    var riffEnd: Int
    /// The VP8X chunk's flags and canvas size, when the file is in the extended format.
    var extended: (flags: UInt8, canvasWidth: Int, canvasHeight: Int)?
    /// A still image's bytes as libwebp decodes them: from the RIFF header up to the end of its VP8/VP8L chunk
    /// (so the VP8X, ICCP and ALPH chunks before it come along, and the metadata after it does not).
    var still: Range<Int>?
    /// The first VP8/VP8L chunk's name and payload size (of the still image, or inside the first frame).
    var bitstream: (lossless: Bool, payloadSize: Int)?
    /// Every ANMF chunk counted, and the first one's placement and payload.
    var frameCount = 0
    var firstFrame: Frame?
    var iccProfile: [UInt8]?
    var iccNote: String?
    var exif: [UInt8]?
    var xmp: [UInt8]?
    var notes: [String] = []

    /// One ANMF chunk: where the frame goes on the canvas, and its ALPH/VP8/VP8L chunks.
    struct Frame {
        var x: Int, y: Int, width: Int, height: Int
        var data: Range<Int>
    }

    /// Metadata chunks larger than these are left out (with a note): real ones are kilobytes, a printer
    /// profile about a megabyte.
    static let iccLimit = 4 << 20
    static let exifLimit = 4 << 20
    static let xmpLimit = 1 << 20
    /// A walk stops after this many chunks: a chunk header costs one read, and a real file has a handful of
    /// chunks (an animation one per frame).
    static let chunkLimit = 20_000

    static let riff = Array("RIFF".utf8), webp = Array("WEBP".utf8)

    /// True when `prefix` starts `RIFF....WEBP`.
    static func isWebP(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 12 && prefix[0..<4].elementsEqual(riff) && prefix[8..<12].elementsEqual(webp)
    }

    /// Walks the chunk list of the file in `source`. Throws for a file that is not a WebP, is cut short, or
    /// whose chunk list is broken before its image.
    static func read(_ source: any ByteSource) throws(CodecError) -> WebPLayout {
        let header = try source.read(from: 0, count: 12)
        guard isWebP(header) else {
            let cutInSignature = header.count < 12 && header.count >= 4 && header.starts(with: riff)
                && header.count > 8 && header[8...].elementsEqual(webp.prefix(header.count - 8))
            throw cutInSignature ? .corrupt("corrupt WebP (truncated file)") : .unsupported("not a WebP file")
        }
        let riffSize = Int(littleEndian32(header, at: 4))
        // libwebp refuses a RIFF too small for one chunk header after "WEBP" (webp_dec.c, ParseRIFF).
        guard riffSize >= 12 else { throw .corrupt("corrupt WebP (its RIFF header is damaged)") }
        let riffEnd = 8 + riffSize
        guard riffEnd <= source.count else { throw .corrupt("corrupt WebP (truncated file)") }
        var layout = WebPLayout(riffEnd: riffEnd)

        var position = 12
        var chunks = 0
        while position + 8 <= riffEnd {
            chunks += 1
            if chunks > chunkLimit {
                layout.notes.append("more than \(chunkLimit) chunks: the rest were not read")
                break
            }
            let chunkHeader = try source.read(from: position, count: 8)
            guard chunkHeader.count == 8 else { throw .corrupt("corrupt WebP (truncated file)") }
            let name = String(decoding: chunkHeader[0..<4], as: UTF8.self)
            let size = Int(littleEndian32(chunkHeader, at: 4))
            let payload = position + 8
            guard size <= riffEnd - payload else {
                // The RIFF size was checked against the file: a chunk past it is damage, not a cut.
                if layout.still == nil && layout.firstFrame == nil {
                    throw .corrupt("corrupt WebP (a chunk runs past the end of the file)")
                }
                layout.notes.append("a chunk after the image runs past the end of the file")
                break
            }
            switch name {
            case "VP8X":
                guard position == 12, size >= 10 else { throw .corrupt("corrupt WebP (damaged VP8X chunk)") }
                let bytes = try source.read(from: payload, count: 10)
                layout.extended = (bytes[0], 1 + Int(littleEndian24(bytes, at: 4)), 1 + Int(littleEndian24(bytes, at: 7)))
            case "ICCP" where layout.iccProfile == nil && layout.iccNote == nil:
                if size > iccLimit {
                    layout.iccNote = "its ICC profile is larger than \(iccLimit >> 20) MB"
                } else {
                    layout.iccProfile = try source.read(from: payload, count: size)
                }
            case "EXIF" where layout.exif == nil:
                layout.exif = try source.metadata(from: payload, count: size, limit: exifLimit, "its EXIF chunk",
                                                  notes: &layout.notes)
            case "XMP " where layout.xmp == nil:
                layout.xmp = try source.metadata(from: payload, count: size, limit: xmpLimit, "its XMP chunk",
                                                 notes: &layout.notes)
            case "ANMF":
                layout.frameCount += 1
                guard layout.firstFrame == nil else { break }
                guard size >= 16 + 8 else { throw .corrupt("corrupt WebP (damaged animation frame)") }
                let bytes = try source.read(from: payload, count: 16)
                layout.firstFrame = Frame(x: 2 * Int(littleEndian24(bytes, at: 0)),
                                          y: 2 * Int(littleEndian24(bytes, at: 3)),
                                          width: 1 + Int(littleEndian24(bytes, at: 6)),
                                          height: 1 + Int(littleEndian24(bytes, at: 9)),
                                          data: (payload + 16)..<(payload + size))
            case "VP8 ", "VP8L":
                guard layout.still == nil, layout.firstFrame == nil else { break }
                layout.still = 0..<(payload + size)
                layout.bitstream = (name == "VP8L", size)
            default:
                break
            }
            // Chunks are padded to an even size; the pad byte is not counted in the size.
            position = payload + size + (size & 1)
        }
        return layout
    }

    /// The ALPH/VP8/VP8L chunks of a frame's payload (in memory): the image chunk's kind and payload size.
    static func bitstream(inFrame bytes: [UInt8]) -> (lossless: Bool, payloadSize: Int)? {
        var position = 0
        while position + 8 <= bytes.count {
            let name = String(decoding: bytes[position..<(position + 4)], as: UTF8.self)
            let size = Int(littleEndian32(bytes, at: position + 4))
            if name == "VP8 " || name == "VP8L" { return (name == "VP8L", min(size, bytes.count - position - 8)) }
            guard size <= bytes.count - position - 8 else { return nil }
            position += 8 + size + (size & 1)
        }
        return nil
    }

    /// The EXIF chunk as a TIFF structure: some writers put JPEG's "Exif\0\0" before it (ExifTool did, and
    /// the spec's early drafts showed it), which is dropped; nil when what is left is not a TIFF header.
    static func tiffStructure(_ exif: [UInt8]) -> [UInt8]? {
        let exifPrefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        let tiff = exif.starts(with: exifPrefix) ? Array(exif.dropFirst(exifPrefix.count)) : exif
        let little: [UInt8] = [0x49, 0x49, 0x2A, 0x00], big: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]
        guard tiff.starts(with: little) || tiff.starts(with: big) else { return nil }
        return tiff
    }

    static func littleEndian32(_ bytes: [UInt8], at i: Int) -> UInt32 {
        UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
    }

    static func littleEndian24(_ bytes: [UInt8], at i: Int) -> UInt32 {
        UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16
    }
}
