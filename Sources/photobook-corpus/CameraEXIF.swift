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
