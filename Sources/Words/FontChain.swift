import FontCatalog
import Synchronization
import Typeface

/// The faces a book's text is drawn from: its primary face, and for each character the primary lacks, an
/// installed face found through fontconfig, looked up once per (script, language) per book, not per glyph.
///
/// The face of each character, in the text's order (issue 33, "Fonts found, not named"):
/// 0. With `colourEmoji`, a character shown as an emoji (Emoji_Presentation, or any emoji followed by U+FE0F:
///    😀, 🇯🇵, ❤️, 1️⃣; a skin tone, a keycap's U+20E3 and the joiners and tags of a sequence go with it) is drawn in
///    the installed colour emoji face (Noto Color Emoji) when it has it, before rule 1: DejaVu Sans has 😀 too, as
///    a line drawing. Without `colourEmoji` (a PDF/X-1a book, which holds no transparency) rules 1 to 5 find an
///    outline face for it, and the colour face is never taken.
/// 1. A character the primary face has is drawn in the primary face (DejaVu Sans where it covers the text).
/// 2. A character of script Common or Inherited (spaces, digits, punctuation, most emoji, combining marks) stays
///    in the current run's face when that face has it: "台北101 與朋友們" is one run when the CJK face has the
///    digits and the space, and a combining mark never leaves its base's face when that face has the mark.
///    Otherwise rule 1, else rule 3 with the script of the nearest character before it that has a script of
///    its own (else the nearest after), so that "「東京」" opens in the face of 東.
///    Characters that draw nothing (controls, format characters such as bidi controls and joiners, variation
///    selectors) stay in the current run whatever its face; those before any run join the first run.
/// 3. Any other character the primary lacks: the face for (its script, the language that applies to it). That
///    language is the first of the caption's `language`, the book's `languages` and `Language.guess(from:)` of
///    the text that is written in the script: Japanese in Han and kana, Korean in Hangul and Han, Chinese in Han
///    and Bopomofo, other languages in their script subtag or usual script. Han with no such language is
///    Simplified Chinese. So Han takes Japanese, Simplified, Traditional, Hong Kong or Korean forms by language
///    (Noto Sans CJK JP, SC, TC, HK, KR).
/// 4. The face for (script, language): the language's book faces by family name first (`FaceKey.families`:
///    Noto Sans CJK JP, Source Han Sans JP, IPAexGothic... for Japanese), each taken only when fontconfig has
///    that very family and the face has the character; then fontconfig's sorted list for the language, its first
///    scalable, outline, non-colour face whose charset has the character and whose character map agrees. Trap:
///    fontconfig's own first answer is not the book face: with fonts-wqy-zenhei installed, `lang=ja` sorts
///    WenQuanYi Zen Hei (Chinese forms) before Noto Sans CJK JP; and colour bitmap emoji (Noto Color Emoji)
///    have no outlines: that face comes by rule 0 alone.
/// 5. No face found: a run whose face is nil (the caller draws a visible placeholder). A space no face has stays
///    in the current run's face instead.
///
/// Each (script, language) asks fontconfig for its families one at a time as characters need them, and for one
/// sorted list per language; each (character, script, language) is remembered. A book with 80 Japanese captions
/// asks fontconfig a handful of times.
///
/// Thread-safe: the planner and the PDF writer ask at once; the remembered answers are behind a `Mutex`.
/// Deterministic: a character's face depends on the character, its script and language and the run before it,
/// never on what was asked before, so the planner measures and the PDF writer draws with the same runs.
public final class FontChain: Sendable {
    public let primary: FontFace
    /// The book's language preferences in order (the --lang tag, then the environment's), possibly empty.
    public let languages: [Language]
    /// False: a chain of the primary alone (characters it lacks are missing).
    public let findsFallbacks: Bool
    /// True: emoji are drawn in the installed colour emoji face (rule 0), as pictures.
    public let colourEmoji: Bool

    private let lookups = Mutex(Lookups())

    /// `languages`: the book's preferences in order (the --lang tag, then the environment's), possibly empty.
    /// `findsFallbacks`: false makes a chain of the primary alone (characters it lacks are missing).
    /// `colourEmoji`: true draws emoji from the installed colour emoji face (rule 0), whose glyphs are pictures.
    public init(primary: FontFace, languages: [Language], findsFallbacks: Bool = true, colourEmoji: Bool = false) {
        self.primary = primary
        self.languages = languages
        self.findsFallbacks = findsFallbacks
        self.colourEmoji = colourEmoji
    }

