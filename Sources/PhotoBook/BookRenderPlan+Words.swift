import Geometry
import Platform

/// The words of a build: each photo's caption, found once, the warnings about them, and the words of a plan.
extension BookRenderPlan {
    /// Each usable photo's caption (reading sidecars: the only I/O of the words), with a warning for a bad
    /// sidecar and for every character the font lacks, named once per caption.
    func findCaptions(_ usable: [(id: PhotoID, info: PhotoInfo)], warnings: inout [BuildWarning]) -> [String?] {
        guard let text = options.text else { return usable.map { _ in nil } }
        warnings += text.font.missingCharacters(title: text.title, subtitle: text.subtitle, author: text.author)
        if text.sections != .none {
            var seen: Set<String> = []
            for photo in usable {
                guard let heading = text.sections.heading(of: photo.info.file, captureDate: photo.info.captureDate),
                      seen.insert(heading).inserted else { continue }
                warnings += text.font.missingCharacters(in: heading, named: "heading \(heading)")
            }
        }
        if let given = options.given {
            for heading in Set(given.pages.compactMap(\.heading)).sorted() {
                warnings += text.font.missingCharacters(in: heading, named: "heading \(heading)")
            }
            return usable.map { photo in
                guard let caption = given.captions[photo.id] else { return nil }
                warnings += text.font.missingCharacters(in: caption,
                                                        named: "caption of \(FileSystem.baseName(photo.info.file.path))")
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
            warnings += text.font.missingCharacters(in: caption,
                                                    named: "caption of \(FileSystem.baseName(photo.info.file.path))")
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

extension BookFont {
    /// A warning for each character of `text` the font lacks, once each: `title: U+4E16 '世' is not in DejaVuSans`.
    /// The one place a book and a cover word them.
    func missingCharacters(in text: String, named label: String) -> [BuildWarning] {
        TextLines.missing(in: text, measure: self).map { scalar in
            var hex = String(scalar.value, radix: 16, uppercase: true)
            while hex.count < 4 { hex = "0" + hex }
            return BuildWarning(path: nil, message: "\(label): U+\(hex) '\(scalar)' is not in \(fontName)")
        }
    }

    /// `missingCharacters(in:named:)` for the title, the subtitle and the author, in that order.
    func missingCharacters(title: String?, subtitle: String?, author: String?) -> [BuildWarning] {
        [("title", title), ("subtitle", subtitle), ("author", author)].flatMap { label, value in
            value.map { missingCharacters(in: $0, named: label) } ?? []
        }
    }
}
