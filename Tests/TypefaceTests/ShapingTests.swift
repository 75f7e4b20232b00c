import Foundation
import Testing
import TestSupport
import Typeface

/// `FontFace.shape` against `hb-shape` (libharfbuzz-bin), HarfBuzz's own command line run on the same font and
/// string: the glyphs, clusters and positions must be its, for every script the book draws.
@Suite struct ShapingTests {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let noto = "/usr/share/fonts/truetype/noto/"
    static let cjk = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

    /// One shaping to compare: text, font file, face index, direction, language.
    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        let font: String
        var index = 0
        var direction = TextDirection.leftToRight
        var language: String?
        var testDescription: String { "\(text) in \((font as NSString).lastPathComponent)#\(index) \(language ?? "")" }
    }

    static let cases = [
        Case(text: "مرحبا بالعالم", font: noto + "NotoNaskhArabic-Regular.ttf", direction: .rightToLeft),
        Case(text: "لا سلام", font: noto + "NotoSansArabic-Regular.ttf", direction: .rightToLeft),
        Case(text: "שלום עולם", font: noto + "NotoSansHebrew-Regular.ttf", direction: .rightToLeft),
        Case(text: "क्षत्रिय नमस्ते", font: noto + "NotoSansDevanagari-Regular.ttf"),
        Case(text: "สวัสดีครับ", font: noto + "NotoSansThai-Regular.ttf"),
        Case(text: "Tiếng Việt", font: dejaVu),
        Case(text: "AVATAR Wo", font: dejaVu),
        Case(text: "直", font: cjk, index: 0, language: "ja"),
        Case(text: "直", font: cjk, index: 0, language: "zh-Hans"),
        Case(text: "「東京の旅」、。ー", font: cjk, index: 0, direction: .topToBottom, language: "ja"),
        Case(text: "東京 Tokyo", font: cjk, index: 0, direction: .topToBottom, language: "ja"),
        Case(text: "Ab東", font: dejaVu, direction: .topToBottom),
        // Colour emoji: a family joined by ZWJ and a flag become one glyph each (GSUB), a skin tone joins its hand.
        Case(text: "👨\u{200D}👩\u{200D}👧 🇯🇵 👍🏽 1\u{FE0F}\u{20E3}", font: noto + "NotoColorEmoji.ttf"),
    ]

    /// hb-shape's answer as ShapedGlyphs.
    static func reference(_ shaping: Case) throws -> [ShapedGlyph] {
        try HarfBuzzTools.shape(shaping.text, font: shaping.font, index: shaping.index,
                                rightToLeft: shaping.direction == .rightToLeft, topToBottom: shaping.direction == .topToBottom,
                                language: shaping.language).map {
            ShapedGlyph(glyph: $0.glyph, cluster: $0.cluster, xAdvance: $0.xAdvance, xOffset: $0.xOffset, yOffset: $0.yOffset,
                        yAdvance: $0.yAdvance)
        }
    }

    static func face(_ shaping: Case) throws -> FontFace {
        try FontFace(path: shaping.font.hasSuffix(".ttc") ? shaping.font + "#\(shaping.index)" : shaping.font)
    }

    @Test(arguments: cases)
    func glyphsClustersAndPositionsAreHarfBuzzs(shaping: Case) throws {
        let shaped = try Self.face(shaping).shape(shaping.text, direction: shaping.direction, language: shaping.language)
        #expect(shaped == (try Self.reference(shaping)))
        #expect(!shaped.isEmpty)
    }

    /// The shaping is more than a character map: Arabic letters take their joined forms, Devanagari's conjuncts
    /// and Arabic's lam-alef make fewer glyphs than characters, Thai and Vietnamese marks move.
    @Test func shapingChangesWhatACharacterMapWouldDraw() throws {
        let arabic = Self.cases[0], lamAlef = Self.cases[1], hindi = Self.cases[3], thai = Self.cases[4], vietnamese = Self.cases[5]
        let naskh = try Self.face(arabic)
        let joined = naskh.shape(arabic.text, direction: .rightToLeft)
        let nominal = Set(arabic.text.unicodeScalars.compactMap { naskh.glyph(for: $0) })
        // All but the space (and alef, which does not join to its left) take another form.
        #expect(joined.filter { !nominal.contains($0.glyph) }.count >= 10, "\(joined)")
        // Visual order, right to left: the first glyph drawn on the left is the last character's.
        #expect(joined.first?.cluster == arabic.text.unicodeScalars.count - 1 && joined.last?.cluster == 0)
        #expect(try Self.face(lamAlef).shape(lamAlef.text, direction: .rightToLeft).count < lamAlef.text.unicodeScalars.count)
        #expect(try Self.face(hindi).shape(hindi.text, direction: .leftToRight).count < hindi.text.unicodeScalars.count)
        #expect(try Self.face(thai).shape(thai.text, direction: .leftToRight).contains { $0.xOffset != 0 || $0.yOffset != 0 })
        let tieng = try Self.face(vietnamese).shape(vietnamese.text, direction: .leftToRight)
        #expect(tieng.count == vietnamese.text.unicodeScalars.count)
    }

    /// DejaVu Sans kerns "AV", "VA", "AT", "TA", "Wo": some shaped advances are not the glyphs' own.
    @Test func latinIsKerned() throws {
        let face = try FontFace(path: Self.dejaVu)
        let shaped = face.shape("AVATAR Wo", direction: .leftToRight)
        let plain = shaped.map { face.advance(of: $0.glyph) }
        #expect(shaped.map(\.xAdvance) != plain)
        #expect(shaped.map(\.xAdvance).reduce(0, +) < plain.reduce(0, +))
        #expect(shaped.map(\.glyph) == "AVATAR Wo".unicodeScalars.map { face.glyph(for: $0)! })
    }

    /// The language picks the `locl` forms: 直 is drawn one way in Japanese and another in simplified Chinese, in
    /// the same face.
    @Test func theLanguageSelectsLocalForms() throws {
        let face = try FontFace(path: Self.cjk + "#0")
        let japanese = face.shape("直", direction: .leftToRight, language: "ja")
        let chinese = face.shape("直", direction: .leftToRight, language: "zh-Hans")
        #expect(japanese.count == 1 && chinese.count == 1)
        #expect(japanese.first?.glyph != chinese.first?.glyph)
        #expect(face.shape("直", direction: .leftToRight, script: "Hani", language: "zh-Hans") == chinese)
        // No language: the face's default, Japanese for this face, whatever LANG says.
        #expect(face.shape("直", direction: .leftToRight) == japanese)
    }

    /// Top to bottom, Japanese punctuation takes its vertical forms (`vert`/`vrt2`: docs/research/words.md §3.4),
    /// glyphs come top to bottom in the order typed, and each advances one em down the column with its
    /// horizontal origin half an em left of and 880 units below the pen.
    @Test func aVerticalColumnTakesTheVerticalFormsAndAdvancesDown() throws {
        let face = try FontFace(path: Self.cjk + "#0")
        let text = "「東京の旅」、。ー"
        let column = face.shape(text, direction: .topToBottom, language: "ja")
        let row = face.shape(text, direction: .leftToRight, language: "ja")
        #expect(column.map(\.cluster) == Array(0..<9))
        // 「 」 、 。 ー: horizontal forms 1408 1409 1397 1398 1645, vertical 59006 59007 58980 58981 65339.
        let punctuation = [0, 5, 6, 7, 8]
        #expect(punctuation.map { row[$0].glyph } == [1408, 1409, 1397, 1398, 1645])
        #expect(punctuation.map { column[$0].glyph } == [59006, 59007, 58980, 58981, 65339])
        // The ideographs stay as they are; the kana の too has a form of its own for columns (`vert`: 1505 -> 65202).
        #expect([1, 2, 4].allSatisfy { column[$0].glyph == row[$0].glyph })
        #expect(row[3].glyph == 1505 && column[3].glyph == 65202)
        #expect(column.allSatisfy { $0.xAdvance == 0 && $0.yAdvance == -1000 && $0.xOffset == -500 && $0.yOffset == -880 })
        #expect(row.allSatisfy { $0.yAdvance == 0 })
    }

    /// A face without vertical metrics (DejaVu Sans has no vhea or vmtx) still shapes a column: HarfBuzz gives
    /// every glyph the line height as its advance and centres it across.
    @Test func aFaceWithoutVerticalMetricsStillShapesAColumn() throws {
        let face = try FontFace(path: Self.dejaVu)
        let column = face.shape("Ab", direction: .topToBottom)
        #expect(column.map(\.glyph) == ["A", "b"].map { face.glyph(for: $0)! })
        #expect(column.allSatisfy { $0.yAdvance == -(face.ascender - face.descender) && $0.xAdvance == 0 })
        #expect(column.map(\.xOffset) == column.map { -face.advance(of: $0.glyph) / 2 })
    }

    /// A column is an ideograph's advance wide: exactly an em in Noto Sans CJK; DejaVu Sans has no ideograph and
    /// answers an em.
    @Test func theColumnWidthIsAnIdeographsAdvance() throws {
        #expect(try FontFace(path: Self.cjk + "#0").verticalColumnWidth == 1)
        #expect(try FontFace(path: Self.dejaVu).verticalColumnWidth == 1)
    }

    /// Bidi controls and joiners draw nothing, and the glyphs after them keep the clusters of the text as typed.
    @Test func defaultIgnorablesAreRemovedAndClustersStillIndexTheText() throws {
        let face = try FontFace(path: Self.dejaVu)
        let shaped = face.shape("a\u{200E}b\u{2066}c\u{2069}", direction: .leftToRight)
        #expect(shaped.map(\.glyph) == ["a", "b", "c"].map { face.glyph(for: $0)! })
        #expect(shaped.map(\.cluster) == [0, 2, 4])
    }

    @Test func emptyTextShapesToNothing() throws {
        #expect(try FontFace(path: Self.dejaVu).shape("", direction: .rightToLeft).isEmpty)
    }

    /// HarfBuzz 6 is quadratic in the marks of one cluster (12.7 s for these); capped at 30 it takes milliseconds.
    @Test func marksBeyondThirtyInARowAreDropped() throws {
        let face = try FontFace(path: Self.dejaVu)
        let hostile = "a" + String(repeating: "\u{0301}", count: 100_000)
        let capped = FontFace.capMarks(hostile)
        #expect(capped.dropped == 99_970)
        #expect(capped.text.unicodeScalars.count == 31)
        let shaped = face.shape(hostile, direction: .leftToRight)
        #expect(shaped.count <= 31 && !shaped.isEmpty)
        #expect(FontFace.maxMarksPerCluster == 30)
    }

    /// The cap counts per row of marks, leaves text with few marks alone, and clusters after a cut row still
    /// index the text as typed.
    @Test func theCapCountsEachRowAndKeepsClusters() throws {
        let face = try FontFace(path: Self.dejaVu)
        let text = "a" + String(repeating: "\u{0301}", count: 40) + "b" + String(repeating: "\u{0300}", count: 5) + "c"
        #expect(FontFace.capMarks(text).dropped == 10)
        #expect(FontFace.capMarks("Tiếng Việt क्षत्रिय").dropped == 0)
        #expect(FontFace.capMarks("Tiếng Việt").text == "Tiếng Việt")
        let shaped = face.shape(text, direction: .leftToRight)
        #expect(shaped.last?.glyph == face.glyph(for: "c") && shaped.last?.cluster == 47)
        #expect(shaped.contains { $0.glyph == face.glyph(for: "b") && $0.cluster == 41 })
    }

    /// An invisible character between the marks does not start a new row: HarfBuzz still attaches every mark to
    /// the one base across it, as slowly.
    @Test func invisibleCharactersBetweenMarksDoNotEscapeTheCap() {
        let interleaved = "a" + String(repeating: "\u{0301}\u{200B}", count: 50_000)
        #expect(FontFace.capMarks(interleaved).text.unicodeScalars.count == 31)
        // Alone, after a letter, they are no mark row at all.
        #expect(FontFace.capMarks("a\u{200B}\u{200B}b").dropped == 0)
    }

    /// One face shaped from many threads at once gives every thread the same answer.
    @Test func shapingIsThreadSafe() async throws {
        let face = try Self.face(Self.cases[0])
        let expected = face.shape(Self.cases[0].text, direction: .rightToLeft)
        let results = await withTaskGroup(of: [ShapedGlyph].self) { group in
            for _ in 0..<16 {
                group.addTask { (0..<50).map { _ in face.shape(Self.cases[0].text, direction: .rightToLeft) }.last ?? [] }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 16 && results.allSatisfy { $0 == expected })
    }
}
