import Foundation
import Platform

/// The words of a cover and the font they are set in.
public struct CoverText: Sendable {
    public var font: BookFont
    public var title: String
    public var subtitle: String?
    public var author: String?

    public init(font: BookFont, title: String, subtitle: String? = nil, author: String? = nil) {
        self.font = font
        self.title = title
        self.subtitle = subtitle
        self.author = author
    }
}

/// Everything a cover needs besides its photos.
public struct CoverOptions: Sendable {
    public var geometry: CoverGeometry
    /// Target density of the photos, in pixels per inch; never upsampled.
    public var dpi = 300.0
    /// JPEG quality of the photos embedded, 1-100.
    public var quality = 90
    /// Images whose header declares more pixels than this are refused before decoding.
    public var maxPixels = 100_000_000
    /// Where the private working directory goes; `$TMPDIR` or /tmp when nil.
    public var temporaryDirectory: String?
    /// The title on the front and the spine; nil for a cover of photos alone.
    public var text: CoverText?
    /// The PDF's dates (`SOURCE_DATE_EPOCH`, for a reproducible cover); now, in the local zone, when nil.
    public var creationDate: Date?

    public init(geometry: CoverGeometry) { self.geometry = geometry }
}

/// Makes one wrap cover: probe the photos, plan, render them, draw the page, commit it atomically. A photo that
/// cannot be used fails the cover: nothing is written. Create one per cover and `run()` it once; `cancel()` may be
/// called from any thread at any time (the SIGINT handler does), with the same contract as `BookBuilder`.
public final class CoverBuilder: Sendable {
    /// The front photo first, then the back one if any.
    public let files: [PhotoFile]
    public let outputPath: String
    public let options: CoverOptions
    public let hooks: BuildHooks
    public let session = BuildSession()
    private let queue: OperationQueue

    public init(front: PhotoFile, back: PhotoFile?, outputPath: String, options: CoverOptions,
                hooks: BuildHooks = BuildHooks()) {
        files = [front] + (back.map { [$0] } ?? [])
        self.outputPath = outputPath
        self.options = options
        self.hooks = hooks
        queue = OperationQueue()
        queue.name = "photobook-cover"
        // Two photos at most: one worker each, and the page after them.
        queue.maxConcurrentOperationCount = 2
    }

    /// Stops the cover at its next safe points. Returns false when it was already committed.
    @discardableResult
    public func cancel() -> Bool {
        guard session.cancel() else { return false }
        queue.cancelAllOperations()
        return true
    }

    /// Makes the cover; returns when every operation has ended and every temporary file is gone.
    public func run() -> BuildReport {
        let start = DispatchTime.now()
        var report = runStages()
        session.removeTemporaryFiles()
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        hooks.finished?(report)
        return report
    }

