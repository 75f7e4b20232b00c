import Foundation
import Testing

@testable import PDF

/// Measuring text before the document exists: names, widths, vertical metrics and glyph coverage of DejaVu Sans.
@Suite struct PDFFontTests {
    static let dejaVu = PDFFont.defaultPath

    @Test func fontIsNamedFromItsNameTable() throws {
        let metrics = try PDFFontMetrics(path: Self.dejaVu)
        #expect(metrics.name == "DejaVu Sans")
        #expect(metrics.styleName == "Book")
        #expect(metrics.path == Self.dejaVu)
    }

    @Test func verticalMetricsAreDejaVusPerPointOfSize() throws {
        let metrics = try PDFFontMetrics(path: Self.dejaVu)
        // DejaVu Sans: 2048 units per em, hhea ascender 1901, descender -483, 'H' 1493 tall, 'x' 1120 tall.
        #expect(metrics.ascent == 0.928)
        #expect(metrics.descent == -0.235)
        #expect(metrics.capHeight == 0.729)
        #expect(metrics.xHeight == 0.546)
    }

    @Test func emptyTextHasNoWidth() throws {
        #expect(try PDFFontMetrics(path: Self.dejaVu).width(of: "", size: 12) == 0)
    }

    @Test func wideLettersAreWiderThanNarrowOnes() throws {
        let metrics = try PDFFontMetrics(path: Self.dejaVu)
        #expect(metrics.width(of: "WWW", size: 12) > metrics.width(of: "iii", size: 12))
    }

    @Test(arguments: ["Café à Zürich", "Ελληνικά", "Кириллица", "naïve – “quotes” — …"])
    func widthScalesLinearlyWithSize(text: String) throws {
        let metrics = try PDFFontMetrics(path: Self.dejaVu)
        let one = metrics.width(of: text, size: 1)
        #expect(one > 0)
        for size in [2.0, 7.5, 12, 100] {
            #expect(abs(metrics.width(of: text, size: size) - one * size) < 1e-9 * size)
        }
    }

    /// Text is laid out with advance widths only: no kerning, even for pairs DejaVu kerns ("AV", "To").
    @Test(arguments: ["AV", "To", "Café à Zürich", "WAVE Typography"])
    func widthIsTheSumOfTheCharactersWidthsWithoutKerning(text: String) throws {
        let metrics = try PDFFontMetrics(path: Self.dejaVu)
        // At 1000 pt a width is a whole number of points, so the sum is exact.
        let sum = text.unicodeScalars.map { metrics.width(of: String($0), size: 1000) }.reduce(0, +)
        #expect(metrics.width(of: text, size: 1000) == sum)
    }

    @Test func knownAdvanceWidths() throws {
        let metrics = try PDFFontMetrics(path: Self.dejaVu)
        // hmtx advances / 2048, rounded down to thousandths as the font's /W array gives them.
        #expect(metrics.width(of: "A", size: 1000) == 684)
        #expect(metrics.width(of: "é", size: 1000) == 615)
        #expect(metrics.width(of: " ", size: 1000) == 317)
    }

    @Test(arguments: ["A", "é", "Ж", "Ω", " ", "€", "–", "…", "\u{FFFD}", "\u{1F600}"] as [Unicode.Scalar])
    func coversWhatDejaVuDraws(scalar: Unicode.Scalar) throws {
        #expect(try PDFFontMetrics(path: Self.dejaVu).covers(scalar))
    }

    @Test(arguments: ["\u{4E16}", "\u{1F44D}", "\u{0000}", "\u{0009}", "\u{E000}"] as [Unicode.Scalar])
    func doesNotCoverWhatDejaVuLacks(scalar: Unicode.Scalar) throws {
        // 世 and 👍 are not in DejaVu Sans (😀 is); controls are drawn as spaces, never as a glyph of their own.
        #expect(try !PDFFontMetrics(path: Self.dejaVu).covers(scalar))
    }

    @Test func documentFontMeasuresLikeTheMetrics() throws {
        let metrics = try PDFFontMetrics(path: Self.dejaVu)
        let font = try PDFDocument().loadFont(path: Self.dejaVu)
        #expect(font.face == metrics.face)
        #expect(font.ascent == metrics.face.ascent && font.name == "DejaVu Sans")
        for text in ["Café à Zürich", "Кириллица", "x世😀y"] {
            #expect(font.width(of: text, size: 11) == metrics.width(of: text, size: 11))
        }
        #expect(font.covers("Ж") && !font.covers("\u{4E16}"))
    }

    @Test func metricsAreUsableFromManyThreadsAtOnce() async throws {
        let metrics = try PDFFontMetrics(path: Self.dejaVu)
        let expected = metrics.width(of: "Ελληνικά", size: 9)
        let widths = await withTaskGroup(of: Double.self) { group in
            for _ in 0..<8 { group.addTask { metrics.width(of: "Ελληνικά", size: 9) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(widths == Array(repeating: expected, count: 8))
    }
}
