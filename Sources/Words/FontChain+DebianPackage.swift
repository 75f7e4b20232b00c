import Typeface

extension FontChain {
    /// The Debian package that would draw `scalar`, for the missing-character warning: "fonts-noto-cjk" for Han,
    /// kana, Hangul, Bopomofo and the CJK punctuation, symbols and full-width forms; "fonts-noto-color-emoji" for
    /// emoji; "fonts-noto-core" for the letters, marks and symbols of every other script (Debian 12's
    /// fonts-noto-core has a Noto Sans or Serif for each script in Unicode 13, symbols in Noto Sans Symbols 1 and 2).
    /// nil for unassigned code points, private use, noncharacters, surrogates and characters that draw nothing: no
    /// package would help.
    public static func debianPackage(for scalar: Unicode.Scalar) -> String? {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .unassigned, .privateUse, .surrogate: return nil
        default: break
        }
        guard !properties.isNoncharacterCodePoint, !drawsNothing(scalar) else { return nil }
        switch Script(of: scalar) {
        case .han, .hiragana, .katakana, .hangul, .bopomofo: return "fonts-noto-cjk"
        default: break
        }
        if cjkBlocks.contains(where: { $0.contains(scalar.value) }) { return "fonts-noto-cjk" }
        // Trap: '#', '*', the digits and © are Emoji too (they start keycap and text sequences); only the
        // characters shown as emoji by default, and those of the emoji planes, are Noto Color Emoji's.
        if properties.isEmojiPresentation || properties.isEmoji && scalar.value >= 0x1F000 {
            return "fonts-noto-color-emoji"
        }
        return "fonts-noto-core"
    }

    /// Blocks of the CJK fonts whose characters are Common: CJK Symbols and Punctuation, Kanbun, CJK Strokes,
    /// Enclosed CJK Letters and Months, CJK Compatibility, CJK Compatibility Forms, Halfwidth and Fullwidth Forms.
    private static let cjkBlocks: [ClosedRange<UInt32>] = [
        0x3000...0x303F, 0x3190...0x319F, 0x31C0...0x31EF, 0x3200...0x33FF, 0xFE30...0xFE4F, 0xFF00...0xFFEF,
    ]
}
