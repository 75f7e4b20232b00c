import Platform
import Words

/// A book description's choices, naming the builder's files by `PhotoID`: which photos share each page, their
/// captions and focus points. The options' layout mode, sort order, captions and sections do not apply.
public struct GivenBook: Sendable {
    public var pages: [GivenPage]
    public var captions: [PhotoID: String] = [:]
    /// The language a caption says it is in (its `lang`), for the forms and fonts of its characters.
    public var captionLanguages: [PhotoID: Language] = [:]
    public var focus: [PhotoID: FocusPoint] = [:]
    /// False: only the words and focus points are given, in the files' order, and the layout mode arranges the
    /// pages (the editor's "arrange the rest again": its pages as `--layout auto` makes them, captions and all).
    public var pagesGiven = true

    public init(pages: [GivenPage]) { self.pages = pages }
}

/// Everything a build knows before any pixel: the probe's findings in book order, the captions and the warnings
/// so far. The build and the dry run both start from it.
struct PreparedBook {
    /// One per photo file, in the files' order (a multi-page file whose pages the probe counted: one per page).
    var reports: [PhotoReport]
    /// The photos that can be used, in book order.
    var photos: [PreparedPhoto]
    var warnings: [BuildWarning]
    var undated: [String]
    /// How many photos were left out as another's copy (`Duplicates`): not photos that could not be used.
    var duplicates: Int
    private let byID: [PhotoID: PreparedPhoto]

    init(reports: [PhotoReport], photos: [PreparedPhoto], warnings: [BuildWarning], undated: [String],
         duplicates: Int = 0) {
        self.reports = reports
        self.photos = photos
        self.warnings = warnings
        self.undated = undated
        self.duplicates = duplicates
        byID = Dictionary(photos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A usable photo.
    func photo(_ id: PhotoID) -> PreparedPhoto { byID[id]! }
}

/// A photo the probe could read: which file, what the probe found, and its caption.
struct PreparedPhoto {
    var id: PhotoID
    var info: PhotoInfo
    var caption: String?
    /// The caption's own language (a description's `lang`).
    var captionLanguage: Language?
}

/// What a dry run found: the plan the build would follow, and what it would say.
public struct BookPreview: Sendable {
    /// The plan; nil when the build would stop before planning (`report.book` says why).
    public var plan: BookPlan?
    /// Photos as the build would report them before rendering: `succeeded` for each photo in the plan, with its
    /// page, cell, crop share and density; `failed` for each one the probe refused. `book` is `succeeded` when
    /// there is a plan (though nothing is written).
    public var report: BuildReport
    /// The photos the plan was made from, with their captions as given (the page shows them wrapped, perhaps
    /// cut) and the headings of their sections whole (the page shows them on two lines at most).
    public var photos: [PhotoID: BookPhoto] = [:]
}

extension BookRenderPlan {
    /// The photos still alive, in book order, as the planner takes them.
    func bookPhotos(_ prepared: PreparedBook, alive: [PhotoID]) -> [BookPhoto] {
        let sections = options.text?.sections ?? .none
        let events = sections == .event ? SectionMode.eventHeadings(alive.map { prepared.photo($0).info }) : []
        return alive.enumerated().map { position, id in
            let photo = prepared.photo(id), info = photo.info
            let heading = sections == .event ? events[position]
                : sections == .none ? nil : sections.heading(of: info.file, captureDate: info.captureDate)
            var made = BookPhoto(id: id, width: info.uprightWidth, height: info.uprightHeight, caption: photo.caption,
                                 heading: heading,
                                 focus: options.given?.focus[id], regions: info.regions,
                                 attention: info.attention)
            made.captionLanguage = photo.captionLanguage
            return made
        }
    }

    /// Why `photos` found no plan: for a description, the first page that cannot be laid out.
    func planProblem(_ photos: [BookPhoto], alive: [PhotoID], text: BookText?) -> String {
        let fallback = "the page options leave no room for a photo"
        guard let given = options.given, options.layout.problem == nil else { return fallback }
        for (number, (page, one)) in zip(given.pages, given.pages(of: alive)).enumerated() {
            guard !one.photos.isEmpty, Planner.plan(photos: photos, pages: [one], options: options.layout, text: text) == nil
            else { continue }
            return "pages[\(number)]: " + (page.layout.map { "the layout \"\($0)\" leaves a photo too little room "
                + "(a cell under 12% of the page across or down): choose another, or remove it to let photobook choose" }
                ?? "the page leaves a photo too little room")
        }
        return fallback
    }

    /// What the build says about the finished plan's text: captions cut short (words outside the ArtBox are the
    /// preflight's, `Preflight.check`).
    static func textWarnings(_ plan: BookPlan, path: (PhotoID) -> String) -> [BuildWarning] {
        var warnings: [BuildWarning] = []
        for page in plan.pages {
            for photo in page.photos {
                guard let caption = photo.caption, caption.lines.last?.hasSuffix("…") == true else { continue }
                warnings.append(BuildWarning(path: path(photo.photo),
                                             message: "caption longer than \(caption.lines.count) lines on page "
                                                 + "\(page.number); cut with an ellipsis"))
            }
        }
        for blank in plan.spreadBlanks {
            warnings.append(BuildWarning(path: path(blank.photo),
                                         message: "page \(blank.page) left blank so that this panorama's spread starts "
                                             + "on a left-hand page"))
        }
        return warnings
    }
}

extension GivenBook {
    /// The pages with only the photos still alive on them (a page may be left empty).
    func pages(of alive: [PhotoID]) -> [GivenPage] {
        let living = Set(alive)
        return pages.map { GivenPage(photos: $0.photos.filter(living.contains), layout: $0.layout, heading: $0.heading) }
    }
}

/// A build that ends before its plan, with its report.
struct EarlyStop: Error {
    var report: BuildReport
}
