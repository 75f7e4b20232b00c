import Foundation

/// What the render pipeline makes, where a book and a wrap cover differ: which of the probed photos it can do
/// with, their order and captions, the pages planned for the photos still alive, and the words of the PDF.
/// Everything else (probe, render jobs, outcomes, report, PDF, commit) is `RenderPipeline`'s, the same for both.
///
/// Pure: no I/O but a book's caption sidecars, read once in `prepare`.
protocol RenderPlan: Sendable {
    var settings: RenderSettings { get }
    /// The font file and the document information; nil for a PDF without words.
    var words: PDFWords? { get }
    /// True when the report of a document that was not made still lists its warnings: a cover's are about what
    /// was asked (words that do not fit, a spine too narrow) and stand either way; a book's go with the book.
    var keepsWarningsWhenStopped: Bool { get }

    /// Why the document cannot be made from `usable` of its `total` photos, or nil when it can (perhaps planned
    /// again without the others). `afterRender`: some failed only when decoded, rather than when probed.
    func refusal(usable: Int, of total: Int, afterRender: Bool) -> String?

    /// The usable photos (in the files' order) in the document's order, with their captions, the warnings about
    /// its words, and the photos that had no capture date; or how the document ends here.
    func prepare(_ usable: [(id: PhotoID, info: PhotoInfo)]) -> Result<PreparedWords, PlanStop>

    /// The pages of the photos still alive, or why there are none (worded for the summary line).
    func plan(_ prepared: PreparedBook, alive: [PhotoID]) -> Result<PlannedDocument, PlanStop>

    /// The photos of `prepared` the document is made of, a decision for each photo with its reason, and what to
    /// warn of; nil when every photo goes in (a cover, a description's pages).
    func choose(_ prepared: PreparedBook) -> ChosenPhotos?
}

extension RenderPlan {
    func choose(_ prepared: PreparedBook) -> ChosenPhotos? { nil }
}

/// What the choice of photos decided (`RenderPlan.choose`).
struct ChosenPhotos {
    /// The photos that go in, in book order.
    var photos: [PreparedPhoto]
    /// A decision for every photo it looked at.
    var decisions: [PhotoID: PhotoChoice]
    var warnings: [BuildWarning]
}

/// What every render of a document takes besides its plan.
struct RenderSettings: Sendable {
    /// Photos worked on at once.
    var jobs: Int
    /// Images whose header declares more pixels than this are refused before decoding.
    var maxPixels: Int
    /// JPEG quality of the rendered photos, 1-100.
    var quality: Int
    /// `LayoutOptions.keepOriginals`: a photo's own JPEG goes in whenever it can, cropped by the page.
    var keepOriginals = false
    /// `BuildOptions.losslessCrops`.
    var losslessCrops = true
    /// `--crop auto`: the probe measures an attention map of each photo that marks no region.
    var measuresAttention = false
    /// The probe measures what the choice of photos looks at (`PhotoTraits`) on each photo's smallest decode.
    var measuresTraits = false
    /// The build chooses its photos (`--photos`, `--pages`): a content digest is found only for the photos chosen.
    var choosesPhotos = false
    /// A build (not a dry run) of pages without spreads: a JPEG's map is measured in its render's worker from the
    /// blocks a lossless crop reads anyway (`PhotoJob.aimsAtRender`), not in the probe.
    var aimsAtRender = false
    /// `BuildOptions.imagesInMemory`.
    var imagesInMemory = false
    /// The PDF's dates (`SOURCE_DATE_EPOCH`); now, in the local zone, when nil.
    var creationDate: Date?
    /// The folder the private working folder is made in; beside the output when nil (`workingFolder(for:)`).
    var temporaryDirectory: String?
    /// Every copy of a photo goes in (`--keep-duplicates`, a description's pages, a cover); else `Duplicates`
    /// leaves the copies out, keeping `preferredPhotos` (the title page's) over their copies.
    var keepDuplicates = true
    var preferredPhotos: Set<PhotoID> = []
    /// Of a camera raw and the camera's JPEG of one shot, the raw goes in (`--prefer raw`); else the JPEG.
    var prefersRaw = false
    /// A PDF/X-4 book for this printing condition; nil for a plain PDF.
    var pdfx: PDFXRequest?
    /// The largest file the service takes (`BuildOptions.fileSizeLimit`), and whether a larger one is refused.
    var fileSizeLimit: FileSizeLimit?
    var refusesLargeFile = false
    /// The render cache's folder (`RenderCache`); nil for none (`--no-cache`, a dry run, a cover).
    var cacheDirectory: String?
    var cacheLimit: Int64 = RenderCache.defaultLimit
    /// `BuildOptions.proof`.
    var proof = false
    /// A proof's print density (`LayoutOptions.printDPI`), for the report's `printedDPI`.
    var printDPI: Double? = nil
}

/// What the PDF says beyond its pages: the document's information, and the font its text is set in.
struct PDFWords: Sendable {
    var font: BookFont
    var title: String?
    var subtitle: String?
    var author: String?
}

/// What a plan makes of the probed photos before any page: `PreparedBook` less the reports.
struct PreparedWords {
    var photos: [PreparedPhoto]
    /// Warnings about the words (characters the font lacks, bad sidecars); the probe's are the pipeline's to add.
    var warnings: [BuildWarning]
    var undated: [String] = []
}

/// A plan of pages, the photos it was made from (for the dry run), and what it says of its words.
struct PlannedDocument {
    var plan: BookPlan
    var photos: [BookPhoto]
    /// Words outside the safe area, captions cut short, what did not fit on a cover.
    var warnings: [BuildWarning]
    /// The page count against a preset's rule, when there is one.
    var pageCount: PageCountCheck?
    /// What the preflight found on the plan (`Preflight.check`).
    var preflight: [PreflightFinding] = []
}

/// How a document ends before any of its photos is rendered.
struct PlanStop: Error {
    var outcome: Outcome
    /// The page count that stopped it (`--strict` and a preset's rule), for the report.
    var pageCount: PageCountCheck?
    /// What the preflight found, when it got that far.
    var preflight: [PreflightFinding] = []
}
