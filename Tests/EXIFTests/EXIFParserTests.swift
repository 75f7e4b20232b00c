import Foundation
import Testing
import EXIF
import TestSupport

private let orientationTag: UInt16 = 0x0112
private let dateTag: UInt16 = 0x9003
private let exifPointerTag: UInt16 = 0x8769
private let date = "2021:06:13 17:45:09"

/// An IFD0 carrying only an orientation.
private func oriented(_ order: ByteOrder, _ value: FieldValue) -> [UInt8] {
    makeTIFF(order, ifd0: [(orientationTag, value)]).bytes
}

@Suite("EXIF orientation")
struct EXIFOrientationTests {
    @Test("every valid value is read in both byte orders", arguments: ByteOrder.allCases, 1...8)
    func validValues(order: ByteOrder, value: Int) {
        #expect(EXIFParser.parse(oriented(order, .short(UInt16(value)))).orientation == value)
    }

    @Test("values outside 1-8 mean 1", arguments: ByteOrder.allCases, [0, 9, 255, 256, 0x0600, 65535] as [UInt16])
    func invalidValues(order: ByteOrder, value: UInt16) {
        #expect(EXIFParser.parse(oriented(order, .short(value))).orientation == 1)
    }

    @Test("a LONG orientation is accepted; other types and empty counts are not", arguments: ByteOrder.allCases)
    func otherTypes(order: ByteOrder) {
        #expect(EXIFParser.parse(oriented(order, .long(6))).orientation == 6)
        #expect(EXIFParser.parse(oriented(order, .long(0x0001_0006))).orientation == 1)
        #expect(EXIFParser.parse(oriented(order, .ascii("6"))).orientation == 1)
        #expect(EXIFParser.parse(oriented(order, .raw(type: 1, count: 1, field: 0x0606_0606))).orientation == 1)
        #expect(EXIFParser.parse(oriented(order, .raw(type: 3, count: 0, field: 0x0006_0006))).orientation == 1)
        #expect(EXIFParser.parse(oriented(order, .raw(type: 99, count: 1, field: 0x0006_0006))).orientation == 1)
    }

    @Test("an orientation only in IFD1 (the thumbnail) does not count", arguments: ByteOrder.allCases)
    func onlyInIFD1(order: ByteOrder) {
        let block = makeTIFF(order, ifd0: [(0x010F, .ascii("Camera"))], ifd1: [(orientationTag, .short(6))])
        #expect(EXIFParser.parse(block.bytes).orientation == 1)
    }

    @Test("IFD0's orientation wins over IFD1's", arguments: ByteOrder.allCases, [(3, 6), (1, 8), (8, 1)])
    func ifd0Wins(order: ByteOrder, values: (ifd0: UInt16, ifd1: UInt16)) {
        let block = makeTIFF(order, ifd0: [(orientationTag, .short(values.ifd0))],
                             ifd1: [(orientationTag, .short(values.ifd1))])
        #expect(EXIFParser.parse(block.bytes).orientation == Int(values.ifd0))
    }

    @Test("the first of two orientation tags in IFD0 counts", arguments: ByteOrder.allCases)
    func repeatedTag(order: ByteOrder) {
        let block = makeTIFF(order, ifd0: [(orientationTag, .short(5)), (orientationTag, .short(7))])
        #expect(EXIFParser.parse(block.bytes).orientation == 5)
    }

    @Test("a leading Exif\\0\\0 is skipped", arguments: ByteOrder.allCases)
    func exifPrefix(order: ByteOrder) {
        let block = makeTIFF(order, ifd0: [(orientationTag, .short(8))], exif: [(dateTag, .ascii(date))],
                             exifPrefix: true)
        #expect(EXIFParser.parse(block.bytes) == EXIFMetadata(orientation: 8, dateTimeOriginal: date))
    }
}

@Suite("EXIF DateTimeOriginal")
struct EXIFDateTests {
    @Test("read from the Exif sub-IFD", arguments: ByteOrder.allCases)
    func readsDate(order: ByteOrder) {
        let block = makeTIFF(order, ifd0: [(orientationTag, .short(3))],
                             exif: [(0x829A, .raw(type: 5, count: 1, field: 0)), (dateTag, .ascii(date))])
        #expect(EXIFParser.parse(block.bytes) == EXIFMetadata(orientation: 3, dateTimeOriginal: date))
    }

