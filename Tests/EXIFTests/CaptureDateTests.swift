import Foundation
import Testing
import EXIF
import TestSupport

private let dateTag: UInt16 = 0x9003
private let offsetTag: UInt16 = 0x9011
private let subSecTag: UInt16 = 0x9291
private let descriptionTag: UInt16 = 0x010E

@Suite("Capture dates: reading EXIF's three fields")
struct CaptureDateParsingTests {
    @Test("date, fraction and offset together")
    func allThree() throws {
        let date = try #require(CaptureDate(exifDateTime: "2024:05:01 14:03:07", subSeconds: "05", offset: "+02:00"))
        #expect((date.year, date.month, date.day, date.hour, date.minute, date.second) == (2024, 5, 1, 14, 3, 7))
        #expect(date.nanosecond == 50_000_000)
        #expect(date.utcOffsetMinutes == 120)
        #expect(date.localText == "2024-05-01 14:03:07")
    }

    @Test("offsets east and west, with and without a colon",
          arguments: [("+02:00", 120), ("-05:30", -330), ("+0545", 345), ("-03", -180), ("+00:00", 0),
                      (" +14:00 ", 840), ("-18:00", -1080)])
    func offsets(text: String, minutes: Int) {
        #expect(CaptureDate(exifDateTime: "2024:01:01 00:00:00", offset: text)?.utcOffsetMinutes == minutes)
    }

    @Test("an unreadable offset is no offset, and the date stays",
          arguments: ["   :  ", "", "02:00", "+2:00", "+02:60", "+19:00", "Z", "+02:00:00", "++2:00"])
    func badOffsets(text: String) {
        let date = CaptureDate(exifDateTime: "2024:01:01 00:00:00", offset: text)
        #expect(date != nil)
        #expect(date?.utcOffsetMinutes == nil)
    }

    @Test("fraction digits", arguments: [("5", 500_000_000), ("050", 50_000_000), ("123456789", 123_456_789),
                                         ("1234567891", 123_456_789), (" 42 ", 420_000_000), ("4a", 0),
                                         ("", 0), ("   ", 0), ("-1", 0)])
    func fractions(text: String, nanoseconds: Int) {
        #expect(CaptureDate(exifDateTime: "2024:01:01 00:00:00", subSeconds: text)?.nanosecond == nanoseconds)
    }

    @Test("dates that are no date", arguments: [
        "0000:00:00 00:00:00", "    :  :     :  :  ", "", "2024:13:01 10:00:00", "2024:00:10 10:00:00",
        "2023:02:29 10:00:00", "2100:02:29 10:00:00", "2024:04:31 10:00:00", "2024:01:01 24:00:00",
        "2024:01:01 10:60:00", "2024:01:01 10:00:60", "2024:1:01 10:00:00", "2024:01:01_10:00:00",
        "2024:01-01 10:00:00", "2024:01:01 10:00:0x", "2024:01:01 10:00:00 +02:00", "garbage",
    ])
    func invalid(text: String) {
        #expect(CaptureDate(exifDateTime: text) == nil)
    }

    @Test("accepted variants", arguments: [
        ("2024:02:29 23:59:59", "2024-02-29 23:59:59"), ("2000:02:29 00:00:00", "2000-02-29 00:00:00"),
        ("2024-05-01 14:03:07", "2024-05-01 14:03:07"), ("2024/05/01T14:03:07", "2024-05-01 14:03:07"),
        ("2005:01:01 12:00", "2005-01-01 12:00:00"), (" 2024:05:01 14:03:07  ", "2024-05-01 14:03:07"),
        ("0001:01:01 00:00:00", "0001-01-01 00:00:00"),
    ])
    func accepted(text: String, local: String) {
        #expect(CaptureDate(exifDateTime: text)?.localText == local)
    }
}

@Suite("Capture dates: order")
struct CaptureDateOrderTests {
    private func date(_ text: String, _ fraction: String? = nil, _ offset: String? = nil) -> CaptureDate {
        CaptureDate(exifDateTime: text, subSeconds: fraction, offset: offset)!
    }

