import Foundation
import Geometry
import Platform

/// A round of renders: one decode and one render per photo the plan needs, on the pipeline's one queue.
extension RenderPipeline {
    /// One photo's decode and render, for one round.
    struct Chain {
        var job: PhotoJob
        var decode: DecodeOperation
        var render: ResizeCropOperation
        var photo: PhotoID
        var key: RenderKey

        /// What the render made, once it has succeeded.
        var made: RenderedPhoto? {
            job.rendered.withLock { $0 }.map { path in
                RenderedPhoto(info: job.info, placed: job.placed, path: path, passThrough: job.passThrough,
                              blocksShown: job.blocksShown.withLock { $0 })
            }
        }
    }

    /// A render is reusable for any cell with the same crop and pixel size: where it is drawn is the page's affair.
    struct RenderKey: Hashable {
        var photo: PhotoID
        var crop: Rect
        var pixelWidth: Int, pixelHeight: Int

        init(photo: PhotoID, _ placed: PlacedPhoto) {
            self.photo = photo
            crop = placed.crop
            (pixelWidth, pixelHeight) = (placed.pixelWidth, placed.pixelHeight)
        }
    }

    /// The chains for the photos of `plan` that no earlier round rendered, each planned photo's pixels recorded in
    /// its report. A spread's two halves are two renders of one photo, which is announced finished once.
    func makeChains(_ plan: BookPlan, prepared: PreparedBook, renders: inout [RenderKey: RenderedPhoto],
                    reports: inout [PhotoReport], directory: String, round: Int) -> [Chain] {
        var chains: [Chain] = []
        var announced: Set<PhotoID> = []
        let files = SharedFiles()
        let settings = self.plan.settings
        for (placed, spread) in plan.pages.flatMap({ page in page.photos.map { ($0, page.spread != nil) } }) {
            let photo = placed.photo
            let key = RenderKey(photo: photo, placed)
            guard renders[key] == nil else { continue }
            let announces = announced.insert(photo).inserted
            let index = photo.index, info = prepared.photo(photo).info
            reports[index].pixelWidth = placed.pixelWidth
            reports[index].pixelHeight = placed.pixelHeight
            reports[index].effectiveDPI = placed.effectiveDPI
            reports[index].printedDPI = placed.printedDPI(target: settings.printDPI, keepOriginals: settings.keepOriginals)
            // A PDF/X-1a book's photos change colour: neither a photo's own bytes nor its blocks can go in.
            let cmyk = settings.pdfx.flatMap { request in
                request.intent.map { CMYKTarget(profile: request.profile.bytes, intent: $0) }
            }
            // The plan left the crop at the centre for the render to aim (AttentionStep): a photo it cuts enough
            // for a map to move the crop (a map would leave a crop with less slack at the centre all the same).
            let aims = settings.aimsAtRender && !spread && info.attention == nil && info.regions.isEmpty
                && info.format.codec.blocks != nil && placed.cropSource == .centre
                && AttentionMap.canMove(size: (placed.crop.width, placed.crop.height),
                                        photo: (Double(info.uprightWidth), Double(info.uprightHeight)))
            let job = PhotoJob(info: info, placement: placed, keepOriginals: settings.keepOriginals,
                               losslessCrops: settings.losslessCrops, reencodes: cmyk != nil, aimsAtRender: aims)
            // The photo's own bytes need no cache; any other render may be in it from an earlier build. Its key
            // needs the file's digest: the probe's (`probeStep`), or the index's, else the decode's, which reads the
            // file anyway (a build that chose its photos: `DecodeOperation.lookUp`).
            var lookUpInDecode: RenderRequest?
            if let cache, !job.passThrough {
                var request = RenderRequest(contentDigest: "", picture: info.file.picture, crop: "\(placed.crop)",
                                            pixelWidth: placed.pixelWidth, pixelHeight: placed.pixelHeight,
                                            orientation: info.orientation.rawValue, quality: settings.quality,
                                            colour: cmyk.map { "cmyk \(SHA256.hex($0.profile)) \($0.intent.rawValue)" } ?? "rgb",
                                            lossless: job.lossless, aimsAtRender: aims)
                if let digest = cache.contentDigest(of: info.file.filePath, readsFile: false) {
                    request.contentDigest = digest
                    job.cacheKey.withLock { $0 = request.key }
                    switch cache.entry(request.key) {
                    case .hit(let jpeg, let metadata):
                        guard let path = writeCached(jpeg, directory: directory) else { return [] }
                        renders[key] = RenderedPhoto(info: info, placed: metadata.aimed(placed), path: path,
                                                     passThrough: false, blocksShown: metadata.blocksShown)
                        reports[index].outcome = .succeeded
                        reports[index].noteCache(.hit)
                        if round == 0 && announces { hooks.photoFinished?(info.file.path) }
                        continue
                    case .damaged:
                        reports[index].noteCache(.damaged)
                    case .miss:
                        break
                    }
                } else {
                    lookUpInDecode = request
                }
            }
            // A photo is announced finished once, by its first render; renders of later rounds redo finished photos.
            var renders = operations
            if round > 0 || !announces { renders.hooks.photoFinished = nil }
            let decode = DecodeOperation(job: job, maxPixels: settings.maxPixels,
                                         cacheLookup: lookUpInDecode.flatMap { request in cache.map { ($0, request) } },
                                         files: files, context: operations)
            let render = ResizeCropOperation(job: job, decode: decode, quality: settings.quality, directory: directory,
                                             sequence: sequence.next(), cmyk: cmyk, cache: cache, context: renders)
            render.queuePriority = .high
            chains.append(Chain(job: job, decode: decode, render: render, photo: photo, key: key))
        }
        return chains
    }

