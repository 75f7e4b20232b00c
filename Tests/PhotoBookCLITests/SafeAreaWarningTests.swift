import Foundation
import TestSupport
import Testing

/// The warning for words outside the ArtBox, as a person reads it: a preset's safety margin (Lulu: 0.5 in) wider
/// than the margin given puts the captions and page numbers outside it, and pdftotext finds them there.
@Suite(.serialized) struct SafeAreaWarningTests {
    @Test func aPageNumberOutsideTheArtBoxIsNamedInWords() throws {
        let scratch = try Scratch()
        _ = try scratch.sub("photos")
        try SpreadTests.photo(scratch.file("photos/a.jpg"))
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", scratch.file("photos"), "-o", out, "--preset", "lulu-a4", "--margin", "2mm",
                                     "--page-numbers", "--dpi", "10"])
        #expect(run.status == 0, "\(run.stderr)")
        // The number's baseline is within 12.7 mm of the trim's bottom edge: below the ArtBox (pdftotext, top down).
        let boxes = try SpreadTests.boxes(out, pages: 1)
        let art = try #require(boxes[1]?["ArtBox"]), media = try #require(boxes[1]?["MediaBox"])
        let words = try Run.command("/usr/bin/pdftotext", ["-bbox", out, "-"])
        let found = try #require(words.stdout.firstMatch(of: /yMax="([0-9.]+)">1</)?.output.1, "\(words.stdout)")
        let yMax = try #require(Double(found))
        #expect(yMax > media[3] - art[1], "\(words.stdout)")
        #expect(run.stderr.contains("page 1: the page number \"1\" reaches outside the safe area (ArtBox)"), "\(run.stderr)")
    }
}
