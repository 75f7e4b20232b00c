import Foundation
import TestSupport
import Testing

/// `--report` with `--pad-to`: the blank pages added at the end are counted in `book.blankPages` and, as
/// docs/report.md says, not listed in `book.pages`; a blank page a spread needs inside the book is listed.
@Suite(.serialized) struct ReportPaddingTests {
    @Test func thePaddingIsCountedNotListed() throws {
        let scratch = try Scratch()
        let folder = try scratch.sub("photos")
        _ = try DistinctPhotos.write(into: folder)
        let out = scratch.file("book.pdf"), json = scratch.file("report.json")
        let run = try Run.photobook(["build", folder, "-o", out, "--report", json, "--pad-to", "4"])
        #expect(run.status == 0, "\(run.stderr)")
        try ReportSchema.expectValid(json)
        let report = try ReadReport(path: json)
        #expect(try PDFFacts(out).pages == 8)
        #expect(report.book.blankPages == 3)
        #expect(report.book.pages.map(\.number) == [1, 2, 3, 4, 5], "\(report.book.pages.map(\.arrangement))")
        try ReportTests().expectReport(report, matches: out, scratch: scratch)
    }

    @Test func aSpreadsBlankPageIsListedAndThePaddingIsNot() throws {
        let scratch = try Scratch()
        _ = try scratch.sub("photos")
        try SpreadTests.panorama(scratch.file("photos/wide.png"), width: 1188, height: 324)
        let out = scratch.file("book.pdf"), json = scratch.file("report.json")
        let run = try Run.photobook(["build", scratch.file("photos"), "-o", out, "--report", json, "--spreads",
                                     "--page-size", "288x144pt", "--pad-to", "4"])
        #expect(run.status == 0, "\(run.stderr)")
        try ReportSchema.expectValid(json)
        let report = try ReadReport(path: json)
        // Page 1 is left blank for the spread on pages 2 and 3; page 4 pads the book to 4 pages.
        #expect(try PDFFacts(out).pages == 4)
        #expect(try PDFFacts(out).images.map(\.page) == [2, 3])
        #expect(report.book.blankPages == 1)
        #expect(report.book.pages.map(\.arrangement) == ["blank", "spread, left half", "spread, right half"])
        #expect(report.book.pages.count + report.book.blankPages == report.book.pagesWritten)
    }
}
