import Foundation
import Testing

@testable import PDF
import TestSupport
import Typeface

/// A top-to-bottom run drawn with `PDFPage.drawGlyphs`: a column of upright glyphs hanging from its top centre,
/// punctuation in its vertical forms, as long as measured, read back as typed (a Japanese spine).
@Suite struct VerticalTextTests {
    static let cjk = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc#0"
    static let title = "東京の旅「二〇二六」。"
    static let size = 24.0
    /// The page, and the column's top centre on it.
    static let page = (width: 200.0, height: 400.0)
    static let top = (x: 100.0, y: 370.0)

    static func column(_ text: String = title, face: FontFace) -> PDFGlyphRun {
        PDFGlyphRun(text: text, glyphs: face.shape(text, direction: .topToBottom, language: "ja"), direction: .topToBottom)
    }

    /// `run` drawn from the top centre on a page of its own, saved; and the column's length as measured.
    static func draw(_ run: PDFGlyphRun, face: FontFace, in dir: String) throws -> (pdf: String, length: Double) {
        let doc = try PDFDocument()
        let page = try doc.addPage(width: Self.page.width, height: Self.page.height)
        let font = try doc.loadFont(face: face)
        try page.drawGlyphs(run, font: font, size: size, x: top.x, y: top.y)
        let path = dir + "/column.pdf"
        try doc.save(to: path)
        return (path, font.width(of: run, size: size))
    }

    /// One `<word>` of `pdftotext -bbox`: its text and box, y down from the top of the page.
    struct Word {
        let text: String
        let xMin: Double, yMin: Double, xMax: Double, yMax: Double
    }

    static func words(_ pdf: String) throws -> [Word] {
        let html = try Tools.run("pdftotext", ["-bbox", "-enc", "UTF-8", pdf, "-"])
        let pattern = /<word xMin="([-0-9.]+)" yMin="([-0-9.]+)" xMax="([-0-9.]+)" yMax="([-0-9.]+)">([^<]*)<\/word>/
        return html.matches(of: pattern).map { match in
            Word(text: String(match.5), xMin: Double(match.1)!, yMin: Double(match.2)!, xMax: Double(match.3)!, yMax: Double(match.4)!)
        }
    }

    /// poppler reads the column one character to a word, each glyph's cell (its pen down to the next pen) right
    /// below the one before and centred on the column, the first starting at the top, the last ending where the
    /// measured length does; the text is the title as typed.
    ///
    /// Trap: poppler's -bbox box is not the glyph's cell but its baseline less the FontDescriptor's /Ascent down
    /// to less its /Descent: for Noto Sans CJK hhea's 1160 and -288, 1.448 em, so the boxes of a column set an em
    /// apart overlap by 0.448 em. The test takes the baseline back out of each box and the pen from the baseline
    /// (HarfBuzz's offset: 0.88 em above it).
    @Test func theCharactersAreStackedDownTheColumnAndReadAsTyped() throws {
        try Tools.withTempDirectory { dir in
            let face = try FontFace(path: Self.cjk)
            let run = Self.column(face: face)
            let (pdf, length) = try Self.draw(run, face: face, in: dir)
            let words = try Self.words(pdf)
            #expect(words.map(\.text).joined() == Self.title)
            try #require(words.count == run.glyphs.count, "\(words.map(\.text))")
            let scale = Self.size / Double(face.unitsPerEm)
            let ascent = Double(face.ascender) * scale, descent = Double(face.descender) * scale
            // Down from the top of the page, as pdftotext gives it.
            let top = Self.page.height - Self.top.y
            let cells = zip(words, run.glyphs).map { word, glyph in
                #expect(abs(word.yMax - word.yMin - (ascent - descent)) < 0.01, "\(word.text)'s box is not poppler's ascent to descent")
                let pen = word.yMin + ascent + Double(glyph.yOffset) * scale
                return (top: pen, bottom: pen - Double(glyph.yAdvance) * scale)
            }
            #expect(abs(cells[0].top - top) < 0.01, "first cell at \(cells[0].top), column at \(top)")
            for (number, (above, below)) in zip(cells, cells.dropFirst()).enumerated() {
                let text = (words[number].text, words[number + 1].text)
                #expect(below.top >= above.bottom - 0.01, "\(text.1) at \(below.top) overlaps \(text.0) ending at \(above.bottom)")
                #expect(below.top <= above.bottom + 0.01, "a gap between \(text.0) and \(text.1)")
            }
            for word in words {
                #expect(abs((word.xMin + word.xMax) / 2 - Self.top.x) < 2, "\(word.text) from \(word.xMin) to \(word.xMax)")
            }
            #expect(abs(cells[cells.count - 1].bottom - (top + length)) < 0.01, "column ends \(cells[cells.count - 1].bottom), measured \(top + length)")
            #expect(length == Self.size * Double(Self.title.count), "every glyph of this title is one em down")

            let text = try Tools.run("pdftotext", ["-enc", "UTF-8", pdf, "-"])
            #expect(text.filter { !$0.isWhitespace } == Self.title, "\(text)")
            #expect(try Tools.qpdfCheck(pdf))
        }
    }

