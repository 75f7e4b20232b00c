import Testing
import TextBreaks

/// Texts a caption file may hold by mistake or on purpose: each gives sane answers (runs that cover the text once,
/// offsets inside it and ascending) in reasonable time. No timing is asserted; a hang fails the run.
@Suite struct HostileTextTests {
    static func expectSane(_ text: String, language: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let count = text.unicodeScalars.count
        BidiTests.expectPartition(Bidi.visualRuns(of: text), count: count, sourceLocation: sourceLocation)
        BidiTests.expectPartition(Bidi.visualRuns(of: text, base: .rightToLeft), count: count,
                                  sourceLocation: sourceLocation)
        for run in Bidi.visualRuns(of: text) {
            // UAX #9's deepest level is 125; ICU's resolved levels go one above it.
            #expect((0...126).contains(run.level), "level \(run.level)", sourceLocation: sourceLocation)
        }
        let opportunities = LineBreaks.opportunities(in: text, language: language)
        #expect(opportunities.allSatisfy { 0 < $0 && $0 < count }, sourceLocation: sourceLocation)
        #expect(zip(opportunities, opportunities.dropFirst()).allSatisfy { $0 < $1 }, sourceLocation: sourceLocation)
        let mandatory = LineBreaks.mandatoryBreaks(in: text)
        #expect(Set(mandatory).isSubset(of: opportunities), sourceLocation: sourceLocation)
    }

    @Test func aHundredThousandCombiningMarksAreOneCluster() {
        let text = "a" + String(repeating: "\u{0301}", count: 100_000)
        Self.expectSane(text)
        // 100,001 UTF-16 units: more than ICU is handed at once, cut into two pieces, and still one run and no break.
        #expect(Bidi.visualRuns(of: text) == [BidiRun(range: 0..<100_001, level: 0)])
        #expect(Bidi.baseDirection(of: text) == .leftToRight)
        #expect(LineBreaks.opportunities(in: text, language: "en").isEmpty)
        #expect(LineBreaks.opportunities(in: text + " b", language: "en") == [100_002])
    }

    @Test func sixtyFourKilobytesOfJapanese() {
        let sentence = "浅草寺にて、雨の午後、ちょっとコーヒーを飲んだ。「東京」（日本）"
        var text = ""
        while text.utf8.count + sentence.utf8.count <= 65_536 { text += sentence }
        let copies = text.unicodeScalars.count / sentence.unicodeScalars.count
        #expect(copies > 600)
        Self.expectSane(text, language: "ja")
        let once = LineBreaks.opportunities(in: sentence, language: "ja")
        let all = LineBreaks.opportunities(in: text, language: "ja")
        // Each copy breaks as the sentence alone, and between copies ("）" ends a line, "浅" may start one).
        #expect(all.count == copies * (once.count + 1) - 1)
        LineBreaksTests.expectKinsoku(text, all)
        #expect(Bidi.visualRuns(of: text) == [BidiRun(range: 0..<text.unicodeScalars.count, level: 0)])
    }

    @Test func textsOverTheLimitAreCutIntoPieces() {
        // 300,000 scalars, 3 UTF-16 units a word: five pieces for ICU, cut after a space.
        let text = String(repeating: "ab ", count: 100_000)
        Self.expectSane(text)
        let opportunities = LineBreaks.opportunities(in: text, language: "en")
        #expect(opportunities == Array(stride(from: 3, to: 300_000, by: 3)))
        // Hebrew over the limit: one base direction for every piece, from the first.
        let hebrew = String(repeating: "שלום abc ", count: 10_000)
        Self.expectSane(hebrew)
        #expect(Bidi.visualRuns(of: hebrew).allSatisfy { $0.level == 1 || $0.level == 2 })
        // A piece cut after a line feed keeps the mandatory break there.
        let lines = String(repeating: String(repeating: "x", count: 999) + "\n", count: 100)
        #expect(LineBreaks.mandatoryBreaks(in: lines) == Array(stride(from: 1000, to: 100_000, by: 1000)))
        // No space nor newline anywhere: pieces cut at the limit, outside surrogate pairs.
        let emoji = String(repeating: "😀", count: 40_000)
        Self.expectSane(emoji)
        #expect(Bidi.visualRuns(of: emoji) == [BidiRun(range: 0..<40_000, level: 0)])
    }

    @Test func bidiControlsUnbalancedAndTooDeep() {
        Self.expectSane("\u{202E}\u{202D}\u{202B}\u{202A}abc שלום")
        Self.expectSane(String(repeating: "\u{202B}", count: 300) + "abc" + String(repeating: "\u{202C}", count: 10))
        Self.expectSane(String(repeating: "\u{2067}\u{2066}", count: 200) + "abc שלום 12")
        Self.expectSane(String(repeating: "\u{2069}\u{202C}", count: 100) + "שלום")
        Self.expectSane("\u{2068}\u{202E}\u{2069}\u{202C}")
        Self.expectSane(String(repeating: "\u{202E}a\u{2067}ב", count: 5_000))
    }

    @Test func controlsNulAndReplacementCharacters() {
        Self.expectSane("a\u{0}b\u{0}\u{0}שלום\u{1}\u{7F}\u{9B}\u{85}")
        Self.expectSane(String(repeating: "\u{FFFD}", count: 30_000))
        Self.expectSane("\u{FEFF}\u{200B}\u{200E}\u{200F}\u{061C}abc")
        Self.expectSane("\t\u{B}\u{C}\r\r\n\u{1C}\u{1D}\u{1E}\u{1F}x", language: "th")
        Self.expectSane("\u{10FFFF}\u{E000}\u{F0000}\u{E0001}\u{E0041}")
        // NUL is a character to ICU here: the text goes on after it.
        #expect(LineBreaks.opportunities(in: "a\u{0}b c", language: "en") == [4])
        #expect(Bidi.visualRuns(of: "\u{0}שלום").last?.range.upperBound == 5)
    }

    @Test func everyLanguageTagIsSafe() {
        for language in ["", "@", "ja@lb=loose;x=y", String(repeating: "x", count: 10_000), "\u{0}", "ja\u{0}@lb=loose", "😀"] {
            Self.expectSane("東京、ちょっと abc", language: language)
        }
    }
}
