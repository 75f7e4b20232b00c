import Dispatch
import ImageCodec
import Platform
import Synchronization

extension Probe {
    /// Probes `files` up to `jobs` at once and returns each one's photos at its file's index: one result, exactly
    /// what `probe(_:maxPixels:)` says of it alone, or for a file whose pages discovery left to the probe to count
    /// (`PhotoFile.countsPagesWhenProbed`) one per picture, each a `PhotoFile` of its page. Once `isCancelled` is
    /// true no further probe starts, and the files never probed are nil: the caller reads that as an interrupted
    /// build.
    ///
    /// The probes read headers from disk, so one after another they left the other cores idle while a book of
    /// hundreds of photos was being looked at (issue 13); the work is handed out one file at a time, in order.
    /// The photos of one file (a multi-page TIFF's pages) are probed from one open of it and one read of its
    /// headers: each page probed alone walked every directory of the file again. When discovery already made
    /// that read to count the pictures, it is taken from the photos (`PhotoFile.earlyRead`, `Probe.EarlyRead`)
    /// with the file it opened, which is not opened again.
    /// `then` does more for each photo probed, on the same worker, with the file the probe opened (its measures
    /// and attention map, AttentionStep.swift): the file is opened once for all of it.
    static func probeAll(_ files: [PhotoFile], maxPixels: Int, jobs: Int,
                         isCancelled: @escaping @Sendable () -> Bool,
                         then: (@Sendable (inout PhotoInfo, FileSource) -> Void)? = nil) -> [[Result<PhotoInfo, PhotoError>]?] {
        let groups = Self.byFile(files)
        let results = Mutex<[[Result<PhotoInfo, PhotoError>]?]>(Array(repeating: nil, count: files.count))
        let next = Atomic<Int>(0)
        let workers = max(1, min(jobs, groups.count))
        // What `then` decodes of a whole-image decoder's picture is held within the memory budget (MemoryGate).
        let gate = MemoryGate()
        let work = { @Sendable (_: Int) in
            while !isCancelled() {
                let group = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard group < groups.count else { return }
                let first = files[groups[group][0]]
                // What discovery read of the file when it counted its pictures, if it did: taken from every photo
                // of the file that carries one, so that none is held open after this.
                let early = groups[group].compactMap { files[$0].earlyRead?.take() }.first
                var opened = early?.file
                let read = Result { () throws(PhotoError) in
                    if let early { return early.probed }
                    let source = try Result { () throws(FileSystem.Failure) in try FileSource(path: first.filePath) }
                        .mapError(unreadable).get()
                    opened = source
                    return try Probe.read(format: first.format, source: source)
                }
                for index in groups[group] {
                    var found: [Result<PhotoInfo, PhotoError>]
                    switch read {
                    case .failure(let failure): found = [.failure(failure)]
                    case .success(let probed):
                        found = files[index].pages(probed.headers.count).map { page in
                            Result { () throws(PhotoError) in try info(page, of: probed, maxPixels: maxPixels) }
                        }
                    }
                    if let then, let source = opened {
                        for (page, result) in found.enumerated() {
                            guard case .success(var info) = result else { continue }
                            let whole = info.format.codec.memory.perStoredPixel * Double(info.storedWidth) * Double(info.storedHeight)
                            gate.holding(Int(min(whole, 1e15))) { then(&info, source) }
                            found[page] = .success(info)
                        }
                    }
                    results.withLock { [found] in $0[index] = found }
                }
            }
        }
        // concurrentPerform runs its iterations on the calling thread and libdispatch's pool, never more than
        // there are: each iteration is one worker taking files until there are none left.
        if workers == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: work) }
        return results.withLock { $0 }
    }

    /// The indices of `files` grouped by the file they read, in the order of each file's first photo.
    static func byFile(_ files: [PhotoFile]) -> [[Int]] {
        var groups: [[Int]] = [], groupOfFile: [String: Int] = [:]
        for (index, file) in files.enumerated() {
            if let group = groupOfFile[file.filePath] {
                groups[group].append(index)
            } else {
                groupOfFile[file.filePath] = groups.count
                groups.append([index])
            }
        }
        return groups
    }
}
