/// Byte order of a TIFF structure.
package enum ByteOrder: String, CaseIterable, Sendable {
    case bigEndian = "MM"
    case littleEndian = "II"
}

/// A directory entry as a test wants to write it.
package enum FieldValue: Sendable {
    /// SHORT, count 1, value in the entry.
    case short(UInt16)
    /// LONG, count 1, value in the entry.
    case long(UInt32)
    /// ASCII with its terminating NUL; in the entry when it fits in 4 bytes, else in the data area.
    case ascii(String)
    /// Exactly these type, count and 4-byte value/offset field (written as a 32-bit number in the byte order).
    case raw(type: UInt16, count: UInt32, field: UInt32)
    /// These bytes as they are (no NUL added), with this type; in the entry when they fit in 4 bytes.
    case bytes(type: UInt16, [UInt8])
}

package typealias Directory = [(tag: UInt16, value: FieldValue)]

/// A hand-built TIFF block: header, IFD0, optional IFD1 and Exif sub-IFD, then a data area.
package struct TIFFBlock {
    package var bytes: [UInt8]
    package let ifd0Offset: Int
    package let ifd1Offset: Int?
    package let exifOffset: Int?
}

/// Writes 16- and 32-bit numbers in one byte order, for TIFF structures laid out by hand, hostile ones included.
package struct TIFFWriter {
    package let order: ByteOrder
    package var bytes: [UInt8] = []

    package init(order: ByteOrder) { self.order = order }

    /// A writer that has written the 4-byte TIFF header ("II" or "MM", then 42); the first IFD offset is next.
    package static func afterHeader(_ order: ByteOrder) -> TIFFWriter {
        var writer = TIFFWriter(order: order)
        writer.bytes = Array(order.rawValue.utf8)
        writer.u16(42)
        return writer
    }

    package mutating func u16(_ value: UInt16) {
        let high = UInt8(value >> 8), low = UInt8(value & 0xFF)
        bytes += order == .bigEndian ? [high, low] : [low, high]
    }

    package mutating func u32(_ value: UInt32) {
        let be = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        bytes += order == .bigEndian ? be : be.reversed()
    }

    /// One directory entry: tag, type, count, value-or-offset.
    package mutating func entry(_ tag: UInt16, type: UInt16, count: UInt32, value: UInt32) {
        u16(tag); u16(type); u32(count); u32(value)
    }
}

/// Lays out a TIFF block. `exif` adds an Exif sub-IFD and its 0x8769 pointer at the end of IFD0.
/// The `...Next` arguments override the next-IFD links (default: IFD0 -> IFD1 -> end, Exif -> end).
package func makeTIFF(_ order: ByteOrder, ifd0: Directory, ifd1: Directory? = nil, exif: Directory? = nil,
                      ifd0Next: UInt32? = nil, ifd1Next: UInt32? = nil, exifNext: UInt32? = nil,
                      firstIFDOffset: UInt32? = nil, exifPrefix: Bool = false) -> TIFFBlock {
    func size(_ directory: Directory) -> Int { 2 + 12 * directory.count + 4 }
    var ifd0 = ifd0
    let ifd0Offset = 8
    var cursor = ifd0Offset + size(ifd0) + (exif == nil ? 0 : 12)
    var ifd1Offset: Int?
    if let ifd1 { ifd1Offset = cursor; cursor += size(ifd1) }
    var exifOffset: Int?
    if let exif { exifOffset = cursor; cursor += size(exif) }
    if let exifOffset { ifd0.append((0x8769, .long(UInt32(exifOffset)))) }
    let dataStart = cursor
    var dataArea: [UInt8] = []

    var writer = TIFFWriter.afterHeader(order)
    writer.u32(firstIFDOffset ?? UInt32(ifd0Offset))

    func write(_ directory: Directory, next: UInt32) {
        writer.u16(UInt16(directory.count))
        for (tag, value) in directory {
            writer.u16(tag)
            switch value {
            case .short(let number):
                writer.u16(3); writer.u32(1); writer.u16(number); writer.u16(0)
            case .long(let number):
                writer.u16(4); writer.u32(1); writer.u32(number)
            case .ascii, .bytes:
                let (type, characters): (UInt16, [UInt8])
                switch value {
                case .bytes(let given, let bytes): (type, characters) = (given, bytes)
                case .ascii(let text): (type, characters) = (2, Array(text.utf8) + [0])
                default: preconditionFailure()
                }
                writer.u16(type); writer.u32(UInt32(characters.count))
                if characters.count <= 4 {
                    writer.bytes += characters + [UInt8](repeating: 0, count: 4 - characters.count)
                } else {
                    writer.u32(UInt32(dataStart + dataArea.count))
                    dataArea += characters
                }
            case .raw(let type, let count, let field):
                writer.u16(type); writer.u32(count); writer.u32(field)
            }
        }
        writer.u32(next)
    }
    write(ifd0, next: ifd0Next ?? ifd1Offset.map(UInt32.init) ?? 0)
    if let ifd1 { write(ifd1, next: ifd1Next ?? 0) }
    if let exif { write(exif, next: exifNext ?? 0) }
    precondition(writer.bytes.count == dataStart)
    let prefix: [UInt8] = exifPrefix ? Array("Exif".utf8) + [0, 0] : []
    return TIFFBlock(bytes: prefix + writer.bytes + dataArea, ifd0Offset: ifd0Offset, ifd1Offset: ifd1Offset,
                     exifOffset: exifOffset)
}
