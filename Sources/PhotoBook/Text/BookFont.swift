import PDF
import Synchronization
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

    /// Loads the font at `path` as the primary face; the error names the file and what is wrong with it.
    /// `languages`: the book's, in order of preference (`--lang`, then the environment's). `findsFallbacks`: false
    /// draws every character from the primary face (one it lacks as its replacement character �).
    public init(path: String, languages: [Language] = [], findsFallbacks: Bool = true) throws(PDFError) {
        let face: FontFace
        do {
            face = try FontFace(path: path)
        } catch {
            throw .font(path: path, reason: error.reason)
        }
        chain = FontChain(primary: face, languages: languages, findsFallbacks: findsFallbacks)
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
        let language = language ?? Language.guess(from: text) ?? wordsLanguage.withLock { $0 }
        return chain.runs(of: text, language: language).map { ($0.text, $0.face ?? chain.primary) }
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

    /// The width of `text` in `language`: the runs `runs(of:language:)` draws.
    public func width(of text: String, size: Double, language: Language?) -> Double {
        runs(of: text, language: language).reduce(0) { $0 + metrics(of: $1.face).width(of: $1.text, size: size) }
    }

    public func speaking(_ language: Language?) -> any TextMeasure {
        language.map { BookFontInLanguage(font: self, language: $0) } ?? self
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
}
