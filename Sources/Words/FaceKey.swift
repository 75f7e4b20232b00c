import Typeface

/// A script and the language as far as it changes the face that draws the script: what a chain looks a face up
/// by, once per book. Its families are the book faces tried by name, best first; fontconfig's sorted list for its
/// fontconfig language comes after them.
struct FaceKey: Hashable, Sendable {
    let script: Script
    /// For the scripts Han is written with: "ja", "ko", "zh-Hans", "zh-Hant" or "zh-HK", never nil (no language:
    /// Simplified Chinese for Han, Traditional for Bopomofo, Japanese for kana, Korean for Hangul). For the other
    /// scripts the language's code ("ur"), or nil.
    let language: String?

    init(script: Script, language: Language?) {
        self.script = script
        guard Self.hanScripts.contains(script) else {
            self.language = language?.code
            return
        }
        switch (language?.code, language?.script, language?.region) {
        case ("ja", _, _): self.language = "ja"
        case ("ko", _, _): self.language = "ko"
        case ("zh", "Hant", "HK"), ("zh", "Hant", "MO"): self.language = "zh-HK"
        case ("zh", "Hant", _): self.language = "zh-Hant"
        case ("zh", _, _): self.language = "zh-Hans"
        default:
            switch script {
            case .hiragana, .katakana: self.language = "ja"
            case .hangul: self.language = "ko"
            case .bopomofo: self.language = "zh-Hant"
            default: self.language = "zh-Hans"
            }
        }
    }

    /// The language as fontconfig names it in `FC_LANG` (RFC 3066, lower-case: "zh-cn", "zh-tw", "zh-hk").
    var fontconfigLanguage: String? {
        switch language {
        case "zh-Hans": "zh-cn"
        case "zh-Hant": "zh-tw"
        case "zh-HK": "zh-hk"
        default: language
        }
    }

    /// The book faces for this script in this language, by family name, best first: the sans faces Debian
    /// packages (Noto first: fonts-noto-cjk, fonts-noto-core), then the older ones people still have installed.
    /// Empty for scripts without a table entry: fontconfig's sorted list finds their faces.
    var families: [String] {
        switch script {
        case .han, .hiragana, .katakana, .hangul, .bopomofo:
            return Self.hanFamilies[language ?? ""] ?? []
        default:
            if script.code == "Arab", language == "ur" {
                return ["Noto Nastaliq Urdu"] + (Self.families[script.code] ?? [])
            }
            return Self.families[script.code] ?? []
        }
    }

    private static let hanScripts: Set<Script> = [.han, .hiragana, .katakana, .hangul, .bopomofo]

    private static let traditional = ["Noto Sans CJK TC", "Source Han Sans TC", "Source Han Sans TW", "AR PL UMing TW",
                                      "WenQuanYi Zen Hei"]
    private static let hanFamilies: [String: [String]] = [
        "ja": ["Noto Sans CJK JP", "Source Han Sans JP", "Source Han Sans", "IPAexGothic", "IPAGothic", "TakaoGothic",
               "VL Gothic"],
        "ko": ["Noto Sans CJK KR", "Source Han Sans KR", "Source Han Sans K", "NanumGothic", "UnDotum", "Baekmuk Gulim"],
        "zh-Hans": ["Noto Sans CJK SC", "Source Han Sans SC", "Source Han Sans CN", "WenQuanYi Zen Hei",
                    "WenQuanYi Micro Hei", "Droid Sans Fallback"],
        "zh-Hant": traditional,
        "zh-HK": ["Noto Sans CJK HK", "Source Han Sans HK"] + traditional,
    ]

    private static let families: [String: [String]] = [
        "Latn": ["Noto Sans"], "Grek": ["Noto Sans"], "Cyrl": ["Noto Sans"],
        "Arab": ["Noto Naskh Arabic", "Noto Sans Arabic"],
        "Hebr": ["Noto Sans Hebrew"],
        "Deva": ["Noto Sans Devanagari"],
        "Beng": ["Noto Sans Bengali"],
        "Guru": ["Noto Sans Gurmukhi"],
        "Gujr": ["Noto Sans Gujarati"],
        "Orya": ["Noto Sans Oriya"],
        "Taml": ["Noto Sans Tamil"],
        "Telu": ["Noto Sans Telugu"],
        "Knda": ["Noto Sans Kannada"],
        "Mlym": ["Noto Sans Malayalam"],
        "Sinh": ["Noto Sans Sinhala"],
        "Thai": ["Noto Sans Thai"],
        "Laoo": ["Noto Sans Lao"],
        "Khmr": ["Noto Sans Khmer"],
        "Mymr": ["Noto Sans Myanmar"],
        "Tibt": ["Noto Serif Tibetan"],
        "Geor": ["Noto Sans Georgian"],
        "Armn": ["Noto Sans Armenian"],
        "Ethi": ["Noto Sans Ethiopic"],
        "Thaa": ["Noto Sans Thaana"],
        "Syrc": ["Noto Sans Syriac"],
        "Mong": ["Noto Sans Mongolian"],
        "Cher": ["Noto Sans Cherokee"],
    ]
}
