import Foundation
import Testing

@testable import PDF
import TestSupport
import Typeface

/// Shaped runs drawn with `PDFPage.drawGlyphs`: the page shows HarfBuzz's glyphs at HarfBuzz's positions, the run
/// is as wide as measured, and poppler reads the text back as typed, right-to-left scripts included.
@Suite struct GlyphRunTests {
    static let dejaVu = PDFFont.defaultPath
    static let noto = "/usr/share/fonts/truetype/noto/"

    /// A string, the font it is drawn in, its direction.
    struct Sample: CustomTestStringConvertible, Sendable {
        let text: String
        let font: String
        var direction = TextDirection.leftToRight
        var testDescription: String { "\(text) (\((font as NSString).lastPathComponent))" }
    }

    static let arabic = Sample(text: "مرحبا بالعالم", font: noto + "NotoNaskhArabic-Regular.ttf", direction: .rightToLeft)
    static let lamAlef = Sample(text: "لا سلام", font: noto + "NotoSansArabic-Regular.ttf", direction: .rightToLeft)
    static let hebrew = Sample(text: "שלום עולם", font: noto + "NotoSansHebrew-Regular.ttf", direction: .rightToLeft)
    static let hindi = Sample(text: "क्षत्रिय नमस्ते", font: noto + "NotoSansDevanagari-Regular.ttf")
    static let thai = Sample(text: "สวัสดีครับ", font: noto + "NotoSansThai-Regular.ttf")
    static let vietnamese = Sample(text: "Tiếng Việt", font: dejaVu)
    /// The left-to-right part of a Hebrew line, in a face that has Latin letters and digits (Noto Sans Hebrew has
    /// neither): what the text setter will make of "שלום Tokyo 2026 עולם".
    static let latinInHebrew = Sample(text: "Tokyo 2026", font: dejaVu)
    static let samples = [arabic, lamAlef, hebrew, hindi, thai, vietnamese, latinInHebrew]

    static func run(_ sample: Sample, face: FontFace) -> PDFGlyphRun {
        PDFGlyphRun(text: sample.text, glyphs: face.shape(sample.text, direction: sample.direction), direction: sample.direction)
    }

    /// `samples` drawn on one page `width` x 100 pt per sample, each at `size` points from x = 20 on its own
    /// baseline (or turned, reading down from the top), and saved.
    static func page(_ samples: [Sample], size: Double = 24, width: Double = 600, turned: Bool = false,
                     in dir: String, name: String = "runs") throws -> String {
        let doc = try PDFDocument()
        // Turned, the runs read down from 10 pt below the top of a page 300 pt high.
        let page = try doc.addPage(width: width, height: turned ? 300 : 100 * Double(samples.count))
        for (number, sample) in samples.enumerated() {
            let face = try FontFace(path: sample.font)
            let y = 100 * Double(samples.count - number) - 60
            try page.drawGlyphs(run(sample, face: face), font: doc.loadFont(face: face), size: size,
                                x: turned ? 50 : 20, y: turned ? 290 : y, turned: turned)
        }
        let path = dir + "/\(name).pdf"
        try doc.save(to: path)
        return path
    }

    /// pdftotext's text without the bidi embeddings and isolates it adds around right-to-left runs.
    static func extracted(_ pdf: String) throws -> (text: String, errors: String) {
        let printed = try Tools.runCapturingErrors("pdftotext", ["-enc", "UTF-8", pdf, "-"])
        let marks: ClosedRange<UInt32> = 0x202A...0x202E, isolates: ClosedRange<UInt32> = 0x2066...0x2069
        let kept = printed.output.unicodeScalars.filter { !marks.contains($0.value) && !isolates.contains($0.value) }
        return (String(String.UnicodeScalarView(kept)).trimmingCharacters(in: .whitespacesAndNewlines), printed.errors)
    }

