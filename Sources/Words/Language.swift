import Typeface

/// A BCP 47 language tag, normalised: what decides which forms a text's characters take (Han drawn the Japanese,
/// Chinese or Korean way) and which face draws a script.
///
/// Normal form: subtags joined by '-' (a POSIX '_' becomes '-'), the language lower-case, a script Title-case,
/// a region upper-case, everything after lower-case ("JA-jp" -> "ja-JP", "sr_latn_rs" -> "sr-Latn-RS"). Chinese
/// always carries its script, so that Han forms follow it: without one, zh with region TW, HK or MO is Traditional
/// and any other zh Simplified, the region kept ("zh_TW" -> "zh-Hant-TW", "zh-CN" -> "zh-Hans-CN", "zh" ->
/// "zh-Hans"). Hong Kong and Macau keep their region, which picks Hong Kong's forms ("zh-Hant-HK").
///
/// Accepted: a primary language of 2 or 3 letters, then an optional script (4 letters), an optional region
/// (2 letters or 3 digits), variants (5 to 8 letters or digits, or a digit and 3 more), extensions (a singleton
/// then subtags of 2 to 8) and a private part ("x-" then subtags of 1 to 8). Refused: anything else, among it
/// grandfathered and private-only tags ("i-klingon", "x-whatever"), empty subtags and non-ASCII letters.
public struct Language: Sendable, Hashable, CustomStringConvertible {
    /// The normalised tag ("ja", "ja-JP", "zh-Hans", "zh-Hant-TW", "en-US").
    public let tag: String
    /// The primary language subtag, lower-case ("ja", "zh").
    public let code: String
    /// The script subtag, Title-case ("Hant"); for Chinese never nil.
    public let script: String?
    /// The region subtag, upper-case ("JP", "TW") or 3 digits ("419").
    public let region: String?

    /// nil when `tag` is not a well-formed tag by the rules above ("", "日本", "ja--JP", "a", "toolongprimary").
    public init?(_ tag: String) {
        let parts = tag.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
            .map(String.init)
        guard !tag.isEmpty,
              parts.allSatisfy({ (1...8).contains($0.utf8.count) && $0.unicodeScalars.allSatisfy(Self.isAlphanumeric) }),
              (2...3).contains(parts[0].count), parts[0].unicodeScalars.allSatisfy(Self.isLetter) else { return nil }
        var rest = parts.dropFirst()
        var script: String?
        if let next = rest.first, next.count == 4, next.unicodeScalars.allSatisfy(Self.isLetter) {
            script = next.prefix(1).uppercased() + next.dropFirst().lowercased()
            rest = rest.dropFirst()
        }
        var region: String?
        if let next = rest.first,
           next.count == 2 && next.unicodeScalars.allSatisfy(Self.isLetter)
           || next.count == 3 && next.unicodeScalars.allSatisfy(Self.isDigit) {
            region = next.uppercased()
            rest = rest.dropFirst()
        }
        guard let tail = Self.tail(Array(rest)) else { return nil }
        let code = parts[0].lowercased()
        if code == "zh" && script == nil {
            script = ["TW", "HK", "MO"].contains(region) ? "Hant" : "Hans"
        }
        self.code = code
        self.script = script
        self.region = region
        self.tag = ([code] + [script, region].compactMap { $0 } + tail).joined(separator: "-")
    }

    /// The language of the process's locale: the first non-empty of LC_ALL, LC_MESSAGES and LANG, in POSIX form
    /// ("ja_JP.UTF-8@mod" -> ja-JP, its codeset and modifier dropped); nil for the C and POSIX locales ("C",
    /// "POSIX", "C.UTF-8") and for a value that is no tag. LC_ALL set to "C" hides LANG, as it does for every
    /// program.
    public static func environment(_ variables: [String: String]) -> Language? {
        guard let value = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ variables[$0] }).first(where: { !$0.isEmpty })
        else { return nil }
        let locale = String(value.prefix { $0 != "." && $0 != "@" })
        guard locale != "C", locale != "POSIX" else { return nil }
        return Language(locale)
    }

    /// What the text itself says: Japanese when it has any kana, else Korean when it has any Hangul, else nil
    /// (Han alone is Chinese, Japanese or Korean alike).
    public static func guess(from text: String) -> Language? {
        var hangul = false
        for scalar in text.unicodeScalars {
            switch Script(of: scalar) {
            case .hiragana, .katakana: return Language("ja")
            case .hangul: hangul = true
            default: break
            }
        }
        return hangul ? Language("ko") : nil
    }

    public var description: String { tag }

    /// The scripts this language is written in, for deciding whether it applies to a character: Japanese Han
    /// and kana, Korean Hangul and Han, Chinese Han and Bopomofo; a tag's own script subtag for the rest; else the
    /// language's usual script (`usualScripts`), Latin when the table has no other.
    var scripts: Set<Script> {
        switch code {
        case "ja": return [.han, .hiragana, .katakana]
        case "ko": return [.hangul, .han]
        case "zh": return [.han, .bopomofo]
        default:
            if let script, let named = Script(code: script) { return [named] }
            return [Script(code: Self.usualScripts[code] ?? "Latn") ?? .latin]
        }
    }

    /// The script a language is usually written in, for the languages not written in Latin.
    private static let usualScripts: [String: String] = {
        let table: [String: [String]] = [
            "Arab": ["ar", "fa", "ur", "ps", "sd", "ug", "ckb"], "Hebr": ["he", "iw", "yi"],
            "Deva": ["hi", "mr", "ne", "sa", "kok", "mai", "bho"], "Beng": ["bn", "as"], "Guru": ["pa"],
            "Gujr": ["gu"], "Orya": ["or"], "Taml": ["ta"], "Telu": ["te"], "Knda": ["kn"], "Mlym": ["ml"],
            "Sinh": ["si"], "Thai": ["th"], "Laoo": ["lo"], "Khmr": ["km"], "Mymr": ["my"], "Tibt": ["bo", "dz"],
            "Geor": ["ka"], "Armn": ["hy"], "Ethi": ["am", "ti"], "Grek": ["el"], "Thaa": ["dv"],
            "Cyrl": ["ru", "uk", "bg", "be", "mk", "sr", "kk", "ky", "mn", "tg"],
        ]
        return Dictionary(uniqueKeysWithValues: table.flatMap { script, codes in codes.map { ($0, script) } })
    }()

    /// Variants, extensions and a private part, lower-case; nil when a subtag is none of them.
    private static func tail(_ subtags: [String]) -> [String]? {
        var index = 0
        while index < subtags.count {
            let subtag = subtags[index]
            if subtag.count == 1 {
                // A singleton opens an extension ('x': the private part, to the end), which needs a subtag.
                let isPrivate = subtag.lowercased() == "x"
                var end = index + 1
                while end < subtags.count, isPrivate || subtags[end].count >= 2 { end += 1 }
                guard end > index + 1 else { return nil }
                index = end
            } else {
                let first = subtag.unicodeScalars.first.map(isDigit) ?? false
                guard subtag.count >= 5 || subtag.count == 4 && first else { return nil }
                index += 1
            }
        }
        return subtags.map { $0.lowercased() }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || isDigit(scalar)
    }
}
