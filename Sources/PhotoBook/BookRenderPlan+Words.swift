import Geometry
import Platform
import Typeface
import Words

/// The words of a build: each photo's caption, found once, the warnings about them, and the words of a plan.
extension BookRenderPlan {
    /// Each usable photo's caption (reading sidecars: the only I/O of the words), with a warning for a bad
    /// sidecar; `missing` gets every character of the book's words (title, headings, captions) that no installed
    /// font has, with where it is first found.
    func findCaptions(_ usable: [(id: PhotoID, info: PhotoInfo)], warnings: inout [BuildWarning],
                      missing: inout MissingCharacters) -> [String?] {
        guard let text = options.text else { return usable.map { _ in nil } }
        missing.add(title: text.title, subtitle: text.subtitle, author: text.author, font: text.font)
        if text.sections != .none {
            var seen: Set<String> = []
            for photo in usable {
                guard let heading = text.sections.heading(of: photo.info.file, captureDate: photo.info.captureDate),
                      seen.insert(heading).inserted else { continue }
                missing.add(heading, named: "heading \(heading)", font: text.font)
            }
        }
        if let given = options.given {
            for heading in Set(given.pages.compactMap(\.heading)).sorted() {
                missing.add(heading, named: "heading \(heading)", font: text.font)
            }
            return usable.map { photo in
                guard let caption = given.captions[photo.id] else { return nil }
                missing.add(caption, named: "caption of \(FileSystem.baseName(photo.info.file.path))", font: text.font)
                return caption
            }
        }
        guard text.captions != .none else { return usable.map { _ in nil } }
        return usable.map { photo in
            let found = Captions.caption(source: text.captions, path: photo.info.file.path,
                                         sidecar: photo.info.captionSidecar, description: photo.info.description,
                                         captureDate: photo.info.captureDate)
            if let warning = found.warning { warnings.append(BuildWarning(path: photo.info.file.path, message: warning)) }
            guard let caption = found.caption else { return nil }
            missing.add(caption, named: "caption of \(FileSystem.baseName(photo.info.file.path))", font: text.font)
            return caption
        }
    }

    static func contains(_ outer: Rect, _ inner: Rect) -> Bool {
        inner.x >= outer.x - 1e-6 && inner.y >= outer.y - 1e-6 && inner.x + inner.width <= outer.x + outer.width + 1e-6
            && inner.y + inner.height <= outer.y + outer.height + 1e-6
    }

    /// The words of a plan of the photos still alive, beyond the photos' own (`bookPhotos`).
    func bookText(alive: [PhotoID]) -> BookText? {
        guard let text = options.text else { return nil }
        var title: BookText.Title?
        if let words = text.title {
            let photo = text.titlePhoto.flatMap { alive.contains($0) ? $0 : nil }
            title = BookText.Title(title: words, subtitle: text.subtitle, author: text.author, photo: photo)
        }
        return BookText(measure: text.font, title: title, pageNumbers: text.pageNumbers,
                        facingPages: options.layout.binding > 0 || options.layout.spreads)
    }
}

/// The characters of a book's (or a cover's) words that no installed font has, each once, with where it was
/// first found: said in one warning per book, with the Debian packages that would draw them, or refused with
/// `--strict`. (They are drawn as the primary font's replacement character �, never left blank.)
struct MissingCharacters {
    private(set) var found: [(scalar: Unicode.Scalar, label: String)] = []
    private var seen: Set<Unicode.Scalar> = []
    /// Every text added, in order: the book's words, for `BookFont.guessLanguage(from:)`.
    private(set) var texts: [String] = []
    /// Texts with more combining marks on one character than shaping takes (`FontFace.maxMarksPerCluster`), and
    /// how many marks are left out of them.
    private(set) var markCuts: [(label: String, dropped: Int)] = []
    /// False when the book may not draw emoji in colour (PDF/X-1a: `FontChain.colourEmoji`).
    private var drawsColour = true