    /// The installed colour emoji face, found once per process through fontconfig by family; nil when none is
    /// installed or the chain does not draw in colour.
    public var emojiFace: FontFace? {
        guard colourEmoji && findsFallbacks else { return nil }
        return Self.installedEmojiFace
    }

    private static let installedEmojiFace: FontFace? = {
        guard let location = FontCatalog.face(named: "Noto Color Emoji"), let face = LoadedFaces.face(location),
              face.drawsInColour else { return nil }
        return face
    }()

    /// `text` cut into runs, each drawn in one face, in logical order, covering every scalar of `text` exactly
    /// once (concatenating the runs' text gives `text` back); no run for empty text. `language`: a caption's own
    /// language, tried before the book's.
    public func runs(of text: String, language: Language? = nil) -> [FontRun] {
        let scalars = Array(text.unicodeScalars)
        let scripts = scalars.map { Script(of: $0) }
        let preferences = ([language] + languages + [Language.guess(from: text)]).compactMap { $0 }
        // The script of the nearest character after each one that has a script of its own.
        var following = [Script?](repeating: nil, count: scalars.count)
        var next: Script?
        for index in scalars.indices.reversed() {
            following[index] = next
            if !scripts[index].isShared { next = scripts[index] }
        }

        let emoji = emojiFace
        let shownAsEmoji = emoji == nil ? [] : Self.shownAsEmoji(scalars)

        var runs: [FontRun] = []
        var leading = String.UnicodeScalarView()
        var run = String.UnicodeScalarView()
        // nil before the first run; .some(nil) in a run no face draws.
        var current: FontFace??
        var previous: Script?
        for (index, scalar) in scalars.enumerated() {
            let script = scripts[index]
            let face: FontFace?
            if Self.drawsNothing(scalar) {
                guard let current else {
                    leading.append(scalar)
                    continue
                }
                face = current
            } else if let emoji, shownAsEmoji[index], emoji.glyph(for: scalar) != nil {
                face = emoji
            } else {
                face = choose(scalar, script: script, context: previous ?? following[index], current: current,
                              preferences: preferences)
            }
            if let current, current === face {
                run.append(scalar)
            } else {
                if let current { runs.append(FontRun(text: String(run), face: current)) }
                run = leading
                leading = String.UnicodeScalarView()
                run.append(scalar)
                current = .some(face)
            }
            if !script.isShared { previous = script }
        }
        if let current {
            runs.append(FontRun(text: String(run), face: current))
        } else if !leading.isEmpty {
            runs.append(FontRun(text: String(leading), face: primary))
        }
        return runs
    }

    /// The characters of `text` no face has (no installed font found), each once, in order of first appearance;
    /// whitespace and characters that draw nothing (controls, format characters) never count.
    public func missing(in text: String, language: Language? = nil) -> [Unicode.Scalar] {
        var seen: Set<Unicode.Scalar> = []
        var missing: [Unicode.Scalar] = []
        for run in runs(of: text, language: language) where run.face == nil {
            for scalar in run.text.unicodeScalars
            where !Self.drawsNothing(scalar) && !scalar.properties.isWhitespace && seen.insert(scalar).inserted {
                missing.append(scalar)
            }
        }
        return missing
    }

    /// How many times this chain has asked fontconfig (a family matched, a language's list sorted): for the
    /// tests that keep it bounded.
    var fontconfigQueries: Int {
        lookups.withLock { $0.queries }
    }

    /// The face of one character that draws something, by rules 1 to 5; `current` is the current run's face
    /// (nil before the first run).
    private func choose(_ scalar: Unicode.Scalar, script: Script, context: Script?, current: FontFace??,
                        preferences: [Language]) -> FontFace? {
        // A digit or a space after an emoji is not drawn as a picture: the colour face keeps only its own marks.
        if script.isShared, case let face?? = current, face.glyph(for: scalar) != nil,
           !face.drawsInColour || scalar == "\u{20E3}" { return face }
        if primary.glyph(for: scalar) != nil { return primary }
        if findsFallbacks {
            let drawn = script.isShared ? context ?? script : script
            let key = FaceKey(script: drawn, language: preferences.first { $0.scripts.contains(drawn) })
            if let face = lookups.withLock({ $0.face(for: scalar, key: key) }) { return face }
        }
        guard scalar.properties.isWhitespace else { return nil }
        if let current { return current }
        return primary
    }

