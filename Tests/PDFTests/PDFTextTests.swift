import Foundation
import Testing

@testable import PDF
import TestSupport

/// Text drawn with the embedded font comes back exactly from the real tools, at the place and width promised.
@Suite struct PDFTextTests {
    static let lines = [
        "Café à Zürich", "Ελληνικά", "Кириллица", "naïve – “quotes” — …",
        String((0..<200).map { i in Array("abcdefghijklmnopqrstuvwxyz0123456789")[i % 36] }),
    ]

    /// One line per text on an A4 page, each in its own size.
    static func book(_ texts: [String], in dir: String) throws -> String {
        let doc = try PDFDocument()
        let font = try doc.loadFont(path: PDFFont.defaultPath)
        let page = try doc.addPage(width: 595.28, height: 841.89)
        for (index, text) in texts.enumerated() {
            // The 200-character line at 4 pt is 4 * 0.6 * 200 ≈ 480 pt: it fits the page width.
            try page.drawText(text, font: font, size: text.count > 100 ? 4 : 14, x: 36, y: 800 - 30 * Double(index))
        }
        let path = dir + "/book.pdf"
        try doc.save(to: path)
        return path
    }

    @Test func pdftotextGivesBackExactlyWhatWasDrawn() throws {
        try Tools.withTempDirectory { dir in
            let pdf = try Self.book(Self.lines, in: dir)
            #expect(try Tools.qpdfCheck(pdf))
            let text = try Tools.run("pdftotext", ["-enc", "UTF-8", "-layout", pdf, "-"])
            let got = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            #expect(got == Self.lines)
        }
    }

    @Test func theFontIsEmbeddedAsASubset() throws {
        try Tools.withTempDirectory { dir in
            let pdf = try Self.book(["Café"], in: dir)
            let rows = try Tools.run("pdffonts", [pdf]).split(separator: "\n").dropFirst(2)
            #expect(rows.count == 1)
            let fields = try #require(rows.first).split(separator: " ").map(String.init)
            // name, type (3 words), encoding, emb, sub, uni, object, generation
            #expect(fields[0].hasSuffix("+DejaVuSans"), "a subset's name carries a tag: \(fields[0])")
            #expect(fields[1...3] == ["CID", "TrueType", "Identity-H"])
            #expect(fields[4...6] == ["yes", "yes", "yes"], "emb sub uni: \(fields)")
            // A subset made by HarfBuzz, compressed: a few kB against the 760 kB font file (libharu's was 90 kB).
            #expect(try Fixtures.read(pdf).count < 20_000)
        }
    }

    /// The text lands where asked, and takes the width PDFFontMetrics promised (pdftotext's word boxes).
    @Test(arguments: ["Zürich", "Ελληνικά", "WAVE", "naïve"])
    func textStartsAtTheBaselineOriginAndIsAsWideAsMeasured(word: String) throws {
        try Tools.withTempDirectory { dir in
            let metrics = try PDFFontMetrics(path: PDFFont.defaultPath)
            let doc = try PDFDocument()
            let page = try doc.addPage(width: 400, height: 300)
            try page.drawText(word, font: doc.loadFont(path: PDFFont.defaultPath), size: 20, x: 50, y: 100)
            try doc.save(to: dir + "/book.pdf")
            let html = try Tools.run("pdftotext", ["-bbox", dir + "/book.pdf", "-"])
            let box = try #require(html.split(separator: "\n").first { $0.contains("<word") })
            func value(_ key: String) -> Double? {
                guard let start = box.range(of: key + "=\"") else { return nil }
                return Double(box[start.upperBound...].prefix { $0 != "\"" })
            }
            // pdftotext boxes run top-down from the page's top; the box spans ascent to descent.
            let (xMin, xMax) = (try #require(value("xMin")), try #require(value("xMax")))
            let (yMin, yMax) = (try #require(value("yMin")), try #require(value("yMax")))
            #expect(abs(xMin - 50) < 0.001)
            #expect(abs((xMax - xMin) - metrics.width(of: word, size: 20)) < 0.001)
            #expect(abs(yMax - (300 - 100 - 20 * metrics.descent)) < 0.01, "bottom \(yMax)")
            #expect(abs(yMin - (300 - 100 - 20 * metrics.ascent)) < 0.01, "top \(yMin)")
        }
    }

    @Test func greyTextIsFilledGreyAndTheStateIsRestored() throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            let page = try doc.addPage(width: 200, height: 100)
            let font = try doc.loadFont(path: PDFFont.defaultPath)
            try page.drawText("grey", font: font, size: 12, x: 10, y: 50, gray: 0.5)
            try page.drawText("black", font: font, size: 12, x: 100, y: 50)
            try doc.save(to: dir + "/book.pdf")
            let content = try Tools.run("qpdf", ["--qdf", "--object-streams=disable", dir + "/book.pdf", "-"])
            #expect(content.contains("q\n0.5 g\nBT"))
            #expect(content.contains("Q\nq\n0 g\nBT"))
        }
    }

    /// A character beyond U+FFFF that the font has is drawn and measured as itself; a tab is a space.
    @Test func charactersBeyondTheBasicPlaneAreDrawnAsThemselves() throws {
        try Tools.withTempDirectory { dir in
            let pdf = try Self.book(["Sun 😀 day\tend"], in: dir)
            let text = try Tools.run("pdftotext", ["-enc", "UTF-8", pdf, "-"])
            #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == "Sun 😀 day end")
            let metrics = try PDFFontMetrics(path: PDFFont.defaultPath)
            #expect(metrics.width(of: "😀", size: 10) != metrics.width(of: "\u{FFFD}", size: 10))
            #expect(metrics.width(of: "\t", size: 10) == metrics.width(of: " ", size: 10))
        }
    }

    @Test func theSameFontLoadedTwiceIsEmbeddedOnce() throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            let page = try doc.addPage(width: 200, height: 100)
            try page.drawText("one", font: doc.loadFont(path: PDFFont.defaultPath), size: 12, x: 10, y: 60)
            try page.drawText("two", font: doc.loadFont(path: PDFFont.defaultPath), size: 12, x: 10, y: 30)
            try doc.save(to: dir + "/book.pdf")
            #expect(try Tools.run("pdffonts", [dir + "/book.pdf"]).split(separator: "\n").count == 3)
        }
    }
}
