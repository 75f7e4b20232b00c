import Foundation
import Platform

/// Everything a build needs besides its photos.
public struct BuildOptions: Sendable {
    public var layout = LayoutOptions()
    /// JPEG quality of the rendered pages, 1-100.
    public var quality = 90
    /// Photos worked on at once.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Any photo that cannot be used fails the whole build.
    public var strict = false
    /// Images whose header declares more pixels than this are refused before decoding.
    public var maxPixels = 100_000_000
    /// Where the private working directory goes; `$TMPDIR` or /tmp when nil.
    public var temporaryDirectory: String?

    public init() {}
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

    /// Builds the book; returns when every operation has ended and every temporary file is gone.
    public func run() -> BuildReport {
        let start = DispatchTime.now()
        var report = runStages()
        // Every operation has ended by now: nothing can create a temporary file after this.
        session.removeTemporaryFiles()
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        hooks.finished?(report)
        return report
    }

    private func runStages() -> BuildReport {
        // Probe: headers only. A photo that cannot be read is left out here, before any pixels exist.
        var reports = files.map { PhotoReport(path: $0.path, outcome: .cancelled) }
        var usable: [(index: Int, info: PhotoInfo)] = []
        for (index, file) in files.enumerated() {
            if session.isCancelled { return BuildReport(photos: reports, book: .cancelled, pagesWritten: 0, seconds: 0) }
            switch Probe.probe(file, maxPixels: options.maxPixels) {
            case .success(let info): usable.append((index, info))
            case .failure(let error):
                reports[index].outcome = .failed(error.description)
                hooks.photoFinished?(file.path)
            }
        }
        // A signal during the last probe must read as an interruption, not as a build with no usable photo.
        if session.isCancelled { return BuildReport(photos: reports, book: .cancelled, pagesWritten: 0, seconds: 0) }
        guard !usable.isEmpty else {
            return BuildReport(photos: reports, book: .skipped(because: "no photo could be used"),
                               pagesWritten: 0, seconds: 0)
        }
        if options.strict && usable.count < files.count {
            return BuildReport(photos: reports, book: .skipped(because: "a photo could not be used and --strict is set"),
                               pagesWritten: 0, seconds: 0)
        }

        guard let plan = Planner.plan(uprightSizes: usable.map { ($0.info.uprightWidth, $0.info.uprightHeight) },
                                      options: options.layout) else {
            return BuildReport(photos: reports, book: .failed("the margins leave no room on the page"),
                               pagesWritten: 0, seconds: 0)
        }

        let parent = options.temporaryDirectory ?? FileSystem.environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let directory: String
        switch session.makeTemporaryDirectory(template: "\(parent)/photobook-XXXXXX") {
        case .failure(let failure):
            return BuildReport(photos: reports, book: .failed("cannot create a temporary folder in \(parent): \(failure)"),
                               pagesWritten: 0, seconds: 0)
        case .success(let path): directory = path
        }

        // The graph: per photo decode -> resize, then one build depending on every resize. Each decode is
        // followed by its own resize in the queue, and resizes run first when ready, so decoded photos do not
        // pile up: at most a few per worker whatever the number of photos.
        var chains: [(decode: DecodeOperation, render: ResizeCropOperation, report: Int)] = []
        var pages: [BuildPDFOperation.Page] = []
        for plannedPage in plan.pages {
            for placed in plannedPage.photos {
                let (index, info) = usable[placed.photoIndex]
                reports[index].pixelWidth = placed.pixelWidth
                reports[index].pixelHeight = placed.pixelHeight
                reports[index].effectiveDPI = placed.effectiveDPI
                let job = PhotoJob(info: info, placement: placed, keepOriginals: options.layout.keepOriginals)
                let decode = DecodeOperation(job: job, maxPixels: options.maxPixels, session: session, hooks: hooks)
                let render = ResizeCropOperation(job: job, decode: decode, quality: options.quality,
                                                 directory: directory, sequence: chains.count + 1,
                                                 session: session, hooks: hooks)
                render.queuePriority = .high
                chains.append((decode, render, index))
                pages.append(.init(job: job, render: render, size: plannedPage.size))
            }
        }
        let commit = BookCommit(outputPath: outputPath, session: session, hooks: hooks)
        let build = BuildPDFOperation(pages: pages, commit: commit, strict: options.strict,
                                      session: session, hooks: hooks)
        // The queue stays suspended until the whole graph is in it, so a signal that came meanwhile cancels
        // every operation before any of them starts.
        queue.isSuspended = true
        queue.addOperations(chains.flatMap { [$0.decode, $0.render] as [Operation] } + [build],
                            waitUntilFinished: false)
        hooks.graphReady?()
        if session.isCancelled { queue.cancelAllOperations() }
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()

        // Operations the queue skipped never ran their body: the orchestration records them as cancelled.
        for chain in chains {
            chain.decode.recordIfAbsent(.cancelled)
            chain.render.recordIfAbsent(.cancelled)
            reports[chain.report].outcome = Self.photoOutcome(decode: chain.decode.outcome!, render: chain.render.outcome!)
        }
        build.recordIfAbsent(.cancelled)
        if let reason = session.abortReason { return BuildReport(photos: reports, book: .failed(reason), pagesWritten: 0, seconds: 0) }
        return BuildReport(photos: reports, book: build.outcome!, pagesWritten: build.pagesWritten, seconds: 0)
    }

    /// A photo failed if a stage of it failed; it was cancelled if it did not get to the end otherwise.
    private static func photoOutcome(decode: Outcome, render: Outcome) -> Outcome {
        if case .failed = decode { return decode }
        if case .failed = render { return render }
        return render == .succeeded ? .succeeded : .cancelled
    }
}
