import Geometry
import Platform

/// What happened to one photo.
public struct PhotoReport: Sendable {
    public var path: String
    /// `succeeded` when its page is in the book (if the book was written).
    public var outcome: Outcome
    /// Pixel size embedded and the density it prints at, when it was planned.
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    public var effectiveDPI: Double?
    /// The density the book for print has it at: `effectiveDPI`, or in a proof the print build's
    /// (`PlacedPhoto.printedDPI`), which the warnings speak of.
    public var printedDPI: Double?
    /// The page it is on (1-based), its cell there in points, and the share of it the crop leaves out, once the
    /// final plan is made.
    public var page: Int?
    public var cell: Rect?
    public var cropShare: Double?
    /// The part of the upright photo shown, in its full-resolution pixels, once the final plan is made.
    public var crop: Rect?
    /// Where its crop was placed from, and whether a region its metadata marks is not whole in it.
    public var cropSource: CropSource?
    public var cutsRegion: Bool?
    /// How many faces, pets and focus points its metadata marks (usable ones), once probed.
    public var regionCount = 0
    /// True when the book embeds the photo's own JPEG bytes (its orientation and crop applied by the page),
    /// false when it embeds a re-encoded render; nil when the photo is not in the book.
    public var passThrough: Bool?
    /// True when the embedded JPEG is a lossless crop of the photo's own (its DCT blocks copied, the page clipping
    /// it to the cell); its pixel size is then the copied blocks', a little larger than the crop.
    public var losslessCrop: Bool?
    /// True when its render was taken from the render cache (an earlier build's), not made again.
    public var renderedFromCache = false
    /// The caption set under it, when the book has one for it.
    public var caption: String?
    /// The fonts its caption is drawn in, each once, in order of first use ("DejaVu Sans", "Noto Sans CJK JP").
    public var captionFonts: [String] = []
    /// Its format and what of it ("HEIF (AVIF, 10-bit)"), once probed.
    public var format: String?
    /// The photo that stands for it in the book, when it was left out as the same photo (`Duplicates`).
    public var duplicateOf: String?
    /// What the choice of photos decided for it (`Choice`), when it looked at it.
    public var selection: PhotoChoice?
    /// What its codec noticed of a file it could read, for `--verbose` (a library's warnings).
    public var notes: [String] = []
}

extension PhotoReport {
    /// Adds what the codec said while decoding `job`'s photo to its notes, once (a spread's two halves and a
    /// page planned again decode one photo more than once).
    mutating func addDecodeNotes(of job: PhotoJob) {
        if let note = job.cacheNote.withLock({ $0 }) { noteCache(note) }
        for note in job.decodeNotes.withLock({ $0 }) where !notes.contains(note) { notes.append(note) }
    }

    static let cacheHitNote = "render taken from the cache"

    /// What the render cache said of the photo's render: a hit (said once), or an entry found damaged.
    mutating func noteCache(_ note: RenderCache.Note) {
        switch note {
        case .hit:
            renderedFromCache = true
            if !notes.contains(Self.cacheHitNote) { notes.append(Self.cacheHitNote) }
        case .damaged:
            notes.append("its cached render failed its checksum (damaged or truncated): rendered again")
        }
    }

    /// Where the plan put the photo: its page, its cell there, the share the crop leaves out, the pixels it
    /// needs and the density they print at.
    mutating func record(_ placed: PlacedPhoto, onPage number: Int, settings: RenderSettings) {
        page = number
        cell = placed.cell
        cropShare = placed.cropShare
        cropSource = placed.cropSource
        cutsRegion = placed.cutsRegion
        pixelWidth = placed.pixelWidth
        pixelHeight = placed.pixelHeight
        effectiveDPI = placed.effectiveDPI
        printedDPI = placed.printedDPI(target: settings.printDPI, keepOriginals: settings.keepOriginals)
    }
}

/// Something the user should know that did not stop the build: a bad sidecar, a character the font lacks.
public struct BuildWarning: Sendable, Equatable {
    /// The file it is about, when it is about one.
    public var path: String?
    public var message: String

    public init(path: String?, message: String) {
        self.path = path
        self.message = message
    }
}

/// One page of the book as planned: what it is, and which photos are on it.
public struct PageReport: Sendable, Equatable {
    public var kind: PageKind
    public var photos: [PhotoID]

    /// The kind's name, as the report and `--verbose` write it.
    public var arrangement: String { kind.description }
}

/// What a build did, for the summary line, the exit status and tests.
public struct BuildReport: Sendable {
    public var photos: [PhotoReport]
    /// The book's outcome: `succeeded` means the output file was committed.
    public var book: Outcome
    public var pagesWritten: Int
    public var seconds: Double
    /// The pages as finally planned, whether or not the book was written (empty when planning never finished).
    public var pages: [PageReport] = []
    public var warnings: [BuildWarning] = []
    /// Blank pages added at the end for `--pad-to`.
    public var blankPages = 0
    /// The page count against the preset's rule (`BuildOptions.pageLimits`), once a plan was made.
    public var pageCount: PageCountCheck?
    /// What the preflight found: on the plan, and the written file's size against the service's limit.
    public var preflight: [PreflightFinding] = []
    /// The size of the PDF written, in bytes, whether or not it was committed; nil when none was written.
    public var fileSize: Int?
    /// The service's largest upload the size was checked against.
    public var fileSizeLimit: FileSizeLimit?
    /// With `--sort date`, the photos that had no capture date, in book order (all after the dated ones, or all
    /// before them with `--reverse`).
    public var undatedPhotos: [String] = []
    /// Where the time went, stage by stage (filled in by `RenderPipeline.run()` on every path).
    public var timings = BuildTimings()

    public init(photos: [PhotoReport], book: Outcome, pagesWritten: Int, seconds: Double, pages: [PageReport] = []) {
        self.photos = photos
        // A photo starts `cancelled` until its work ends; a book refused or failed before a photo's turn leaves it
        // so, and a program could not tell that from Ctrl-C: it was not rendered, for the book's reason.
        if case .cancelled = book {} else if let failure = book.failure {
            for index in self.photos.indices where self.photos[index].outcome == .cancelled {
                self.photos[index].outcome = .skipped(because: Failure(failure.kind, "not rendered: \(failure.message)",
                                                                      errno: failure.errno))
            }
        }
        self.book = book
        self.pagesWritten = pagesWritten
        self.seconds = seconds
        self.pages = pages
    }

    public var leftOut: [PhotoReport] {
        photos.filter { if case .failed = $0.outcome { return true } else { return false } }
    }
    public var photosDone: Int {
        photos.filter { $0.outcome != .cancelled }.count
    }
}
