import CICUShim

/// Where lines may break (UAX #14) by ICU's line break iterator (ubrk, UBRK_LINE), tailored by language: Japanese
/// and Chinese between characters with strict kinsoku, Thai at words found in ICU's dictionary, other text at spaces
/// and after hyphens and slashes.
public enum LineBreaks {
    /// One place a line may start: a scalar offset, and whether a line must start there (after a newline).
    public struct Opportunity: Sendable, Equatable {
        public let offset: Int
        public let isMandatory: Bool

        public init(offset: Int, isMandatory: Bool) {
            self.offset = offset
            self.isMandatory = isMandatory
        }
    }

    /// The offsets (in Unicode scalars of `text`) where a line may start, after the first: ICU's line break
    /// iterator (UBRK_LINE) with the locale `locale(for: language)` gives.
    ///
    /// Ascending; never 0 nor `text.unicodeScalars.count` (no line starts at the end, not even after a final
    /// newline); mandatory breaks included (a line may, and must, start there: `mandatoryBreaks(in:)` lists them).
    /// A text over 65,536 UTF-16 units (more than a 64 KB caption can hold) is broken in pieces, cut after a line
    /// feed or space where one is near (the cut is offered) else anywhere but inside a surrogate pair (not offered).
    /// Should ICU fail (out of memory, data missing) a piece offers nothing.
    public static func opportunities(in text: String, language: String?) -> [Int] {
        breaks(in: text, language: language).map(\.offset)
    }

    /// The offsets (in Unicode scalars) where a line must start: after a line feed, carriage return (CR LF is one
    /// break, after the LF), NEL, U+2028 or U+2029, never the text's end. The language changes none of them.
    public static func mandatoryBreaks(in text: String) -> [Int] {
        breaks(in: text, language: nil).filter(\.isMandatory).map(\.offset)
    }

    /// `opportunities(in:language:)` with each one's `mandatoryBreaks(in:)` flag, from one pass of ICU.
    public static func breaks(in text: String, language: String?) -> [Opportunity] {
        let utf16 = UTF16Text(text)
        let locale = locale(for: language)
        var found: [Opportunity] = []
        for piece in utf16.pieces {
            // ICU's boundaries after 0 are at most one a unit.
            var offsets = [Int32](repeating: 0, count: piece.count)
            var mandatory = [UInt8](repeating: 0, count: piece.count)
            let count = utf16.withPiece(piece) { units, length in
                offsets.withUnsafeMutableBufferPointer { offsetBuffer in
                    mandatory.withUnsafeMutableBufferPointer { mandatoryBuffer in
                        pbicu_line_breaks(units, length, locale, offsetBuffer.baseAddress,
                                          mandatoryBuffer.baseAddress, Int32(piece.count))
                    }
                }
            }
            guard count > 0 else { continue }
            for index in 0..<Int(count) {
                let unit = piece.lowerBound + Int(offsets[index])
                // ICU always ends at a piece's end: the text's end, never offered, or a cut, offered only when it
                // follows a space or line feed (where UAX #14 breaks but for rare neighbours).
                if unit == piece.upperBound
                    && (unit == utf16.units.count || (utf16.units[unit - 1] != 0x20 && utf16.units[unit - 1] != 0x0A)) {
                    continue
                }
                found.append(Opportunity(offset: utf16.scalarOffset(ofUnit: unit), isMandatory: mandatory[index] != 0))
            }
        }
        return found
    }

    /// The ICU locale the line break iterator is opened with for a BCP 47 `language` (any case, "-" or "_"):
    /// "ja*" -> "ja@lb=strict", "zh*" -> "zh@lb=strict", "ko*" -> "ko", "th*" -> "th", anything else or nil -> "en".
    ///
    /// Strict, because ICU's "ja" alone is CSS's normal line breaking: a line may start with a small kana (ょ っ) or
    /// the long vowel mark ー. ICU 72 finds Thai words (and Lao, Khmer, Burmese) by script, whatever the locale, and
    /// has no tailoring of its own for "ko" or "th" (both fall back to the root rules, as "en" does): the names are
    /// kept so that a later ICU's tailoring applies.
    public static func locale(for language: String?) -> String {
        let primary = language?.split(whereSeparator: { $0 == "-" || $0 == "_" }).first?.lowercased()
        return switch primary {
        case "ja": "ja@lb=strict"
        case "zh": "zh@lb=strict"
        case "ko": "ko"
        case "th": "th"
        default: "en"
        }
    }
}
