/// The EXIF block a camera puts in every photo, reduced to what photobook reads: a little-endian TIFF header and
/// an IFD0 holding Make, Model and Orientation (tag 0x0112).
enum CameraEXIF {
    /// `jpeg` with an APP1 `Exif` segment inserted after its JFIF APP0 segment (or right after SOI without one).
    static func inserting(orientation: Int, into jpeg: [UInt8]) -> [UInt8] {
        precondition(jpeg.count > 4 && jpeg[0] == 0xFF && jpeg[1] == 0xD8, "not a JPEG")
        var insertAt = 2
        if jpeg[2] == 0xFF && jpeg[3] == 0xE0 {
            insertAt = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        }
        let payload = Array("Exif\0\0".utf8) + tiff(orientation: orientation)
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[..<insertAt]) + segment + Array(jpeg[insertAt...])
    }

    /// The same TIFF structure, for a PNG `eXIf` chunk.
    static func tiff(orientation: Int) -> [UInt8] {
        let make = Array("photobook\0".utf8), model = Array("corpus camera\0".utf8)
        let entryCount = 3
        let ifdSize = 2 + entryCount * 12 + 4
        let makeOffset = 8 + ifdSize, modelOffset = makeOffset + make.count
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00]
        append32(8, to: &bytes)
        append16(UInt16(entryCount), to: &bytes)
        // Entries in ascending tag order, as TIFF requires: Make (ASCII), Model (ASCII), Orientation (SHORT).
        entry(tag: 0x010F, type: 2, count: make.count, value: UInt32(makeOffset), to: &bytes)
        entry(tag: 0x0110, type: 2, count: model.count, value: UInt32(modelOffset), to: &bytes)
        entry(tag: 0x0112, type: 3, count: 1, value: UInt32(orientation), to: &bytes)
        append32(0, to: &bytes)
        return bytes + make + model
    }

    private static func entry(tag: UInt16, type: UInt16, count: Int, value: UInt32, to bytes: inout [UInt8]) {
        append16(tag, to: &bytes)
        append16(type, to: &bytes)
        append32(UInt32(count), to: &bytes)
        append32(value, to: &bytes)  // a SHORT sits in the first two bytes, little-endian, so this holds it too
    }

    private static func append16(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes += [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}

/// The EXIF a phone writes, for the trip folder (`--trip`): IFD0 with Make, Model, Orientation and DateTime, and the
/// Exif sub-IFD with DateTimeOriginal, OffsetTimeOriginal and SubSecTimeOriginal: what photobook reads to order a
/// trip, group its bursts and split it into events. (`CameraEXIF` stays as it is: the bench's corpus is cached by
/// its bytes.)
struct PhoneEXIF {
    /// The phone, written as Make and Model.
    var camera: TripShot.Camera
    var orientation: Int
    /// Local wall-clock time "YYYY:MM:DD HH:MM:SS".
    var dateTime: String
    /// Milliseconds, written as three digits ("047").
    var milliseconds: Int
    /// "+02:00".
    var offset: String

    /// `jpeg` with this EXIF (and `xmp`, an XMP packet, when given) inserted after its JFIF APP0 segment.
    func inserting(into jpeg: [UInt8], xmp: String? = nil) -> [UInt8] {
        precondition(jpeg.count > 4 && jpeg[0] == 0xFF && jpeg[1] == 0xD8, "not a JPEG")
        var insertAt = 2
        if jpeg[2] == 0xFF && jpeg[3] == 0xE0 {
            insertAt = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        }
        var segments = Self.segment(marker: 0xE1, Array("Exif\0\0".utf8) + tiff())
        if let xmp {
            segments += Self.segment(marker: 0xE1, Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8))
        }
        return Array(jpeg[..<insertAt]) + segments + Array(jpeg[insertAt...])
    }

    private static func segment(marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        precondition(length <= 0xFFFF, "APP segment too long")
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// A little-endian TIFF structure: IFD0, then the Exif IFD, each followed by the values too long for an entry.
    func tiff() -> [UInt8] {
        let millis = String(milliseconds + 1000).dropFirst()  // three digits
        let ifd0: [Entry] = [.ascii(0x010F, camera.make), .ascii(0x0110, camera.model),
                             .short(0x0112, orientation), .ascii(0x0132, dateTime), .long(0x8769, 0)]
        let exif: [Entry] = [.ascii(0x9003, dateTime), .ascii(0x9011, offset), .ascii(0x9291, String(millis))]
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]
        let exifOffset = 8 + Self.size(of: ifd0)
        Self.append(ifd0.map { if case .long(0x8769, _) = $0 { return .long(0x8769, exifOffset) } else { return $0 } },
                    at: 8, to: &bytes)
        Self.append(exif, at: exifOffset, to: &bytes)
        return bytes
    }

    enum Entry {
        case ascii(UInt16, String)
        case short(UInt16, Int)
        case long(UInt16, Int)

        var tag: UInt16 {
            switch self { case .ascii(let t, _), .short(let t, _), .long(let t, _): return t }
        }
        /// The value's bytes when they do not fit the entry's four.
        var outOfLine: [UInt8] {
            if case .ascii(_, let text) = self {
                let bytes = Array(text.utf8) + [0]
                return bytes.count > 4 ? bytes + (bytes.count % 2 == 1 ? [0] : []) : []
            }
            return []
        }
    }

    private static func size(of entries: [Entry]) -> Int {
        2 + entries.count * 12 + 4 + entries.reduce(0) { $0 + $1.outOfLine.count }
    }

    /// Appends the IFD (entries in ascending tag order, as TIFF requires) starting at `offset` == `bytes.count`.
    private static func append(_ entries: [Entry], at offset: Int, to bytes: inout [UInt8]) {
        precondition(bytes.count == offset)
        var data = offset + 2 + entries.count * 12 + 4
        var tail: [UInt8] = []
        append16(entries.count, to: &bytes)
        for entry in entries.sorted(by: { $0.tag < $1.tag }) {
            append16(Int(entry.tag), to: &bytes)
            switch entry {
            case .ascii(_, let text):
                let value = Array(text.utf8) + [0]
                append16(2, to: &bytes)
                append32(value.count, to: &bytes)
                if value.count <= 4 {
                    bytes += value + [UInt8](repeating: 0, count: 4 - value.count)
                } else {
                    append32(data, to: &bytes)
                    tail += entry.outOfLine
                    data += entry.outOfLine.count
                }
            case .short(_, let value):
                append16(3, to: &bytes); append32(1, to: &bytes); append16(value, to: &bytes); append16(0, to: &bytes)
            case .long(_, let value):
                append16(4, to: &bytes); append32(1, to: &bytes); append32(value, to: &bytes)
            }
        }
        append32(0, to: &bytes)
        bytes += tail
    }

    private static func append16(_ value: Int, to bytes: inout [UInt8]) {
        bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }

    private static func append32(_ value: Int, to bytes: inout [UInt8]) {
        bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
    }
}
