import FontCatalog
import Testing
import Typeface
@testable import Words

/// Against the fonts installed here: fonts-dejavu-core, fonts-noto-cjk, fonts-noto-core, fonts-noto-color-emoji and
/// fonts-wqy-zenhei (make test-deps), whose presence the first test checks so that none can pass vacuously.
@Suite struct FontChainTests {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let cjk = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    /// Faces of the Noto Sans CJK collection.
    static let (japanese, korean, simplified, traditional, hongKong) =
        (cjk + "#0", cjk + "#1", cjk + "#2", cjk + "#3", cjk + "#4")

    static let emoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf#0"

    static func chain(_ languages: [String] = [], findsFallbacks: Bool = true, colourEmoji: Bool = false) throws -> FontChain {
        FontChain(primary: try FontFace(path: dejaVu), languages: try languages.map { try #require(Language($0)) },
                  findsFallbacks: findsFallbacks, colourEmoji: colourEmoji)
    }

    /// Each run as (text, face path or "nil"), for one comparison that shows the whole answer when it fails.
    static func described(_ runs: [FontRun]) -> [String] {
        runs.map { "\($0.text)|\($0.face?.path ?? "nil")" }
    }

    @Test func theFontsAndTheTrapAreHere() throws {
        let primary = try FontFace(path: Self.dejaVu)
        #expect(primary.glyph(for: "東") == nil && primary.glyph(for: "न") == nil && primary.glyph(for: "ส") == nil)
        #expect(primary.glyph(for: "😀") != nil)
        #expect(FontCatalog.face(named: "Noto Sans CJK JP") == Self.japanese)
        #expect(FontCatalog.face(named: "WenQuanYi Zen Hei") != nil)
        // fontconfig's own first choice for Japanese is the Chinese WenQuanYi Zen Hei: what the chain must not take.
        let sorted = FontCatalog.faces(covering: "東", language: "ja")
        #expect(sorted.first?.hasSuffix("/wqy-zenhei.ttc#0") == true)
        #expect(sorted.contains(Self.japanese))
    }

    @Test func japaneseTitleTakesNotoSansCJKJapaneseNotWenQuanYi() throws {
        let chain = try Self.chain()
        // Kana says Japanese; the space and digits stay in the CJK face, which has them (rule 2).
        #expect(Self.described(chain.runs(of: "東京の旅 2026")) == ["東京の旅 2026|\(Self.japanese)"])
        #expect(chain.missing(in: "東京の旅 2026").isEmpty)
    }

    @Test func latinThenJapanese() throws {
        let chain = try Self.chain()
        let primary = chain.primary.path
        #expect(Self.described(chain.runs(of: "Trip 東京の旅 (2026)")) ==
            ["Trip |\(primary)", "東京の旅 (2026)|\(Self.japanese)"])
        // Punctuation before any Han opens in the face of what follows it.
        #expect(Self.described(chain.runs(of: "「東京」")) == ["「東京」|\(Self.simplified)"])
    }

    @Test(arguments: [
        ([], nil, simplified), (["zh-Hans"], nil, simplified), (["zh-TW"], nil, traditional),
        (["zh_HK"], nil, hongKong), (["ko"], nil, korean), (["ja"], nil, japanese), (["en-US", "ja"], nil, japanese),
        (["ko"], "ja", japanese), (["ja"], "zh-TW", traditional), ([], "ko-KR", korean), (["en"], "en", simplified),
    ] as [([String], String?, String)])
    func hanTakesTheFormsOfTheLanguage(_ book: [String], _ caption: String?, _ face: String) throws {
        let chain = try Self.chain(book)
        let language = try caption.map { try #require(Language($0)) }
        #expect(Self.described(chain.runs(of: "直", language: language)) == ["直|\(face)"])
    }

    @Test func theEnvironmentsLanguage() throws {
        let language = try #require(Language.environment(["LANG": "ja_JP.UTF-8"]))
        #expect(language.tag == "ja-JP")
        let chain = FontChain(primary: try FontFace(path: Self.dejaVu), languages: [language])
        #expect(Self.described(chain.runs(of: "直行")) == ["直行|\(Self.japanese)"])
    }

    @Test func theTextsOwnKanaMakesItJapanese() throws {
        #expect(Self.described(try Self.chain().runs(of: "直の")) == ["直の|\(Self.japanese)"])
        // The book's Traditional Chinese applies to Han before the text's guess; kana is Japanese's alone.
        #expect(Self.described(try Self.chain(["zh-TW"]).runs(of: "直の")) ==
            ["直|\(Self.traditional)", "の|\(Self.japanese)"])
    }