    /// The glyph codes the content stream shows, in the order written: every `<...>` code of every `[...] TJ` array.
    static func shownCodes(_ pdf: String) throws -> [UInt32] {
        let content = try Tools.run("qpdf", ["--qdf", "--normalize-content=n", "--object-streams=disable", pdf, "-"])
        var codes: [UInt32] = []
        for line in content.split(separator: "\n") where line.hasSuffix("] TJ") {
            for match in line.matches(of: /<([0-9a-fA-F]{4})>/) {
                codes.append(try #require(UInt32(String(match.1), radix: 16)))
            }
        }
        return codes
    }

    /// Lam-alef included: its ligature's characters are mapped the other way round (poppler spreads a glyph's
    /// characters left to right across it, then reads a right-to-left line from the right).
    @Test(arguments: samples)
    func pdftotextReadsTheTypedTextBack(sample: Sample) throws {
        try Tools.withTempDirectory { dir in
            let pdf = try Self.page([sample], in: dir)
            let read = try Self.extracted(pdf)
            #expect(Array(read.text.unicodeScalars) == Array(sample.text.unicodeScalars), "\(read.text)")
            #expect(read.errors.isEmpty, "poppler complained: \(read.errors)")
            #expect(try Tools.qpdfCheck(pdf))
        }
    }

    /// MuPDF ignores /ActualText and reads the glyphs in the order written: a left-to-right run comes out as
    /// typed, a right-to-left one (written left to right, as poppler reads it best) backwards.
    @Test(arguments: [arabic, hebrew, latinInHebrew])
    func mutoolReadsTheStreamsOrder(sample: Sample) throws {
        try Tools.withTempDirectory { dir in
            let pdf = try Self.page([sample], in: dir)
            let text = try Tools.run("mutool", ["draw", "-q", "-F", "txt", "-o", "-", pdf])
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let expected = sample.direction == .rightToLeft ? String(sample.text.reversed()) : sample.text
            #expect(text.filter { $0 != " " } == expected.filter { $0 != " " }, "\(text)")
        }
    }

    /// A Hebrew line with Latin and digits inside: three runs placed right to left, the spaces around the
    /// left-to-right part in it. pdftotext reads it as typed.
    @Test func aHebrewLineWithALatinRunReadsAsTyped() throws {
        try Tools.withTempDirectory { dir in
            let hebrewFace = try FontFace(path: Self.hebrew.font), latinFace = try FontFace(path: Self.dejaVu)
            let parts = [(Sample(text: "שלום", font: Self.hebrew.font, direction: .rightToLeft), hebrewFace),
                         (Sample(text: " Tokyo 2026 ", font: Self.dejaVu), latinFace),
                         (Sample(text: "עולם", font: Self.hebrew.font, direction: .rightToLeft), hebrewFace)]
            let doc = try PDFDocument()
            let page = try doc.addPage(width: 600, height: 100)
            let runs = try parts.map { (Self.run($0.0, face: $0.1), try doc.loadFont(face: $0.1)) }
            // The line's visual left is the last run's; the first logical run is the rightmost.
            var right = 580.0
            for (run, font) in runs {
                let width = font.width(of: run, size: 24)
                try page.drawGlyphs(run, font: font, size: 24, x: right - width, y: 40)
                right -= width
            }
            try doc.save(to: dir + "/line.pdf")
            let typed = "שלום Tokyo 2026 עולם"
            // Trap: poppler 22.12 reads every letter in order but moves the space after "2026" before "Tokyo"
            // ("שלום  Tokyo 2026עולם"), wherever the spaces are drawn (in the Hebrew runs or in the Latin one).
            let read = try Self.extracted(dir + "/line.pdf")
            #expect(read.text.filter { $0 != " " } == typed.filter { $0 != " " }, "\(read.text)")
        }
    }

    /// The page shows the joined forms HarfBuzz chose (hb-shape's ids), not the letters' nominal glyphs, written
    /// left to right as drawn (`PDFGlyphRun.writingOrder`).
    @Test func arabicIsDrawnWithHarfBuzzsJoinedForms() throws {
        try Tools.withTempDirectory { dir in
            let pdf = try Self.page([Self.arabic], in: dir)
            let reference = try HarfBuzzTools.shape(Self.arabic.text, font: Self.arabic.font, rightToLeft: true)
            let logical = reference.reversed().map(\.glyph)
            #expect(try Self.shownCodes(pdf) == reference.map(\.glyph))
            let face = try FontFace(path: Self.arabic.font)
            let nominal = Self.arabic.text.unicodeScalars.map { face.glyph(for: $0)! }
            #expect(zip(logical, nominal).filter { $0 != $1 }.count >= 10, "\(logical) \(nominal)")
            let content = try Tools.run("qpdf", ["--qdf", "--normalize-content=n", "--object-streams=disable", pdf, "-"])
            #expect(!content.contains("ActualText"))
        }
    }

    /// The rendered run has the ink hb-view draws for the same string at the same size: the same width, and the
    /// same profile of ink across it (joined letters at HarfBuzz's positions), within a pixel or two.
    @Test func arabicRendersAsHBViewDrawsIt() throws {
        try Tools.withTempDirectory { dir in
            let size = 48
            let doc = try PDFDocument()
            let page = try doc.addPage(width: 500, height: 100)
            let face = try FontFace(path: Self.arabic.font)
            let run = Self.run(Self.arabic, face: face)
            try page.drawGlyphs(run, font: doc.loadFont(face: face), size: Double(size), x: 20, y: 40)
            try doc.save(to: dir + "/arabic.pdf")
            let ours = Self.inkColumns(try Tools.render(dir + "/arabic.pdf"))
            try HarfBuzzTools.view(Self.arabic.text, font: Self.arabic.font, rightToLeft: true, pixels: size, to: dir + "/hb.png")
            try Tools.run("convert", [dir + "/hb.png", "-background", "white", "-alpha", "remove", "-depth", "8", dir + "/hb.ppm"])
            let theirs = Self.inkColumns(try RGBRaster(ppm: Fixtures.read(dir + "/hb.ppm")))
            #expect(abs(ours.count - theirs.count) <= 2, "ink \(ours.count) px wide, hb-view's \(theirs.count)")
            let width = PDFFontMetrics(face: face).width(of: run, size: Double(size))
            #expect(abs(Double(ours.count) - width) < 0.05 * width, "ink \(ours.count) px, measured \(width) pt")
            let correlation = Self.correlation(ours, theirs)
            #expect(correlation > 0.95, "ink profiles correlate \(correlation)")
        }
    }

    /// The dark pixels of each column from the first inked column to the last.
    static func inkColumns(_ raster: RGBRaster) -> [Int] {
        let columns = (0..<raster.width).map { x in (0..<raster.height).filter { raster[x, $0].g < 128 }.count }
        guard let first = columns.firstIndex(where: { $0 > 0 }), let last = columns.lastIndex(where: { $0 > 0 }) else { return [] }
        return Array(columns[first...last])
    }

    /// Pearson's correlation of two profiles over the shorter's length.
    static func correlation(_ a: [Int], _ b: [Int]) -> Double {
        let n = min(a.count, b.count)
        guard n > 1 else { return 0 }
        let (x, y) = (a.prefix(n).map(Double.init), b.prefix(n).map(Double.init))
        let (mx, my) = (x.reduce(0, +) / Double(n), y.reduce(0, +) / Double(n))
        let covariance = zip(x, y).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
        let vx = x.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }, vy = y.reduce(0) { $0 + ($1 - my) * ($1 - my) }
        return covariance / (vx * vy).squareRoot()
    }

