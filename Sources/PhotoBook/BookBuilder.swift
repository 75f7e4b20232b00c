import Foundation
import Geometry
import Imaging
import PDF
import Platform
import Synchronization

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
    /// Where the private working directory goes; beside the output when nil (`BookBuilder.workingFolderTemplate`).
    public var temporaryDirectory: String?
    /// The rendered pages are read into memory and embedded from there, as before issue 14, instead of being
    /// read from their files when the book is saved: the same PDF, more memory. For tests and `make bench`.
    public var imagesInMemory = false
    /// Cropped JPEGs shown at their own resolution get a file of their own DCT blocks (LosslessCrop.swift);
    /// false renders them from pixels, for `make bench`, which times both ways. Not a command-line option:
    /// there is no reason to want the lossy way.
    public var losslessCrops = true
    /// Titles, captions and page numbers; nil for a book of photos alone.
    public var text: TextOptions?
    /// The pages of a book description file, in place of the layout mode, order, captions and sections.
    public var given: GivenBook?
    /// The PDF's CreationDate and ModDate, written in UTC; nil for now, in the local time zone. Set from
    /// `SOURCE_DATE_EPOCH` for reproducible output.
    public var creationDate: Date?

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

/// Runs one build: probe, plan, the operation graph, the commit. Create one per build; `run()` once.
///
/// `cancel()` may be called from any thread at any time (the SIGINT handler does).
public final class BookBuilder: Sendable {
    public let files: [PhotoFile]
    public let outputPath: String
    public let options: BuildOptions
    public let hooks: BuildHooks
    public let session = BuildSession()
    private let queue: OperationQueue
    /// Numbers the rendered files of every round.
    private let sequence = SequenceNumbers()
    /// The photos that had no capture date when ordering by date, for the report.
    private let undated = Mutex<[String]>([])
    /// Where the time goes, for the report.
    let clock = StageClock()

    public init(files: [PhotoFile], outputPath: String, options: BuildOptions, hooks: BuildHooks = BuildHooks()) {
        self.files = files
        self.outputPath = outputPath
        self.options = options
        self.hooks = hooks
        queue = OperationQueue()
        queue.name = "photobook"
        // The default lets libdispatch start many threads; photobook decides how many photos are in flight.
        queue.maxConcurrentOperationCount = max(1, options.jobs)
    }

    /// Stops the build at its next safe points. Returns false when the book was already committed.
    @discardableResult
    public func cancel() -> Bool {
        guard session.cancel() else { return false }
        queue.cancelAllOperations()
        return true
    }

    /// What a worker's pooled buffers, in use and kept, may come to (and never more than the workers held at
    /// once, BufferPool.swift). A portrait page holds its decoded photo and the page (34 + 24 MB) at once, a
    /// lossless crop libjpeg's three blocks (22 + 5 + 5 MB): four buffers a worker. 56 MB a worker lifted the
    /// 800-photo peak to 183 MB against 151 MB at 24 photos (make bench-memory wants 30 MB at most between them);
    /// 48 MB: 165 and 142 MB, 100k page faults on the 24-photo bench (200k before the pool).
    static let pooledBytesPerWorker = 48 << 20
    static let pooledBuffersPerWorker = 4

    /// Builds the book; returns when every operation has ended and every temporary file is gone.
    public func run() -> BuildReport {
        let start = DispatchTime.now()
        // Each worker lets go of a decoded photo and a page, or libjpeg's blocks, at a time: the pool keeps about
        // that much for the next photo (BufferPool.swift), and the save empties it (BuildPDFOperation).
        let workers = max(1, options.jobs)
        BufferPool.shared.removeAll()
        BufferPool.shared.setLimits(maxBuffers: workers * BookBuilder.pooledBuffersPerWorker,
                                    maxBytes: workers * BookBuilder.pooledBytesPerWorker)
        var report = runStages()
        // Every operation has ended by now: nothing can create a temporary file after this.
        session.removeTemporaryFiles()
        // The stages end before the total is read, so that they never add up to more than it.
        report.timings = clock.finish()
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        report.timings.total = report.seconds
        report.undatedPhotos = undated.withLock { $0 }
        hooks.finished?(report)
        return report
    }

