import Foundation
import TestSupport
import Testing

/// `SOURCE_DATE_EPOCH`: the same inputs give the same bytes, whatever the job count, the temporary folder or the
/// time; without it only the two dates differ.
@Suite struct ReproducibleTests {
    /// A book with everything that could bring chance in: several photos rendered in parallel, a pass-through
    /// photo, a photo that fails only when decoded (the pages are planned again without it, in whatever order the
    /// workers finished), an embedded font subset, a title page, captions, page numbers, bookmarks.
    static let arguments = ["--layout", "auto", "--title", "Reproducible", "--author", "A. Tester",
                            "--captions", "name", "--page-numbers", "--sections", "folder", "-q"]

    func photos(in scratch: Scratch) throws -> String {
        let photos = try scratch.sub("photos")
        try DistinctPhotos.write(into: photos)
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_6.jpg"), to: "photos/f.jpg")
        try DistinctPhotos.writeTruncated(into: photos, name: "c2.jpg")
        return photos
    }

    /// Builds with `jobs`, its own temporary folder and `environment`; returns the PDF's bytes.
    func build(_ photos: String, scratch: Scratch, jobs: Int, environment: [String: String]) throws -> [UInt8] {
        let tmp = try scratch.sub("tmp-\(jobs)-\(UUID().uuidString)")
        let out = try scratch.sub("out-\(UUID().uuidString)") + "/book.pdf"
        let run = try Run.command(Run.binary, ["build", photos, "-o", out, "--jobs", "\(jobs)"] + Self.arguments,
                                  environment: environment.merging(["TMPDIR": tmp]) { $1 })
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Scratch.listing(tmp).isEmpty)
        return try Fixtures.read(out)
    }

    @Test func theSameInputsGiveTheSameBytes() throws {
        let scratch = try Scratch()
        let photos = try photos(in: scratch)
        let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]
        let first = try build(photos, scratch: scratch, jobs: 1, environment: epoch)
        let second = try build(photos, scratch: scratch, jobs: 2, environment: epoch)
        #expect(first == second, "the two books differ at byte \(first.indices.first { first[$0] != second[safe: $0] } ?? -1)")

        let path = try scratch.write("book.pdf", first)
        let info = try Run.command("/usr/bin/pdfinfo", ["-isodates", path])
        #expect(info.stdout.contains("CreationDate:    2023-11-14T22:13:20Z"), "\(info.stdout)")
        #expect(info.stdout.contains("ModDate:         2023-11-14T22:13:20Z"), "\(info.stdout)")
        // Poppler reads every page and image of it: the same book as one built without the variable.
        #expect(try PDFFacts(path).pages >= 3)
    }

    /// The time zone of the machine does not reach the book either: the dates are written in UTC.
    @Test func theTimeZoneDoesNotChangeTheBytes() throws {
        let scratch = try Scratch()
        let photos = try photos(in: scratch)
        let tokyo = try build(photos, scratch: scratch, jobs: 2, environment: ["SOURCE_DATE_EPOCH": "86400", "TZ": "Asia/Tokyo"])
        let lima = try build(photos, scratch: scratch, jobs: 2, environment: ["SOURCE_DATE_EPOCH": "86400", "TZ": "America/Lima"])
        #expect(tokyo == lima)
        // libharu writes UTC as `Z00'00'`, which readers take as UTC.
        #expect(Self.dates(in: tokyo) == ["D:19700102000000Z00'00'"], "\(Self.dates(in: tokyo))")
    }

    /// Without the variable (empty counts as unset), two builds differ in their dates and nowhere else, and the
    /// dates are the time of the build.
    @Test func withoutTheVariableOnlyTheDatesDiffer() throws {
        let scratch = try Scratch()
        let photos = try photos(in: scratch)
        let before = Date()
        let first = try build(photos, scratch: scratch, jobs: 1, environment: ["SOURCE_DATE_EPOCH": ""])
        let second = try build(photos, scratch: scratch, jobs: 2, environment: ["SOURCE_DATE_EPOCH": ""])
        let after = Date()
        #expect(Self.maskingDates(first) == Self.maskingDates(second))
        for book in [first, second] {
            let dates = Self.dates(in: book)
            #expect(dates.count == 1, "CreationDate and ModDate are the same moment: \(dates)")
            let parsed = dates.first.flatMap(Self.parse)
            #expect(parsed.map { $0 >= before.addingTimeInterval(-2) && $0 <= after.addingTimeInterval(2) } == true,
                    "\(dates) is not between \(before) and \(after)")
        }
    }

    @Test(arguments: ["now", "1.5", "-1", "1e9", " 1700000000", "0x10", "253402300800", "99999999999999999999999"])
    func aMalformedEpochIsAUsageError(_ value: String) throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        try DistinctPhotos.write(into: photos, count: 1)
        let out = scratch.file("book.pdf")
        let run = try Run.command(Run.binary, ["build", photos, "-o", out], environment: ["SOURCE_DATE_EPOCH": value])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("photobook: error: SOURCE_DATE_EPOCH: "), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// The Info dictionary's date strings, each once (`D:20231114221320Z`, the offset part included).
    static func dates(in pdf: [UInt8]) -> Set<String> {
        let text = String(decoding: pdf, as: UTF8.self)
        let pattern = /\((D:[0-9]{14}[^)]*)\)/
        return Set(text.matches(of: pattern).map { String($0.output.1) })
    }

    /// The PDF with the digits of every date string replaced by `0`: the bytes that must not change.
    static func maskingDates(_ pdf: [UInt8]) -> [UInt8] {
        var bytes = pdf
        let marker = Array("(D:".utf8)
        var i = 0
        while i + marker.count + 14 <= bytes.count {
            if bytes[i..<(i + marker.count)].elementsEqual(marker) {
                for j in (i + marker.count)..<(i + marker.count + 14) { bytes[j] = UInt8(ascii: "0") }
            }
            i += 1
        }
        return bytes
    }

    /// `D:YYYYMMDDHHmmSS` followed by `Z` or `+HH'mm'`, as a moment.
    static func parse(_ date: String) -> Date? {
        let digits = Array(date.dropFirst(2).prefix(14))
        guard digits.count == 14 else { return nil }
        func number(_ range: Range<Int>) -> Int { Int(String(digits[range])) ?? 0 }
        var parts = DateComponents(year: number(0..<4), month: number(4..<6), day: number(6..<8),
                                   hour: number(8..<10), minute: number(10..<12), second: number(12..<14))
        let zone = date.dropFirst(16)
        var offset = 0
        if let sign = zone.first, sign == "+" || sign == "-" {
            let fields = zone.dropFirst().split(separator: "'").compactMap { Int($0) }
            offset = (fields.first ?? 0) * 3600 + (fields.dropFirst().first ?? 0) * 60
            if sign == "-" { offset = -offset }
        }
        parts.timeZone = TimeZone(secondsFromGMT: offset)
        return Calendar(identifier: .gregorian).date(from: parts)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