    /// MuPDF reads the glyphs in the order written, which is the order typed.
    @Test func mutoolReadsTheColumnAsTyped() throws {
        try Tools.withTempDirectory { dir in
            let face = try FontFace(path: Self.cjk)
            let (pdf, _) = try Self.draw(Self.column(face: face), face: face, in: dir)
            let text = try Tools.run("mutool", ["draw", "-q", "-F", "txt", "-o", "-", pdf])
            #expect(text.filter { !$0.isWhitespace } == Self.title, "\(text)")
        }
    }

    /// The content stream shows the `vert` forms (「 as 0xE67E = 59006, 」 59007, 。 58981 in Noto Sans CJK JP),
    /// each glyph upright with a Tm of its own, in the order typed.
    @Test func theVerticalFormsAreDrawnUprightOneTmEach() throws {
        try Tools.withTempDirectory { dir in
            let face = try FontFace(path: Self.cjk)
            let run = Self.column(face: face)
            let (pdf, _) = try Self.draw(run, face: face, in: dir)
            let codes = try GlyphRunTests.shownCodes(pdf)
            #expect(codes == run.glyphs.map { face.code(of: $0.glyph) })
            #expect(codes[4] == 0xE67E && codes[9] == 59007 && codes[10] == 58981, "\(codes)")
            #expect(codes[4] != face.glyph(for: "「"), "the horizontal 「 was drawn")
            let content = try Tools.run("qpdf", ["--qdf", "--normalize-content=n", "--object-streams=disable", pdf, "-"])
            let matrices = content.split(separator: "\n").filter { $0.hasSuffix(" Tm") }
            #expect(matrices.count == Self.title.count)
            #expect(matrices.allSatisfy { $0.hasPrefix("1 0 0 1 ") }, "\(matrices)")
        }
    }

