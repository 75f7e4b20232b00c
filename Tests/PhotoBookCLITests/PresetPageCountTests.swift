import Foundation
import TestSupport
import Testing

/// A preset's page-count rules on real builds: the 18 photos of Fixtures/exif-orientation make an 18-page book,
/// short of Blurb's 20 and within IngramSpark's 18. The warning gives the numbers, `--strict` refuses the book
/// and writes nothing, the report carries the count, the listing gives each rule and its source.
@Suite(.serialized) struct PresetPageCountTests {
    /// The published rules, written out here from docs/presets.md rather than read from the program's table.
    static let rules: [(name: String, minimum: Int?, maximum: Int?, source: String)] = [
        ("blurb-photo-book", 20, 440, "https://support.blurb.com/hc/en-us/articles/207794816"),
        ("blurb-photo-book-heavy-paper", 20, 240, "https://support.blurb.com/hc/en-us/articles/207794816"),
        ("blurb-layflat", 20, 110, "https://support.blurb.com/hc/en-us/articles/207794816"),
        ("ingramspark", 18, nil, "https://selfpublish.org/html/ingramSparkFAQ"),
        ("kdp-paperback-square", 24, 590, "http://bookbolt.kb.help/"),
        ("kdp-paperback-letter", 24, 590, "http://bookbolt.kb.help/"),
        ("prodigi-hardcover-9x9", 24, 300, "https://www.prodigi.com/blog/photo-books-technical-guide"),
        ("prodigi-hardcover-12x12", 24, 300, "https://www.prodigi.com/blog/photo-books-technical-guide"),
        ("lulu-a4", 32, nil, "https://www.scribd.com/document/513281500/lulu-spine-width-calculator"),
        ("lulu-square", 32, nil, "https://www.scribd.com/document/513281500/lulu-spine-width-calculator"),
    ]

    static let photos = Fixtures.path("exif-orientation")
    static let blurbShort = "photobook: warning: the book has 18 pages; Blurb's photo books need at least 20: 2 short"

    func build(_ arguments: [String], in scratch: Scratch) throws -> (run: Run, out: String, report: ReadReport?) {
        let out = scratch.file("book.pdf"), report = scratch.file("report.json")
        let run = try Run.photobook(["build", Self.photos, "-o", out, "--report", report, "--jobs", "2"] + arguments)
        try ReportSchema.expectValid(report)
        return (run, out, try? ReadReport(path: report))
    }

    @Test func aBookShortOfThePresetsMinimumIsWrittenWithAWarningThatCountsThePages() throws {
        let scratch = try Scratch()
        let (run, out, report) = try build(["--preset", "blurb-photo-book", "--page-size", "7x7in"], in: scratch)
        #expect(run.status == 0 && FileManager.default.fileExists(atPath: out), "\(run.stderr)")
        #expect(run.stderr.contains(Self.blurbShort), "\(run.stderr)")
        #expect(run.stderr.contains("--pad-to rounds up to a multiple, not to a minimum"), "\(run.stderr)")
        #expect(try CropMarkTests.pageBoxes(out).count == 18, "no blank page is added to reach the minimum")
        #expect(report?.book.pageCount == .init(pages: 18, minimum: 20, maximum: 440, short: 2, over: 0))
        #expect(report?.book.outcome == "succeeded")
    }