    @Test func hangul() throws {
        #expect(Self.described(try Self.chain().runs(of: "서울의 밤")) == ["서울의 밤|\(Self.korean)"])
        // Han in a Korean caption takes Korean forms.
        #expect(Self.described(try Self.chain().runs(of: "直 서울")) == ["直 서울|\(Self.korean)"])
    }

    @Test func emojiDejaVuHasStaysInDejaVu() throws {
        let chain = try Self.chain()
        let runs = chain.runs(of: "Tokyo 😀")
        #expect(runs.map(\.text).joined() == "Tokyo 😀")
        #expect(runs.count == 1)
        #expect(runs.allSatisfy { $0.face === chain.primary })
    }

    @Test func colourEmojiTakesEmojiAndNothingElse() throws {
        let chain = try Self.chain(colourEmoji: true)
        #expect(chain.emojiFace?.path == Self.emoji && chain.emojiFace?.drawsInColour == true)
        // 😀 leaves DejaVu's line drawing for the picture; the space and the digits after an emoji go back to DejaVu
        // though Noto Color Emoji has them (for keycaps).
        #expect(Self.described(chain.runs(of: "Tokyo 😀 2026")) == [
            "Tokyo |\(Self.dejaVu)", "😀|\(Self.emoji)", " 2026|\(Self.dejaVu)"])
        // A family joined by ZWJ, a flag (two regional indicators), a skin tone, a keycap with its selector and
        // U+20E3, and a heart with the emoji selector: each one run of the emoji face, the joiners and selectors in it.
        for sequence in ["👨\u{200D}👩\u{200D}👧", "🇯🇵", "👍🏽", "1\u{FE0F}\u{20E3}", "❤\u{FE0F}", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"] {
            #expect(Self.described(chain.runs(of: "a " + sequence + " b")) == [
                "a |\(Self.dejaVu)", "\(sequence)|\(Self.emoji)", " b|\(Self.dejaVu)"], "\(sequence.unicodeScalars.map(\.value))")
        }
        // The text selector keeps ❤ (and 😀) a character of DejaVu's; ❤ alone is text by default (no
        // Emoji_Presentation), and a bare digit never is an emoji.
        #expect(Self.described(chain.runs(of: "❤\u{FE0E} ❤ 1 😀\u{FE0E}")) == ["❤\u{FE0E} ❤ 1 😀\u{FE0E}|\(Self.dejaVu)"])
        // A Japanese caption with an emoji between two runs of the CJK face.
        #expect(Self.described(chain.runs(of: "東京🍣の旅")) == [
            "東京|\(Self.japanese)", "🍣|\(Self.emoji)", "の旅|\(Self.japanese)"])
        #expect(chain.missing(in: "🧑 and 😀").isEmpty)
    }

    @Test func withoutColourNoPictureFace() throws {
        #expect(try Self.chain(colourEmoji: false).emojiFace == nil)
        #expect(try Self.chain(findsFallbacks: false, colourEmoji: true).emojiFace == nil)
    }

    @Test func colourEmojiIsNeverTakenWithoutColour() throws {
        let chain = try Self.chain()
        // U+1F9D1 (adult): Noto Color Emoji has it, DejaVu Sans 2.37 does not.
        #expect(chain.primary.glyph(for: "🧑") == nil)
        #expect(FontCatalog.face(named: "Noto Color Emoji")?.hasSuffix("NotoColorEmoji.ttf#0") == true)
        for run in chain.runs(of: "🧑 and 😀") {
            #expect(run.face?.path.contains("NotoColorEmoji") != true)
        }
        #expect(!FontCatalog.faces(covering: "😀", language: nil).contains { $0.contains("NotoColorEmoji") })
        #expect(FontCatalog.faces(covering: "😀", language: nil).contains(Self.dejaVu + "#0"))
    }

    @Test func devanagariAndThai() throws {
        let chain = try Self.chain()
        let devanagari = chain.runs(of: "नमस्ते")
        #expect(devanagari.count == 1)
        #expect(devanagari.first?.face?.path == "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf#0")
        let thai = chain.runs(of: "สวัสดี")
        #expect(thai.count == 1)
        #expect(thai.first?.face?.path == "/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf#0")
        // Latin before and after: the language's face only where DejaVu lacks the letters.
        #expect(Self.described(chain.runs(of: "Namaste नमस्ते!")) ==
            ["Namaste |\(Self.dejaVu)", "नमस्ते!|/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf#0"])
    }

    @Test func combiningMarksStayWithTheirBase() throws {
        let chain = try Self.chain()
        let devanagari = try #require(chain.runs(of: "न").first?.face)
        // U+0951 (udatta) is Inherited; the Devanagari face has it, so it stays.
        #expect(devanagari.glyph(for: "\u{0951}") != nil)
        #expect(Self.described(chain.runs(of: "न\u{0951}")) == ["न\u{0951}|\(devanagari.path)"])
        #expect(Self.described(chain.runs(of: "e\u{0301}\u{0301}")) == ["e\u{0301}\u{0301}|\(Self.dejaVu)"])
        // After Han, a mark the CJK face has stays in it: no run for DejaVu in between.
        let japanese = try #require(LoadedFaces.face(Self.japanese))
        #expect(japanese.glyph(for: "\u{3099}") != nil)
        #expect(Self.described(chain.runs(of: "か\u{3099}")) == ["か\u{3099}|\(Self.japanese)"])
    }

    @Test func privateUseIsMissing() throws {
        let chain = try Self.chain()
        #expect(Self.described(chain.runs(of: "\u{10FFFD}")) == ["\u{10FFFD}|nil"])
        #expect(Self.described(chain.runs(of: "a\u{10FFFD}\u{10FFFD} b\u{10FFFD}")) ==
            ["a|\(Self.dejaVu)", "\u{10FFFD}\u{10FFFD}|nil", " b|\(Self.dejaVu)", "\u{10FFFD}|nil"])
        #expect(chain.missing(in: "a\u{10FFFD}\u{10FFFD} b\u{10FFFD}") == ["\u{10FFFD}"])
        #expect(chain.missing(in: "\u{10FFFD}\u{10FFFC}\u{10FFFD}") == ["\u{10FFFD}", "\u{10FFFC}"])
        // Controls and spaces next to a missing character are never reported.
        #expect(chain.missing(in: "\u{10FFFD}\u{7}\u{202E} \u{3000}") == ["\u{10FFFD}"])
    }

    @Test func withoutFallbacksOnlyThePrimaryDraws() throws {
        let chain = try Self.chain(["ja"], findsFallbacks: false)
        #expect(Self.described(chain.runs(of: "Tokyo 東京")) == ["Tokyo |\(Self.dejaVu)", "東京|nil"])
        #expect(chain.missing(in: "Tokyo 東京の東") == ["東", "京", "の"])
        #expect(chain.fontconfigQueries == 0)
    }

    @Test func debianPackages() throws {
        #expect(FontChain.debianPackage(for: "\u{10FFFD}") == nil)
        #expect(FontChain.debianPackage(for: "\u{E000}") == nil)
        // Noncharacters, which a literal cannot hold, and an unassigned code point of the Greek block.
        for value: UInt32 in [0xFFFF, 0xFDD0, 0x10FFFF, 0x0378] {
            #expect(FontChain.debianPackage(for: try #require(Unicode.Scalar(value))) == nil)
        }
        #expect(FontChain.debianPackage(for: "東") == "fonts-noto-cjk")
        #expect(FontChain.debianPackage(for: "の") == "fonts-noto-cjk")
        #expect(FontChain.debianPackage(for: "서") == "fonts-noto-cjk")
        #expect(FontChain.debianPackage(for: "ㄅ") == "fonts-noto-cjk")
        #expect(FontChain.debianPackage(for: "。") == "fonts-noto-cjk")
        #expect(FontChain.debianPackage(for: "😀") == "fonts-noto-color-emoji")
        #expect(FontChain.debianPackage(for: "🧑") == "fonts-noto-color-emoji")
        #expect(FontChain.debianPackage(for: "न") == "fonts-noto-core")
        #expect(FontChain.debianPackage(for: "ส") == "fonts-noto-core")
        #expect(FontChain.debianPackage(for: "#") == "fonts-noto-core")
        #expect(FontChain.debianPackage(for: "\u{0951}") == "fonts-noto-core")
    }

    @Test(arguments: [
        "", "   ", "\u{0}\u{7}\t\n\r\u{7F}\u{85}", "\u{0301}abc", "\u{0301}東京", "a" + String(repeating: "\u{0301}", count: 1000),
        String(repeating: "\u{0301}", count: 1000), "\u{202E}שלום abc\u{202C}", "\u{202E}", "東\u{200D}京",
        "\u{FE0F}", "👨‍👩‍👧 family", "\u{10FFFD}\u{10FFFD}x", String(String.UnicodeScalarView([0xFFFF, 0xFFFE, 0xFDD0].compactMap(Unicode.Scalar.init))), "\u{2028}東\u{2029}", "\u{AD}\u{34F}",
        "Ελληνικά, русский, עברית, العربية", "mixed 東京の旅 서울 नमस्ते สวัสดี 😀🧑 \u{10FFFD}.",
    ])
    func runsGiveTheTextBack(_ text: String) throws {
        let chain = try Self.chain()
        let runs = chain.runs(of: text)
        #expect(Array(runs.map(\.text).joined().unicodeScalars) == Array(text.unicodeScalars))
        #expect(runs.allSatisfy { !$0.text.isEmpty })
        #expect(text.isEmpty == runs.isEmpty)
        // Maximal runs: two neighbours never share a face.
        for (left, right) in zip(runs, runs.dropFirst()) {
            #expect(left.face !== right.face)
        }
        #expect(Self.described(chain.runs(of: text)) == Self.described(runs))
        // What draws nothing never shows as missing, nor as a run of its own before the first character.
        #expect(!chain.missing(in: text).contains { FontChain.drawsNothing($0) || $0.properties.isWhitespace })
    }

    @Test func leadingInvisiblesJoinTheFirstRun() throws {
        let chain = try Self.chain()
        #expect(Self.described(chain.runs(of: "\u{202E}\u{200F}東京")) == ["\u{202E}\u{200F}東京|\(Self.simplified)"])
        #expect(Self.described(chain.runs(of: "\u{202E}")) == ["\u{202E}|\(Self.dejaVu)"])
    }

    @Test func fontconfigIsAskedPerScriptAndLanguageNotPerCharacter() throws {
        let chain = try Self.chain(["ja"])
        let han = String(String.UnicodeScalarView((0x4E00..<0x4EC8).compactMap(Unicode.Scalar.init)))
        #expect(han.unicodeScalars.count == 200)
        #expect(Self.described(chain.runs(of: han)) == ["\(han)|\(Self.japanese)"])
        let afterHan = chain.fontconfigQueries
        // One family matched: Noto Sans CJK JP, the first of Japanese's book faces.
        #expect(afterHan == 1)
        // Each character alone again, and kana (another script, the same face): no more than one match more.
        for scalar in han.unicodeScalars { _ = chain.runs(of: String(scalar)) }
        _ = chain.runs(of: "ひらがなカタカナ")
        #expect(chain.fontconfigQueries <= afterHan + 2)
        // 50 private-use characters no face has: one sorted list, not 50.
        let privateUse = String(String.UnicodeScalarView((0x10FF00..<0x10FF32).compactMap(Unicode.Scalar.init)))
        let before = chain.fontconfigQueries
        #expect(chain.missing(in: privateUse).count == 50)
        #expect(chain.fontconfigQueries == before + 1)
    }

    @Test func theAnswerDoesNotDependOnWhatWasAskedBefore() throws {
        let texts = ["「東京」 🧑", "直の", "直", "서울 直", "نص عربي", "नमस्ते", "\u{10FFFD}", "x ⌘ ★ ♫ ⚗ 🜁"]
        let forward = try Self.chain(["zh-TW"])
        let backward = try Self.chain(["zh-TW"])
        let first = texts.map { Self.described(forward.runs(of: $0)) }
        let second = texts.reversed().map { Self.described(backward.runs(of: $0)) }.reversed()
        #expect(first == Array(second))
    }

    @Test func manyThreadsOneChain() async throws {
        let chain = try Self.chain(["ja"])
        let texts = ["東京の旅 2026", "서울의 밤", "नमस्ते", "สวัสดี", "Tokyo 😀", "直", "\u{10FFFD}"]
        let expected = try texts.map { Self.described(try Self.chain(["ja"]).runs(of: $0)) }
        let answers = await withTaskGroup(of: (Int, [String]).self) { group in
            for round in 0..<64 {
                group.addTask { (round % texts.count, Self.described(chain.runs(of: texts[round % texts.count]))) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 64)
        for (index, described) in answers {
            #expect(described == expected[index])
        }
    }
}