    /// Rendered by poppler, the ink lies in the column's strip: one em wide about its centre, from its top down
    /// its measured length; and there is ink in its top and bottom cells.
    @Test func theInkStaysInTheColumn() throws {
        try Tools.withTempDirectory { dir in
            let face = try FontFace(path: Self.cjk)
            let (pdf, length) = try Self.draw(Self.column(face: face), face: face, in: dir)
            let dpi = 144.0, scale = dpi / 72
            try Tools.run("pdftoppm", ["-r", "\(Int(dpi))", "-singlefile", pdf, dir + "/column"])
            let raster = try RGBRaster(ppm: Fixtures.read(dir + "/column.ppm"))
            let strip = (left: (Self.top.x - Self.size / 2) * scale, right: (Self.top.x + Self.size / 2) * scale,
                         top: (Self.page.height - Self.top.y) * scale, bottom: (Self.page.height - Self.top.y + length) * scale)
            var outside: [(Int, Int)] = [], inkTop = Double.infinity, inkBottom = 0.0
            for y in 0..<raster.height {
                for x in 0..<raster.width {
                    let pixel = raster[x, y]
                    guard pixel.r + pixel.g + pixel.b < 3 * 200 else { continue }
                    let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
                    if px < strip.left - 1 || px > strip.right + 1 || py < strip.top - 1 || py > strip.bottom + 1 { outside.append((x, y)) }
                    inkTop = min(inkTop, py)
                    inkBottom = max(inkBottom, py)
                }
            }
            #expect(outside.isEmpty, "\(outside.count) inked pixels outside the strip, first \(outside.prefix(5))")
            // 東 nearly fills the first cell; 。 sits at the top right of the last one.
            #expect(inkTop < strip.top + Self.size * scale * 0.2, "ink starts at \(inkTop), column at \(strip.top)")
            #expect(inkBottom > strip.bottom - Self.size * scale, "ink ends at \(inkBottom), column at \(strip.bottom)")
        }
    }

    /// What the planner measures is what the page draws: the column's length, in both measures.
    @Test func theMeasuredLengthIsTheSameWithoutADocument() throws {
        let face = try FontFace(path: Self.cjk)
        let run = Self.column(face: face)
        let doc = try PDFDocument()
        let drawn = try doc.loadFont(face: face).width(of: run, size: 10.5)
        #expect(drawn == PDFFontMetrics(face: face).width(of: run, size: 10.5))
        #expect(drawn == 10.5 * Double(run.glyphs.count))
        // A column of a face without vertical metrics: HarfBuzz's line-height advances, summed.
        let dejaVu = try FontFace(path: PDFFont.defaultPath)
        let latin = PDFGlyphRun(text: "Ab", glyphs: dejaVu.shape("Ab", direction: .topToBottom), direction: .topToBottom)
        let expected = Double(2 * (dejaVu.ascender - dejaVu.descender)) * 10.5 / Double(dejaVu.unitsPerEm)
        #expect(try doc.loadFont(face: dejaVu).width(of: latin, size: 10.5) == expected)
    }

    /// A glyph that stands for other text than it did before gets the column's text as /ActualText, and poppler
    /// reads the column as typed from it.
    @Test func aColumnThatWouldNotReadBackCarriesItsText() throws {
        try Tools.withTempDirectory { dir in
            let face = try FontFace(path: Self.cjk)
            let doc = try PDFDocument()
            let page = try doc.addPage(width: Self.page.width, height: Self.page.height)
            let font = try doc.loadFont(face: face)
            let first = Self.column("東京", face: face)
            try page.drawGlyphs(first, font: font, size: Self.size, x: 150, y: Self.top.y)
            // 京 drawn with 東's glyph: the ToUnicode already says 東 for it.
            let forged = PDFGlyphRun(text: "京都", glyphs: [first.glyphs[0]] + Self.column("都", face: face).glyphs.map {
                ShapedGlyph(glyph: $0.glyph, cluster: 1, xAdvance: $0.xAdvance, xOffset: $0.xOffset, yOffset: $0.yOffset, yAdvance: $0.yAdvance)
            }, direction: .topToBottom)
            try page.drawGlyphs(forged, font: font, size: Self.size, x: 50, y: Self.top.y)
            try doc.save(to: dir + "/forged.pdf")
            let content = try Tools.run("qpdf", ["--qdf", "--normalize-content=n", "--object-streams=disable", dir + "/forged.pdf", "-"])
            #expect(content.components(separatedBy: "/ActualText").count == 2, "only the forged column carries its text")
            let text = try Tools.run("pdftotext", ["-enc", "UTF-8", dir + "/forged.pdf", "-"]).filter { !$0.isWhitespace }
            #expect(text.contains("京都") && text.contains("東京"), "\(text)")
        }
    }
}
