import Dispatch
import PDF
import Synchronization
import TextBreaks
import Typeface
import Words

/// The book's fonts as the planner measures them and the PDF draws them: the primary font (DejaVu Sans, or
/// `--font`), and for each character it lacks an installed face found through fontconfig for the character's
/// script and language (Words' `FontChain`: Noto Sans CJK JP for Japanese, SC for Chinese...). A line is measured
/// and drawn as the same runs, each in its face, with the face's own widths (PDF's metrics of the very face
/// embedded).
public final class BookFont: TextMeasure, Sendable {
    /// DejaVu Sans, from Debian's fonts-dejavu-core, which `make deps` installs.
    public static let defaultPath = PDFFont.defaultPath

    /// The faces and how text is cut into runs among them.
    public let chain: FontChain
    private let primary: PDFFontMetrics
    /// Each face's metrics, by path, made on first use.
    private let metrics: Mutex<[String: PDFFontMetrics]>
    /// What the book's words as a whole say of their language (`guessLanguage(from:)`).
    private let wordsLanguage = Mutex<Language?>(nil)
    /// Nanoseconds spent finding fonts, shaping and breaking lines, on every thread.
    private let spent = Atomic<UInt64>(0)

    /// The seconds spent so far finding fonts, shaping text and breaking lines: the report's `timings.text`.
    public var textSeconds: Double { Double(spent.load(ordering: .relaxed)) / 1e9 }

    private func timed<Result>(_ body: () -> Result) -> Result {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { spent.add(DispatchTime.now().uptimeNanoseconds &- start, ordering: .relaxed) }
        return body()
    }

    /// Loads the font at `path` as the primary face; the error names the file and what is wrong with it.
    /// `languages`: the book's, in order of preference (`--lang`, then the environment's). `findsFallbacks`: false
    /// draws every character from the primary face (one it lacks as its replacement character �).
    /// `colourEmoji`: emoji are drawn from the installed colour emoji face, as pictures with soft masks; false for a
    /// PDF/X-1a book, which may hold no transparency (then an outline face draws them, or the placeholder).
    public init(path: String, languages: [Language] = [], findsFallbacks: Bool = true,
                colourEmoji: Bool = true) throws(PDFError) {
        let face: FontFace
        do {
            face = try FontFace(path: path)
        } catch {
            throw .font(path: path, reason: error.reason)
        }
        guard !face.drawsInColour else {
            throw .font(path: path, reason: "a colour emoji font (pictures, no outlines), which cannot draw the words; "
                        + "its emoji are drawn by themselves where the words have them")
        }
        chain = FontChain(primary: face, languages: languages, findsFallbacks: findsFallbacks, colourEmoji: colourEmoji)
        primary = PDFFontMetrics(face: face)
        metrics = Mutex([face.path: primary])
    }

    public var path: String { primary.path }
    public var fontName: String { primary.name }
    /// The primary face's: the faces found for other scripts draw inside the em (Noto Sans CJK's ideographs
    /// from 0.88 above the baseline to 0.12 below), within DejaVu Sans's 0.928 and 0.236.
    public var ascent: Double { primary.ascent }
    /// Positive below the baseline (the PDF module gives it negative, as the font does).
    public var descent: Double { abs(primary.descent) }

    /// `text` as it is drawn: runs in logical order, each with the face that draws it. Characters no installed
    /// face has are drawn by the primary face, as its replacement character � (visible, never a blank).
    public func runs(of text: String, language: Language? = nil) -> [(text: String, face: FontFace)] {
        chain.runs(of: text, language: spoken(text, given: language)).map { ($0.text, $0.face ?? chain.primary) }
    }

    /// The language `text` is in, for its fonts: its own (`given`), else what it shows, else what the book's words
    /// show; the chain tries the book's (`--lang`, the locale) after it.
    private func spoken(_ text: String, given language: Language?) -> Language? {
        language ?? Language.guess(from: text) ?? wordsLanguage.withLock { $0 }
    }

    /// The language `text` is shaped and broken in: its own, else the book's, else what it and the words show.
    private func written(_ text: String, given language: Language?) -> Language? {
        language ?? chain.languages.first ?? spoken(text, given: nil)
    }

