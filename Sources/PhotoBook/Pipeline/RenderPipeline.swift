import Foundation
import Geometry
import Imaging
import PDF
import Platform
import Synchronization

/// Makes one PDF from a plan, a book's or a wrap cover's: probe, plan, the render jobs, the page build, the
/// commit, with one record of every photo's outcome and one report. Create one per PDF and `run()` it once.
///
/// `cancel()` may be called from any thread at any time (the SIGINT handler does).
public final class RenderPipeline: Sendable {
    public let files: [PhotoFile]
    public let outputPath: String
    public let hooks: BuildHooks
    public let session = BuildSession()
    let plan: any RenderPlan
    let queue: OperationQueue
    /// Numbers the rendered files of every round.
    let sequence = SequenceNumbers()
    /// The photos that had no capture date when ordering by date, for the report.
    private let undated = Mutex<[String]>([])
    /// Where the time goes, for the report.
    let clock = StageClock()
    /// The PDF operation of each round, in order: every one but the last ended skipped (tests look at the graph).
    let pdfOperations = Mutex<[BuildPDFOperation]>([])
    /// The build's large buffers (decoded photos, pages, libjpeg's blocks), handed to every operation that takes or
    /// gives them back: each worker lets go of a decoded photo and a page, or libjpeg's blocks, at a time, and the
    /// pool keeps about that much for the next photo (BufferPool.swift); the save empties it (BuildPDFOperation).
    let pool: BufferPool
    /// Rendered pages kept between builds; nil without one, or when its folder cannot be made.
    let cache: RenderCache?

    init(files: [PhotoFile], outputPath: String, plan: any RenderPlan, hooks: BuildHooks) {
        self.files = files
        self.outputPath = outputPath
        self.plan = plan
        self.hooks = hooks
        queue = OperationQueue()
        queue.name = "photobook"
        // The default lets libdispatch start many threads; photobook decides how many photos are in flight.
        queue.maxConcurrentOperationCount = max(1, plan.settings.jobs)
        let workers = max(1, plan.settings.jobs)
        pool = BufferPool(maxBuffers: workers * Self.pooledBuffersPerWorker,
                          maxBytes: workers * Self.pooledBytesPerWorker, budget: MemoryWindow.budget)
        cache = plan.settings.cacheDirectory.flatMap { RenderCache(directory: $0, limit: plan.settings.cacheLimit) }
    }

    /// What every operation of this build is handed.
    var operations: BookOperation.Context { BookOperation.Context(session: session, pool: pool, hooks: hooks) }

    /// Stops the PDF at its next safe points. Returns false when it was already committed.
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

    /// Makes the PDF; returns when every operation has ended and every temporary file is gone.
    public func run() -> BuildReport {
        let start = DispatchTime.now()
        var report = runStages()
        // Every operation has ended by now: nothing can create a temporary file or take a buffer after this (a
        // build that stopped before the save kept some).
        session.removeTemporaryFiles()
        pool.removeAll()
        // The limit holds after every build, stopped or not.
        cache?.trim()
        // The stages end before the total is read, so that they never add up to more than it.
        report.timings = clock.finish()
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        report.timings.total = report.seconds
        report.timings.text = plan.words?.font.textSeconds ?? 0
        report.undatedPhotos = undated.withLock { $0 }
        hooks.finished?(report)
        return report
    }