    /// The planner's metrics and the drawing font measure a run alike, to the last bit, and as the sum of its
    /// shaped advances.
    @Test(arguments: samples)
    func theDocumentsFontAndTheMetricsMeasureARunAlike(sample: Sample) throws {
        let face = try FontFace(path: sample.font)
        let run = Self.run(sample, face: face)
        let doc = try PDFDocument()
        let drawing = try doc.loadFont(face: face)
        for size in [9.0, 10.5, 24, 71.3] {
            let width = drawing.width(of: run, size: size)
            #expect(width == PDFFontMetrics(face: face).width(of: run, size: size))
            #expect(width == Double(run.glyphs.map(\.xAdvance).reduce(0, +)) * size / Double(face.unitsPerEm))
        }
    }

    /// Kerned, "AVATAR" is narrower than drawn a glyph per character; pdftotext finds it starting where it was
    /// put and ending where `width(of:)` says, and the glyphs sit at HarfBuzz's positions.
    @Test func kernedLatinIsNarrowerAndEndsWhereMeasured() throws {
        try Tools.withTempDirectory { dir in
            let face = try FontFace(path: Self.dejaVu)
            let doc = try PDFDocument()
            let page = try doc.addPage(width: 400, height: 100)
            let font = try doc.loadFont(face: face)
            let run = PDFGlyphRun(text: "AVATAR", glyphs: face.shape("AVATAR", direction: .leftToRight), direction: .leftToRight)
            let width = font.width(of: run, size: 40)
            #expect(width < font.width(of: "AVATAR", size: 40) - 4)
            try page.drawGlyphs(run, font: font, size: 40, x: 20, y: 40)
            try doc.save(to: dir + "/kern.pdf")
            let box = try PDFTextBox.first(in: dir + "/kern.pdf")
            #expect(box.word == "AVATAR")
            #expect(abs(box.xMin - 20) < 0.01, "\(box)")
            // R, the last glyph, is not kerned: its box ends at its advance, in /W's thousandths of the em.
            #expect(abs(box.xMax - (20 + width)) < 0.05, "\(box) against \(20 + width)")
            // One Tm and one TJ; a reader moving by each glyph's /W width (whole thousandths of the em) and by the
            // array's numbers puts every glyph where HarfBuzz did.
            let content = try Tools.run("qpdf", ["--qdf", "--normalize-content=n", "--object-streams=disable", dir + "/kern.pdf", "-"])
            let lines = content.split(separator: "\n")
            #expect(lines.filter { $0.hasSuffix(" Tm") } == ["1 0 0 1 20 40 Tm"], "\(content)")
            let array = try #require(lines.first { $0.hasSuffix("] TJ") })
            var reader = 20.0, placed: [Double] = []
            for match in array.matches(of: /<([0-9a-fA-F]{4})>|(-?[0-9.]+)/) {
                if let hex = match.1, let glyph = UInt32(String(hex), radix: 16) {
                    placed.append(reader)
                    reader += Double(face.advance(of: glyph) * 1000 / face.unitsPerEm) * 40 / 1000
                } else if let number = match.2.flatMap({ Double(String($0)) }) {
                    reader -= number * 40 / 1000
                }
            }
            var pen = 0
            #expect(placed.count == run.glyphs.count)
            for (glyph, x) in zip(run.glyphs, placed) {
                #expect(abs(x - (20 + Double(pen) * 40 / Double(face.unitsPerEm))) < 0.002, "\(glyph) at \(x)")
                pen += glyph.xAdvance
            }
        }
    }