    /// Writes a cached render into the working folder as the render would have; nil when it cannot be written
    /// (the build is then aborted, as a render's failed write aborts it).
    private func writeCached(_ jpeg: [UInt8], directory: String) -> String? {
        let path = "\(directory)/page-\(sequence.next()).jpg"
        return session.writeTemporaryFile(path, jpeg, in: directory) ? path : nil
    }

    /// Runs one round's decodes and renders, and the PDF that depends on them, to their end. Each decode is
    /// followed by its own render in the queue, and renders run first when ready, so decoded photos do not pile
    /// up: a few per worker whatever the number.
    func run(_ chains: [Chain], build: BuildPDFOperation, first: Bool) {
        // The queue stays suspended until the whole round is in it, so a signal that came meanwhile cancels
        // every operation before any of them starts.
        queue.isSuspended = true
        // Longest first (the queue takes ready operations of one priority in the order they were added): with the
        // costliest photos started early, the cheap ones fill the cores at the end instead of one long one.
        let costs = chains.map(\.job.estimatedCost)
        let order = chains.indices.sorted { a, b in costs[a] != costs[b] ? costs[a] > costs[b] : a < b }
        // Within the memory budget: a decode waits for the renders that free what it needs (MemoryWindow), through
        // a start gate that also waits for the gate before it: decodes start in order, yet run side by side (a
        // decode depending on the decode before it waited for its end: a JPEG book took 1.6 times as long).
        var gates: [Operation] = []
        for (position, waits) in MemoryWindow.waits(order.map { chains[$0].job.estimatedMemory }).enumerated() {
            let gate = BlockOperation {}
            for earlier in waits { gate.addDependency(chains[order[earlier]].render) }
            if let previous = gates.last { gate.addDependency(previous) }
            chains[order[position]].decode.addDependency(gate)
            gates.append(gate)
        }
        queue.addOperations(order.indices.flatMap { [gates[$0], chains[order[$0]].decode, chains[order[$0]].render] }
                            + [build], waitUntilFinished: false)
        if first { hooks.graphReady?() }
        if session.isCancelled { queue.cancelAllOperations() }
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        // Operations the queue skipped never ran their body: the orchestration records them as cancelled.
        for chain in chains {
            chain.decode.recordIfAbsent(.cancelled)
            chain.render.recordIfAbsent(.cancelled)
            // A render the queue skipped never gave its photo's reservation up.
            chain.job.held.withLock { $0 = nil }
        }
        build.recordIfAbsent(.cancelled)
    }

    /// A photo failed if a stage of it failed; it was cancelled if it did not get to the end otherwise.
    static func photoOutcome(decode: Outcome, render: Outcome) -> Outcome {
        if case .failed = decode { return decode }
        if case .failed = render { return render }
        return render == .succeeded ? .succeeded : .cancelled
    }
}
