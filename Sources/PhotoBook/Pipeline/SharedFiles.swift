import ImageCodec
import Platform
import Synchronization

/// The files that several decodes of one round read (a multi-page TIFF's pages, a spread's two halves): opened by
/// the first of them to run and kept open for the others until the last is done, so that such a file too is
/// opened once for its pixels. A decode of any other file opens it alone, as before.
final class SharedFiles: Sendable {
    private struct Entry {
        var decodes = 0
        var source: FileSource?
    }
    private let entries = Mutex<[String: Entry]>([:])
    /// The most files kept open at once: past it a decode opens its file alone (a book of a thousand two-page
    /// TIFFs, their pages decoded far apart, must not run out of file descriptors).
    static let mostKept = 64

    /// A decode of `path` is in the round; said of every decode before any runs (the queue is suspended then).
    func expect(_ path: String) { entries.withLock { $0[path, default: Entry()].decodes += 1 } }

    /// The file at `path`: the one a decode of it opened before, while more decodes of it are to come.
    func open(_ path: String) throws(FileSystem.Failure) -> FileSource {
        // Trap: the last decode to come finds one decode to go (its own), yet the file the others kept is open.
        let (kept, shared) = entries.withLock { ($0[path]?.source, ($0[path]?.decodes ?? 0) > 1) }
        if let kept { return kept }
        guard shared else { return try FileSource(path: path) }
        return try entries.withLock { (entries) throws(FileSystem.Failure) -> FileSource in
            if let source = entries[path]?.source { return source }
            let source = try FileSource(path: path)
            if entries.values.count(where: { $0.source != nil }) < Self.mostKept { entries[path]?.source = source }
            return source
        }
    }

    /// A decode of `path` is done with the file: after the last, it closes once nothing else holds it.
    func done(_ path: String) {
        entries.withLock { entries in
            guard let decodes = entries[path]?.decodes else { return }
            if decodes <= 1 { entries[path] = nil } else { entries[path]?.decodes = decodes - 1 }
        }
    }
}