    @Test("the instant applies the offset: 14:00 in Rome is 08:00 in New York")
    func sameInstant() {
        let rome = date("2024:07:01 14:00:00", nil, "+02:00"), newYork = date("2024:07:01 08:00:00", nil, "-04:00")
        #expect(rome.instant(assumingOffsetMinutes: 0) == newYork.instant(assumingOffsetMinutes: 0))
        #expect(rome != newYork)
        // Equal moments fall back on the local reading, so the order stays total.
        #expect(newYork < rome)
    }

    @Test("an own offset wins over an assumed one")
    func ownOffset() {
        let a = date("2024:07:01 14:00:00", nil, "+02:00")
        #expect(a.instant(assumingOffsetMinutes: -600) == a.instant(assumingOffsetMinutes: 300))
        let b = date("2024:07:01 14:00:00")
        #expect(b.instant(assumingOffsetMinutes: 120) == a.instant(assumingOffsetMinutes: 0))
    }

    @Test("fractions order photos within one second; days, months and leap years count right")
    func timeLine() {
        let ordered = [date("1999:12:31 23:59:59", "9"), date("2000:01:01 00:00:00"), date("2000:01:01 00:00:00", "001"),
                       date("2000:01:01 00:00:00", "5"), date("2000:02:28 12:00:00"), date("2000:02:29 00:00:00"),
                       date("2000:03:01 00:00:00"), date("2024:12:31 23:59:59")]
        for (a, b) in zip(ordered, ordered.dropFirst()) { #expect(a < b, "\(a.localText) < \(b.localText)") }
        #expect(ordered.shuffled().sorted() == ordered)
        // 2000-03-01 minus 2000-02-28 12:00 is a day and a half, the leap day included.
        let span = ordered[6].localInstant.seconds - ordered[4].localInstant.seconds
        #expect(span == 36 * 3600)
    }

    @Test("midnight across a date line: the offset moves the day")
    func acrossDays() {
        let tokyo = date("2024:01:02 01:00:00", nil, "+09:00"), london = date("2024:01:01 17:00:00", nil, "+00:00")
        #expect(tokyo.instant(assumingOffsetMinutes: 0) < london.instant(assumingOffsetMinutes: 0))
    }
}

@Suite("EXIF fields for dates and captions")
struct EXIFMetadataFieldTests {
    @Test("SubSecTimeOriginal and OffsetTimeOriginal come from the Exif sub-IFD", arguments: ByteOrder.allCases)
    func dateFields(order: ByteOrder) throws {
        let block = makeTIFF(order, ifd0: [], exif: [(dateTag, .ascii("2024:05:01 14:03:07")),
                                                       (offsetTag, .ascii("-03:00")), (subSecTag, .ascii("25"))])
        let metadata = EXIFParser.parse(block.bytes)
        #expect(metadata.subSecTimeOriginal == "25")
        #expect(metadata.offsetTimeOriginal == "-03:00")
        let date = try #require(metadata.captureDate)
        #expect(date.utcOffsetMinutes == -180 && date.nanosecond == 250_000_000 && date.hour == 14)
    }

    @Test("a blank offset is absent", arguments: ByteOrder.allCases)
    func blankOffset(order: ByteOrder) {
        let block = makeTIFF(order, ifd0: [], exif: [(dateTag, .ascii("2024:05:01 14:03:07")), (offsetTag, .ascii("   :  "))])
        #expect(EXIFParser.parse(block.bytes).offsetTimeOriginal == nil)
        #expect(EXIFParser.parse(block.bytes).captureDate?.utcOffsetMinutes == nil)
    }

    @Test("an all-zero date is read but is no capture date", arguments: ByteOrder.allCases)
    func zeroDate(order: ByteOrder) {
        let block = makeTIFF(order, ifd0: [], exif: [(dateTag, .ascii("0000:00:00 00:00:00"))])
        #expect(EXIFParser.parse(block.bytes).dateTimeOriginal == "0000:00:00 00:00:00")
        #expect(EXIFParser.parse(block.bytes).captureDate == nil)
    }

