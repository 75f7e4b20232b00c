import ImageCodec
import Platform

/// Everything before the first pixel: the probe, the plan's choice of photos and words, and the dry run.
extension RenderPipeline {
    /// Probe, order, words: everything before the plan, or the report of a PDF that stops here.
    /// `rendering`: for a build, which may leave some maps to the render (`RenderSettings.aimsAtRender`).
    func prepare(rendering: Bool = false) -> Result<PreparedBook, EarlyStop> {
        // Probe: headers only. A photo that cannot be read is left out here, before any pixels exist.
        // Up to --jobs probes at once (ProbeAll.swift); the results come back in the files' order. A file whose
        // pages the probe counted (`PhotoFile.countsPagesWhenProbed`) is its pages from here on: each a photo.
        let session = self.session
        let probedFiles = Probe.probeAll(files, maxPixels: plan.settings.maxPixels, jobs: plan.settings.jobs,
                                         isCancelled: { session.isCancelled },
                                         then: probeStep(rendering: rendering))
        let probed = probedFiles.flatMap { found in found.map { $0.map(Optional.some) } ?? [nil] }
        let photoFiles = zip(files, probedFiles).flatMap { file, found in found.map { file.pages($0.count) } ?? [file] }
        if photoFiles.count != files.count { hooks.photosCounted?(photoFiles.count) }
        var reports = photoFiles.map { PhotoReport(path: $0.path, outcome: .cancelled) }
        var usable: [(id: PhotoID, info: PhotoInfo)] = []
        func stop(_ book: Outcome) -> Result<PreparedBook, EarlyStop> {
            .failure(EarlyStop(report: BuildReport(photos: reports, book: book, pagesWritten: 0, seconds: 0)))
        }
        for (index, file) in photoFiles.enumerated() {
            switch probed[index] {
            case nil: return stop(.cancelled)
            case .success(let info)?:
                usable.append((PhotoID(index), info))
                reports[index].format = info.formatDescription
                reports[index].regionCount = info.regions.count
                reports[index].notes = info.notes
            case .failure(let error)?:
                reports[index].outcome = .failed(error)
                hooks.photoFinished?(file.path)
            }
        }
        // A signal during the last probe must read as an interruption, not as a PDF with no usable photo.
        if session.isCancelled { return stop(.cancelled) }
        let duplicates = leaveOutDuplicates(&usable, reports: &reports)
        if let refusal = plan.refusal(usable: usable.count, of: photoFiles.count - duplicates.count, afterRender: false) {
            return stop(.skipped(because: .refused(refusal)))
        }
        clock.enter(.plan)
        switch plan.prepare(usable) {
        case .failure(let planStop): return stop(planStop.outcome)
        case .success(let words):
            // What the probe noticed of each photo (a colour profile that does not fit it), in the document's order,
            // then what the plan says of its words.
            var warnings = duplicates + words.photos.flatMap(\.info.probeWarnings) + words.warnings
            var photos = words.photos
            let prepared = PreparedBook(reports: reports, photos: photos, warnings: warnings, undated: words.undated,
                                        duplicates: duplicates.count)
            if let chosen = plan.choose(prepared) {
                for (id, decision) in chosen.decisions {
                    reports[id.index].selection = decision
                    guard !decision.chosen, let reason = decision.reason else { continue }
                    reports[id.index].outcome = .skipped(because: Failure(.notChosen, "not chosen: " + reason.words))
                    // Done with, as a copy left out is: the progress counts it.
                    hooks.photoFinished?(reports[id.index].path)
                }
                photos = chosen.photos
                warnings += chosen.warnings
                if photos.isEmpty { return stop(.skipped(because: .refused("no photo could be used"))) }
            }
            return .success(PreparedBook(reports: reports, photos: photos, warnings: warnings,
                                         undated: words.undated, duplicates: duplicates.count))
        }
    }

