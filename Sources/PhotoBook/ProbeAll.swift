import Dispatch
import ImageCodec
import Platform
import Synchronization

extension Probe {
    /// Probes `files` up to `jobs` at once and returns each one's result at its file's index, exactly what
    /// `probe(_:maxPixels:)` says of it alone. Once `isCancelled` is true no further probe starts, and the files
    /// never probed are nil: the caller reads that as an interrupted build.
    ///
    /// The probes read headers from disk, so one after another they left the other cores idle while a book of
    /// hundreds of photos was being looked at (issue 13); the work is handed out one file at a time, in order.
    /// `then` does more for each photo probed, on the same worker, with the file the probe opened (its measures
    /// and attention map, AttentionStep.swift): the file is opened once for all of it.
    static func probeAll(_ files: [PhotoFile], maxPixels: Int, jobs: Int,
                         isCancelled: @escaping @Sendable () -> Bool,
                         then: (@Sendable (inout PhotoInfo, FileSource) -> Void)? = nil) -> [Result<PhotoInfo, PhotoError>?] {
        let results = Mutex<[Result<PhotoInfo, PhotoError>?]>(Array(repeating: nil, count: files.count))
        let next = Atomic<Int>(0)
        let workers = max(1, min(jobs, files.count))
        // What `then` decodes of a whole-image decoder's picture is held within the memory budget (MemoryGate).
        let gate = MemoryGate()
        let work = { @Sendable (_: Int) in
            while !isCancelled() {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < files.count else { return }
                var opened: FileSource?
                var result = probe(files[index], maxPixels: maxPixels, open: { path in
                    Result { () throws(FileSystem.Failure) in
                        let source = try FileSource(path: path)
                        opened = source
                        return source
                    }
                })
                if let then, let source = opened, case .success(var info) = result {
                    let whole = info.format.codec.memory.perStoredPixel * Double(info.storedWidth) * Double(info.storedHeight)
                    gate.holding(Int(min(whole, 1e15))) { then(&info, source) }
                    result = .success(info)
                }
                results.withLock { $0[index] = result }
            }
        }
        // concurrentPerform runs its iterations on the calling thread and libdispatch's pool, never more than
        // there are: each iteration is one worker taking files until there are none left.
        if workers == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: work) }
        return results.withLock { $0 }
    }
}
