import Foundation

/// Everything a build needs besides its photos.
public struct BuildOptions: Sendable {
    public var layout = LayoutOptions()
    /// The order of the photos in the book (`PhotoOrder`).
    public var order = OrderOptions()
    /// JPEG quality of the rendered pages, 1-100.
    public var quality = 90
    /// Photos worked on at once.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Any photo that cannot be used fails the whole build.
    public var strict = false
    /// Images whose header declares more pixels than this are refused before decoding.
    public var maxPixels = 100_000_000
    /// Where the private working directory goes; beside the output when nil (`RenderSettings.workingFolder`).
    public var temporaryDirectory: String?
    /// The rendered pages are read into memory and embedded from there, as before issue 14, instead of being
    /// read from their files when the book is saved: the same PDF, more memory. For tests and `make bench`.
    public var imagesInMemory = false
    /// Cropped JPEGs shown at their own resolution get a file of their own DCT blocks (`DecodeOperation.losslessCrop`);
    /// false renders them from pixels, for `make bench`, which times both ways. Not a command-line option:
    /// there is no reason to want the lossy way.
    public var losslessCrops = true
    /// Every copy of a photo goes in: byte-identical files and the two files of one shot (`Duplicates`). A
    /// description's pages keep them whatever this says: the person who wrote them chose each photo.
    public var keepDuplicates = false
    /// Which file of a camera raw and the camera's JPEG of one shot goes in (`--prefer`): the JPEG unless the
    /// raw is asked for.
    public var prefer: ShotFile = .jpeg
    /// Titles, captions and page numbers; nil for a book of photos alone.
    public var text: TextOptions?
    /// The pages of a book description file, in place of the layout mode, order, captions and sections.
    public var given: GivenBook?
    /// The PDF's CreationDate and ModDate, written in UTC; nil for now, in the local time zone. Set from
    /// `SOURCE_DATE_EPOCH` for reproducible output.
    public var creationDate: Date?
    /// The print service's page-count rule (`--preset`): a book outside it is warned of, or with `strict` not
    /// made.
    public var pageLimits: PageLimits?
    /// Make a PDF/X-4 book (ISO 15930-7) for this printing condition (`--pdfx 4`); nil for a plain PDF.
    public var pdfx: PDFXRequest?
    /// Refuse the book, before any photo is rendered, when a photo would print below this density (`--min-dpi`).
    public var minimumDPI: Double?
    /// The print service's largest upload (`--preset`): a larger PDF is warned of, or with `strict` not committed.
    public var fileSizeLimit: FileSizeLimit?
    /// The render cache's folder (`RenderCache.defaultDirectory`); nil builds without a cache (`--no-cache`).
    public var cacheDirectory: String?
    /// The most the render cache may hold after the build, in bytes (`--cache-limit`).
    public var cacheLimit: Int64 = RenderCache.defaultLimit
    /// A proof for the screen (`--proof`): the PDF's keywords say so.
    public var proof = false
    /// Choose the best photos for a book of N photos or N pages (`--photos`, `--pages`); nil puts in every photo
    /// but the copies and the owner's rejects.
    public var choice: ChoiceRequest?
    /// Measure what the choice looks at even when nothing is chosen, to say which photos look like one moment,
    /// blurred, badly exposed or a screenshot (`--dry-run`, `--verbose`).
    public var describesChoice = false

    public init() {}
}

/// The words of a build: what to say and the font to say it in.
public struct TextOptions: Sendable {
    /// The TrueType font embedded in the book, and its measure for the planner.
    public var font: BookFont
    public var title: String?
    public var subtitle: String?
    public var author: String?
    /// The photo for the title page, one of the builder's files (only with a title).
    public var titlePhoto: PhotoID?
    public var captions: CaptionSource = .none
    public var pageNumbers = false
    public var sections: SectionMode = .none

    public init(font: BookFont) { self.font = font }
}

/// A book as the render pipeline makes it: the photos in the options' order (or a description's), their
/// captions, and the pages of the photos still alive in the options' layout. A photo that fails is left out and
/// the book planned again without it, unless `--strict`.
struct BookRenderPlan: RenderPlan {
    let options: BuildOptions

    var settings: RenderSettings {
        RenderSettings(jobs: options.jobs, maxPixels: options.maxPixels, quality: options.quality,
                       keepOriginals: options.layout.keepOriginals, losslessCrops: options.losslessCrops,
                       measuresAttention: options.layout.crop == .auto,
                       measuresTraits: options.given == nil && (options.choice != nil || options.describesChoice),
                       choosesPhotos: options.given == nil && options.choice != nil,
                       aimsAtRender: options.layout.crop == .auto && !options.layout.spreads,
                       imagesInMemory: options.imagesInMemory, creationDate: options.creationDate,
                       temporaryDirectory: options.temporaryDirectory,
                       keepDuplicates: options.keepDuplicates || options.given != nil,
                       preferredPhotos: Set([options.text?.titlePhoto].compactMap { $0 }),
                       prefersRaw: options.prefer == .raw, pdfx: options.pdfx,
                       fileSizeLimit: options.fileSizeLimit, refusesLargeFile: options.strict,
                       cacheDirectory: options.cacheDirectory, cacheLimit: options.cacheLimit,
                       proof: options.proof, printDPI: options.layout.printDPI)
    }