    @Test("a date in IFD0 itself is not DateTimeOriginal", arguments: ByteOrder.allCases)
    func dateOutsideExifIFD(order: ByteOrder) {
        let block = makeTIFF(order, ifd0: [(dateTag, .ascii(date))])
        #expect(EXIFParser.parse(block.bytes).dateTimeOriginal == nil)
    }

    @Test("blank, non-ASCII, and mistyped dates are absent", arguments: ByteOrder.allCases)
    func unusableDates(order: ByteOrder) {
        for value: FieldValue in [.ascii("    :  :     :  :  "), .ascii("                   "), .ascii(""),
                                  .ascii("2021:06:13 17:45:\u{e9}"), .short(2021)] {
            let block = makeTIFF(order, ifd0: [], exif: [(dateTag, value)])
            #expect(EXIFParser.parse(block.bytes).dateTimeOriginal == nil, "\(value)")
        }
    }
}

@Suite("EXIF blocks that lie")
struct EXIFMalformedTests {
    @Test("no TIFF header: defaults", arguments: [[], [0x4D, 0x4D, 0, 42], Array("Exif".utf8) + [0, 0],
                                                   [0x4D, 0x49, 0, 42, 0, 0, 0, 8], [0x4D, 0x4D, 0, 43, 0, 0, 0, 8],
                                                   [0x49, 0x49, 0, 42, 8, 0, 0, 0]] as [[UInt8]])
    func noHeader(bytes: [UInt8]) {
        #expect(EXIFParser.parse(bytes) == EXIFMetadata())
    }

    @Test("IFD0 linking to itself", arguments: ByteOrder.allCases)
    func selfLoop(order: ByteOrder) {
        let block = makeTIFF(order, ifd0: [(orientationTag, .short(6))], ifd0Next: 8)
        #expect(EXIFParser.parse(block.bytes).orientation == 6)
    }

    @Test("IFD0 and IFD1 linking to each other", arguments: ByteOrder.allCases)
    func twoCycle(order: ByteOrder) {
        let block = makeTIFF(order, ifd0: [(orientationTag, .short(7))], ifd1: [(orientationTag, .short(2))],
                             ifd1Next: 8)
        #expect(EXIFParser.parse(block.bytes).orientation == 7)
    }

    @Test("an Exif sub-IFD pointer back to IFD0, or a sub-IFD linking to itself", arguments: ByteOrder.allCases)
    func exifLoops(order: ByteOrder) {
        let back = makeTIFF(order, ifd0: [(orientationTag, .short(4)), (exifPointerTag, .long(8))])
        #expect(EXIFParser.parse(back.bytes) == EXIFMetadata(orientation: 4))
        let probe = makeTIFF(order, ifd0: [(orientationTag, .short(4))], exif: [(dateTag, .ascii(date))])
        let selfLinked = makeTIFF(order, ifd0: [(orientationTag, .short(4))], exif: [(dateTag, .ascii(date))],
                                  exifNext: UInt32(probe.exifOffset!))
        #expect(EXIFParser.parse(selfLinked.bytes) == EXIFMetadata(orientation: 4, dateTimeOriginal: date))
    }

    @Test("offsets past the end", arguments: ByteOrder.allCases)
    func offsetsPastTheEnd(order: ByteOrder) {
        for first: UInt32 in [0xFFFF_FFFF, 0xFFFF_FFF0, 0x8000_0000, 1000] {
            let block = makeTIFF(order, ifd0: [(orientationTag, .short(6))], firstIFDOffset: first)
            #expect(EXIFParser.parse(block.bytes) == EXIFMetadata(), "IFD0 at \(first)")
        }
        for pointer: UInt32 in [0xFFFF_FFFF, 0xFFFF_FFFE, 5000] {
            let block = makeTIFF(order, ifd0: [(orientationTag, .short(6)), (exifPointerTag, .long(pointer))])
            #expect(EXIFParser.parse(block.bytes) == EXIFMetadata(orientation: 6), "Exif IFD at \(pointer)")
        }
        for offset: UInt32 in [0xFFFF_FFFF, 0xFFFF_FFF0, 5000] {
            let block = makeTIFF(order, ifd0: [(orientationTag, .short(6))],
                                 exif: [(dateTag, .raw(type: 2, count: 20, field: offset))])
            #expect(EXIFParser.parse(block.bytes) == EXIFMetadata(orientation: 6), "date at \(offset)")
        }
        // A date whose last byte is one past the end.
        var block = makeTIFF(order, ifd0: [], exif: [(dateTag, .ascii(date))]).bytes
        block.removeLast()
        #expect(EXIFParser.parse(block).dateTimeOriginal == nil)
    }