    /// For each scalar, whether it is shown as an emoji (rule 0): Emoji_Presentation (not followed by the text
    /// selector U+FE0E), any emoji followed by the emoji selector U+FE0F, and a keycap's U+20E3 after one of those.
    static func shownAsEmoji(_ scalars: [Unicode.Scalar]) -> [Bool] {
        var shown = [Bool](repeating: false, count: scalars.count)
        for index in scalars.indices {
            let scalar = scalars[index], next = index + 1 < scalars.count ? scalars[index + 1] : nil
            let properties = scalar.properties
            if properties.isEmojiPresentation {
                shown[index] = next != "\u{FE0E}"
            } else if properties.isEmoji, next == "\u{FE0F}" {
                shown[index] = true
            } else if scalar == "\u{20E3}", index > 0 {
                shown[index] = shown[index - 1] || index > 1 && scalars[index - 1] == "\u{FE0F}" && shown[index - 2]
            }
        }
        return shown
    }

    /// Controls, format characters (bidi controls, joiners, soft hyphen), separators of lines and paragraphs and
    /// the other default-ignorable code points (variation selectors): a shaper draws no glyph for them.
    static func drawsNothing(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: scalar.properties.isDefaultIgnorableCodePoint
        }
    }
}

/// A piece of text drawn in one face.
public struct FontRun: Sendable {
    public let text: String
    /// The face that draws it; nil when no installed face has these characters (the caller draws a visible
    /// placeholder).
    public let face: FontFace?

    public init(text: String, face: FontFace?) {
        self.text = text
        self.face = face
    }
}

/// What a chain has found: the faces of each (script, language) by name as far as they were needed, each
/// language's sorted list, and each character's answer.
private struct Lookups {
    private struct Need: Hashable {
        let scalar: Unicode.Scalar
        let key: FaceKey
    }

    /// A key's families are matched one at a time, only when the faces found so far lack a character.
    private struct NamedFaces {
        var faces: [FontFace] = []
        var tried = 0
    }

    private var found: [Need: FontFace?] = [:]
    private var named: [FaceKey: NamedFaces] = [:]
    private var sorted: [String: FontCatalog.SortedFaces] = [:]
    private(set) var queries = 0

    mutating func face(for scalar: Unicode.Scalar, key: FaceKey) -> FontFace? {
        let need = Need(scalar: scalar, key: key)
        if let known = found[need] { return known }
        let face = namedFace(for: scalar, key: key) ?? sortedFace(for: scalar, key: key)
        found[need] = .some(face)
        return face
    }

    /// The first of the key's families, in the table's order, that fontconfig has and whose face has `scalar`.
    private mutating func namedFace(for scalar: Unicode.Scalar, key: FaceKey) -> FontFace? {
        let families = key.families
        var named = self.named[key] ?? NamedFaces()
        defer { self.named[key] = named }
        var index = 0
        while true {
            if index == named.faces.count {
                guard named.tried < families.count else { return nil }
                let family = families[named.tried]
                named.tried += 1
                queries += 1
                guard let location = FontCatalog.face(named: family), let face = LoadedFaces.face(location) else {
                    continue
                }
                named.faces.append(face)
            }
            if named.faces[index].glyph(for: scalar) != nil { return named.faces[index] }
            index += 1
        }
    }

    /// The first face of fontconfig's list for the key's language that has `scalar`, by its charset and then
    /// by its own character map (fontconfig's charset comes from the cmap, which a damaged font may contradict).
    private mutating func sortedFace(for scalar: Unicode.Scalar, key: FaceKey) -> FontFace? {
        let language = key.fontconfigLanguage ?? ""
        let list: FontCatalog.SortedFaces
        if let known = sorted[language] {
            list = known
        } else {
            queries += 1
            list = FontCatalog.SortedFaces(language: language.isEmpty ? nil : language)
            sorted[language] = list
        }
        for location in list.faces(covering: scalar) {
            if let face = LoadedFaces.face(location), face.glyph(for: scalar) != nil { return face }
        }
        return nil
    }
}