    var words: PDFWords? {
        options.text.map { PDFWords(font: $0.font, title: $0.title, subtitle: $0.subtitle, author: $0.author) }
    }

    var keepsWarningsWhenStopped: Bool { false }

    func refusal(usable: Int, of total: Int, afterRender: Bool) -> String? {
        if afterRender && options.strict { return "\(total - usable) of \(total) photos could not be used and --strict is set" }
        if usable == 0 { return "no photo could be used" }
        if options.strict && usable < total { return "a photo could not be used and --strict is set" }
        return nil
    }

    func prepare(_ usable: [(id: PhotoID, info: PhotoInfo)]) -> Result<PreparedWords, PlanStop> {
        // The book's order: a pure sort of what the probe read, before any plan. A description's pages give theirs.
        var usable = usable
        var undated: [String] = []
        if options.given == nil {
            let arrangement = PhotoOrder.arrange(usable.map(\.info), by: options.order)
            undated = arrangement.undated.map { usable[$0].info.file.path }
            usable = arrangement.order.map { usable[$0] }
        }
        guard options.layout.problem == nil else {
            return .failure(PlanStop(outcome: .failed(.refused("the page options leave no room for a photo"))))
        }
        var warnings: [BuildWarning] = []
        var missing = MissingCharacters()
        let captions = findCaptions(usable, warnings: &warnings, missing: &missing)
        options.text?.font.guessLanguage(from: missing.texts)
        warnings += missing.markWarnings
        if let message = missing.message {
            if options.strict {
                return .failure(PlanStop(outcome: .skipped(because: .refused("\(message), and --strict is set"))))
            }
            warnings.append(BuildWarning(path: nil, message: message))
        }
        let photos = zip(usable, captions).map {
            PreparedPhoto(id: $0.0.id, info: $0.0.info, caption: $0.1, captionLanguage: options.given?.captionLanguages[$0.0.id])
        }
        return .success(PreparedWords(photos: photos, warnings: warnings, undated: undated))
    }

    func plan(_ prepared: PreparedBook, alive: [PhotoID]) -> Result<PlannedDocument, PlanStop> {
        let photos = bookPhotos(prepared, alive: alive)
        let text = bookText(alive: alive)
        let found = options.given.flatMap { $0.pagesGiven ? $0 : nil }
            .map { Planner.plan(photos: photos, pages: $0.pages(of: alive), options: options.layout, text: text) }
            ?? Planner.plan(photos: photos, options: options.layout, text: text)
        guard let plan = found else {
            return .failure(PlanStop(outcome: .failed(.refused(planProblem(photos, alive: alive, text: text)))))
        }
        var warnings = Self.textWarnings(plan) { prepared.photo($0).info.file.path }
        // The pages as built: title, blanks and --pad-to's included. Checked on every plan, so that a book that a
        // failed photo makes shorter is told too.
        let pageCount = options.pageLimits?.check(pages: plan.pages.count)
        if let message = pageCount?.message {
            if options.strict {
                return .failure(PlanStop(outcome: .skipped(because: .refused("\(message), and --strict is set")),
                                         pageCount: pageCount))
            }
            warnings.append(BuildWarning(path: nil, message: message))
        }
        if let minimum = options.minimumDPI, let low = Self.firstBelow(minimum, in: plan, options: options.layout) {
            let path = prepared.photo(low.photo.photo).info.file.path
            return .failure(PlanStop(outcome: .failed(.refused(
                "page \(low.page): \(path) would print at \(Int(low.photo.printedDPI(options.layout).rounded(.down))) dpi, below the "
                    + "minimum of \(Int(minimum)) dpi asked for")), pageCount: pageCount))
        }
        let preflight = Preflight.check(plan, options: options.layout, measure: options.text?.font) {
            prepared.photo($0).info.file.path
        }
        // The density is warned of by photo (the summary's and the report's own); the rest here, by page.
        warnings += preflight.filter { $0.kind != .lowResolution }.map { BuildWarning(path: nil, message: $0.message) }
        if options.strict, let refused = preflight.first(where: \.refusedWhenStrict) {
            return .failure(PlanStop(outcome: .skipped(because: .refused("\(refused.message), and --strict is set")),
                                     pageCount: pageCount, preflight: preflight))
        }
        return .success(PlannedDocument(plan: plan, photos: photos, warnings: warnings, pageCount: pageCount,
                                        preflight: preflight))
    }
}

extension BookRenderPlan {
    /// The first photo of the plan (in page order) that prints below `minimum` pixels per inch, after its crop.
    static func firstBelow(_ minimum: Double, in plan: BookPlan,
                           options: LayoutOptions) -> (page: Int, photo: PlacedPhoto)? {
        for page in plan.pages {
            if let low = page.photos.first(where: { $0.printedDPI(options) < minimum }) { return (page.number, low) }
        }
        return nil
    }
}

extension RenderPipeline {
    /// A book of `files` (each photo's `PhotoID` is its place among them), written to `outputPath`.
    public convenience init(files: [PhotoFile], outputPath: String, options: BuildOptions, hooks: BuildHooks = BuildHooks()) {
        self.init(files: files, outputPath: outputPath, plan: BookRenderPlan(options: options), hooks: hooks)
    }
}
