import Testing
import Typeface
@testable import Words

@Suite struct LanguageTests {
    @Test(arguments: [
        ("ja", "ja"), ("JA-jp", "ja-JP"), ("zh_TW", "zh-Hant-TW"), ("zh-Hant", "zh-Hant"), ("en-US", "en-US"),
        ("zh", "zh-Hans"), ("zh-CN", "zh-Hans-CN"), ("zh_SG", "zh-Hans-SG"), ("zh-HK", "zh-Hant-HK"),
        ("zh-MO", "zh-Hant-MO"), ("zh-hans-tw", "zh-Hans-TW"), ("sr_latn_rs", "sr-Latn-RS"), ("es-419", "es-419"),
        ("de-CH-1996", "de-CH-1996"), ("ja-JP-u-ca-japanese", "ja-JP-u-ca-japanese"), ("en-x-Private", "en-x-private"),
        ("KO", "ko"),
    ])
    func normalises(_ written: String, _ tag: String) throws {
        let language = try #require(Language(written))
        #expect(language.tag == tag)
        #expect(language.description == tag)
        // Normal form is a fixed point.
        #expect(Language(tag)?.tag == tag)
    }

    @Test func keepsItsParts() throws {
        let taiwan = try #require(Language("zh_TW"))
        #expect(taiwan.code == "zh" && taiwan.script == "Hant" && taiwan.region == "TW")
        let japanese = try #require(Language("ja"))
        #expect(japanese.code == "ja" && japanese.script == nil && japanese.region == nil)
        #expect(Language("JA-jp") == Language("ja-JP"))
    }

    @Test(arguments: [
        "", "日本", "ja--JP", "a", "toolongprimary", "ja-", "-ja", "_", "x-private", "i-klingon", "ja-JP-x", "ja JP",
        "ja-Latn-Latn", "ja-123456789", "j1", "ja-JP-u", "ja.JP", "ｊａ",
    ])
    func refuses(_ written: String) {
        #expect(Language(written) == nil)
    }

    @Test func environment() {
        #expect(Language.environment(["LANG": "ja_JP.UTF-8"])?.tag == "ja-JP")
        #expect(Language.environment(["LANG": "ja_JP.UTF-8@mod"])?.tag == "ja-JP")
        #expect(Language.environment(["LC_ALL": "ko_KR.UTF-8", "LANG": "ja_JP.UTF-8"])?.tag == "ko-KR")
        #expect(Language.environment(["LC_MESSAGES": "zh_TW.Big5", "LANG": "ja_JP.UTF-8"])?.tag == "zh-Hant-TW")
        #expect(Language.environment(["LC_ALL": "", "LC_MESSAGES": "de_DE@euro", "LANG": "ja"])?.tag == "de-DE")
        #expect(Language.environment(["LC_ALL": "", "LC_MESSAGES": "", "LANG": "fr_FR"])?.tag == "fr-FR")
        #expect(Language.environment(["LANG": "C"]) == nil)
        #expect(Language.environment(["LANG": "C.UTF-8"]) == nil)
        #expect(Language.environment(["LANG": "POSIX"]) == nil)
        // LC_ALL=C wins over LANG, as it does for every program.
        #expect(Language.environment(["LC_ALL": "C", "LANG": "ja_JP.UTF-8"]) == nil)
        #expect(Language.environment(["LANGUAGE": "ja", "LC_CTYPE": "ja_JP.UTF-8"]) == nil)
        #expect(Language.environment([:]) == nil)
    }

    @Test func guess() {
        #expect(Language.guess(from: "東京の旅")?.tag == "ja")
        #expect(Language.guess(from: "カメラ")?.tag == "ja")
        #expect(Language.guess(from: "ｶﾒﾗ")?.tag == "ja")
        #expect(Language.guess(from: "서울의 밤")?.tag == "ko")
        #expect(Language.guess(from: "서울の")?.tag == "ja")
        #expect(Language.guess(from: "東京") == nil)
        #expect(Language.guess(from: "Tokyo 2026") == nil)
        #expect(Language.guess(from: "") == nil)
    }

    @Test func scriptsALanguageIsWrittenIn() throws {
        #expect(try #require(Language("ja")).scripts == [.han, .hiragana, .katakana])
        #expect(try #require(Language("ko-KR")).scripts == [.hangul, .han])
        #expect(try #require(Language("zh-TW")).scripts == [.han, .bopomofo])
        #expect(try #require(Language("hi")).scripts == [Script(code: "Deva")])
        #expect(try #require(Language("sr-Latn")).scripts == [.latin])
        #expect(try #require(Language("sr")).scripts == [Script(code: "Cyrl")])
        #expect(try #require(Language("en-GB")).scripts == [.latin])
    }
}

@Suite struct ScriptTests {
    @Test(arguments: [
        ("東", "Hani"), ("の", "Hira"), ("カ", "Kana"), ("ｶ", "Kana"), ("서", "Hang"), ("ㄅ", "Bopo"), ("a", "Latn"),
        ("λ", "Grek"), ("ж", "Cyrl"), ("ا", "Arab"), ("ש", "Hebr"), ("न", "Deva"), ("ส", "Thai"), (" ", "Zyyy"),
        ("2", "Zyyy"), ("、", "Zyyy"), ("😀", "Zyyy"), ("\u{0301}", "Zinh"), ("\u{200D}", "Zinh"), ("\u{10FFFD}", "Zzzz"),
        ("\u{E000}", "Zzzz"),
    ] as [(Unicode.Scalar, String)])
    func ofACharacter(_ scalar: Unicode.Scalar, _ code: String) {
        #expect(Script(of: scalar).code == code)
    }

    @Test func byCode() {
        #expect(Script(code: "hani") == .han)
        #expect(Script(code: "HANI")?.description == "Hani")
        #expect(Script(code: "Han") == nil)
        #expect(Script(code: "Ha1i") == nil)
        #expect(Script.common.isShared && Script.inherited.isShared && !Script.han.isShared && !Script.unknown.isShared)
    }
}
