import PhotoBook

/// A print service's published requirements for one product: trim size, bleed, safety margin, the page-count
/// rules (fewest, most, the step) and the PDF/X level and colour it asks for, each figure with the address it was
/// published at. A figure the service does not publish (or that could not be found) is absent, never guessed:
/// `--preset` then leaves that option as it is. The table is PrintPreset+Table.swift; its sources are also in
/// docs/presets.md.
struct PrintPreset: Equatable, Sendable {
    /// One published figure, as the service states it, in points, and where it says so.
    struct Figure<Value: Equatable & Sendable>: Equatable, Sendable {
        var value: Value
        /// The figure as published (`0.125 in`, `210 x 297 mm`).
        var published: String
        var source: String
    }

    /// `lulu-a4`: the service, then the product.
    var name: String
    var service: String
    var product: String
    /// Whose page-count rule, as a warning names it: `Blurb's photo books`.
    var owner: String
    var trim: Figure<PageSize>?
    var bleed: Figure<Double>?
    var safety: Figure<Double>?
    /// The page count must be a multiple of this (`--pad-to`); nil when the service publishes no step.
    var pageStep: Figure<Int>? = nil
    /// The fewest and the most pages the service binds for the product, the book's pages as built.
    var minimumPages: Figure<Int>? = nil
    var maximumPages: Figure<Int>? = nil
    /// The PDF/X level the service asks for (`PDF/X-1a:2001 or PDF/X-3:2002`), and the colour (`CMYK`, `sRGB`),
    /// as published: listed by `photobook presets`.
    var pdfx: Figure<String>? = nil
    var colour: Figure<String>? = nil
    /// A hardcover's case wrap: the turn-in round the boards and the hinge each side of the spine (`cover
    /// --hardcover`); nil for a product without a case, or when the service publishes none.
    var caseWrap: Figure<Double>? = nil
    var caseHinge: Figure<Double>? = nil
    /// The largest PDF the service takes, in bytes (10^6 to the MB, as the services quote them).
    var fileSize: Figure<Int>? = nil
    /// The `--pdfx` level the preset sets: only where its `pdfx` figure names a level photobook writes
    /// (docs/presets.md says which and why); nil leaves `--pdfx` as it is.
    var writesPDFX: PDFXLevel? = nil
    /// What else the service asks that photobook does not set, for the listing (no crop marks, a gutter...).
    var notes: [String] = []
    /// Where the service says that files must have no crop marks; nil when it does not say so.
    var refusesCropMarks: String? = nil

    /// Sets the options the preset knows; the command line applies the options given after it, so that they win.
    /// The margin grows to the safety margin when it is narrower, so that photos inside the margins and every
    /// word stay in the area the service keeps safe.
    func apply(to options: inout BuildOptions) {
        if let trim { options.layout.pageSize = trim.value }
        if let bleed { options.layout.bleed = bleed.value }
        if let safety {
            options.layout.safety = safety.value
            options.layout.margin = max(options.layout.margin, safety.value)
        }
        if let pageStep { options.layout.padTo = pageStep.value }
        options.pageLimits = pageLimits
        options.fileSizeLimit = fileSize.map { FileSizeLimit(bytes: $0.value, owner: service) }
    }

    /// Sets the cover's options the preset knows, before the options given: the trim size as the panels (a
    /// case's boards), and for a hardcover product its case wrap, else the bleed.
    func apply(to cover: inout CoverCommand) {
        if let trim { cover.pageSize = trim.value }
        if caseWrap != nil || caseHinge != nil {
            cover.hardcover = true
            cover.wrap = caseWrap?.value
            cover.hinge = caseHinge?.value
        } else if let bleed {
            cover.bleed = bleed.value
        }
    }

    /// What `pages` breaks of the service's page-count rules, worded to follow the count (`is not a multiple of 2:
    /// Lulu's paperbacks bind in steps of 2 pages (--pad-to)`); nil when the count keeps them.
    func pageRule(refusing pages: Int) -> String? {
        if let minimum = minimumPages, pages < minimum.value {
            return "pages are too few: \(owner) need at least \(minimum.value) (\(minimum.published))"
        }
        if let maximum = maximumPages, pages > maximum.value {
            return "pages are too many: \(owner) take at most \(maximum.value) (\(maximum.published))"
        }
        if let step = pageStep, step.value > 1, pages % step.value != 0 {
            return "pages is not a multiple of \(step.value): \(owner) bind in steps of \(step.value) pages "
                + "(\(step.published)); ask for \(pages / step.value * step.value) or \((pages / step.value + 1) * step.value)"
        }
        return nil
    }

    /// The page-count rule a build checks, when the service publishes a minimum or a maximum.
    var pageLimits: PageLimits? {
        guard minimumPages != nil || maximumPages != nil else { return nil }
        return PageLimits(minimum: minimumPages?.value, maximum: maximumPages?.value, owner: owner)
    }
}

extension PrintPreset {
    static func named(_ name: String) -> PrintPreset? { all.first { $0.name == name.lowercased() } }

    /// The presets whose names come closest to a mistyped one: those it starts, else the nearest by edit
    /// distance, else every one.
    static func closest(to name: String) -> [String] {
        let names = all.map(\.name), lower = name.lowercased()
        let prefixed = names.filter { !lower.isEmpty && ($0.hasPrefix(lower) || lower.hasPrefix($0)) }
        if !prefixed.isEmpty { return prefixed }
        let distances = names.map { ($0, ArgumentScanner<BuildCommand>.editDistance($0, lower)) }
        let best = distances.map(\.1).min() ?? .max
        if best <= max(2, lower.count / 3) { return distances.filter { $0.1 == best }.map(\.0) }
        // Nothing near: the service's presets when the service is right, else all of them.
        let service = names.filter { $0.split(separator: "-").first == lower.split(separator: "-").first }
        return service.isEmpty ? names : service
    }

    /// `did you mean lulu-a4 or lulu-us-letter? (see 'photobook presets')`.
    static func suggestion(for name: String) -> String {
        let closest = closest(to: name)
        let list = closest.count == 1 ? closest[0] : closest.dropLast().joined(separator: ", ") + " or " + closest.last!
        return "did you mean \(list)? (see 'photobook presets')"
    }
}

extension ValueParser where Value == PrintPreset {
    /// The name of one of `PrintPreset.all`, any case.
    static var preset: ValueParser {
        let names = PrintPreset.all.map(\.name)
        return ValueParser(metavar: "NAME", allowed: names.joined(separator: ", "), completion: .words(names)) {
            text throws(ValueError) in
            guard let preset = PrintPreset.named(text) else {
                throw ValueError("\(ValueError.quote(text)) is not a preset: \(PrintPreset.suggestion(for: text))")
            }
            return preset
        }
    }
}
