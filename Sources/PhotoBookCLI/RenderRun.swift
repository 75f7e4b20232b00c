import FontCatalog
import Words
import Foundation
import PhotoBook
import Platform
import Synchronization

/// What `build` and `cover` set up the same way around a render, in one place: the dates and the font read before
/// any photo, the progress and harness hooks, the signal handlers, and the run itself.
struct RenderRun {
    /// What the PDF is, in the messages: "book" or "cover".
    var noun: String
    /// The PDF's dates (`SOURCE_DATE_EPOCH`), nil for now.
    var creationDate: Date?
    /// The font, when the words need it or one was named.
    var font: BookFont?

    /// Reads `SOURCE_DATE_EPOCH`, then the font when `wantsFont` or another than the default is named; throws the
    /// mistake, worded for the user. The font is read before any photo: a PDF with words needs it, and a font
    /// named but unusable is a mistake worth hearing about even without them.
    /// `language`: `--lang`, tried before the environment's for the characters the font lacks. `colourEmoji`: false
    /// for a PDF/X-1a book, which may hold no soft mask: its emoji come from outline faces or are missing.
    static func prepare(_ noun: String, _ run: Run, fontPath: String, language: String?,
                        wantsFont: Bool, colourEmoji: Bool = true) throws(CLIError) -> RenderRun {
        var prepared = RenderRun(noun: noun)
        prepared.creationDate = try SourceDateEpoch.date(from: run.environment.sourceDateEpoch).get()
        // Before any photo: memory flat at any book size (issue 14).
        ProcessMemory.returnLargeBlocksAtOnce()
        guard wantsFont || fontPath != BookFont.defaultPath else { return prepared }
        let file = try fontFile(fontPath)
        do {
            var languages = [language.flatMap(Language.init), run.environment.language].compactMap { $0 }
            if languages.count == 2, languages[0] == languages[1] { languages.removeLast() }
            prepared.font = try BookFont(path: file, languages: languages, colourEmoji: colourEmoji)
        } catch {
            let hint = fontPath == BookFont.defaultPath
                ? " (install Debian's fonts-dejavu-core, or name a font file with --font)" : ""
            throw .usage("--font: \(error)\(hint)")
        }
        return prepared
    }

    /// The font file `--font` names: a path (`FILE`, `FILE#INDEX`, `FILE#NAME`), else an installed family through
    /// fontconfig as `FILE#INDEX`. A file that exists wins over a family of the same name; text with a `/` or a
    /// font file's extension is a path even when missing, so its mistake is "no such file", not "no family".
    /// A family fontconfig does not have is a usage error, never another font silently (FontCatalog).
    static func fontFile(_ name: String) throws(CLIError) -> String {
        if namesFontFile(name) { return name }
        guard let face = FontCatalog.face(named: name) else {
            throw .usage("--font: no installed font family \"\(name)\" (fc-list : family lists those installed)")
        }
        return face
    }

    /// Whether `--font`'s text is a path rather than a family: a file that exists (before any `#FACE`), or text
    /// with a `/` or a font file's extension. A description file and `init` ask this too, so that a family is
    /// written and read as typed, never made relative to the description's folder ("../Noto Sans CJK JP").
    static func namesFontFile(_ name: String) -> Bool {
        fontFileExists(name) || looksLikeFontPath(name)
    }

    /// Whether `name` is written as a path: with a `/`, or a font file's extension before any `#FACE`.
    static func looksLikeFontPath(_ name: String) -> Bool {
        let file = fontFilePart(name)
        return name.contains("/")
            || (file.contains(".") && ["ttf", "otf", "ttc", "otc"].contains(file.split(separator: ".").last?.lowercased() ?? ""))
    }

    /// Whether `name`, or its part before a `#FACE`, is a file that exists.
    static func fontFileExists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: name) || FileManager.default.fileExists(atPath: fontFilePart(name))
    }

    private static func fontFilePart(_ name: String) -> String {
        name.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? name
    }

    /// The hooks that draw the progress line and stop at the harness's points. `meter` counts the photos done (a
    /// book's); `writing` words the line for page `index` of `count`.
    func hooks(meter: ProgressLine?, writing: @escaping @Sendable (_ index: Int, _ count: Int) -> String,
               say: Diagnostics, harness: RunHarness) -> BuildHooks {
        let noun = self.noun
        var hooks = BuildHooks(
            decodeStarted: { _ in harness.reached(.decode) },
            pageStarted: { index, pages in
                say.progress(writing(index, pages))
                if index == min(1, pages - 1) { harness.reached(.page) }
            },
            beforeCommit: { harness.reached(.commit) },
            afterCommit: { harness.reached(.committed) },
            savingImage: { index, count in
                // A spread's photo is two images, one per half: the save counts images, not photos.
                say.progress("photobook: saving the \(noun), image \(index + 1) of \(count)")
                if index == 0 { harness.reached(.save) }
            })
        hooks.measureStarted = { _ in harness.reached(.measure) }
        if let meter {
            let done = Mutex(0), line = Mutex(meter)
            hooks.photoFinished = { _ in
                let count = done.withLock { $0 += 1; return $0 }
                say.progress(line.withLock { $0 }.text(done: count))
            }
            // Before any photo is done: the probe counted a multi-page file's pages.
            hooks.photosCounted = { total in
                let meter = line.withLock { $0.total = total; return $0 }
                say.progress(meter.text(done: done.withLock { $0 }))
            }
        }
        return hooks
    }

    /// Runs `pipeline` with the signals handled: the first cancels it (too late once it is committed: the PDF stays
    /// and the run counts as a success), the second stops at once unless it is committed. `starting` is the first
    /// progress line.
    func run(_ pipeline: RenderPipeline, starting: String, say: Diagnostics, harness: RunHarness) -> BuildReport {
        let written = "the \(noun) is already written; finishing"
        let signals = SignalHandler(onFirst: { _ in
            if pipeline.cancel() {
                say.status("cancelling...", evenWhenQuiet: true)
            } else {
                say.status(written, evenWhenQuiet: true)
            }
            harness.heardSignal()
        }, onSecond: { _ in
            // Decided under the session's lock: once the PDF is committed it stays and the run succeeds.
            guard pipeline.session.abandon() else {
                say.status(written, evenWhenQuiet: true)
                harness.heardSignal()
                return
            }
            say.status("interrupted again: stopped at once, nothing was written", evenWhenQuiet: true)
            ProcessExit.now(ExitStatus.interrupted.rawValue)
        })
        harness.armed()
        say.progress(starting)
        let report = pipeline.run()
        signals.cancel()
        return report
    }
}
