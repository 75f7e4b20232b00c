#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// `--report`: every build leaves a JSON account that the schema in docs/ accepts and that tells the truth about
/// the PDF, read back with poppler and qpdf.
@Suite struct ReportTests {
    /// The report's pages against the PDF: the page count, which photo is on which page (by the pixel size
    /// poppler finds, each photo's being its own) and where (the rectangle the page's content stream draws it in).
    func expectReport(_ report: ReadReport, matches pdf: String, scratch: Scratch,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let facts = try PDFFacts(pdf)
        #expect(facts.pages == report.book.pagesWritten, sourceLocation: sourceLocation)
        #expect(report.book.pages.count + report.book.blankPages == facts.pages, sourceLocation: sourceLocation)
        let drawn = try PlacedImage.read(pdf, scratch: scratch)
        for page in report.book.pages {
            let inPDF = facts.images.filter { $0.page == page.number }.map { "\($0.width)x\($0.height)" }.sorted()
            let inReport = page.photos.map { "\(report.photos[$0].pixelWidth ?? 0)x\(report.photos[$0].pixelHeight ?? 0)" }
            #expect(inPDF == inReport.sorted(), "page \(page.number)", sourceLocation: sourceLocation)
            let rects = page.number <= drawn.count ? drawn[page.number - 1].map(\.visible) : []
            #expect(rects.count == page.photos.count, "page \(page.number)", sourceLocation: sourceLocation)
            for (rect, index) in zip(rects, page.photos) {
                let photo = report.photos[index]
                #expect(photo.page == page.number, sourceLocation: sourceLocation)
                guard let cell = photo.cell else { Issue.record("\(photo.path) has no cell"); continue }
                let close = abs(rect.x - cell.x) < 0.01 && abs(rect.y - cell.y) < 0.01
                    && abs(rect.width - cell.width) < 0.01 && abs(rect.height - cell.height) < 0.01
                #expect(close, "\(photo.path): drawn at \(rect), reported \(cell)", sourceLocation: sourceLocation)
            }
        }
        let onPages = Set(report.book.pages.flatMap(\.photos))
        for photo in report.photos {
            #expect(onPages.contains(photo.index) == (photo.page != nil), "\(photo.path)", sourceLocation: sourceLocation)
        }
    }