    private func runStages() -> BuildReport {
        clock.enter(.probe)
        // Probe, order and words: the plan-only path, shared with the dry run (RenderPipeline+Prepare.swift).
        let prepared: PreparedBook
        switch prepare(rendering: true) {
        case .failure(let stop): return stop.report
        case .success(let found): prepared = found
        }
        var reports = prepared.reports
        undated.withLock { $0 = prepared.undated }
        var planned: PlannedDocument?
        /// The report of a PDF that is not made, with the warnings so far when the plan keeps them.
        func stopped(_ book: Outcome, pageCount: PageCountCheck? = nil, preflight: [PreflightFinding]? = nil) -> BuildReport {
            var report = BuildReport(photos: reports, book: book, pagesWritten: 0, seconds: 0)
            if plan.keepsWarningsWhenStopped { report.warnings = prepared.warnings + (planned?.warnings ?? []) }
            report.pageCount = pageCount ?? planned?.pageCount
            report.preflight = preflight ?? planned?.preflight ?? []
            return report
        }

        // Rounds of renders: plan the photos still in the book, render what the plan needs and no earlier round
        // made, and build the PDF of that plan, an operation that depends on the round's renders. When a photo
        // fails only when it is decoded, that PDF ends skipped and the book is planned again without the photo, so
        // that it leaves no hole. A photo whose crop and pixel size did not change keeps its render (in a grid of
        // equal cells, the photos after a failed one move up without being rendered again). Each round removes at
        // least one photo.
        var alive = prepared.photos.map(\.id)
        var renders: [RenderKey: RenderedPhoto] = [:]
        var directory: String?
        var round = 0
        var commit = BookCommit(outputPath: outputPath, session: session, hooks: hooks)
        commit.sizeLimit = plan.settings.fileSizeLimit
        commit.refusesLargeFile = plan.settings.refusesLargeFile
        var build: BuildPDFOperation
        while true {
            clock.enter(.plan)
            switch plan.plan(prepared, alive: alive) {
            case .failure(let stop): return stopped(stop.outcome, pageCount: stop.pageCount, preflight: stop.preflight)
            case .success(let next): planned = next
            }
            if directory == nil {
                let (parent, template) = plan.settings.workingFolder(for: outputPath)
                switch session.makeTemporaryDirectory(template: template) {
                case .failure(let failure): return stopped(.failed(.outputFailed("cannot create a temporary folder in \(parent): \(failure)", failure)))
                case .success(let path): directory = path
                }
            }
            let chains = makeChains(planned!.plan, prepared: prepared, renders: &renders, reports: &reports,
                                    directory: directory!, round: round)
            if let reason = session.abortReason { return stopped(.failed(reason)) }
            build = makeBuild(planned!.plan, chains: chains, renders: renders, commit: commit)
            pdfOperations.withLock { [build] in $0.append(build) }
            clock.enter(.render)
            run(chains, build: build, first: round == 0)
            round += 1

            var failed = false
            for chain in chains {
                let index = chain.photo.index
                // The other half of a spread already failed this round: the photo is out, whatever this half did.
                if case .failed = reports[index].outcome, !alive.contains(chain.photo) { continue }
                reports[index].outcome = Self.photoOutcome(decode: chain.decode.outcome!, render: chain.render.outcome!)
                reports[index].addDecodeNotes(of: chain.job)
                switch reports[index].outcome {
                case .succeeded:
                    if let render = chain.made { renders[chain.key] = render }
                case .failed:
                    failed = true
                    alive.removeAll { $0 == chain.photo }
                case .skipped, .cancelled:
                    break
                }
            }
            // The PDF began: every render it draws succeeded, and its outcome is the book's.
            if build.hasStarted { break }
            if let reason = session.abortReason { return stopped(.failed(reason)) }
            if session.isCancelled { return stopped(.cancelled) }
            // A render that did not succeed without a cancel is a photo that failed.
            guard failed else { return stopped(.failed(.internalError("internal error: the book's pages were not rendered"))) }
            if let refusal = plan.refusal(usable: alive.count, of: prepared.reports.count - prepared.duplicates, afterRender: true) {
                return stopped(.skipped(because: .refused(refusal)))
            }
        }

        let final = planned!.plan
        // A planned photo without a render (BuildPDFOperation's pages): no book, and no pages to report.
        if case .failed(let failure) = build.outcome, failure.kind == .internalError { return stopped(.failed(failure)) }
        let pageReports = record(build.pages, prepared: prepared, reports: &reports)
        if let reason = session.abortReason { return stopped(.failed(reason)) }
        var report = BuildReport(photos: reports, book: build.outcome!, pagesWritten: build.pagesWritten, seconds: 0,
                                 pages: pageReports)
        report.blankPages = final.blankPages
        report.pageCount = planned!.pageCount
        report.warnings = prepared.warnings + planned!.warnings
        report.preflight = planned!.preflight
        report.fileSize = commit.writtenSize.bytes.withLock { $0 }
        report.fileSizeLimit = commit.sizeLimit
        if let size = report.fileSize, let limit = commit.sizeLimit, let finding = Preflight.fileSize(size, limit: limit) {
            report.preflight.append(finding)
            if report.book == .succeeded { report.warnings.append(BuildWarning(path: nil, message: finding.message)) }
        }
        return report
    }