    private func runStages() -> BuildReport {
        var reports = files.map { PhotoReport(path: $0.path, outcome: .cancelled) }
        func ended(_ book: Outcome, warnings: [BuildWarning] = []) -> BuildReport {
            var report = BuildReport(photos: reports, book: book, pagesWritten: book == .succeeded ? 1 : 0, seconds: 0)
            report.warnings = warnings
            return report
        }
        var infos: [PhotoInfo] = []
        for (index, file) in files.enumerated() {
            if session.isCancelled { return ended(.cancelled) }
            switch Probe.probe(file, maxPixels: options.maxPixels) {
            case .success(let info):
                infos.append(info)
                reports[index].format = info.formatDescription
                reports[index].notes = info.notes
            case .failure(let error):
                reports[index].outcome = .failed(error.description)
                hooks.photoFinished?(file.path)
            }
        }
        if session.isCancelled { return ended(.cancelled) }
        guard infos.count == files.count else { return ended(.skipped(because: "the cover needs every photo it names")) }

        var warnings: [BuildWarning] = infos.flatMap(\.probeWarnings)
        let words = options.text.map { text in
            CoverWords(measure: text.font, title: text.title, subtitle: text.subtitle, author: text.author)
        }
        if let text = options.text {
            for (label, value) in [("title", Optional(text.title)), ("subtitle", text.subtitle), ("author", text.author)] {
                guard let value else { continue }
                for scalar in TextLines.missing(in: value, measure: text.font) {
                    warnings.append(BuildWarning(path: nil, message: "\(label): \(BookBuilder.describe(scalar)) is not in "
                                                 + "\(text.font.fontName)"))
                }
            }
        }
        let upright = infos.map { (width: $0.uprightWidth, height: $0.uprightHeight) }
        guard let plan = CoverPlanner.plan(geometry: options.geometry, front: upright[0],
                                           back: upright.count > 1 ? upright[1] : nil,
                                           dpi: options.dpi, words: words) else {
            return ended(.failed("the cover's sizes cannot make a PDF page"), warnings: warnings)
        }
        warnings += plan.warnings.map { BuildWarning(path: nil, message: $0) }
        let placements = [plan.front] + (plan.back.map { [$0] } ?? [])
        for (index, placed) in placements.enumerated() {
            reports[index].pixelWidth = placed.pixelWidth
            reports[index].pixelHeight = placed.pixelHeight
            reports[index].effectiveDPI = placed.effectiveDPI
            reports[index].cell = placed.cell
            reports[index].cropShare = placed.cropShare
            reports[index].page = 1
        }

        let parent = options.temporaryDirectory ?? "/tmp"
        let directory: String
        switch session.makeTemporaryDirectory(template: "\(parent)/photobook-XXXXXX") {
        case .failure(let failure):
            return ended(.failed("cannot create a temporary folder in \(parent): \(failure)"), warnings: warnings)
        case .success(let path): directory = path
        }

        var chains: [(decode: DecodeOperation, render: ResizeCropOperation)] = []
        var photos: [BuildCoverOperation.Photo] = []
        for (index, info) in infos.enumerated() {
            let job = PhotoJob(info: info, placement: placements[index], keepOriginals: false, losslessCrops: true)
            let decode = DecodeOperation(job: job, maxPixels: options.maxPixels, session: session, hooks: hooks)
            let render = ResizeCropOperation(job: job, decode: decode, quality: options.quality, directory: directory,
                                             sequence: index + 1, session: session, hooks: hooks)
            render.queuePriority = .high
            chains.append((decode, render))
            photos.append(.init(info: info, job: job, render: render))
        }
        let commit = BookCommit(outputPath: outputPath, session: session, hooks: hooks)
        let build = BuildCoverOperation(plan: plan, photos: photos, text: options.text, commit: commit,
                                        session: session, hooks: hooks, creationDate: options.creationDate)
        // Suspended until the whole graph is in: a signal meanwhile cancels every operation before any starts.
        queue.isSuspended = true
        queue.addOperations(chains.flatMap { [$0.decode, $0.render] as [Operation] } + [build], waitUntilFinished: false)
        hooks.graphReady?()
        if session.isCancelled { queue.cancelAllOperations() }
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        for chain in chains {
            chain.decode.recordIfAbsent(.cancelled)
            chain.render.recordIfAbsent(.cancelled)
        }
        build.recordIfAbsent(.cancelled)
        for (index, chain) in chains.enumerated() {
            reports[index].outcome = Self.photoOutcome(decode: chain.decode.outcome!, render: chain.render.outcome!)
        }
        if let reason = session.abortReason { return ended(.failed(reason), warnings: warnings) }
        var book = build.outcome!
        if case .skipped = book, reports.contains(where: { if case .failed = $0.outcome { true } else { false } }) {
            book = .skipped(because: "the cover needs every photo it names")
        }
        return ended(book, warnings: warnings)
    }

    /// A photo failed if a stage of it failed; it was cancelled if it did not get to the end otherwise.
    private static func photoOutcome(decode: Outcome, render: Outcome) -> Outcome {
        if case .failed = decode { return decode }
        if case .failed = render { return render }
        return render == .succeeded ? .succeeded : .cancelled
    }
}