    /// What the probe's worker does with each photo's open file after its headers (`Probe.probeAll`'s `then`):
    /// the choice's measures and the attention map (AttentionStep.swift) and, for a build through the render cache
    /// that does not choose its photos, the file's content digest (the cache's key): the photo is opened once for
    /// all of it, and once more for its pixels. A build that chooses hashes only the photos it chose, in their
    /// decodes (`DecodeOperation.lookUp`): hashing a trip's 2,000 photos for its 80 would cost more than it saves.
    func probeStep(rendering: Bool) -> (@Sendable (inout PhotoInfo, FileSource) -> Void)? {
        let attention = attentionStep(leavingToRender: rendering && plan.settings.aimsAtRender)
        // Trap: not `measuresTraits`, which --verbose also sets: a verbose build hashed no photo here, and its
        // digests cost every photo a third open.
        guard rendering, !plan.settings.choosesPhotos, let cache else { return attention }
        let session = self.session
        return { (info: inout PhotoInfo, source: FileSource) in
            attention?(&info, source)
            if !session.isCancelled { info.contentDigest = cache.contentDigest(of: info.file.filePath, opened: source) }
        }
    }

    /// Takes out of `usable` the photos another one stands for (`Duplicates`), unless the plan keeps them: each
    /// is reported skipped, naming the photo kept, and said in a warning naming both.
    func leaveOutDuplicates(_ usable: inout [(id: PhotoID, info: PhotoInfo)], reports: inout [PhotoReport])
        -> [BuildWarning] {
        guard !plan.settings.keepDuplicates else { return [] }
        let preferred = Set(usable.indices.filter { plan.settings.preferredPhotos.contains(usable[$0].id) })
        let found = Duplicates.find(usable.map(\.info), preferred: preferred, prefersRaw: plan.settings.prefersRaw)
        var warnings: [BuildWarning] = []
        for duplicate in found {
            let (left, kept) = (usable[duplicate.photo], usable[duplicate.keptPhoto])
            var why = "\(duplicate.byteForByte ? "the same bytes as" : "the same shot as") \(kept.info.file.path)"
            if !duplicate.byteForByte {
                why += " (\(kept.info.uprightWidth)x\(kept.info.uprightHeight) pixels, this one "
                    + "\(left.info.uprightWidth)x\(left.info.uprightHeight))"
            }
            if duplicate.rawAndJPEG {
                why += left.info.format.codec.isCameraRaw
                    ? ", the camera's JPEG kept over its raw (--prefer raw keeps the raw)"
                    : ", the raw kept over the camera's JPEG (--prefer raw)"
            }
            reports[left.id.index].outcome = .skipped(because: Failure(.duplicate, why))
            reports[left.id.index].duplicateOf = kept.info.file.path
            // Done with, as a photo that fails its probe is: the progress counts it.
            hooks.photoFinished?(left.info.file.path)
            warnings.append(BuildWarning(path: left.info.file.path,
                                         message: why + ": left out (--keep-duplicates keeps every copy)"))
        }
        let leftOut = Set(found.map(\.photo))
        usable = usable.indices.filter { !leftOut.contains($0) }.map { usable[$0] }
        return warnings
    }

    /// Probes and plans as `run()` would, decoding no pixel, creating no folder and writing nothing. A photo that
    /// fails only when it is decoded (a truncated file) is in the plan: only a build finds it out.
    public func preview() -> BookPreview {
        let prepared: PreparedBook
        switch prepare() {
        case .failure(let stop): return BookPreview(plan: nil, report: stop.report)
        case .success(let found): prepared = found
        }
        var reports = prepared.reports
        let planned: PlannedDocument
        switch plan.plan(prepared, alive: prepared.photos.map(\.id)) {
        case .failure(let stop):
            var report = BuildReport(photos: reports, book: stop.outcome, pagesWritten: 0, seconds: 0)
            report.pageCount = stop.pageCount
            report.preflight = stop.preflight
            return BookPreview(plan: nil, report: report)
        case .success(let found): planned = found
        }
        var pageReports: [PageReport] = []
        for page in planned.plan.pages {
            for placed in page.photos {
                let index = placed.photo.index
                reports[index].outcome = .succeeded
                reports[index].record(placed, onPage: page.number, settings: plan.settings)
            }
            pageReports.append(PageReport(kind: page.kind, photos: page.photos.map(\.photo)))
        }
        var report = BuildReport(photos: reports, book: .succeeded, pagesWritten: 0, seconds: 0, pages: pageReports)
        report.blankPages = planned.plan.blankPages
        report.pageCount = planned.pageCount
        report.undatedPhotos = prepared.undated
        report.warnings = prepared.warnings + planned.warnings
        report.preflight = planned.preflight
        report.fileSizeLimit = plan.settings.fileSizeLimit
        return BookPreview(plan: planned.plan, report: report,
                           photos: Dictionary(planned.photos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }))
    }
}