    /// The PDF of `plan`, drawing the renders of earlier rounds and those `chains` make: it depends on the chains'
    /// renders, and takes its pages from them once they have all succeeded. Renders no page draws are removed
    /// before the PDF is written.
    private func makeBuild(_ plan: BookPlan, chains: [Chain], renders: [RenderKey: RenderedPhoto],
                           commit: BookCommit) -> BuildPDFOperation {
        let contents = BuildPDFOperation.Contents(words: self.plan.words,
                                                  hasTitlePage: plan.pages.first?.kind == .title,
                                                  creationDate: self.plan.settings.creationDate,
                                                  imagesInMemory: self.plan.settings.imagesInMemory,
                                                  pdfx: self.plan.settings.pdfx, proof: self.plan.settings.proof)
        let build = BuildPDFOperation(contents, pages: { [session] in
            var all = renders
            for chain in chains { if let render = chain.made { all[chain.key] = render } }
            guard let pages = Self.drawn(plan, renders: all) else { return nil }
            // Each render has a file of its own: a file no page draws is a render no page draws.
            let drawnFiles = Set(pages.flatMap { $0.photos.map(\.path) })
            for render in all.values where !drawnFiles.contains(render.path) { session.remove(temporaryFile: render.path) }
            return pages
        }, commit: commit, context: operations)
        build.started = { [clock] in clock.enter(.pdf) }
        for chain in chains { build.draws(chain.render) }
        return build
    }

    /// The pages of `plan`, each photo drawn in its cell from its render; nil when a planned photo has no render.
    static func drawn(_ plan: BookPlan, renders: [RenderKey: RenderedPhoto]) -> [BuildPDFOperation.Page]? {
        var pages: [BuildPDFOperation.Page] = []
        for page in plan.pages {
            var photos: [RenderedPhoto] = []
            for planned in page.photos {
                guard let render = renders[RenderKey(photo: planned.photo, planned)] else { return nil }
                photos.append(render.drawn(in: planned))
            }
            pages.append(BuildPDFOperation.Page(plan: page, photos: photos))
        }
        return pages
    }

    /// Each photo's report completed from where the PDF operation drew it (its pages, made from the final plan
    /// and the renders once: not drawn again here), and the pages' reports.
    private func record(_ pages: [BuildPDFOperation.Page], prepared: PreparedBook,
                        reports: inout [PhotoReport]) -> [PageReport] {
        var reported: Set<PhotoID> = []
        for page in pages {
            for render in page.photos {
                let placed = render.placed, info = render.info, photo = placed.photo, index = photo.index
                // A spread's photo is reported where it starts, on the left-hand page; its crop is what both
                // halves show, as its crop share already counts.
                guard reported.insert(photo).inserted else {
                    reports[index].crop = reports[index].crop.map { $0.union(placed.crop) }
                    continue
                }
                reports[index].record(placed, onPage: page.plan.number, settings: self.plan.settings)
                reports[index].crop = placed.crop
                reports[index].passThrough = render.passThrough
                reports[index].losslessCrop = render.blocksShown != nil
                if render.passThrough {
                    // The photo's own JPEG is embedded whole; the page shows the crop of it.
                    reports[index].pixelWidth = info.uprightWidth
                    reports[index].pixelHeight = info.uprightHeight
                }
                if let blocksShown = render.blocksShown {
                    // What the PDF holds: the copied blocks, whole MCUs around the crop.
                    reports[index].pixelWidth = Int(blocksShown.width.rounded())
                    reports[index].pixelHeight = Int(blocksShown.height.rounded())
                }
                reports[index].caption = prepared.photo(photo).caption
                if let caption = reports[index].caption, let font = self.plan.words?.font {
                    reports[index].captionFonts = font.faceNames(of: caption, language: prepared.photo(photo).captionLanguage)
                }
            }
        }
        return pages.map { PageReport(kind: $0.plan.kind, photos: $0.plan.photos.map(\.photo)) }
    }
}

extension RenderSettings {
    /// Where the private working folder is made, and the `mkdtemp` template for it.
    ///
    /// Beside the output, hidden (`.book.pdf.photobook-pages-XXXXXX`): the rendered pages wait there until the
    /// book is saved, and are copied into it from there (issue 14), so they take room on the filesystem the book
    /// is going to occupy anyway, never in `$TMPDIR`, which is often RAM (a tmpfs). Tests, and a cover, may put
    /// it elsewhere with `temporaryDirectory`.
    func workingFolder(for outputPath: String) -> (parent: String, template: String) {
        if let parent = temporaryDirectory { return (parent, "\(parent)/photobook-XXXXXX") }
        let parent = FileSystem.directoryName(outputPath)
        return (parent, "\(parent)/.\(FileSystem.baseName(outputPath)).photobook-pages-XXXXXX")
    }
}

/// A number that goes up by one each time it is asked for.
final class SequenceNumbers: Sendable {
    private let value = Mutex(0)
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}
