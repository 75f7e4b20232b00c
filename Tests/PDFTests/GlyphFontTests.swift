import Foundation
import Testing

@testable import PDF
import TestSupport

/// The book's font is embedded as our own Type0 / CIDFontType2 font whose FontFile2 is a subset made by
/// HarfBuzz: every glyph drawn has its outline (composites included), the text extracts as typed, characters
/// beyond U+FFFF are drawn, and the embedded font is small.
@Suite struct GlyphFontTests {
    static let greek = "Βόλτα το απόγευμα"

    /// One line of `text` in DejaVu Sans at `size` points, baseline at (20, 40), on a page `width` x 100 pt.
    static func line(_ text: String, size: Double = 40, width: Double = 600, in dir: String, name: String = "line") throws -> String {
        let doc = try PDFDocument()
        let page = try doc.addPage(width: width, height: 100)
        try page.drawText(text, font: doc.loadFont(path: PDFFont.defaultPath), size: size, x: 20, y: 40)
        let path = dir + "/\(name).pdf"
        try doc.save(to: path)
        return path
    }

    /// In DejaVu Sans ό is a composite of omicron and tonos, and omicron a composite of o: libharu's subset kept
    /// omicron but not the o inside it once ό came first, so every ο after it printed blank.
    @Test func everyGreekLetterHasInk() throws {
        try Tools.withTempDirectory { dir in
            let pdf = try Self.line(Self.greek, in: dir)
            let dpi = 144, scale = Double(dpi) / 72
            let raster = try Tools.render(pdf, dpi: dpi)
            let metrics = try PDFFontMetrics(path: PDFFont.defaultPath)
            var prefix = ""
            for character in Self.greek {
                let left = 20 + metrics.width(of: prefix, size: 40)
                prefix.append(character)
                let right = 20 + metrics.width(of: prefix, size: 40)
                guard character != " " else { continue }
                // The advance box, a fifth in from each side, from the descender to the ascender.
                let inset = (right - left) / 5
                let xs = Int((left + inset) * scale)..<Int((right - inset) * scale)
                let ys = Int((100 - 40 - 40 * metrics.ascent) * scale)..<Int((100 - 40 - 40 * metrics.descent) * scale)
                var ink = 0
                for y in ys { for x in xs where raster[x, y].g < 128 { ink += 1 } }
                #expect(ink > 20, "'\(character)' at \(left)...\(right) pt has no ink (\(ink) dark pixels)")
            }
        }
    }

    @Test func greekExtractsAsTypedFromACIDTrueTypeFontWithoutWarnings() throws {
        try Tools.withTempDirectory { dir in
            let pdf = try Self.line(Self.greek, in: dir)
            let text = try Tools.runCapturingErrors("pdftotext", ["-enc", "UTF-8", pdf, "-"])
            #expect(text.output.trimmingCharacters(in: .whitespacesAndNewlines) == Self.greek)
            #expect(text.errors.isEmpty, "poppler complained: \(text.errors)")
            let fonts = try Tools.runCapturingErrors("pdffonts", [pdf])
            #expect(fonts.errors.isEmpty, "poppler complained: \(fonts.errors)")
            let row = try #require(fonts.output.split(separator: "\n").dropFirst(2).first).split(separator: " ")
            #expect(row[1...3] == ["CID", "TrueType", "Identity-H"])
            #expect(row[4...6] == ["yes", "yes", "yes"], "emb sub uni: \(row)")
            #expect(try Tools.qpdfCheck(pdf))
        }
    }

    /// libharu embedded ~87 kB for one line (every table whole, every glyph slot); hb-subset's is ~6 kB.
    @Test func theEmbeddedFontFileOfOneLineIsSmall() throws {
        try Tools.withTempDirectory { dir in
            let pdf = try Self.line(Self.greek, in: dir)
            let objects = try ToUnicodeTests.objects(pdf, streamData: "none")
            let files = objects.values.compactMap { $0["stream"] as? [String: Any] }
                .compactMap { $0["dict"] as? [String: Any] }.filter { $0["/Length1"] != nil }
            #expect(files.count == 1)
            // libharu writes a stream's /Length as a reference to an object written after it.
            let length = files.first?["/Length"]
            let stored = try #require(length as? Int ?? (objects["obj:\(length ?? "")"]?["value"] as? Int))
            #expect(stored < 15_000, "the FontFile2 is \(stored) bytes")
            #expect(try Fixtures.read(pdf).count < 20_000)
        }
    }

    /// DejaVu Sans has U+1F600 (a monochrome face): it is drawn as that glyph, not as the U+FFFD box, and
    /// extracts as itself.
    @Test func aCharacterBeyondTheBasicPlaneIsDrawnAndExtracts() throws {
        try Tools.withTempDirectory { dir in
            #expect(try PDFFontMetrics(path: PDFFont.defaultPath).covers("\u{1F600}"))
            let smile = try Self.line("\u{1F600}", size: 60, width: 120, in: dir, name: "smile")
            let box = try Self.line("\u{FFFD}", size: 60, width: 120, in: dir, name: "box")
            #expect(try Tools.render(smile).meanDifference(to: Tools.render(box)) > 2)
            let text = try Tools.run("pdftotext", ["-enc", "UTF-8", smile, "-"])
            #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == "\u{1F600}")
        }
    }

    /// Text whose glyphs cannot give it back through ToUnicode extracts as typed all the same (its line carries
    /// /ActualText): characters the font lacks, all drawn as .notdef ("東京の旅" came out "東東東東"), and two
    /// characters the font draws with one glyph (Ω U+03A9 and the ohm sign U+2126). Other lines carry none.
    @Test func textItsGlyphsCannotGiveBackExtractsAsTyped() throws {
        try Tools.withTempDirectory { dir in
            for typed in ["東京の旅 2026", "\u{03A9} \u{2126} \u{2126}\u{03A9}"] {
                let pdf = try Self.line(typed, in: dir)
                let text = try Tools.run("pdftotext", ["-enc", "UTF-8", pdf, "-"])
                #expect(Array(text.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars)
                        == Array(typed.unicodeScalars), "\(typed): \(text)")
            }
            let plain = try Self.line(Self.greek, in: dir)
            let content = try Tools.run("qpdf", ["--qdf", "--object-streams=disable", plain, "-"])
            #expect(!content.contains("ActualText"))
        }
    }

    /// The subset's tag comes from the glyphs and the face, never from a clock or a random number.
    @Test func theSameTextGivesTheSameBytes() throws {
        try Tools.withTempDirectory { dir in
            let first = try Self.line(Self.greek, in: dir, name: "first")
            let second = try Self.line(Self.greek, in: dir, name: "second")
            let other = try Self.line("Βόλτα", in: dir, name: "other")
            func fontName(_ pdf: String) throws -> String {
                String(try #require(Tools.run("pdffonts", [pdf]).split(separator: "\n").dropFirst(2).first?.split(separator: " ").first))
            }
            let name = try fontName(first)
            #expect(try name == fontName(second))
            #expect(try name != fontName(other))
            #expect(name.wholeMatch(of: /[A-Z]{6}\+DejaVuSans/) != nil, "\(name)")
        }
    }
}
