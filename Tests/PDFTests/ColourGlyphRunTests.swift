import Foundation
import Testing

@testable import PDF
import TestSupport
import Typeface

/// Colour emoji drawn with `PDFPage.drawColourGlyphs`: each glyph's PNG from Noto Color Emoji
/// (fonts-noto-color-emoji, make test-deps), embedded once, with its transparency, where HarfBuzz put it; the text
/// reads back as typed.
@Suite struct ColourGlyphRunTests {
    static let emoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
    static let text = "😀😀 🇯🇵"

    /// A 300 x 200 pt page, blue all over, with `text` at 48 pt from (20, 130) along the baseline and turned from
    /// (230, 190) down the page; saved as `dir`/emoji.pdf.
    static func page(in dir: String) throws -> (pdf: String, face: FontFace, run: PDFGlyphRun) {
        let doc = try PDFDocument()
        let page = try doc.addPage(width: 300, height: 200)
        let blue = try Tools.makeJPEG(["-size", "30x20", "xc:#2040C0"], in: dir, name: "blue.jpg")
        try page.draw(try doc.loadJPEG(blue), in: .init(x: 0, y: 0, width: 300, height: 200))
        let face = try FontFace(path: emoji)
        let run = PDFGlyphRun(text: text, glyphs: face.shape(text, direction: .leftToRight), direction: .leftToRight)
        let font = try doc.loadFont(path: PDFFont.defaultPath)
        try page.drawColourGlyphs(run, face: face, size: 48, x: 20, y: 130, textFont: font)
        try page.drawColourGlyphs(run, face: face, size: 48, x: 230, y: 190, turned: true)
        try doc.save(to: dir + "/emoji.pdf")
        return (dir + "/emoji.pdf", face, run)
    }

    @Test func picturesWithTheirTransparencyWhereHarfBuzzPutThem() throws {
        try Tools.withTempDirectory { dir in
            let (pdf, face, run) = try Self.page(in: dir)
            #expect(try Tools.qpdfCheck(pdf))
            let raster = try Tools.render(pdf)
            let smile = try #require(face.colourBitmap(of: run.glyphs[0].glyph))
            let scale = 48.0 / Double(face.unitsPerEm)
            // The middle of the first 😀 (yellow), and just inside its box's top left corner, outside the round face:
            // the blue page shows through.
            let centre = (x: 20 + (Double(smile.left) + Double(smile.width) / 2) * scale,
                          y: 130 + (Double(smile.top) - Double(smile.height) / 2) * scale)
            let yellow = raster[Int(centre.x), 200 - Int(centre.y)]
            #expect(yellow.r > 180 && yellow.g > 120 && yellow.b < 110, "\(yellow)")
            let corner = raster[Int(20 + Double(smile.left) * scale) + 2, 200 - Int(130 + Double(smile.top) * scale) + 2]
            #expect(corner.b > 150 && corner.r < 80, "\(corner)")
            // The second 😀 one advance on.
            let second = raster[Int(centre.x + Double(run.glyphs[0].xAdvance) * scale), 200 - Int(centre.y)]
            #expect(second.r > 180 && second.b < 110, "\(second)")
            // Turned: down the page from (230, 190), its top to the right.
            let turned = raster[Int(230 + (Double(smile.top) - Double(smile.height) / 2) * scale),
                                200 - Int(190 - (Double(smile.left) + Double(smile.width) / 2) * scale)]
            #expect(turned.r > 180 && turned.b < 110, "\(turned)")
        }
    }

    @Test func eachPictureOnceAndTheTextAsTyped() throws {
        try Tools.withTempDirectory { dir in
            let (pdf, _, _) = try Self.page(in: dir)
            // pdfimages lists each image drawn: the blue JPEG, then per run 😀, 😀 and the flag, each with its mask;
            // the objects drawn are three: the JPEG, and 😀 and the flag embedded once.
            let rows = try Tools.run("pdfimages", ["-list", pdf]).split(separator: "\n").dropFirst(2)
                .map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            #expect(rows.map { $0[2] } == ["image"] + Array(repeating: ["image", "smask"], count: 6).flatMap { $0 }, "\(rows)")
            #expect(Set(rows.filter { $0[2] == "image" }.map { $0[10] }).count == 3, "\(rows)")
            // The first run carries its text; the turned one, drawn without a text font, none.
            let read = try Tools.run("pdftotext", ["-enc", "UTF-8", pdf, "-"]).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(read == Self.text, "\(read)")
        }
    }

    @Test func aColourFaceIsNeverEmbeddedAsAFont() throws {
        let doc = try PDFDocument()
        #expect(throws: PDFError.self) { try doc.loadFont(face: try FontFace(path: Self.emoji)) }
        #expect(throws: PDFError.self) { try doc.loadFont(path: Self.emoji) }
    }
}
