import Foundation
import Testing

@testable import PDF
import TestSupport

/// Text turned a quarter clockwise (a book's spine): pdftotext finds it whole, running down from where it starts,
/// as long as the font says, with the letters' tops to the right; and the graphics state is left as it was.
@Suite struct PDFTurnedTextTests {
    @Test(arguments: ["Spine", "Zürich", "Ελληνικά"])
    func turnedTextRunsDownFromItsStartAndIsAsLongAsMeasured(word: String) throws {
        try Tools.withTempDirectory { dir in
            let metrics = try PDFFontMetrics(path: PDFFont.defaultPath)
            let doc = try PDFDocument()
            let page = try doc.addPage(width: 300, height: 400)
            try page.drawTextTopToBottom(word, font: doc.loadFont(path: PDFFont.defaultPath), size: 20, x: 100, y: 350)
            try doc.save(to: dir + "/turned.pdf")
            #expect(try Tools.qpdfCheck(dir + "/turned.pdf"))
            let html = try Tools.run("pdftotext", ["-bbox", dir + "/turned.pdf", "-"])
            let box = try #require(html.split(separator: "\n").first { $0.contains("<word") })
            #expect(box.contains(">\(word)</word>"), "\(box)")
            func value(_ key: String) -> Double? {
                guard let start = box.range(of: key + "=\"") else { return nil }
                return Double(box[start.upperBound...].prefix { $0 != "\"" })
            }
            let (xMin, xMax) = (try #require(value("xMin")), try #require(value("xMax")))
            let (yMin, yMax) = (try #require(value("yMin")), try #require(value("yMax")))
            // pdftotext measures y from the top: the word starts 50 pt down and runs its measured width further.
            #expect(abs(yMin - 50) < 0.01, "start \(yMin)")
            #expect(abs((yMax - yMin) - metrics.width(of: word, size: 20)) < 0.01, "length \(yMax - yMin)")
            // Across, the box spans the descent left of the baseline and the ascent right of it: tops face right.
            #expect(abs(xMin - (100 - 20 * abs(metrics.descent))) < 0.01, "left \(xMin)")
            #expect(abs(xMax - (100 + 20 * metrics.ascent)) < 0.01, "right \(xMax)")
        }
    }

    @Test func theTextMatrixTurnsAndTheStateIsRestored() throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            let page = try doc.addPage(width: 200, height: 200)
            let font = try doc.loadFont(path: PDFFont.defaultPath)
            try page.drawTextTopToBottom("down", font: font, size: 12, x: 50, y: 150, gray: 1)
            try page.drawText("across", font: font, size: 12, x: 100, y: 50)
            try doc.save(to: dir + "/turned.pdf")
            let content = try Tools.run("qpdf", ["--qdf", "--object-streams=disable", dir + "/turned.pdf", "-"])
            #expect(content.contains("q\n1 g\nBT"), "\(content)")
            #expect(content.contains("0 -1 1 0 50 150 Tm"), "\(content)")
            // The next line is set upright again, in black: the turn and the fill stayed inside q ... Q.
            #expect(content.contains("Q\nq\n0 g\nBT"), "\(content)")
            let text = try Tools.run("pdftotext", ["-enc", "UTF-8", dir + "/turned.pdf", "-"])
            #expect(text.contains("down") && text.contains("across"), "\(text)")
        }
    }
}
