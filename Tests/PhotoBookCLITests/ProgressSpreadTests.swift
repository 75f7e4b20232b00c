import Foundation
import TestSupport
import Testing

/// The progress line of a book with a spread, on a real terminal: three photos, one of them a panorama on two
/// pages, so four images in the PDF; no line may count more photos than the book has.
@Suite(.serialized) struct ProgressSpreadTests {
    @Test func noLineCountsMorePhotosThanTheBookHas() throws {
        let scratch = try Scratch()
        let folder = try SpreadAccountTests.photos(scratch)
        let out = scratch.file("book.pdf")
        let (status, shown) = try ProgressTests().onATerminal(["build", folder, "-o", out] + SpreadAccountTests.options)
        #expect(status == 0, "\(shown.debugDescription)")
        #expect(try PDFFacts(out).images.count == 4)
        let counts = shown.matches(of: /photo ([0-9]+) of ([0-9]+)|([0-9]+) of ([0-9]+) photos/).map { match in
            Int(match.output.2 ?? match.output.4 ?? "") ?? -1
        }
        #expect(!counts.isEmpty && counts.allSatisfy { $0 == 3 }, "the book has 3 photos: \(shown.debugDescription)")
        #expect(shown.contains("saving the book, image 4 of 4"), "the save counts the PDF's images: \(shown.debugDescription)")
    }
}