    private func runStages() -> BuildReport {
        clock.enter(.probe)
        // Probe, order and words: the plan-only path, shared with the dry run (BookPlanning.swift).
        let prepared: PreparedBook
        switch prepare() {
        case .failure(let stop): return stop.report
        case .success(let found): prepared = found
        }
        var reports = prepared.reports, warnings = prepared.warnings
        undated.withLock { $0 = prepared.undated }

        let (parent, template) = workingFolderTemplate
        let directory: String
        switch session.makeTemporaryDirectory(template: template) {
        case .failure(let failure):
            return BuildReport(photos: reports, book: .failed("cannot create a temporary folder in \(parent): \(failure)"),
                               pagesWritten: 0, seconds: 0)
        case .success(let path): directory = path
        }

        // Rounds of renders: plan the photos still in the book, render what the plan needs and no earlier round
        // made, and plan again without any photo that failed only when it was decoded, so that it leaves no hole.
        // A photo whose crop and pixel size did not change keeps its render (in a grid of equal cells, the photos
        // after a failed one move up without being rendered again). Each round removes at least one photo.
        var alive = prepared.photos.map(\.id)
        var renders: [RenderKey: (path: String, passThrough: Bool, cover: Rect?)] = [:]
        var plan = BookPlan(pages: [])
        var round = 0
        while true {
            clock.enter(.plan)
            guard let next = self.plan(prepared, alive: alive) else {
                return BuildReport(photos: reports, book: .failed(planProblem(prepared, alive: alive)),
                                   pagesWritten: 0, seconds: 0)
            }
            plan = next
            var chains: [Chain] = []
            var announced: Set<PhotoID> = []
            for placed in plan.pages.flatMap(\.photos) {
                let photo = placed.photo
                let key = RenderKey(photo: photo, placed)
                guard renders[key] == nil else { continue }
                // A spread's two halves are two renders of one photo, which is announced finished once.
                let announces = announced.insert(photo).inserted
                let index = photo.index, info = prepared.photo(photo).info
                reports[index].pixelWidth = placed.pixelWidth
                reports[index].pixelHeight = placed.pixelHeight
                reports[index].effectiveDPI = placed.effectiveDPI
                chains.append(makeChain(PhotoJob(info: info, placement: placed, keepOriginals: options.layout.keepOriginals,
                                                 losslessCrops: options.losslessCrops),
                                        photo: photo, key: key, directory: directory, round: round,
                                        announces: announces))
            }
            if chains.isEmpty { break }
            clock.enter(.render)
            run(chains, first: round == 0)
            round += 1

            var failed = false
            for chain in chains {
                let index = chain.photo.index
                // The other half of a spread already failed this round: the photo is out, whatever this half did.
                if case .failed = reports[index].outcome, !alive.contains(chain.photo) { continue }
                reports[index].outcome = Self.photoOutcome(decode: chain.decode.outcome!, render: chain.render.outcome!)
                switch reports[index].outcome {
                case .succeeded:
                    if let path = chain.job.rendered.withLock({ $0 }) {
                        renders[chain.key] = (path, chain.job.passThrough, chain.job.renderedCover.withLock { $0 })
                    }
                case .failed:
                    failed = true
                    alive.removeAll { $0 == chain.photo }
                case .skipped, .cancelled:
                    break
                }
            }
            if let reason = session.abortReason {
                return BuildReport(photos: reports, book: .failed(reason), pagesWritten: 0, seconds: 0)
            }
            if session.isCancelled { return BuildReport(photos: reports, book: .cancelled, pagesWritten: 0, seconds: 0) }
            if !failed { break }
            if options.strict {
                let leftOut = files.count - alive.count
                return BuildReport(photos: reports,
                                   book: .skipped(because: "\(leftOut) of \(files.count) photos could not be used and --strict is set"),
                                   pagesWritten: 0, seconds: 0)
            }
            if alive.isEmpty {
                return BuildReport(photos: reports, book: .skipped(because: "no photo could be used"), pagesWritten: 0, seconds: 0)
            }
        }

        // Renders an earlier plan needed and the final one does not are gone before the book is written.
        clock.enter(.pdf)
        var used: Set<RenderKey> = []
        var pages: [BuildPDFOperation.Page] = []
        var pageReports: [PageReport] = []
        var reported: Set<PhotoID> = []
        for page in plan.pages {
            var photos: [BuildPDFOperation.Photo] = []
            for placed in page.photos {
                let photo = placed.photo, info = prepared.photo(photo).info
                let key = RenderKey(photo: photo, placed)
                guard let render = renders[key] else {
                    return BuildReport(photos: reports, book: .failed("internal error: a planned photo has no render"),
                                       pagesWritten: 0, seconds: 0)
                }
                used.insert(key)
                let index = photo.index
                // A spread's photo is reported where it starts, on the left-hand page; its crop is what both
                // halves show, as its crop share already counts.
                guard reported.insert(photo).inserted else {
                    reports[index].crop = reports[index].crop.map { $0.union(placed.crop) }
                    photos.append(.init(info: info, placement: placed, passThrough: render.passThrough,
                                        path: render.path, cover: render.cover))
                    continue
                }
                reports[index].record(placed, onPage: page.number)
                reports[index].crop = placed.crop
                reports[index].passThrough = render.passThrough
                reports[index].losslessCrop = render.cover != nil
                if render.passThrough {
                    // The photo's own JPEG is embedded whole; the page shows the crop of it.
                    reports[index].pixelWidth = info.uprightWidth
                    reports[index].pixelHeight = info.uprightHeight
                }
                if let cover = render.cover {
                    // What the PDF holds: the copied blocks, whole MCUs around the crop.
                    reports[index].pixelWidth = Int(cover.width.rounded())
                    reports[index].pixelHeight = Int(cover.height.rounded())
                }
                reports[index].caption = prepared.photo(photo).caption
                photos.append(.init(info: info, placement: placed, passThrough: render.passThrough,
                                    path: render.path, cover: render.cover))
            }
            // Every page says where it is cut, so that a print shop's preflight finds a TrimBox on each.
            let boxes = PDFPage.Boxes(trim: page.trimBox, bleed: page.bleedBox, art: page.artBox)
            pages.append(.init(size: page.size, photos: photos, texts: page.texts, heading: page.heading, boxes: boxes,
                               cropMarks: page.cropMarks))
            pageReports.append(PageReport(kind: page.kind, photos: page.photos.map(\.photo)))
        }
        for (key, render) in renders where !used.contains(key) { session.remove(temporaryFile: render.path) }

        let commit = BookCommit(outputPath: outputPath, session: session, hooks: hooks)
        let words = options.text.map { text in
            BuildPDFOperation.Words(fontPath: text.font.path, title: text.title, subtitle: text.subtitle,
                                    author: text.author, hasTitlePage: plan.pages.first?.kind == .title)
        }
        let build = BuildPDFOperation(pages: pages, words: words, commit: commit, session: session, hooks: hooks,
                                      creationDate: options.creationDate, imagesInMemory: options.imagesInMemory)
        if session.isCancelled { return BuildReport(photos: reports, book: .cancelled, pagesWritten: 0, seconds: 0) }
        queue.addOperations([build], waitUntilFinished: true)
        build.recordIfAbsent(.cancelled)
        if let reason = session.abortReason { return BuildReport(photos: reports, book: .failed(reason), pagesWritten: 0, seconds: 0) }
        warnings += Self.textWarnings(plan) { prepared.photo($0).info.file.path }
        var report = BuildReport(photos: reports, book: build.outcome!, pagesWritten: build.pagesWritten, seconds: 0,
                                 pages: pageReports)
        report.blankPages = plan.blankPages
        report.warnings = warnings
        return report
    }