    @Test func aSuccessfulBuildIsReportedAsThePDFShowsIt() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        let names = try DistinctPhotos.write(into: photos)
        let out = scratch.file("book.pdf"), reportPath = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", out, "--layout", "grid 2x1", "--captions", "name",
                                     "--report", reportPath])
        #expect(run.status == 0, "\(run.stderr)")
        try ReportSchema.expectValid(reportPath)
        let report = try ReadReport(path: reportPath)
        #expect(report.schema == 2 && report.exitStatus == 0)
        #expect(report.book.outcome == "succeeded" && report.book.reason == nil && report.book.output == out)
        #expect(report.book.pages.map(\.number) == [1, 2, 3])
        #expect(report.book.pages.allSatisfy { $0.arrangement == "grid 2x1" })
        #expect(report.options.layout == "grid 2x1" && report.options.output == out)
        #expect(report.photos.map { FileManager.default.displayName(atPath: $0.path) } == names)
        for (n, photo) in report.photos.enumerated() {
            #expect(photo.outcome == "succeeded" && photo.reason == nil, "\(photo.path)")
            #expect(photo.caption == String(names[n].dropLast(4)), "\(photo.path)")
            // Small JPEGs keep every pixel of their crop, copied as whole blocks (MCUs of at most 16 pixels) around
            // it: the embedded size is the crop's, rounded out to those blocks on both sides.
            #expect(photo.losslessCrop == true, "\(photo.path)")
            for (crop, pixels) in [(photo.crop?.width, photo.pixelWidth), (photo.crop?.height, photo.pixelHeight)] {
                let side = Int((crop ?? 0).rounded())
                #expect(pixels.map { $0 >= side && $0 < side + 2 * 16 } == true, "\(photo.path): \(side) in \(pixels ?? 0)")
            }
            #expect(photo.crop.map { Int($0.height.rounded()) } == DistinctPhotos.sizes[n].1, "\(photo.path)")
            #expect(photo.passThrough == false, "a cropped photo is a render: \(photo.path)")
        }
        let t = report.timings
        #expect(t.total > 0 && t.probe + t.plan + t.render + t.pdf <= t.total + 1e-6, "\(t)")
        try expectReport(report, matches: out, scratch: scratch)
    }

    /// A whole photo at its own size is embedded byte for byte: the report says so, and the JPEG that pdfimages
    /// takes out of the PDF is the file itself; a cropped one is not.
    @Test func passThroughIsWhatThePDFHolds() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        let names = try DistinctPhotos.write(into: photos, count: 2)
        // With --keep-originals a cropped photo is embedded whole too: the report gives the pixels embedded.
        for (layout, expected) in [(["--fit", "fit"], true), (["--layout", "grid 2x1"], false),
                                   (["--layout", "grid 2x1", "--keep-originals"], true)] {
            let tag = "\(expected)-\(layout.count)"
            let out = scratch.file("book-\(tag).pdf"), reportPath = scratch.file("report-\(tag).json")
            let run = try Run.photobook(["build", photos, "-o", out, "--report", reportPath] + layout)
            #expect(run.status == 0, "\(run.stderr)")
            try ReportSchema.expectValid(reportPath)
            let report = try ReadReport(path: reportPath)
            let extracted = try scratch.sub("images-\(tag)")
            let list = try Run.command("/usr/bin/pdfimages", ["-j", out, extracted + "/img"])
            #expect(list.status == 0, "\(list.stderr)")
            let images = Scratch.listing(extracted).map { try? Fixtures.read(extracted + "/" + $0) }
            for (n, name) in names.enumerated() {
                let photo = try #require(report.photo(named: name))
                #expect(photo.passThrough == expected, "\(layout): \(name)")
                let original = try Fixtures.read(photos + "/" + name)
                #expect(images.contains { $0 == original } == expected, "\(layout): \(name) (photo \(n))")
                if expected {
                    // The whole photo is in the PDF, whatever part of it the page shows.
                    #expect(photo.pixelWidth == DistinctPhotos.sizes[n].0 && photo.pixelHeight == DistinctPhotos.sizes[n].1,
                            "\(layout): \(name): \(photo.pixelWidth ?? 0)x\(photo.pixelHeight ?? 0)")
                }
            }
        }
    }

    @Test func aPhotoThatFailsIsReportedWithItsReasonAndLeftOut() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        try DistinctPhotos.write(into: photos, count: 3)
        try DistinctPhotos.writeTruncated(into: photos)
        let out = scratch.file("book.pdf"), reportPath = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", out, "--layout", "grid 2x1", "--report", reportPath])
        #expect(run.status == 0, "\(run.stderr)")
        try ReportSchema.expectValid(reportPath)
        let report = try ReadReport(path: reportPath)
        let broken = try #require(report.photo(named: "broken.jpg"))
        #expect(broken.outcome == "failed" && broken.failureKind == "corrupt")
        #expect(run.stderr.contains(broken.reason ?? "?"), "the report and the warning agree: \(run.stderr)")
        #expect(broken.page == nil && broken.cell == nil && broken.pixelWidth == nil)
        #expect(report.book.outcome == "succeeded" && report.book.pagesWritten == 2)
        #expect(report.photos.filter { $0.outcome == "succeeded" }.count == 3)
        try expectReport(report, matches: out, scratch: scratch)
    }

    /// Issue 32: each photo left out says what kind of trouble it met, beside its words, so that a script can
    /// tell a damaged file from one photobook does not read, a missing one, one too large, or a copy.
    @Test func aFolderOfBrokenPhotosIsReportedByKind() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        try DistinctPhotos.write(into: photos, count: 2)
        try DistinctPhotos.writeTruncated(into: photos)
        _ = try scratch.write("photos/notes.jpg", Array("a shopping list, not a photo\n".utf8))
        _ = try scratch.write("photos/empty.jpg", [])
        try FileManager.default.createSymbolicLink(atPath: photos + "/gone.jpg", withDestinationPath: scratch.file("nowhere.jpg"))
        // 2.16 megapixels against a limit of 1: refused by its header, before any pixel is read.
        _ = try scratch.copy(Fixtures.path("exif-orientation/Landscape_1.jpg"), to: "photos/large.jpg")
        _ = try scratch.copy(photos + "/a.jpg", to: "photos/copy of a.jpg")
        let out = scratch.file("book.pdf"), reportPath = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", out, "--max-pixels", "1000000", "--report", reportPath])
        #expect(run.status == 0, "\(run.stderr)")
        try ReportSchema.expectValid(reportPath)
        let report = try ReadReport(path: reportPath)
        var kinds: [String: String] = [:]
        for photo in report.photos { kinds[URL(fileURLWithPath: photo.path).lastPathComponent] = photo.failureKind ?? photo.outcome }
        #expect(kinds == ["a.jpg": "succeeded", "b.jpg": "succeeded", "broken.jpg": "corrupt", "notes.jpg": "unsupported",
                          "empty.jpg": "corrupt", "gone.jpg": "unreadable", "large.jpg": "tooLarge",
                          "copy of a.jpg": "duplicate"], "\(kinds)")
        #expect(report.book.outcome == "succeeded" && report.book.failureKind == nil)
    }

    @Test func aStrictFailureIsReportedAndWritesNoBook() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        try DistinctPhotos.write(into: photos, count: 2)
        try DistinctPhotos.writeTruncated(into: photos)
        let out = scratch.file("book.pdf"), reportPath = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", out, "--strict", "--report", reportPath])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        try ReportSchema.expectValid(reportPath)
        let report = try ReadReport(path: reportPath)
        #expect(report.exitStatus == 1 && report.options.strict)
        #expect(report.book.outcome == "skipped" && report.book.pagesWritten == 0)
        #expect(report.book.failureKind == "refused")
        #expect(report.book.reason?.contains("--strict") == true, "\(report.book.reason ?? "no reason")")
        #expect(report.photo(named: "broken.jpg")?.outcome == "failed")
        #expect(Scratch.listing(scratch.path) == ["photos", "report.json"])
    }

    /// A book refused before a photo's turn leaves that photo not rendered for the book's reason: `skipped` with
    /// the book's kind, not `cancelled`, which only a stop that was asked for says.
    @Test func photosABookRefusedBeforeTheirTurnAreSkippedForItsReason() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        try DistinctPhotos.write(into: photos, count: 2)
        _ = try scratch.write("photos/notes.jpg", Array("a shopping list, not a photo\n".utf8))
        let (run, report) = try Run.photobookReporting(["build", photos, "-o", scratch.file("book.pdf"), "--strict"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(report.book.outcome == "skipped" && report.book.failureKind == "refused")
        #expect(report.kinds == ["a.jpg": "refused", "b.jpg": "refused", "notes.jpg": "unsupported"], "\(report.kinds)")
        #expect(report.photo(named: "a.jpg")?.outcome == "skipped")
        #expect(report.photo(named: "a.jpg")?.reason == "not rendered: " + (report.book.reason ?? ""))
    }

    @Test func aBuildWithNoUsablePhotoIsReported() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        try DistinctPhotos.writeTruncated(into: photos)
        let out = scratch.file("book.pdf"), reportPath = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", out, "--report", reportPath])
        #expect(run.status == 1, "\(run.stderr)")
        try ReportSchema.expectValid(reportPath)
        let report = try ReadReport(path: reportPath)
        #expect(report.book.outcome == "skipped" && report.book.reason == "no photo could be used")
        #expect(report.book.failureKind == "refused")
        #expect(report.photos.map(\.outcome) == ["failed"])

        // A folder with no photo at all: nothing to probe, still a report.
        let empty = try scratch.sub("empty")
        let none = try Run.photobook(["build", empty, "-o", out, "--report", reportPath])
        #expect(none.status == 1, "\(none.stderr)")
        try ReportSchema.expectValid(reportPath)
        let nothing = try ReadReport(path: reportPath)
        #expect(nothing.book.outcome == "skipped" && nothing.photos.isEmpty && nothing.exitStatus == 1)
    }

    /// Ctrl-C while a photo is decoded, and while the PDF is written: exit 130, no book, and a report saying so.
    @Test(arguments: ["decode", "page"])
    func anInterruptedBuildLeavesAReport(at point: String) throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        try DistinctPhotos.write(into: photos, count: 3)
        let tmp = try scratch.sub("tmp")
        let out = scratch.file("book.pdf"), reportPath = scratch.file("report.json")
        let live = try LiveRun(Run.harness, ["build", photos, "-o", out, "--jobs", "1", "--report", reportPath],
                               environment: ["TMPDIR": tmp, "PHOTOBOOK_TEST_PAUSE": point])
        #expect(live.waitForStderr(containing: "test: paused at \(point)", timeout: 120), "\(live.stderr)")
        kill(live.pid, SIGINT)
        #expect(live.waitForExit(timeout: 60) == 130, "\(live.stderr)")
        #expect(Scratch.listing(scratch.path) == ["photos", "report.json", "tmp"], "\(Scratch.listing(scratch.path))")
        #expect(Scratch.listing(tmp).isEmpty)
        try ReportSchema.expectValid(reportPath)
        let report = try ReadReport(path: reportPath)
        #expect(report.exitStatus == 130 && report.book.outcome == "cancelled" && report.book.pagesWritten == 0)
        #expect(!report.photos.contains { $0.outcome == "failed" }, "nothing failed: it was stopped")
        if point == "page" {
            // Every photo was ready: the plan is complete, and says what the book would have been.
            #expect(report.book.pages.count == 3 && report.photos.allSatisfy { $0.outcome == "succeeded" && $0.page != nil })
        }
    }

    @Test func aReportGoesToStandardOutputWithADash() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        try DistinctPhotos.write(into: photos, count: 2)
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", photos, "-o", out, "--report", "-"])
        #expect(run.status == 0, "\(run.stderr)")
        let saved = try scratch.write("stdout.json", Array(run.stdout.utf8))
        try ReportSchema.expectValid(saved)
        let report = try ReadReport(path: saved)
        #expect(report.book.outcome == "succeeded")
        try expectReport(report, matches: out, scratch: scratch)
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    /// An old report is replaced whole, and nothing is left beside it.
    @Test func aReportReplacesTheOldOneAtomically() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        try DistinctPhotos.write(into: photos, count: 1)
        let reportPath = try scratch.write("report.json", Array("{\"old\": true}".utf8))
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf"), "--report", reportPath])
        #expect(run.status == 0, "\(run.stderr)")
        try ReportSchema.expectValid(reportPath)
        #expect(Scratch.listing(scratch.path) == ["book.pdf", "photos", "report.json"])
    }

    /// A report that cannot be written is a usage error found before any photo is read, as for -o.
    @Test(arguments: [("missing/report.json", "does not exist"), ("book.pdf", "would overwrite the book"),
                      ("photos", "is a folder"), ("photos/a.jpg", "one of the inputs")])
    func aReportPathThatCannotBeWrittenStopsTheBuildAtOnce(_ name: String, _ reason: String) throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        try DistinctPhotos.write(into: photos, count: 1)
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", photos, "-o", out, "--report", scratch.file(name)])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: error: \(scratch.file(name)): --report: "), "\(run.stderr)")
        #expect(run.stderr.contains(reason), "\(run.stderr)")
        #expect(Scratch.listing(scratch.path) == ["photos"])
        #expect(Scratch.listing(photos) == ["a.jpg"])
    }

    /// The validator is not a formality: a report that breaks the schema is refused.
    @Test func theSchemaRefusesAReportThatBreaksIt() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        try DistinctPhotos.write(into: photos, count: 1)
        let reportPath = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf"), "--report", reportPath])
        #expect(run.status == 0, "\(run.stderr)")
        try ReportSchema.expectValid(reportPath)
        let text = try String(contentsOfFile: reportPath, encoding: .utf8)
        let breakages = [
            text.replacingOccurrences(of: "\"outcome\" : \"succeeded\"", with: "\"outcome\" : \"done\""),
            text.replacingOccurrences(of: "\"schema\" : 2", with: "\"schema\" : 1"),
            text.replacingOccurrences(of: "\"timings\"", with: "\"timing\""),
        ]
        for (n, broken) in breakages.enumerated() {
            #expect(broken != text)
            let path = try scratch.write("broken-\(n).json", Array(broken.utf8))
            #expect(try ReportSchema.problems(in: path) != nil, "breakage \(n) passed the schema")
        }
    }
}
