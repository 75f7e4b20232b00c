import CJXL
import ImageCodec

/// What a JPEG XL file holds besides its codestream: a bare codestream (`FF 0A`) holds nothing else; the
/// ISO-BMFF container (ISO/IEC 18181-2) is walked box header by box header through the source, reading only
/// the metadata boxes (`Exif`, `xml `) and never the codestream (`jxlc`, `jxlp`), so a probe costs a few reads.
///
/// Why not libjxl's own box events: libjxl reports the boxes after the codestream (where cjxl may put the EXIF)
/// only once it has been fed every byte of the codestream before them, a whole-file read for a probe.
struct JXLContainer {
    /// The EXIF box's TIFF structure (its first four bytes, the offset of the TIFF header, followed).
    var exif: [UInt8]?
    var xmp: [UInt8]?
    /// True when a `jbrd` box says the codestream is a JPEG recompressed without loss.
    var recompressedJPEG = false
    var notes: [String] = []

    /// Metadata boxes larger than these are left out (with a note): real ones are kilobytes.
    static let exifLimit = 4 << 20
    static let xmpLimit = 1 << 20
    /// A walk stops after this many boxes: a box header costs one read, and a real file has a handful.
    static let boxLimit = 10_000

    /// The signature box: size 12, type `JXL `, then `0D 0A 87 0A`.
    static let signatureBox: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
    /// A bare codestream starts with this.
    static let codestreamSignature: [UInt8] = [0xFF, 0x0A]

    static func isContainer(_ prefix: [UInt8]) -> Bool { prefix.starts(with: signatureBox) }
    static func isCodestream(_ prefix: [UInt8]) -> Bool { prefix.starts(with: codestreamSignature) }

    /// Walks the boxes of the container in `source` (nothing for a bare codestream). Throws only for a box
    /// list broken before any codestream box; metadata that cannot be read is a note.
    static func read(_ source: any ByteSource) throws(CodecError) -> JXLContainer {
        var container = JXLContainer()
        let head = try source.read(from: 0, count: signatureBox.count)
        guard isContainer(head) else { return container }
        var position = signatureBox.count
        var boxes = 0
        var sawCodestream = false
        while position + 8 <= source.count {
            boxes += 1
            if boxes > boxLimit {
                container.notes.append("more than \(boxLimit) boxes: the rest were not read")
                break
            }
            let header = try source.read(from: position, count: 16)
            guard header.count >= 8 else { break }
            var size = Int(bigEndian32(header, at: 0))
            let type = String(decoding: header[4..<8], as: UTF8.self)
            var headerSize = 8
            if size == 1 {
                guard header.count == 16 else { throw .corrupt("corrupt JPEG XL (truncated file)") }
                let large = bigEndian64(header, at: 8)
                guard large <= UInt64(Int.max) else { throw .corrupt("corrupt JPEG XL (a box of impossible size)") }
                size = Int(large)
                headerSize = 16
            } else if size == 0 {
                size = source.count - position  // the last box runs to the end of the file
            }
            guard size >= headerSize else {
                if sawCodestream {
                    container.notes.append("a box after the image is damaged: the rest were not read")
                    break
                }
                throw .corrupt("corrupt JPEG XL (a box of impossible size)")
            }
            let payload = position + headerSize
            let payloadSize = size - headerSize
            if size > source.count - position {
                // The codestream box may be cut (libjxl then says the file is truncated); metadata is skipped.
                if !sawCodestream && type != "jxlc" && type != "jxlp" {
                    throw .corrupt("corrupt JPEG XL (truncated file)")
                }
                if type != "jxlc" && type != "jxlp" { container.notes.append("the \(type) box is cut short") }
                break
            }
            switch type {
            case "jxlc", "jxlp":
                sawCodestream = true
            case "jbrd":
                container.recompressedJPEG = true
            case "Exif" where container.exif == nil:
                if let box = try source.metadata(from: payload, count: payloadSize, limit: exifLimit, "its Exif box",
                                                 notes: &container.notes) {
                    container.exif = tiffStructure(box, &container.notes)
                }
            case "xml " where container.xmp == nil:
                container.xmp = try source.metadata(from: payload, count: payloadSize, limit: xmpLimit, "its xml box",
                                                    notes: &container.notes)
            case "brob":
                // A Brotli-compressed box: its real type follows the header. cjxl writes a JPEG's EXIF so.
                let inner = String(decoding: try source.read(from: payload, count: 4), as: UTF8.self)
                let wanted = inner == "Exif" ? container.exif == nil : (inner == "xml " ? container.xmp == nil : false)
                guard wanted else { break }
                let limit = inner == "Exif" ? exifLimit : xmpLimit
                guard payloadSize <= limit,
                      let inflated = decompress(try source.read(from: payload, count: payloadSize), limit: limit) else {
                    container.notes.append("its Brotli-compressed \(inner) box cannot be read")
                    break
                }
                if inner == "Exif" {
                    container.exif = tiffStructure(inflated, &container.notes)
                } else {
                    container.xmp = inflated
                }
            default:
                break
            }
            position += size
        }
        return container
    }