    @Test("counts whose byte size overflows", arguments: ByteOrder.allCases)
    func countOverflow(order: ByteOrder) {
        for (type, count): (UInt16, UInt32) in [(3, 0x8000_0000), (3, 0xFFFF_FFFF), (4, 0x4000_0000),
                                               (4, 0xFFFF_FFFF)] {
            let block = makeTIFF(order, ifd0: [(orientationTag, .raw(type: type, count: count, field: 8))])
            #expect(EXIFParser.parse(block.bytes).orientation == 1, "type \(type) count \(count)")
        }
        for count: UInt32 in [0xFFFF_FFFF, 0xFFFF_FFF8, 0x8000_0000] {
            let block = makeTIFF(order, ifd0: [], exif: [(dateTag, .raw(type: 2, count: count, field: 8))])
            #expect(EXIFParser.parse(block.bytes).dateTimeOriginal == nil, "count \(count)")
        }
    }

    /// TIFF puts values longer than 4 bytes at an offset; a SHORT orientation with count 3 is read from there.
    @Test("a SHORT orientation with count 3 is read at its offset, when in bounds", arguments: ByteOrder.allCases)
    func longShortArray(order: ByteOrder) {
        // Header (8) + IFD0 with one entry (2 + 12 + 4) = 26: the values follow.
        var block = makeTIFF(order, ifd0: [(orientationTag, .raw(type: 3, count: 3, field: 26))]).bytes
        #expect(block.count == 26)
        #expect(EXIFParser.parse(block).orientation == 1)  // values missing
        var values = TIFFWriter(order: order)
        values.u16(8); values.u16(3); values.u16(3)
        block += values.bytes
        #expect(EXIFParser.parse(block).orientation == 8)
        #expect(EXIFParser.parse(Array(block.dropLast())).orientation == 1)
    }

    @Test("an entry count of 65535 with little data: the complete entries are read", arguments: ByteOrder.allCases)
    func hugeEntryCount(order: ByteOrder) {
        var block = makeTIFF(order, ifd0: [(orientationTag, .short(6))]).bytes
        block[8] = 0xFF; block[9] = 0xFF
        #expect(EXIFParser.parse(block).orientation == 6)
        #expect(EXIFParser.parse(Array(block[0..<16])).orientation == 1)
        // Many more claimed entries than bytes, all of them garbage.
        let noise = [UInt8](repeating: 0xA5, count: 65_535)
        #expect(EXIFParser.parse(Array(block[0..<10]) + noise).orientation == 1)
    }

    @Test("every truncation of a valid block reads cleanly", arguments: ByteOrder.allCases, [false, true])
    func truncations(order: ByteOrder, exifPrefix: Bool) {
        let full = makeTIFF(order, ifd0: [(0x010F, .ascii("Camera")), (orientationTag, .short(6))],
                            ifd1: [(orientationTag, .short(3))], exif: [(dateTag, .ascii(date))],
                            exifPrefix: exifPrefix).bytes
        // IFD0's Make is read too: the camera of a shot (Duplicates).
        var expected = EXIFMetadata(orientation: 6, dateTimeOriginal: date)
        expected.make = "Camera"
        #expect(EXIFParser.parse(full) == expected)
        for length in 0..<full.count {
            let result = EXIFParser.parse(Array(full[0..<length]))
            #expect([1, 6].contains(result.orientation), "length \(length)")
            #expect(result.dateTimeOriginal == nil || result.dateTimeOriginal == date, "length \(length)")
        }
    }
}

@Suite("EXIF in real JPEG files")
struct EXIFFixtureTests {
    static let fixtures = URL(fileURLWithPath: Fixtures.path("exif-orientation"))

    @Test("Landscape_N and Portrait_N have orientation N (0 means 1)",
          arguments: ["Landscape", "Portrait"], 0...8)
    func fixture(shape: String, value: Int) throws {
        let url = Self.fixtures.appendingPathComponent("\(shape)_\(value).jpg")
        let bytes = try [UInt8](Data(contentsOf: url))
        let segment = try #require(JPEGStructure.exifPayload(bytes), "\(url.lastPathComponent) has no Exif APP1")
        #expect(EXIFParser.parse(segment).orientation == (value == 0 ? 1 : value))
    }
}
