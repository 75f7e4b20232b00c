import Foundation
import TestSupport
import Testing

/// What the dry run and the report say about a panorama across a spread, against the PDF the build writes: one
/// photo of the book on two pages, its caption where the right-hand page prints it, its crop what both halves show.
@Suite(.serialized) struct SpreadAccountTests {
    /// A photo, a panorama, a photo: three photos, four pages, the panorama on pages 2 and 3.
    static func photos(_ scratch: Scratch) throws -> String {
        let folder = try scratch.sub("photos")
        try SpreadTests.photo(scratch.file("photos/alpha.png"))
        try SpreadTests.panorama(scratch.file("photos/bravo-panorama.png"), width: 1188, height: 324)
        try SpreadTests.photo(scratch.file("photos/charlie.png"), colours: "green-yellow")
        return folder
    }

    static let options = ["--spreads", "--page-size", "288x144pt", "--bleed", "0.125in", "--crop-marks"]

    @Test func theDryRunCountsThePanoramaOnceAndListsItsCaption() throws {
        let scratch = try Scratch()
        let folder = try Self.photos(scratch)
        let out = scratch.file("book.pdf")
        let build = try Run.photobook(["build", folder, "-o", out, "--captions", "name"] + Self.options)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(try PDFFacts(out).pages == 4)
        let printed = try SpreadWordsTests.text(out, page: 3)
        #expect(printed == "bravo-panorama", "the PDF's right-hand half: \(printed)")

        let dry = try Run.photobook(["build", folder, "--dry-run", "--captions", "name"] + Self.options)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr.contains("dry run: 4 pages, 3 photos;"), "three photo files, one of them on two pages: \(dry.stderr)")
        let pages = DryRunTests.pages(dry.stdout, verbose: false)
        #expect(pages.count == 4, "\(dry.stdout)")
        if pages.count == 4 {
            #expect(pages[1].captions == [], "\(dry.stdout)")
            #expect(pages[2].captions == [printed], "the right-hand half's caption as the PDF prints it: \(dry.stdout)")
        }
    }

    /// At 2 pixels per point the 1188x324 panorama is exactly the spread's canvas (two 288-pt pages and the outer
    /// bleeds): the halves show all of it, as `cropShare` 0 says, so its `crop` is the whole photo.
    @Test func theReportedCropIsWhatBothHalvesShow() throws {
        let scratch = try Scratch()
        let folder = try Self.photos(scratch)
        let out = scratch.file("book.pdf"), json = scratch.file("report.json")
        let run = try Run.photobook(["build", folder, "-o", out, "--report", json, "--dpi", "144"] + Self.options)
        #expect(run.status == 0, "\(run.stderr)")
        try ReportSchema.expectValid(json)
        let report = try ReadReport(path: json)
        let panorama = try #require(report.photo(named: "bravo-panorama.png"))
        #expect(report.book.pages.filter { $0.photos == [panorama.index] }.map(\.number) == [2, 3])
        // Both halves are in the PDF, each a little more than half the panorama (its own bleed at the gutter).
        let halves = try PDFFacts(out).images.filter { [2, 3].contains($0.page) }
        #expect(halves.count == 2 && halves.allSatisfy { $0.width > 1188 / 2 && $0.height == 324 }, "\(halves)")
        let crop = try #require(panorama.crop)
        #expect(abs(crop.x) < 0.5 && abs(crop.y) < 0.5 && abs(crop.width - 1188) < 0.5 && abs(crop.height - 324) < 0.5,
                "the crop shown across both halves: \(crop)")
        let share = try #require(panorama.cropShare)
        #expect(abs(share - (1 - crop.width * crop.height / (1188 * 324))) < 0.01, "cropShare \(share) against crop \(crop)")
    }
}