    /// The contents of a `brob` box (`payload`: the real type, then Brotli data), inflated by libjxl, at most
    /// `limit` bytes; nil when it cannot be.
    ///
    /// libjxl inflates boxes only as it walks a container (`JxlDecoderSetDecompressBoxes`), so it is given one
    /// of its own: the signature and `ftyp` boxes, then this box alone.
    static func decompress(_ payload: [UInt8], limit: Int) -> [UInt8]? {
        guard let decoder = JxlDecoderCreate(nil) else { return nil }
        defer { JxlDecoderDestroy(decoder) }
        let ftyp: [UInt8] = [0, 0, 0, 0x14] + Array("ftypjxl ".utf8) + [0, 0, 0, 0] + Array("jxl ".utf8)
        let size = UInt32(8 + payload.count)
        let box: [UInt8] = [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array("brob".utf8) + payload
        let input = signatureBox + ftyp + box
        guard JxlDecoderSubscribeEvents(decoder, Int32(JXL_DEC_BOX.rawValue)) == JXL_DEC_SUCCESS,
              JxlDecoderSetDecompressBoxes(decoder, 1) == JXL_DEC_SUCCESS else { return nil }
        // Not a Swift array: libjxl keeps the pointer between calls, until JxlDecoderReleaseBoxBuffer.
        var capacity = min(limit, max(4096, payload.count * 8))
        var output = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { output.deallocate() }
        var inBox = false
        return input.withUnsafeBufferPointer { bytes -> [UInt8]? in
            // Trap: not JxlDecoderCloseInput: libjxl 0.7 would print "decode.cc:2143: missing input" after the box.
            guard JxlDecoderSetInput(decoder, bytes.baseAddress, bytes.count) == JXL_DEC_SUCCESS else { return nil }
            while true {
                let status = JxlDecoderProcessInput(decoder)
                if inBox && status != JXL_DEC_BOX_NEED_MORE_OUTPUT {
                    // The box is over (libjxl wants the next box, after the input's end): what libjxl did not fill
                    // is given back.
                    let written = capacity - JxlDecoderReleaseBoxBuffer(decoder)
                    return Array(UnsafeBufferPointer(start: output, count: written))
                }
                switch status {
                case JXL_DEC_BOX:
                    // The signature and ftyp boxes are reported too: only the brob box is read.
                    var type: JxlBoxType = (0, 0, 0, 0)
                    guard JxlDecoderGetBoxType(decoder, &type, 0) == JXL_DEC_SUCCESS else { return nil }
                    guard [UInt8(bitPattern: type.0), UInt8(bitPattern: type.1), UInt8(bitPattern: type.2),
                           UInt8(bitPattern: type.3)] == Array("brob".utf8) else { continue }
                    inBox = true
                    guard JxlDecoderSetBoxBuffer(decoder, output, capacity) == JXL_DEC_SUCCESS else { return nil }
                case JXL_DEC_BOX_NEED_MORE_OUTPUT:
                    let written = capacity - JxlDecoderReleaseBoxBuffer(decoder)
                    guard capacity < limit else { return nil }
                    let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: min(limit, capacity * 2))
                    bigger.update(from: output, count: written)
                    output.deallocate()
                    output = bigger
                    capacity = min(limit, capacity * 2)
                    guard JxlDecoderSetBoxBuffer(decoder, output + written, capacity - written) == JXL_DEC_SUCCESS else {
                        return nil
                    }
                default:
                    return nil
                }
            }
        }
    }

    /// The TIFF structure of an `Exif` box: a big-endian offset, then that many bytes, then the TIFF header.
    static func tiffStructure(_ box: [UInt8], _ notes: inout [String]) -> [UInt8]? {
        guard box.count >= 4 else {
            notes.append("its Exif box is too short and was ignored")
            return nil
        }
        let offset = Int(bigEndian32(box, at: 0))
        guard offset <= box.count - 4 - 8 else {
            notes.append("its Exif box points past its end and was ignored")
            return nil
        }
        let tiff = Array(box[(4 + offset)...])
        let little: [UInt8] = [0x49, 0x49, 0x2A, 0x00], big: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]
        guard tiff.starts(with: little) || tiff.starts(with: big) else {
            notes.append("its Exif box is not a TIFF structure and was ignored")
            return nil
        }
        return tiff
    }

    static func bigEndian32(_ bytes: [UInt8], at i: Int) -> UInt32 {
        UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
    }

    static func bigEndian64(_ bytes: [UInt8], at i: Int) -> UInt64 {
        UInt64(bigEndian32(bytes, at: i)) << 32 | UInt64(bigEndian32(bytes, at: i + 4))
    }
}
