import Platform

/// A book description's choices, by index into the builder's files: which photos share each page, their
/// captions and focus points. The options' layout mode, sort order, captions and sections do not apply.
public struct GivenBook: Sendable {
    public struct Page: Sendable, Equatable {
        /// Indices into the builder's files, in reading order.
        public var photos: [Int]
        public var layout: PageArrangement?
        public var heading: String?
        public init(photos: [Int], layout: PageArrangement? = nil, heading: String? = nil) {
            self.photos = photos
            self.layout = layout
            self.heading = heading
        }
    }

    public var pages: [Page]
    public var captions: [Int: String] = [:]
    public var focus: [Int: FocusPoint] = [:]

    public init(pages: [Page]) { self.pages = pages }
}

/// Everything a build knows before any pixel: the probe's findings in book order, the captions and the warnings
/// so far. The build and the dry run both start from it.
struct PreparedBook {
    var reports: [PhotoReport]
    /// The photos that can be used, in book order: index into the files, and what the probe read.
    var usable: [(index: Int, info: PhotoInfo)]
    /// Per usable photo.
    var captions: [String?]
    var warnings: [BuildWarning]
    var undated: [String]
}

/// What a dry run found: the plan the build would follow, and what it would say.
public struct BookPreview: Sendable {
    /// The plan; nil when the build would stop before planning (`report.book` says why).
    public var plan: BookPlan?
    /// Photos as the build would report them before rendering: `succeeded` for each photo in the plan, with its
    /// page, cell, crop share and density; `failed` for each one the probe refused. `book` is `succeeded` when
    /// there is a plan (though nothing is written).
    public var report: BuildReport
    /// For each photo index of the plan, the index of its file.
    public var files: [Int]
    /// For each photo index of the plan, its caption as given (the page shows it wrapped, perhaps cut).
    public var captions: [String?]
    /// For each photo index of the plan, the heading of its section, whole (the page shows it on two lines at most).
    public var headings: [String?] = []
}

extension BookBuilder {
    /// Probe, order, words: everything before the plan, or the report of a build that stops here.
    func prepare() -> Result<PreparedBook, EarlyStop> {
        // Probe: headers only. A photo that cannot be read is left out here, before any pixels exist.
        var reports = files.map { PhotoReport(path: $0.path, outcome: .cancelled) }
        var usable: [(index: Int, info: PhotoInfo)] = []
        func stop(_ book: Outcome) -> Result<PreparedBook, EarlyStop> {
            .failure(EarlyStop(report: BuildReport(photos: reports, book: book, pagesWritten: 0, seconds: 0)))
        }
        // Up to --jobs probes at once (ProbeAll.swift); the results come back in the files' order.
        let session = self.session
        let probed = Probe.probeAll(files, maxPixels: options.maxPixels, jobs: options.jobs,
                                    isCancelled: { session.isCancelled })
        for (index, file) in files.enumerated() {
            switch probed[index] {
            case nil: return stop(.cancelled)
            case .success(let info)?:
                usable.append((index, info))
                reports[index].format = info.formatDescription
                reports[index].notes = info.notes
            case .failure(let error)?:
                reports[index].outcome = .failed(error.description)
                hooks.photoFinished?(file.path)
            }
        }
        // A signal during the last probe must read as an interruption, not as a build with no usable photo.
        if session.isCancelled { return stop(.cancelled) }
        guard !usable.isEmpty else { return stop(.skipped(because: "no photo could be used")) }
        if options.strict && usable.count < files.count {
            return stop(.skipped(because: "a photo could not be used and --strict is set"))
        }

        // The book's order: a pure sort of what the probe read, before any plan. A description's pages give theirs.
        clock.enter(.plan)
        var undated: [String] = []
        if options.given == nil {
            let arrangement = PhotoOrder.arrange(usable.map(\.info), by: options.order)
            undated = arrangement.undated.map { usable[$0].info.file.path }
            usable = arrangement.order.map { usable[$0] }
        }

        guard options.layout.problem == nil else { return stop(.failed("the page options leave no room for a photo")) }
        var warnings: [BuildWarning] = usable.flatMap { photo in photo.info.probeWarnings }
        let captions = findCaptions(usable, warnings: &warnings)
        return .success(PreparedBook(reports: reports, usable: usable, captions: captions, warnings: warnings,
                                     undated: undated))
    }

    /// The plan of the usable photos still alive (indices into `prepared.usable`), in the options' layout or the
    /// description's pages. Photo indices in the plan are positions in `alive`.
    func plan(_ prepared: PreparedBook, alive: [Int]) -> BookPlan? {
        let usable = prepared.usable
        let sizes = alive.map { (usable[$0].info.uprightWidth, usable[$0].info.uprightHeight) }
        let text = bookText(alive: alive, usable: usable, captions: prepared.captions)
        guard let given = options.given else { return Planner.plan(uprightSizes: sizes, options: options.layout, text: text) }
        var position: [Int: Int] = [:]
        for (offset, photo) in alive.enumerated() { position[usable[photo].index] = offset }
        let pages = given.pages.map { page in
            GivenPage(photos: page.photos.compactMap { position[$0] }, layout: page.layout, heading: page.heading)
        }
        return Planner.plan(uprightSizes: sizes, pages: pages, focus: alive.map { given.focus[usable[$0].index] },
                            options: options.layout, text: text)
    }