    /// Lets the book's words as a whole say their language when neither `--lang` nor the locale names a language
    /// written in Chinese characters: an author's name in kanji alone ("山田太郎") says nothing, but under a title
    /// with kana ("東京の旅") it is Japanese, and takes Japanese forms, not Simplified Chinese ones. The first text
    /// with kana or Hangul decides. Called once all the words are known (the plan's `prepare`), before any is
    /// measured.
    public func guessLanguage(from texts: [String]) {
        guard !chain.languages.contains(where: { ["ja", "ko", "zh"].contains($0.code) }),
              let guess = texts.lazy.compactMap(Language.guess(from:)).first else { return }
        wordsLanguage.withLock { $0 = guess }
    }

    /// The sum of the runs' widths, each in its face.
    public func width(of text: String, size: Double) -> Double {
        width(of: text, size: size, language: nil)
    }

    /// The width of `text` in `language`: the pieces `pieces(of:language:)` draws, shaped.
    public func width(of text: String, size: Double, language: Language?) -> Double {
        pieces(of: text, language: language).reduce(0) { $0 + metrics(of: $1.face).width(of: $1.run, size: size) }
    }

    /// `text` as it is drawn: pieces of one face, one script and one direction each, shaped by HarfBuzz (Arabic
    /// joined, Indic reordered, marks placed, kerned) with the language's forms (`locl`: 直 in Japanese or
    /// Chinese), in the order they go along the line.
    ///
    /// The line follows the Unicode bidirectional algorithm (ICU, TextBreaks): a Hebrew or Arabic line reads right
    /// to left, the numbers and Latin words in it left to right; the pieces come in visual order, left to right on
    /// the page, each with the offset of its first character in `text` (in scalars): the PDF writes them in that,
    /// logical, order, which is what text extraction reads back as typed. Control characters are drawn as spaces
    /// (a tab is a gap), as they always were.
    /// `base`: the direction of the paragraph the line is part of (a Hebrew caption's second line may start with a
    /// Latin word and still reads right to left); nil for the line's own.
    public func pieces(of text: String, language: Language? = nil,
                       base: ParagraphDirection? = nil) -> [(face: FontFace, run: PDFGlyphRun, start: Int)] {
        timed { shapedPieces(of: text, language: language, base: base) }
    }

    private func shapedPieces(of text: String, language: Language?,
                              base: ParagraphDirection?) -> [(face: FontFace, run: PDFGlyphRun, start: Int)] {
        let spoken = spoken(text, given: language)
        let shaping = written(text, given: language)?.tag
        let spaced = Self.spacingControls(text)
        let scalars = Array(spaced.unicodeScalars)
        var pieces: [(face: FontFace, run: PDFGlyphRun, start: Int)] = []
        for bidi in Bidi.visualRuns(of: spaced, base: base) {
            let direction: TextDirection = bidi.direction == .rightToLeft ? .rightToLeft : .leftToRight
            var logical: [(face: FontFace, run: PDFGlyphRun, start: Int)] = []
            let range = bidi.range.clamped(to: 0..<scalars.count)
            var start = range.lowerBound
            for run in chain.runs(of: String(String.UnicodeScalarView(scalars[range])), language: spoken) {
                let face = run.face ?? chain.primary
                for segment in ScriptSegment.split(run.text) {
                    let glyphs = face.shape(segment.text, direction: direction, script: segment.script, language: shaping)
                    logical.append((face, PDFGlyphRun(text: segment.text, glyphs: glyphs, direction: direction), start))
                    start += segment.text.unicodeScalars.count
                }
            }
            pieces += direction == .rightToLeft ? logical.reversed() : logical
        }
        return pieces
    }