    /// One photo's decode and render, for one round.
    private struct Chain {
        var job: PhotoJob
        var decode: DecodeOperation
        var render: ResizeCropOperation
        var photo: PhotoID
        var key: RenderKey
    }

    /// A render is reusable for any cell with the same crop and pixel size: where it is drawn is the page's affair.
    private struct RenderKey: Hashable {
        var photo: PhotoID
        var crop: Rect
        var pixelWidth: Int, pixelHeight: Int

        init(photo: PhotoID, _ placed: PlacedPhoto) {
            self.photo = photo
            crop = placed.crop
            (pixelWidth, pixelHeight) = (placed.pixelWidth, placed.pixelHeight)
        }
    }

    private func makeChain(_ job: PhotoJob, photo: PhotoID, key: RenderKey, directory: String, round: Int,
                           announces: Bool = true) -> Chain {
        // A photo is announced finished once, by its first render; renders of later rounds redo finished photos.
        var renderHooks = hooks
        if round > 0 || !announces { renderHooks.photoFinished = nil }
        let decode = DecodeOperation(job: job, maxPixels: options.maxPixels, session: session, hooks: hooks)
        let render = ResizeCropOperation(job: job, decode: decode, quality: options.quality, directory: directory,
                                         sequence: sequence.next(), session: session, hooks: renderHooks)
        render.queuePriority = .high
        return Chain(job: job, decode: decode, render: render, photo: photo, key: key)
    }

    /// Runs one round's decodes and renders to their end. Each decode is followed by its own render in the queue,
    /// and renders run first when ready, so decoded photos do not pile up: a few per worker whatever the number.
    private func run(_ chains: [Chain], first: Bool) {
        // The queue stays suspended until the whole round is in it, so a signal that came meanwhile cancels
        // every operation before any of them starts.
        queue.isSuspended = true
        // Longest first (the queue takes ready operations of one priority in the order they were added): with the
        // costliest photos started early, the cheap ones fill the cores at the end instead of one long one.
        let costs = chains.map(\.job.estimatedCost)
        let order = chains.indices.sorted { a, b in costs[a] != costs[b] ? costs[a] > costs[b] : a < b }
        queue.addOperations(order.flatMap { [chains[$0].decode, chains[$0].render] as [Operation] },
                            waitUntilFinished: false)
        if first { hooks.graphReady?() }
        if session.isCancelled { queue.cancelAllOperations() }
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        // Operations the queue skipped never ran their body: the orchestration records them as cancelled.
        for chain in chains {
            chain.decode.recordIfAbsent(.cancelled)
            chain.render.recordIfAbsent(.cancelled)
        }
    }

    /// A photo failed if a stage of it failed; it was cancelled if it did not get to the end otherwise.
    private static func photoOutcome(decode: Outcome, render: Outcome) -> Outcome {
        if case .failed = decode { return decode }
        if case .failed = render { return render }
        return render == .succeeded ? .succeeded : .cancelled
    }
}

/// A number that goes up by one each time it is asked for.
final class SequenceNumbers: Sendable {
    private let value = Mutex(0)
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}
