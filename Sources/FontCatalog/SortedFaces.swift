internal import CFontconfig

extension FontCatalog {
    /// The installed faces in the order fontconfig prefers them for one language, sorted once (`FcFontSort`) and
    /// then asked, character by character, which of them draw it: a book asks fontconfig once per language, not
    /// once per character, and the answer for a character does not depend on what was asked before.
    ///
    /// Only faces a PDF can embed as outlines are kept: scalable, with outlines, not colour (Noto Color Emoji is
    /// bitmaps, CBDT: `FC_OUTLINE` false, `FC_COLOR` true). Trap: the first face fontconfig sorts is no book face
    /// for the language: with fonts-wqy-zenhei installed, WenQuanYi Zen Hei (Chinese) comes before Noto Sans CJK
    /// JP for `lang=ja` (docs/research/words.md §2), so callers try the language's own families by name first.
    ///
    /// Sorting with one character in the pattern's charset and sorting without any charset, then keeping the
    /// faces that have the character, give the same order: a face's charset score is 0 when it has the one
    /// character and 1 when not, and the faces without it are left out; the rest stay in family and language order.
    public final class SortedFaces: @unchecked Sendable {
        // @unchecked: the font set is only read, always under FontCatalog's lock, and freed in deinit.
        private let fonts: UnsafeMutablePointer<FcFontSet>?
        /// The embeddable faces: their index in `fonts`, their `PATH#INDEX`, each path once.
        private let candidates: [(index: Int, location: String)]

        /// The sort for `language` (a fontconfig language: "ja", "zh-cn", "zh-tw", "zh-hk", "ko", "ar"...; nil for
        /// none), for the default family (sans-serif after `FcConfigSubstitute`), regular style. Backed by
        /// `FcConfigSubstitute`, `FcDefaultSubstitute` and `FcFontSort` without trimming (trimming drops a face
        /// that adds nothing to those before it, even when those before are colour bitmaps).
        public init(language: String?) {
            let sorted = FontCatalog.withFontconfig { () -> (UnsafeMutablePointer<FcFontSet>?, [(Int, String)]) in
                guard let pattern = FcPatternCreate() else { return (nil, []) }
                defer { FcPatternDestroy(pattern) }
                if let language, !language.isEmpty, let languages = FcLangSetCreate() {
                    defer { FcLangSetDestroy(languages) }
                    _ = language.lowercased().withCString { text in
                        FcLangSetAdd(languages, UnsafeRawPointer(text).assumingMemoryBound(to: FcChar8.self))
                    }
                    // The pattern keeps its own copy.
                    _ = FcPatternAddLangSet(pattern, FC_LANG, languages)
                }
                guard FcConfigSubstitute(nil, pattern, FcMatchPattern) != 0 else { return (nil, []) }
                FcDefaultSubstitute(pattern)
                var result = FcResultNoMatch
                guard let set = FcFontSort(nil, pattern, FcFalse, nil, &result) else { return (nil, []) }
                var seen: Set<String> = []
                var kept: [(Int, String)] = []
                for index in 0..<Int(set.pointee.nfont) {
                    guard let font = set.pointee.fonts[index], Self.embeddable(font),
                          let location = FontCatalog.location(font), seen.insert(location).inserted else { continue }
                    kept.append((index, location))
                }
                return (set, kept)
            }
            fonts = sorted.0
            candidates = sorted.1.map { (index: $0.0, location: $0.1) }
        }

        deinit {
            if let fonts {
                FontCatalog.withFontconfig { FcFontSetDestroy(fonts) }
            }
        }

        /// The faces of the sort that have `scalar` in their charset (`FcCharSetHasChar`), in the sort's order, as
        /// `PATH#INDEX`. fontconfig's charset is what the font's cmap claims: check the face itself before use.
        public func faces(covering scalar: Unicode.Scalar) -> [String] {
            guard let fonts else { return [] }
            return FontCatalog.withFontconfig {
                candidates.compactMap { candidate in
                    guard let font = fonts.pointee.fonts[candidate.index] else { return nil }
                    var charset: OpaquePointer?
                    guard FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch, let charset,
                          FcCharSetHasChar(charset, scalar.value) != 0 else { return nil }
                    return candidate.location
                }
            }
        }

        /// A face a PDF can draw as outlines: `FC_SCALABLE` and `FC_OUTLINE` true, `FC_COLOR` not true (absent in
        /// fonts cached by fontconfig before 2.13: taken as false).
        private static func embeddable(_ font: OpaquePointer) -> Bool {
            func flag(_ object: String) -> Bool? {
                var value: FcBool = FcFalse
                guard FcPatternGetBool(font, object, 0, &value) == FcResultMatch else { return nil }
                return value != FcFalse
            }
            return flag(FC_SCALABLE) == true && flag(FC_OUTLINE) == true && flag(FC_COLOR) != true
        }
    }
}