    @Test("ImageDescription: UTF-8, Latin-1, padding, blanks and stock texts", arguments: [
        (FieldValue.ascii("Grandma's 90th birthday"), "Grandma's 90th birthday"),
        (.ascii("Caf\u{e9} au bord de l'eau \u{2014} \u{1F600}"), "Caf\u{e9} au bord de l'eau \u{2014} \u{1F600}"),
        (.bytes(type: 2, Array("Caf".utf8) + [0xE9, 0x20, 0x4E, 0x69, 0x63, 0x65, 0]), "Caf\u{e9} Nice"),
        (.bytes(type: 2, Array("  two\nlines  ".utf8) + [0, 0, 0, 0]), "two\nlines"),
        (.bytes(type: 2, Array("first".utf8) + [0] + Array("second".utf8) + [0]), "first"),
        (.bytes(type: 7, Array("undefined type".utf8)), "undefined type"),
        (.bytes(type: 1, Array("byte type".utf8)), "byte type"),
    ] as [(FieldValue, String)])
    func descriptions(value: FieldValue, text: String) {
        for order in ByteOrder.allCases {
            let block = makeTIFF(order, ifd0: [(descriptionTag, value)])
            #expect(EXIFParser.parse(block.bytes).imageDescription == text)
        }
    }

    @Test("no ImageDescription", arguments: [
        FieldValue.ascii(""), .ascii("          "), .bytes(type: 2, [0, 0, 0, 0, 0, 0]), .ascii("OLYMPUS DIGITAL CAMERA"),
        .ascii("SONY DSC  "), .short(7), .raw(type: 2, count: 4000, field: 8),
    ])
    func noDescription(value: FieldValue) {
        for order in ByteOrder.allCases {
            #expect(EXIFParser.parse(makeTIFF(order, ifd0: [(descriptionTag, value)]).bytes).imageDescription == nil)
        }
    }

    @Test("only IFD0's ImageDescription counts, not the thumbnail's", arguments: ByteOrder.allCases)
    func onlyIFD0(order: ByteOrder) {
        let block = makeTIFF(order, ifd0: [], ifd1: [(descriptionTag, .ascii("thumbnail"))])
        #expect(EXIFParser.parse(block.bytes).imageDescription == nil)
    }
}

@Suite("Description text made fit to print")
struct DescriptionCleaningTests {
    @Test("controls go, line breaks stay, Unicode white space is trimmed", arguments: [
        ([0x0C, 0x01] + Array("Page".utf8) + [0x0B], "Page"),
        (Array("one\r\ntwo\rthree\nfour\tend".utf8), "one\ntwo\nthree\nfour\tend"),
        (Array("\u{A0}\u{2003}spaced\u{3000}".utf8), "spaced"),
        ([0x41, 0x7F, 0x42, 0xC2, 0x85, 0x43], "ABC"),
        ([0x0C, 0x0D, 0x0A, 0x20], nil),
    ] as [([UInt8], String?)])
    func cleaned(bytes: [UInt8], expected: String?) {
        let block = makeTIFF(.bigEndian, ifd0: [(descriptionTag, .bytes(type: 2, bytes + [0]))])
        #expect(EXIFParser.parse(block.bytes).imageDescription == expected)
        let packet = xmpPacket("<dc:description>" + String(decoding: bytes, as: UTF8.self) + "</dc:description>")
        #expect(XMP.description(inPacket: packet) == expected)
    }
}

@Suite("Capture dates as Codable values")
struct CaptureDateCodingTests {
    @Test func roundTripAndRefusal() throws {
        let date = try #require(CaptureDate(exifDateTime: "2024:05:01 14:03:07", subSeconds: "5", offset: "-03:30"))
        let json = try JSONEncoder().encode(date)
        #expect(try JSONDecoder().decode(CaptureDate.self, from: json) == date)
        for bad in [#"{"year":2024,"month":13,"day":1,"hour":0,"minute":0,"second":0}"#,
                    #"{"year":1000000000000000,"month":1,"day":1,"hour":0,"minute":0,"second":0}"#,
                    #"{"year":2024,"month":1,"day":1,"hour":0,"minute":0,"second":0,"utcOffsetMinutes":5000}"#] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(CaptureDate.self, from: Data(bad.utf8)) }
        }
    }
}
