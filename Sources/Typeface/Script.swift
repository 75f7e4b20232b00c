internal import CHarfBuzz

/// A Unicode script by its ISO 15924 code ("Latn", "Hani", "Hira", "Arab"...), as HarfBuzz's character database
/// gives it: what text is cut into runs by before a font is chosen for each.
///
/// Characters shared by many scripts are "Zyyy" (common: spaces, digits, punctuation, most emoji) or "Zinh"
/// (inherited: combining marks that take their base's script); unassigned and private-use code points are "Zzzz".
public struct Script: Sendable, Hashable, CustomStringConvertible {
    /// The four-letter ISO 15924 code, first letter upper-case ("Hani").
    public let code: String

    /// The script of `scalar` (`hb_unicode_script` of HarfBuzz's default Unicode functions, as an ISO 15924 tag
    /// by `hb_script_to_iso15924_tag`). The default functions are made once and never change: thread-safe.
    public init(of scalar: Unicode.Scalar) {
        let script = hb_unicode_script(hb_unicode_funcs_get_default(), scalar.value)
        let tag = hb_script_to_iso15924_tag(script)
        // HB_SCRIPT_INVALID has the tag 0: not a code anyone could look up.
        guard tag != 0 else {
            code = "Zzzz"
            return
        }
        code = String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> $0) }, as: UTF8.self)
    }

    /// The script whose ISO 15924 code is `code` (4 ASCII letters, any case); nil for anything else.
    public init?(code: String) {
        guard code.utf8.count == 4, code.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else {
            return nil
        }
        self.code = code.prefix(1).uppercased() + code.dropFirst().lowercased()
    }

    private init(known code: String) {
        self.code = code
    }

    public static let common = Script(known: "Zyyy")
    public static let inherited = Script(known: "Zinh")
    public static let unknown = Script(known: "Zzzz")
    public static let latin = Script(known: "Latn")
    public static let han = Script(known: "Hani")
    public static let hiragana = Script(known: "Hira")
    public static let katakana = Script(known: "Kana")
    public static let hangul = Script(known: "Hang")
    public static let bopomofo = Script(known: "Bopo")

    /// True for Zyyy and Zinh: characters that belong to whichever script surrounds them.
    public var isShared: Bool {
        self == .common || self == .inherited
    }

    public var description: String { code }
}