    /// Why `plan(prepared, alive:)` found no plan: for a description, the first page that cannot be laid out.
    func planProblem(_ prepared: PreparedBook, alive: [Int]) -> String {
        let fallback = "the page options leave no room for a photo"
        guard let given = options.given, options.layout.problem == nil else { return fallback }
        let usable = prepared.usable
        let sizes = alive.map { (usable[$0].info.uprightWidth, usable[$0].info.uprightHeight) }
        var position: [Int: Int] = [:]
        for (offset, photo) in alive.enumerated() { position[usable[photo].index] = offset }
        let text = bookText(alive: alive, usable: usable, captions: prepared.captions)
        for (number, page) in given.pages.enumerated() {
            let one = GivenPage(photos: page.photos.compactMap { position[$0] }, layout: page.layout, heading: page.heading)
            guard !one.photos.isEmpty, Planner.plan(uprightSizes: sizes, pages: [one], options: options.layout, text: text) == nil
            else { continue }
            return "pages[\(number)]: " + (page.layout.map { "the layout \"\($0)\" leaves a photo too little room "
                + "(a cell under 12% of the page across or down): choose another, or remove it to let photobook choose" }
                ?? "the page leaves a photo too little room")
        }
        return fallback
    }

    /// What the build says about the finished plan's text: words outside the ArtBox, captions cut short.
    static func textWarnings(_ plan: BookPlan, path: (Int) -> String) -> [BuildWarning] {
        var warnings: [BuildWarning] = []
        for (number, page) in plan.pages.enumerated() {
            for text in page.texts where !contains(page.artBox, text.box) {
                // The role's case name is one word (`pageNumber`); the message is read by people.
                let what = text.role == .pageNumber ? "page number" : text.role.rawValue
                warnings.append(BuildWarning(path: nil, message: "page \(number + 1): the \(what) \""
                                             + "\(text.lines.joined(separator: " "))\" reaches outside the safe area "
                                             + "(ArtBox); widen the margin or narrow --safety"))
            }
        }
        for (number, page) in plan.pages.enumerated() {
            for text in page.texts where text.role == .caption && text.lines.last?.hasSuffix("…") == true {
                // Which photo: the one whose cell sits right above the caption.
                if let photo = page.photos.first(where: { abs($0.cell.x - text.box.x) < 1e-6 && $0.cell.y > text.box.y })
                    ?? (page.spread != nil ? page.photos.first : nil) {
                    warnings.append(BuildWarning(path: path(photo.photoIndex),
                                                 message: "caption longer than \(text.lines.count) lines on page "
                                                     + "\(number + 1); cut with an ellipsis"))
                }
            }
        }
        for blank in plan.spreadBlanks {
            warnings.append(BuildWarning(path: path(blank.photoIndex),
                                         message: "page \(blank.page) left blank so that this panorama's spread starts "
                                             + "on a left-hand page"))
        }
        return warnings
    }

    /// Probes and plans as `run()` would, decoding no pixel, creating no folder and writing nothing. A photo that
    /// fails only when it is decoded (a truncated file) is in the plan: only a build finds it out.
    public func preview() -> BookPreview {
        let prepared: PreparedBook
        switch prepare() {
        case .failure(let stop): return BookPreview(plan: nil, report: stop.report, files: [], captions: [])
        case .success(let found): prepared = found
        }
        let alive = Array(prepared.usable.indices)
        var reports = prepared.reports
        guard let plan = plan(prepared, alive: alive) else {
            return BookPreview(plan: nil, report: BuildReport(photos: reports, book: .failed(planProblem(prepared, alive: alive)),
                                                              pagesWritten: 0, seconds: 0),
                               files: [], captions: [])
        }
        var pageReports: [PageReport] = []
        for (number, page) in plan.pages.enumerated() {
            for placed in page.photos {
                let index = prepared.usable[alive[placed.photoIndex]].index
                reports[index].outcome = .succeeded
                reports[index].page = number + 1
                reports[index].cell = placed.cell
                reports[index].cropShare = placed.cropShare
                reports[index].pixelWidth = placed.pixelWidth
                reports[index].pixelHeight = placed.pixelHeight
                reports[index].effectiveDPI = placed.effectiveDPI
            }
            pageReports.append(PageReport(kind: page.kind,
                                          photos: page.photos.map { prepared.usable[alive[$0.photoIndex]].index }))
        }
        var report = BuildReport(photos: reports, book: .succeeded, pagesWritten: 0, seconds: 0, pages: pageReports)
        report.blankPages = plan.blankPages
        report.undatedPhotos = prepared.undated
        report.warnings = prepared.warnings
            + Self.textWarnings(plan) { prepared.usable[alive[$0]].info.file.path }
        let text = bookText(alive: alive, usable: prepared.usable, captions: prepared.captions)
        return BookPreview(plan: plan, report: report, files: alive.map { prepared.usable[$0].index },
                           captions: alive.map { prepared.captions[$0] }, headings: text?.headings ?? [])
    }
}

/// A build that ends before its plan, with its report.
struct EarlyStop: Error {
    var report: BuildReport
}
