import PhotoBook

/// A print service's published requirements for one product: trim size, bleed, safety margin and the step its
/// page count goes in, each figure with the address it was published at. A figure the service does not publish
/// (or that could not be found) is absent, never guessed: `--preset` then leaves that option as it is.
/// The table and its sources are also in docs/presets.md.
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
    var trim: Figure<PageSize>
    var bleed: Figure<Double>
    var safety: Figure<Double>
    /// The page count must be a multiple of this (`--pad-to`); nil when the service publishes no step.
    var pageStep: Figure<Int>?
    /// What else the service asks that photobook does not set, for the listing (no crop marks, a gutter...).
    var notes: [String] = []
    /// The service says, where `bleed.source` is, that files must have no crop marks.
    var refusesCropMarks = false

    /// Sets the options the preset knows; the command line applies the options given after it, so that they win.
    /// The margin grows to the safety margin when it is narrower, so that photos inside the margins and every
    /// word stay in the area the service keeps safe.
    func apply(to layout: inout LayoutOptions) {
        layout.pageSize = trim.value
        layout.bleed = bleed.value
        layout.safety = safety.value
        layout.margin = max(layout.margin, safety.value)
        if let pageStep { layout.padTo = pageStep.value }
    }
}

extension PrintPreset {
    private static let inch = 72.0
    private static let mm = Length.pointsPerMillimetre

    // Lulu: bleed and safety margin for every interior, and the trim sizes Lulu lists for photo books and
    // workbooks. Lulu's pages found give no page-count step for these products, so the presets set none.
    private static let luluBleedPage =
        "https://help.lulu.com/en/support/solutions/articles/64000255584-how-do-i-make-my-content-cover-the-whole-page-what-is-bleed"
    private static let luluSizesPage = "https://blog.lulu.com/choosing-the-right-book-size/"
    private static let luluNotes = [
        "Lulu asks for no crop marks or registration marks: leave --crop-marks off",
    ]

    private static func lulu(_ name: String, _ product: String, _ size: PageSize, published: String) -> PrintPreset {
        PrintPreset(name: name, service: "Lulu", product: product,
                    trim: Figure(value: size, published: published, source: luluSizesPage),
                    bleed: Figure(value: 0.125 * inch, published: "0.125 in (3.18 mm) on every side", source: luluBleedPage),
                    safety: Figure(value: 0.5 * inch, published: "0.5 in (12.7 mm) inside the trim edge", source: luluBleedPage),
                    pageStep: nil, notes: luluNotes, refusesCropMarks: true)
    }

    // Jukebox Print: saddle-stitched booklets, with every figure on one page.
    private static let jukeboxBookletPage = "https://www.jukeboxprint.com/explore-saddle-stitched-booklets"

    /// Every preset, in the order `photobook presets` lists them.
    static let all: [PrintPreset] = [
        lulu("lulu-a4", "A4", PageSize(width: 210 * mm, height: 297 * mm), published: "A4 (8.27 x 11.69 in / 210 x 297 mm)"),
        lulu("lulu-us-letter", "US Letter", PageSize(width: 8.5 * inch, height: 11 * inch),
             published: "US Letter (8.5 x 11 in / 216 x 279 mm)"),
        lulu("lulu-square", "Square (photo books)", PageSize(width: 8.5 * inch, height: 8.5 * inch),
             published: "Square (8.5 x 8.5 in / 216 x 216 mm)"),
        lulu("lulu-us-letter-landscape", "US Letter Landscape (photo books)",
             PageSize(width: 11 * inch, height: 8.5 * inch), published: "US Letter Landscape (11 x 8.5 in / 279 x 216 mm)"),
        lulu("lulu-small-landscape", "Small Landscape (photo books)", PageSize(width: 9 * inch, height: 7 * inch),
             published: "Small Landscape (9 x 7 in / 229 x 178 mm)"),
        PrintPreset(name: "jukebox-booklet-letter", service: "Jukebox Print", product: "saddle-stitched booklet, 8.5 x 11 in",
                    trim: Figure(value: PageSize(width: 8.5 * inch, height: 11 * inch),
                                 published: "8.5 x 11 in booklet", source: jukeboxBookletPage),
                    bleed: Figure(value: 0.125 * inch, published: "0.125 in", source: jukeboxBookletPage),
                    safety: Figure(value: 0.125 * inch, published: "0.125 in (inside safety margin)",
                                   source: jukeboxBookletPage),
                    pageStep: Figure(value: 4, published: "a multiple of 4 (the cover's four pages included)",
                                     source: jukeboxBookletPage),
                    notes: ["Jukebox asks for 0.5 in from the spine side: add --binding if your pages need it",
                            "the four cover pages are pages of the same PDF"]),
    ]

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