    mutating func add(_ text: String, named label: String, font: BookFont) {
        texts.append(text)
        drawsColour = font.chain.colourEmoji
        let dropped = FontFace.capMarks(text).dropped
        if dropped > 0 { markCuts.append((label, dropped)) }
        for scalar in font.chain.missing(in: text) where seen.insert(scalar).inserted {
            found.append((scalar, label))
        }
    }

    /// `add` for the title, the subtitle and the author, in that order.
    mutating func add(title: String?, subtitle: String?, author: String?, font: BookFont) {
        for (label, value) in [("title", title), ("subtitle", subtitle), ("author", author)] {
            if let value { add(value, named: label, font: font) }
        }
    }

    var isEmpty: Bool { found.isEmpty }

    /// "caption of a.jpg: 29,970 combining marks beyond 30 on one character are left out": HarfBuzz's time grows
    /// with the square of the marks on one character (100,000 took 12.7 s), and no script stacks more than a few.
    var markWarnings: [BuildWarning] {
        markCuts.map { label, dropped in
            BuildWarning(path: nil, message: "\(label): \(dropped) combining mark\(dropped == 1 ? "" : "s") beyond "
                         + "\(FontFace.maxMarksPerCluster) on one character \(dropped == 1 ? "is" : "are") left out")
        }
    }

    /// "no installed font has 2 characters of the words, drawn as �: U+0E01 'ก' (caption of a.jpg),
    /// U+10FFFD (title); Debian's fonts-noto-core has some of them": the first ten, then how many more.
    var message: String? {
        guard !found.isEmpty else { return nil }
        let listed = found.prefix(10).map { scalar, label in
            var hex = String(scalar.value, radix: 16, uppercase: true)
            while hex.count < 4 { hex = "0" + hex }
            let shown = Self.printable(scalar) ? " '\(scalar)'" : ""
            return "U+\(hex)\(shown) (\(label))"
        }.joined(separator: ", ")
        let more = found.count > 10 ? " and \(found.count - 10) more" : ""
        var packages: [String] = []
        for (scalar, _) in found {
            if let package = FontChain.debianPackage(for: scalar), !packages.contains(package) { packages.append(package) }
        }
        // Noto Color Emoji may be installed and still not draw: a PDF/X-1a book may not hold its pictures.
        let installed = packages.filter { package in
            Self.installedFonts[package].map { (try? FileSystem.status($0).get()) != nil } ?? false
        }
        let missing = packages.filter { !installed.contains($0) }
        var advice: [String] = []
        if !missing.isEmpty {
            advice.append("Debian's \(missing.joined(separator: ", ")) \(missing.count == 1 ? "has" : "have") "
                          + (found.count == 1 ? "it" : "some of them"))
        }
        if !installed.isEmpty {
            // Only a PDF/X-1a book leaves the colour emoji face out: its pictures need a soft mask.
            advice.append("\(installed.joined(separator: ", ")) \(installed.count == 1 ? "is" : "are") installed, but "
                          + (drawsColour ? "has no picture for \(found.count == 1 ? "it" : "them")"
                             : "its colour pictures cannot go into a PDF/X-1a book (no transparency): a plain PDF or "
                             + "--pdfx 4 draws them"))
        }
        if advice.isEmpty { advice.append("no Debian font package is known to have them") }
        let count = found.count == 1 ? "a character" : "\(found.count) characters"
        return "no installed font has \(count) of the words, drawn as �: \(listed)\(more); \(advice.joined(separator: "; "))"
    }

    /// A file each font package installs, to tell one that is there from one that is not.
    private static let installedFonts = [
        "fonts-noto-color-emoji": "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    ]

    /// Whether a character can be shown in a message as itself: not a control, format, private-use, surrogate or
    /// unassigned code point.
    private static func printable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .privateUse, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator: false
        default: true
        }
    }
}