    @Test func withStrictTheShortBookIsRefusedAndNothingIsWritten() throws {
        let scratch = try Scratch()
        let (run, out, report) = try build(["--preset", "blurb-photo-book", "--strict"], in: scratch)
        #expect(run.status == 1, "the status of every --strict refusal: \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(run.stderr.contains("2 short") && run.stderr.contains("--strict is set; nothing was written"),
                "\(run.stderr)")
        #expect(report?.book.outcome == "skipped" && report?.exitStatus == 1)
        #expect(report?.book.failureKind == "refused")
        #expect(report?.book.pageCount == .init(pages: 18, minimum: 20, maximum: 440, short: 2, over: 0))
        // Nothing but the report in the folder: no PDF, no working folder left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0 != "report.json" }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func theCountIsThePagesAsBuiltTitleAndPaddingIncluded() throws {
        let scratch = try Scratch()
        // A title page makes 19 pages: 1 short.
        let titled = try build(["--preset", "blurb-photo-book", "--title", "Trip"], in: scratch)
        #expect(titled.run.stderr.contains("the book has 19 pages; Blurb's photo books need at least 20: 1 short"),
                "\(titled.run.stderr)")
        #expect(titled.report?.book.pageCount?.pages == 19)
        // --pad-to 4 makes 20 pages: within the rule, and nothing said of it.
        let padded = try build(["--preset", "blurb-photo-book", "--pad-to", "4", "--strict"], in: scratch)
        #expect(padded.run.status == 0 && !padded.run.stderr.contains("Blurb"), "\(padded.run.stderr)")
        #expect(padded.report?.book.pageCount == .init(pages: 20, minimum: 20, maximum: 440, short: 0, over: 0))
        #expect(padded.report?.book.blankPages == 2)
    }

    @Test func aBookWithinTheRulesSaysNothingOfThem() throws {
        let scratch = try Scratch()
        let (run, _, report) = try build(["--preset", "ingramspark", "--page-size", "a5", "--strict"], in: scratch)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("pages;") && !run.stderr.contains("IngramSpark"), "\(run.stderr)")
        #expect(report?.book.pageCount == .init(pages: 18, minimum: 18, maximum: nil, short: 0, over: 0))
        // A preset with no published rule: no count in the report.
        let mixam = try build(["--preset", "mixam-hardcover-a4"], in: scratch)
        #expect(mixam.run.status == 0 && mixam.report?.book.pageCount == nil, "\(mixam.run.stderr)")
        // Lulu's paperbacks need 32: the 18-page book is told it is 14 short.
        let lulu = try build(["--preset", "lulu-a4"], in: scratch)
        #expect(lulu.run.stderr.contains("the book has 18 pages; Lulu's paperbacks need at least 32: 14 short"),
                "\(lulu.run.stderr)")
        #expect(lulu.report?.book.pageCount == .init(pages: 18, minimum: 32, maximum: nil, short: 14, over: 0))
    }

    @Test func aBookOverThePresetsMaximumIsTold() throws {
        let scratch = try Scratch()
        let shapes = Array(repeating: (width: 60, height: 40), count: 112)
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: shapes)
        let dry = try Run.photobook(["build"] + photos + ["--dry-run", "-o", scratch.file("book.pdf"),
                                                          "--preset", "blurb-layflat"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr.contains("the book has 112 pages; Blurb's layflat books take at most 110: 2 over"),
                "the dry run tells it too: \(dry.stderr)")
    }

    @Test func theOptionsGivenStillOverrideAPresetWithRules() throws {
        let scratch = try Scratch()
        let (run, out, report) = try build(["--bleed", "0", "--preset", "ingramspark", "--page-size", "a5",
                                            "--margin", "20mm"], in: scratch)
        #expect(run.status == 0, "\(run.stderr)")
        let boxes = try CropMarkTests.pageBoxes(out)[1]
        let mm = 72 / 25.4
        #expect(CropMarkTests.near(boxes?["MediaBox"], [0, 0, 148 * mm, 210 * mm]), "\(String(describing: boxes))")
        #expect(report?.book.pageCount?.minimum == 18)
    }

    @Test func theListingGivesEachRuleWithItsSource() throws {
        let docs = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/presets.md"), encoding: .utf8)
        for rule in Self.rules {
            let run = try Run.photobook(["presets", rule.name])
            #expect(run.status == 0, "\(run.stderr)")
            let lines = run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            for (label, value) in [("fewest pages", rule.minimum), ("most pages", rule.maximum)] {
                guard let index = lines.firstIndex(where: { $0.hasPrefix(label + " ") }) else {
                    Issue.record("\(rule.name): no \(label) line")
                    continue
                }
                if let value {
                    let figure = lines[index].dropFirst(label.count).trimmingCharacters(in: .whitespaces)
                    #expect(figure.hasPrefix("\(value)"), "\(rule.name): \(lines[index])")
                    #expect(lines[index + 2].hasPrefix("source: " + rule.source), "\(rule.name): \(lines[index + 2])")
                } else {
                    #expect(lines[index].hasSuffix("not found published"), "\(rule.name): \(lines[index])")
                }
            }
            #expect(lines.contains { $0.hasPrefix("PDF/X ") } && lines.contains { $0.hasPrefix("colour ") })
            #expect(docs.contains("`\(rule.name)`"), "docs/presets.md does not list \(rule.name)")
        }
        // The PDF/X level and colour a service asks for: listed, and said to be applied where photobook writes it.
        let ingram = try Run.photobook(["presets", "ingramspark"]).stdout
        #expect(ingram.contains("(--pdfx 1a: PDF/X-1a:2003)") && ingram.contains("CMYK (the photos converted by --pdfx 1a)"),
                "\(ingram)")
        let lulu = try Run.photobook(["presets", "lulu-a4"]).stdout
        #expect(lulu.contains("sRGB (not applied)"), "\(lulu)")
    }
}
