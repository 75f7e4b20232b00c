import Foundation
import TestSupport
import Testing

/// The print shop's checks every build makes (Preflight.swift): words outside the safety area and in the gutter,
/// named with their page; `--strict` refusing them with the old book kept; a preset's file-size limit; all of it
/// in the report's `preflight` object and in the dry run.
@Suite(.serialized) struct PrintPreflightTests {
    /// A caption long enough to wrap, so that its first line runs across the whole cell.
    static let longName = "a caption long enough to wrap onto a second line so that its first line runs right across "
        + "the whole width of the cell from the gutter side to the outer edge of the page"

    /// Three photos, the first named with the long caption; returns the folder.
    static func photos(_ scratch: Scratch) throws -> String {
        let folder = try scratch.sub("photos")
        // Three gradients: the same bytes twice would be left out as a duplicate.
        try SpreadTests.photo(folder + "/\(longName).jpg")
        try SpreadTests.photo(folder + "/b.jpg", colours: "green-yellow")
        try SpreadTests.photo(folder + "/c.jpg", colours: "black-white")
        return folder
    }

    static func report(_ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    static func findings(_ report: [String: Any]) -> [[String: Any]] {
        ((report["preflight"] as? [String: Any])?["findings"] as? [[String: Any]]) ?? []
    }

    /// A margin narrower than Lulu's 0.5 in safety: the caption's drawn line pokes out, found with its page, in
    /// the warning, the report (valid against the schema) and the dry run; pdftotext finds the words there.
    @Test func aCaptionOutsideTheSafetyAreaIsNamedWithItsPage() throws {
        let scratch = try Scratch()
        let photos = try Self.photos(scratch)
        let out = scratch.file("book.pdf"), json = scratch.file("book.json")
        let run = try Run.photobook(["build", photos, "-o", out, "--preset", "lulu-a4", "--margin", "3mm",
                                     "--captions", "name", "--dpi", "20", "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: page 1: the caption \"a caption long enough"), "\(run.stderr)")
        #expect(run.stderr.contains("reaches outside the safe area (ArtBox) by "), "\(run.stderr)")
        #expect(run.stderr.contains("which keeps 12.7 mm inside the trim"), "\(run.stderr)")
        try ReportSchema.expectValid(json)
        let found = Self.findings(try Self.report(json))
        let outside = found.filter { $0["kind"] as? String == "textOutsideSafety" }
        #expect(outside.compactMap { $0["page"] as? Int } == [1, 2, 3], "\(found)")
        // The short captions ("b", "c") stick out only at the bottom: the long one also at both sides.
        #expect((outside.first?["message"] as? String)?.contains("a caption long enough") == true)
        // The first line really is drawn within 12.7 mm of the page's left edge.
        let words = try Run.command("/usr/bin/pdftotext", ["-bbox", "-f", "1", "-l", "1", out, "-"])
        let xMin = try #require(words.stdout.firstMatch(of: /xMin="([0-9.]+)"[^>]*>a</)?.output.1, "\(words.stdout)")
        #expect(try #require(Double(xMin)) < 0.5 * 72, "\(words.stdout)")
        let dry = try Run.photobook(["build", photos, "--dry-run", "--preset", "lulu-a4", "--margin", "3mm",
                                     "--captions", "name", "--dpi", "20"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("preflight: 6 findings"), "\(dry.stdout)")
        #expect(dry.stdout.contains("preflight: textOutsideSafety: page 2: the caption \"b\""), "\(dry.stdout)")
        #expect(dry.stdout.contains("preflight: lowResolution: page 1:"), "\(dry.stdout)")
    }

    /// `--strict` refuses the book for words outside the safety area: exit 1, the old book untouched, no
    /// temporary file beside it, the finding in the report.
    @Test func strictRefusesWordsOutsideTheSafetyAreaAndKeepsTheOldBook() throws {
        let scratch = try Scratch()
        let photos = try Self.photos(scratch)
        let out = try scratch.write("book.pdf", Array("the old book".utf8))
        let json = scratch.file("book.json")
        // Lulu's 12.7 mm safety margin without its preset: a 3-page book is short of Lulu's 32, which --strict
        // would refuse first.
        let run = try Run.photobook(["build", photos, "-o", out, "--safety", "12.7mm", "--margin", "3mm",
                                     "--captions", "name", "--dpi", "20", "--strict", "--report", json])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("reaches outside the safe area"), "\(run.stderr)")
        #expect(run.stderr.contains("--strict"), "\(run.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "the old book")
        #expect(Scratch.listing(scratch.path) == ["book.json", "book.pdf", "photos"])
        try ReportSchema.expectValid(json)
        let report = try Self.report(json)
        #expect((report["book"] as? [String: Any])?["outcome"] as? String == "skipped")
        #expect((report["book"] as? [String: Any])?["failureKind"] as? String == "refused")
        #expect(Self.findings(report).contains { $0["kind"] as? String == "textOutsideSafety" })
    }

    /// Facing pages with a 8 mm binding and a 6 mm safety margin on a 3 mm margin: the long caption's first line
    /// starts 11 mm from the fold, inside the 14 mm the binding and the safety margin keep; the short ones do
    /// not reach it. A lower safety (3 mm) keeps it out of the gutter.
    @Test func aCaptionInTheGutterIsFound() throws {
        let scratch = try Scratch()
        let photos = try Self.photos(scratch)
        let common = ["build", photos, "--dry-run", "--margin", "3mm", "--binding", "8mm", "--captions", "name",
                      "--dpi", "300"]
        let run = try Run.photobook(common + ["--safety", "6mm"])
        #expect(run.status == 0, "\(run.stderr)")
        let gutter = run.stdout.split(separator: "\n").filter { $0.contains("textInGutter") }
        #expect(gutter.count == 1, "\(run.stdout)")
        #expect(gutter.first?.contains("page 1: the caption \"a caption long enough") == true, "\(run.stdout)")
        #expect(gutter.first?.contains("mm from the fold (keep 14 mm") == true, "\(run.stdout)")
        #expect(run.stderr.contains("warning: page 1: the caption \"a caption long enough"), "\(run.stderr)")
        let clear = try Run.photobook(common + ["--safety", "3mm"])
        #expect(clear.status == 0, "\(clear.stderr)")
        #expect(!clear.stdout.contains("textInGutter"), "\(clear.stdout)")
    }

    /// Without a margin on facing pages, a photo that is not a spread reaches the fold: found, named by page.
    @Test func aPhotoAcrossTheGutterThatIsNoSpreadIsFound() throws {
        let scratch = try Scratch()
        let photos = try Self.photos(scratch)
        let run = try Run.photobook(["build", photos, "--dry-run", "--margin", "0", "--spreads", "--dpi", "300"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("photoInGutter: page 1: "), "\(run.stdout)")
        #expect(run.stdout.contains("photoInGutter: page 2: "), "\(run.stdout)")
    }

    /// KDP's 650 MB limit, made tiny by the harness: the written PDF is over it. A warning without `--strict`
    /// (the book written, its size in the report); with it, exit 1, nothing committed, the old book kept.
    @Test func aFileOverThePresetsLimitIsRefusedUnderStrict() throws {
        let scratch = try Scratch()
        let photos = try Self.photos(scratch)
        let out = try scratch.write("book.pdf", Array("the old book".utf8))
        let json = scratch.file("book.json")
        // KDP binds 24 pages at least: padded to them, the book passes that rule.
        let arguments = ["build", photos, "-o", out, "--preset", "kdp-paperback-square", "--pad-to", "24", "--dpi", "20",
                         "--report", json]
        let environment = ["PHOTOBOOK_TEST_FILE_SIZE_LIMIT": "1000"]
        let strict = try Run.command(Run.harness, arguments + ["--strict"], environment: environment)
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(strict.stderr.contains("bytes, over the 1000 bytes Amazon KDP takes, and --strict is set"), "\(strict.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "the old book")
        #expect(Scratch.listing(scratch.path) == ["book.json", "book.pdf", "photos"])
        try ReportSchema.expectValid(json)
        var report = try Self.report(json)
        let preflight = try #require(report["preflight"] as? [String: Any])
        #expect(preflight["fileSizeLimit"] as? Int == 1000)
        #expect((preflight["fileSize"] as? Int ?? 0) > 1000)
        #expect(Self.findings(report).contains { $0["kind"] as? String == "fileSize" })

        let loose = try Run.command(Run.harness, arguments, environment: environment)
        #expect(loose.status == 0, "\(loose.stderr)")
        #expect(loose.stderr.contains("warning: the PDF is"), "\(loose.stderr)")
        try ReportSchema.expectValid(json)
        report = try Self.report(json)
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int
        #expect((report["preflight"] as? [String: Any])?["fileSize"] as? Int == size)
        // The shipped binary knows KDP's own limit, which this book is far below: nothing found.
        let shipped = try Run.photobook(arguments)
        #expect(shipped.status == 0, "\(shipped.stderr)")
        #expect(!Self.findings(try Self.report(json)).contains { $0["kind"] as? String == "fileSize" })
        let dry = try Run.photobook(["build", photos, "--dry-run", "--preset", "kdp-paperback-square", "--pad-to", "24",
                                     "--dpi", "20"])
        #expect(dry.stdout.contains("preflight: file size: cannot be known before the photos are rendered; the build checks it "
                                    + "against the 650 MB Amazon KDP takes"), "\(dry.stdout)")
    }
}