    /// A run whose glyphs need no correction of the font's own advances is one Tm and a TJ of glyphs alone.
    @Test func anUnkernedLineIsOneString() throws {
        try Tools.withTempDirectory { dir in
            let cjk = Sample(text: "東京の旅", font: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc#0")
            let pdf = try Self.page([cjk], in: dir)
            let content = try Tools.run("qpdf", ["--qdf", "--normalize-content=n", "--object-streams=disable", pdf, "-"])
            #expect(content.components(separatedBy: " Tm\n").count == 2, "\(content)")
            let array = try #require(content.split(separator: "\n").first { $0.hasSuffix("] TJ") })
            #expect(array.wholeMatch(of: /\[(<[0-9a-fA-F]{4}>)+\] TJ/) != nil, "\(array)")
            #expect(try Self.extracted(pdf).text == cjk.text)
        }
    }

    /// Devanagari draws the vowel sign ि before the consonants it follows, and conjuncts as one glyph: its run
    /// carries its text as /ActualText. Right-to-left runs never do (pdftotext would reverse it).
    @Test func onlyLeftToRightRunsThatReadBackWronglyCarryActualText() throws {
        try Tools.withTempDirectory { dir in
            for (sample, expected) in [(Self.hindi, true), (Self.latinInHebrew, false), (Self.arabic, false),
                                       (Self.lamAlef, false), (Self.hebrew, false)] {
                let pdf = try Self.page([sample], in: dir, name: "actual")
                let content = try Tools.run("qpdf", ["--qdf", "--normalize-content=n", "--object-streams=disable", pdf, "-"])
                #expect(content.contains("/ActualText") == expected, "\(sample.text)")
            }
        }
    }

    /// A ligature's glyph stands for all its characters: lam-alef maps to U+0627 U+0644 in the ToUnicode map, the
    /// other way round, as poppler reads a glyph's characters in a right-to-left line.
    @Test func aLigatureMapsToItsCharacters() throws {
        try Tools.withTempDirectory { dir in
            let pdf = try Self.page([Self.lamAlef], in: dir)
            let (_, cmap) = try ToUnicodeTests.toUnicode(in: ToUnicodeTests.objects(pdf))
            let face = try FontFace(path: Self.lamAlef.font)
            let ligature = try #require(face.shape("لا", direction: .rightToLeft).first).glyph
            #expect(cmap.contains("<\(GlyphToUnicodeCMap.hex(UInt16(ligature)))> <06270644>"), "\(cmap)")
        }
    }

    /// A ToUnicode destination holds at most 512 bytes: a longer text is cut at a whole character.
    @Test func aDestinationIsCutAt512Bytes() {
        let long = [UInt32(5): Array(repeating: Unicode.Scalar(0x1F600)!, count: 200)]
        let line = GlyphToUnicodeCMap.text(long).split(separator: "\n").first { $0.hasPrefix("<0005>") }
        #expect(line.map(String.init) == "<0005> <" + String(repeating: "D83DDE00", count: 128) + ">")
        #expect(!GlyphToUnicodeCMap.text([7: []]).contains("<0007>"))
    }

    /// Turned, the run reads down the page from its start, as long as measured.
    @Test func aTurnedRunReadsDownThePage() throws {
        try Tools.withTempDirectory { dir in
            let pdf = try Self.page([Self.latinInHebrew], size: 20, turned: true, in: dir)
            let content = try Tools.run("qpdf", ["--qdf", "--normalize-content=n", "--object-streams=disable", pdf, "-"])
            #expect(content.contains("0 -1 1 0 50 290 Tm"), "\(content)")
            let boxes = try PDFTextBox.all(in: pdf)
            #expect(boxes.map(\.word) == ["Tokyo", "2026"])
            let width = try PDFFontMetrics(path: Self.dejaVu).width(of: Self.run(Self.latinInHebrew, face: FontFace(path: Self.dejaVu)), size: 20)
            // pdftotext measures y from the top of the page: the run starts 10 pt down.
            #expect(abs((boxes.first?.yMin ?? 0) - 10) < 0.01 && abs((boxes.last?.yMax ?? 0) - (10 + width)) < 0.05, "\(boxes)")
        }
    }

    /// A character the font lacks (glyph 0) is drawn as the font's U+FFFD, which readers draw, and marked.
    @Test func notdefIsDrawnAsTheReplacementCharacter() throws {
        try Tools.withTempDirectory { dir in
            let pdf = try Self.page([Sample(text: "a東b", font: Self.dejaVu)], in: dir)
            let face = try FontFace(path: Self.dejaVu)
            #expect(try Self.shownCodes(pdf) == ["a", "\u{FFFD}", "b"].map { face.glyph(for: $0)! })
            #expect(try Self.extracted(pdf).text == "a東b")
        }
    }

    @Test func numbersAreWrittenToTheThousandth() {
        #expect(PDFPage.number(12.5) == "12.5")
        #expect(PDFPage.number(300) == "300")
        #expect(PDFPage.number(-0.0004) == "0")
        #expect(PDFPage.number(-0.001) == "-0.001")
        #expect(PDFPage.number(7.0625) == "7.063")
        #expect(PDFPage.number(0.05) == "0.05")
    }
}

/// One word of `pdftotext -bbox`, in points from the page's top left.
struct PDFTextBox: CustomStringConvertible {
    let word: String
    let xMin: Double, yMin: Double, xMax: Double, yMax: Double
    var description: String { "\(word) x \(xMin)...\(xMax) y \(yMin)...\(yMax)" }

    static func all(in pdf: String) throws -> [PDFTextBox] {
        try Tools.run("pdftotext", ["-enc", "UTF-8", "-bbox", pdf, "-"]).split(separator: "\n").filter { $0.contains("<word") }.map { line in
            func value(_ key: String) throws -> Double {
                let start = try #require(line.range(of: key + "=\""))
                return try #require(Double(line[start.upperBound...].prefix { $0 != "\"" }))
            }
            let open = try #require(line.range(of: "\">")), close = try #require(line.range(of: "</word>"))
            return PDFTextBox(word: String(line[open.upperBound..<close.lowerBound]), xMin: try value("xMin"),
                              yMin: try value("yMin"), xMax: try value("xMax"), yMax: try value("yMax"))
        }
    }

    static func first(in pdf: String) throws -> PDFTextBox {
        try #require(try all(in: pdf).first)
    }
}
