internal import CFontconfig
import Synchronization

/// The installed fonts as fontconfig knows them: a family name turned into the one face it names, or nothing;
/// and the faces that draw a character, for text the named faces lack (`SortedFaces`).
///
/// fontconfig always answers: for a family it does not have, `FcFontMatch` silently gives another (Noto Sans for
/// "Source Han Serif", WenQuanYi when a language is asked too; docs/research/words.md §2). So its answer is taken
/// only when the face it gives is the one asked for, by family or by PostScript name, compared case-insensitively.
/// Every fontconfig call goes through one process-wide lock (`withFontconfig`).
public enum FontCatalog {
    /// The face installed under `name`, as `PATH#INDEX` for `FontFace(path:)`; nil when no installed family (or
    /// PostScript name) is `name`. `name` is a fontconfig pattern, so that "Noto Serif CJK JP:bold" picks the
    /// bold face; its first family is the one that must match. Backed by `FcNameParse`, `FcConfigSubstitute`,
    /// `FcDefaultSubstitute` and `FcFontMatch` on the current configuration (loaded on first use, ~5 ms).
    public static func face(named name: String) -> String? {
        withFontconfig { matchFamily(name) }
    }

    /// The installed faces that draw `scalar`, best first for `language`, as `PATH#INDEX`: fontconfig's sorted
    /// list (`FcFontSort`) with those lacking it, and those a PDF cannot embed as outlines, left out (see
    /// `SortedFaces`). `language` is a fontconfig language ("ja", "zh-cn", "zh-tw", "zh-hk", "ko", "ar"), or nil.
    public static func faces(covering scalar: Unicode.Scalar, language: String?) -> [String] {
        SortedFaces(language: language).faces(covering: scalar)
    }

    /// Runs `body` holding the one lock of every fontconfig call in the process. Trap: fontconfig's default
    /// configuration (loaded lazily, reloaded by FcInitBringUptoDate) is not documented as thread-safe, and the
    /// planner and the PDF writer look fonts up at once.
    static func withFontconfig<Result>(_ body: () -> Result) -> Result {
        fontconfig.withLock { _ in body() }
    }

    private static let fontconfig = Mutex(())

    private static func matchFamily(_ name: String) -> String? {
        let parsed = name.withCString { text in
            FcNameParse(UnsafeRawPointer(text).assumingMemoryBound(to: FcChar8.self))
        }
        guard let pattern = parsed else { return nil }
        defer { FcPatternDestroy(pattern) }
        // Read before substitution, which appends fallback families ("DejaVu Sans"...) after the one asked.
        guard let asked = strings(pattern, FC_FAMILY).first?.lowercased(), !asked.isEmpty else { return nil }
        guard FcConfigSubstitute(nil, pattern, FcMatchPattern) != 0 else { return nil }
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        // A face lists its family in each language its name table has ("Noto Sans CJK JP", "Noto Sans CJK JP
        // Regular"...); the PostScript name is what pdffonts shows and people copy ("DejaVuSans").
        let names = strings(match, FC_FAMILY) + strings(match, FC_POSTSCRIPT_NAME)
        guard names.contains(where: { $0.lowercased() == asked }) else { return nil }
        return location(match)
    }

    /// The face `pattern` describes as `PATH#INDEX`; nil when it names no file.
    static func location(_ pattern: OpaquePointer) -> String? {
        guard let file = strings(pattern, FC_FILE).first else { return nil }
        var index: Int32 = 0
        if FcPatternGetInteger(pattern, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        // fontconfig's index may carry a variable font's named instance above bit 16; the face is the low bits.
        return "\(file)#\(index & 0xFFFF)"
    }

    /// Every string value of `object` in `pattern`, in fontconfig's order.
    static func strings(_ pattern: OpaquePointer, _ object: String) -> [String] {
        var values: [String] = []
        var value: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(pattern, object, Int32(values.count), &value) == FcResultMatch, let value {
            values.append(String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self)))
        }
        return values
    }
}
