import Testing
import TextBreaks

/// Expectations from UAX #14 and the kinsoku rules, written before looking at ICU's answers.
@Suite struct LineBreaksTests {
    /// Scalars no line may start with (Japanese kinsoku, as CSS's strict line breaking has them).
    static let noLineStart: Set<Character> = Set("、。，．」』）］｝〉》】！？・：；ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
    /// Scalars no line may end with.
    static let noLineEnd: Set<Character> = Set("「『（［｛〈《【")

    /// The offsets after each of `segments` but the last: where a text made of them breaks.
    static func offsets(between segments: [String]) -> [Int] {
        var offsets: [Int] = []
        var offset = 0
        for segment in segments.dropLast() {
            offset += segment.unicodeScalars.count
            offsets.append(offset)
        }
        return offsets
    }

    static func expectKinsoku(_ text: String, _ opportunities: [Int],
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let scalars = Array(text.unicodeScalars).map(Character.init)
        for offset in opportunities {
            #expect(!noLineStart.contains(scalars[offset]), "a line would start with \(scalars[offset]) at \(offset)",
                    sourceLocation: sourceLocation)
            #expect(!noLineEnd.contains(scalars[offset - 1]), "a line would end with \(scalars[offset - 1]) at \(offset)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func japaneseBreaksBetweenCharactersButKeepsKinsoku() {
        let text = "浅草寺にて、雨の午後、ちょっとコーヒーを飲んだ。「東京」（日本）"
        let opportunities = LineBreaks.opportunities(in: text, language: "ja")
        Self.expectKinsoku(text, opportunities)
        // Everywhere else a Japanese line may break between any two characters.
        let scalars = Array(text.unicodeScalars).map(Character.init)
        let allowed = (1..<scalars.count).filter {
            !Self.noLineStart.contains(scalars[$0]) && !Self.noLineEnd.contains(scalars[$0 - 1])
        }
        #expect(opportunities == allowed)
        // The cases words.md names: small kana and the long vowel mark stay with what precedes them.
        #expect(Self.offsets(between: ["浅", "草", "寺", "に", "て、", "雨", "の", "午", "後、", "ちょっ", "と", "コー",
                                       "ヒー", "を", "飲", "ん", "だ。", "「東", "京」", "（日", "本）"]) == opportunities)
    }

    @Test(arguments: ["ja", "ja-JP", "JA_jp", "ja-Jpan-JP-u-ca-japanese"])
    func japaneseIsStrictUnderEveryTag(_ language: String) {
        #expect(LineBreaks.locale(for: language) == "ja@lb=strict")
        // ICU's plain "ja" is CSS normal, which would break ち|ょ|っ and コ|ー.
        #expect(LineBreaks.opportunities(in: "ちょっとコーヒー", language: language) == [3, 4, 6])
    }

    @Test func localesForOtherLanguages() {
        #expect(LineBreaks.locale(for: "zh-Hant-TW") == "zh@lb=strict")
        #expect(LineBreaks.locale(for: "zh") == "zh@lb=strict")
        #expect(LineBreaks.locale(for: "ko-KR") == "ko")
        #expect(LineBreaks.locale(for: "th") == "th")
        #expect(LineBreaks.locale(for: "en-US") == "en")
        #expect(LineBreaks.locale(for: "de") == "en")
        #expect(LineBreaks.locale(for: nil) == "en")
        #expect(LineBreaks.locale(for: "") == "en")
        // Nothing of the tag reaches ICU: a keyword smuggled in is dropped with the rest.
        #expect(LineBreaks.locale(for: "ja@lb=loose") == "en")
        #expect(LineBreaks.locale(for: "jap") == "en")
    }

    @Test func chineseKeepsPunctuationOffLineStarts() {
        let text = "我们去了东京，看见了「富士山」。"
        let opportunities = LineBreaks.opportunities(in: text, language: "zh-Hans")
        Self.expectKinsoku(text, opportunities)
        #expect(Self.offsets(between: ["我", "们", "去", "了", "东", "京，", "看", "见", "了", "「富", "士", "山」。"])
                    == opportunities)
    }

    @Test func thaiBreaksAtWords() {
        let words = ["สวัสดี", "ครับ", "วัน", "นี้", "อากาศ", "ดี", "มาก"]
        let text = words.joined()
        #expect(LineBreaks.opportunities(in: text, language: "th") == Self.offsets(between: words))
        // ICU finds Thai words by script, whatever the language said.
        #expect(LineBreaks.opportunities(in: text, language: nil) == Self.offsets(between: words))
    }

    @Test func latinBreaksAfterSpacesAndHyphens() {
        // "hello |world, |a |long-|word": after each space, and after the hyphen (HY, LB21: not before it).
        #expect(LineBreaks.opportunities(in: "hello world, a long-word", language: "en") == [6, 13, 15, 20])
        // Before a number a hyphen is a minus sign (LB25): "a -5" keeps "-5" whole.
        #expect(LineBreaks.opportunities(in: "a -5", language: "en") == [2])
        // Two spaces: the line starts after both (LB18).
        #expect(LineBreaks.opportunities(in: "a  b", language: "de") == [3])
    }

    @Test func urlBreaksOnlyAfterSlashesBeforeLetters() {
        // "https://" holds together (nothing before SY or IS breaks: LB13), "example.com" too (IS × AL: LB29);
        // after a slash a letter may start a line (LB31).
        #expect(LineBreaks.opportunities(in: "https://example.com/a/b", language: "en") == [8, 20, 22])
    }

    @Test func newlinesAreMandatoryBreaks() {
        let text = "one\ntwo\r\nthree\u{2028}four\u{85}five\n"
        // After LF, after CR LF (one break, not between them), after U+2028 and NEL; none at the end.
        #expect(LineBreaks.mandatoryBreaks(in: text) == [4, 9, 15, 20])
        #expect(LineBreaks.opportunities(in: text, language: "en") == [4, 9, 15, 20])
        #expect(LineBreaks.breaks(in: "a b\nc", language: "en")
                    == [.init(offset: 2, isMandatory: false), .init(offset: 4, isMandatory: true)])
        #expect(LineBreaks.mandatoryBreaks(in: "no newline here").isEmpty)
        #expect(LineBreaks.mandatoryBreaks(in: "\n\n") == [1])
    }

    @Test func emptyAndSingleCharacterTexts() {
        #expect(LineBreaks.opportunities(in: "", language: "ja").isEmpty)
        #expect(LineBreaks.mandatoryBreaks(in: "").isEmpty)
        #expect(LineBreaks.opportunities(in: "東", language: "ja").isEmpty)
        #expect(LineBreaks.opportunities(in: " ", language: "en").isEmpty)
    }

    @Test func offsetsCountScalarsNotUTF16Units() {
        // 😀 is two UTF-16 units: emoji break between one another (ID ÷ ID) and the space ends a word.
        #expect(LineBreaks.opportunities(in: "😀😀 ab", language: "en") == [1, 3])
        // A ZWJ family is one cluster: no break inside it (LB8a), the next word starts at scalar 6.
        #expect(LineBreaks.opportunities(in: "👨\u{200D}👩\u{200D}👧 ab", language: "en") == [6])
        // 𠮷 (U+20BB7) is one ideograph outside the BMP.
        #expect(LineBreaks.opportunities(in: "𠮷野家、𠮷", language: "ja") == [1, 2, 4])
        #expect(LineBreaks.mandatoryBreaks(in: "😀\n😀\n😀") == [2, 4])
    }
}