    /// `text` with each control character (C0, DEL, C1) a space, scalar for scalar.
    static func spacingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        var spaced = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            spaced.append(scalar.properties.generalCategory == .control ? " " : scalar)
        }
        return String(spaced)
    }

    public func speaking(_ language: Language?) -> any TextMeasure {
        language.map { BookFontInLanguage(font: self, language: $0) } ?? self
    }

    public func lineStarts(in text: String) -> [Int]? { lineStarts(in: text, language: nil) }

    /// An em: the ideographs of the faces found for Chinese, Japanese and Korean fill it.
    public var columnWidth: Double { 1 }

    public func columnLength(of text: String, size: Double) -> Double {
        columnPieces(of: text).reduce(0) { $0 + metrics(of: $1.face).width(of: $1.run, size: size) }
    }

    /// `text` as a column of upright characters, top to bottom, for a spine: the runs of its faces shaped
    /// vertically by HarfBuzz (`vert` forms: 「」、。ー turned for the column). A stretch in another script (a Latin
    /// word, digits after one) is shaped as a line and turned sideways in the column, reading down, as Japanese
    /// books set a foreign word: its run is left to right, and the PDF turns it.
    public func columnPieces(of text: String) -> [(face: FontFace, run: PDFGlyphRun)] {
        timed {
            let spoken = Language.guess(from: text) ?? wordsLanguage.withLock { $0 } ?? chain.languages.first
            var pieces: [(face: FontFace, run: PDFGlyphRun)] = []
            for run in chain.runs(of: Self.spacingControls(text), language: spoken) {
                let face = run.face ?? chain.primary
                for segment in ScriptSegment.split(run.text) {
                    let direction: TextDirection = segment.script == nil || segment.script == "Hani" ? .topToBottom
                        : .leftToRight
                    let glyphs = face.shape(segment.text, direction: direction, script: segment.script,
                                            language: (spoken ?? chain.languages.first)?.tag)
                    pieces.append((face, PDFGlyphRun(text: segment.text, glyphs: glyphs, direction: direction)))
                }
            }
            return pieces
        }
    }

    /// Where lines of `text` in `language` may start: ICU's line breaks (TextBreaks) for the language that applies
    /// to it (its own, the book's, what it shows), strict for Japanese and Chinese.
    func lineStarts(in text: String, language: Language?) -> [Int] {
        timed {
            LineBreaks.opportunities(in: text, language: written(text, given: language)?.tag)
        }
    }

    /// Whether an installed face has `scalar`.
    public func covers(_ scalar: Unicode.Scalar) -> Bool {
        chain.missing(in: String(scalar)).isEmpty
    }

    /// The names of the faces `text` is drawn in, each once, in order of first use ("DejaVu Sans", "Noto Sans CJK
    /// JP"): what the report says of a caption.
    public func faceNames(of text: String, language: Language? = nil) -> [String] {
        var names: [String] = []
        for run in runs(of: text, language: language) {
            let name = metrics(of: run.face).name
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    private func metrics(of face: FontFace) -> PDFFontMetrics {
        if face === chain.primary { return primary }
        return metrics.withLock { known in
            if let found = known[face.path] { return found }
            let made = PDFFontMetrics(face: face)
            known[face.path] = made
            return made
        }
    }
}

/// A book's fonts measuring text of one language (a caption's own `lang`), as they will draw it.
struct BookFontInLanguage: TextMeasure {
    let font: BookFont
    let language: Language

    var fontName: String { font.fontName }
    var ascent: Double { font.ascent }
    var descent: Double { font.descent }
    func width(of text: String, size: Double) -> Double { font.width(of: text, size: size, language: language) }
    func covers(_ scalar: Unicode.Scalar) -> Bool { font.covers(scalar) }
    func speaking(_ language: Language?) -> any TextMeasure { font.speaking(language) }
    func lineStarts(in text: String) -> [Int]? { font.lineStarts(in: text, language: language) }
}

/// A stretch of text in one script, for HarfBuzz, which shapes one script at a time: characters common to all
/// scripts (spaces, digits, punctuation) and combining marks go with the script before them (at the start, the one
/// after); Han, kana, Hangul and Bopomofo are one stretch ("Hani"), as a Japanese or Korean sentence mixes them.
struct ScriptSegment: Equatable {
    var text: String
    /// ISO 15924; nil when the text has no script of its own (all spaces or digits).
    var script: String?

    static func split(_ text: String) -> [ScriptSegment] {
        var segments: [ScriptSegment] = []
        var current = String.UnicodeScalarView()
        var script: String?
        for scalar in text.unicodeScalars {
            let found = Script(of: scalar)
            let code: String? = found.isShared || found == .unknown ? nil
                : [Script.han, .hiragana, .katakana, .hangul, .bopomofo].contains(found) ? "Hani" : found.code
            if let code, let known = script, code != known {
                segments.append(ScriptSegment(text: String(current), script: known))
                current = String.UnicodeScalarView()
            }
            if let code { script = code }
            current.append(scalar)
        }
        if !current.isEmpty {
            segments.append(ScriptSegment(text: String(current), script: script))
        }
        return segments
    }
}
