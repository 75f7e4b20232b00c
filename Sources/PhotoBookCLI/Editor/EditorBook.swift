#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Geometry
import PhotoBook
import Platform
import Synchronization

/// The book `photobook edit` edits: its description file, the revision the page knows it by, and its pages as the
/// proof draws them. The file is the one source of truth: every save goes through it (atomically, docs/editor.md),
/// and a change another program makes to it is taken up as a new revision before any request is answered.
///
/// One lock keeps the file, the revision and the proof together: proofs run one at a time, under it.
final class EditorBook: @unchecked Sendable {
    /// The description file, as given.
    let path: String
    /// Where "Build the book" writes: the description's name with `.pdf`.
    let outputPath: String
    let run: Run
    private let lock = NSLock()
    private var revision = 0
    /// The file as last read or written: when `stat` differs, it is read again.
    private var stamp: Stamp?
    private var bytes: [UInt8] = []
    private var state: EditorState?
    /// The proof's renders by name, this revision's and the one before's (a page may still ask for an old one).
    private let renderStore = Mutex<(current: [String: [UInt8]], earlier: [String: [UInt8]])>(([:], [:]))
    /// The revision of the last state made, read without the lock.
    private let knownRevision = Atomic<Int>(0)
    /// The proof running now, for a signal to cancel.
    private let running = Mutex<RenderPipeline?>(nil)
    private let stopped = Atomic<Bool>(false)
    /// What `servablePhoto` may show, decided with each proof.
    private let servable = Mutex<(listed: Set<String>, roots: Set<String>)>(([], []))

    struct Stamp: Equatable {
        var id: FileSystem.FileID
        var size: Int64
        var modified: Int64
        var changed: Int64

        init(_ status: FileSystem.Status) {
            (id, size, modified, changed) = (status.id, status.size, status.modifiedNanoseconds, status.changedNanoseconds)
        }
    }

    init(path: String, run: Run) {
        self.path = path
        let base = path.lowercased().hasSuffix(".json") ? String(path.dropLast(5)) : path
        outputPath = base + ".pdf"
        self.run = run
    }

    /// Reads the file and makes its first proof; throws the file's mistake as `build` words it.
    func open() throws(CLIError) {
        lock.lock()
        defer { lock.unlock() }
        refreshLocked()
        if let error = state?.error, state?.pages.isEmpty ?? true { throw .usage(error) }
    }

    /// The state, after taking up any change made to the file outside.
    func currentState() -> EditorState {
        lock.lock()
        defer { lock.unlock() }
        refreshLocked()
        return state!
    }

    /// The revision, after taking up any change made to the file outside; while a save or a proof is in progress,
    /// the revision known (the page asks each second: it is not held up for seconds behind an arrangement).
    func currentRevision() -> Int {
        guard lock.try() else { return knownRevision.load(ordering: .sequentiallyConsistent) }
        defer { lock.unlock() }
        refreshLocked()
        return revision
    }

    /// A render of the current or the previous revision (not held up by a proof in progress).
    func render(named name: String) -> [UInt8]? {
        renderStore.withLock { $0.current[name] ?? $0.earlier[name] }
    }

    /// The editor is closing (`stop`).
    var isStopping: Bool { stopped.load(ordering: .sequentiallyConsistent) }

    /// Stops a proof in progress and refuses new ones (the editor is closing).
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        running.withLock { _ = $0?.cancel() }
    }

    enum SaveOutcome {
        case saved(EditorState)
        /// The file changed since the revision the page had: here is the current one.
        case conflict(EditorState)
        /// The description cannot be built as it is: the build's message.
        case refused(String)
    }

    /// Saves `description` if `revision` is still the file's; with `arrange`, lays out every unlocked page again
    /// first (`EditorArrangement`).
    func save(_ description: JSONValue, revision asked: Int, arrange: Bool = false) -> SaveOutcome {
        lock.lock()
        defer { lock.unlock() }
        refreshLocked()
        // A file another program left unreadable (half written, removed) is never written over: the page waits.
        guard asked == revision, !state!.unreadable else { return .conflict(state!) }
        var described: BookDescription
        do {
            described = try BookDescription.decode(try JSONEncoder().encode(description))
        } catch let error as DescriptionError {
            return .refused("\(FileSystem.baseName(path)): \(error.place): \(error.message)")
        } catch {
            return .refused("\(FileSystem.baseName(path)): \(error)")
        }
        guard !described.pages.isEmpty else { return .refused("\(FileSystem.baseName(path)): pages: expected at least one page") }
        do {
            if arrange { described = try EditorArrangement(book: self).arranged(described) }
            let text = Array(try described.encoded())
            _ = try DescriptionInput.load(path, bytes: text)
            guard text != bytes else { return .saved(state!) }
            guard try writeIfUnchanged(text) else {
                refreshLocked()
                return .conflict(state!)
            }
            bytes = text
            revision += 1
            rebuildLocked()
            return .saved(state!)
        } catch let error as CLIError {
            return .refused(error.message)
        } catch {
            return .refused("cannot save \(path): \(error)")
        }
    }

    /// Writes `text` over the file (through a symbolic link, to the file it names) unless the file changed since it
    /// was last read: checked again under an exclusive lock on its folder, which another editor of the same book
    /// takes too, just before the rename. False when it changed (nothing written).
    private func writeIfUnchanged(_ text: [UInt8]) throws(FileSystem.Failure) -> Bool {
        let target = Self.realPath(path) ?? path
        let folder = FileSystem.directoryName(target)
        let descriptor = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystem.Failure(code: errno) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        let now = try? FileSystem.status(path).get()
        guard now.map(Stamp.init) == stamp else { return false }
        do {
            try InitCommand.writeAtomically(Data(text), to: target, unlessChanged: { [stamp] in
                // The last moment before the rename: a program that does not lock (an editor's save) may have come.
                (try? FileSystem.status(target).get()).map(Stamp.init) != stamp
            })
        } catch where error.code == EAGAIN {
            return false
        }
        if case .success(let status) = FileSystem.status(path) { stamp = Stamp(status) }
        return true
    }

    /// Takes up the file as it is on disk when it is not what was last read or written.
    private func refreshLocked() {
        let now = try? FileSystem.status(path).get()
        if let now, stamp == Stamp(now), state != nil { return }
        switch FileSystem.readFile(path, limit: 64 << 20) {
        case .failure(let failure):
            // Gone or unreadable (another program replacing it): keep showing what was, with why, as a new
            // revision, so that the page hears of it and holds its changes until the file can be read again.
            let message = "\(path): cannot read the book description: \(failure)"
            if state == nil {
                state = EditorState(revision: revision, file: path, description: .null, error: message)
                state!.unreadable = true
            } else if state!.error != message || !state!.unreadable {
                revision += 1
                (state!.revision, state!.error, state!.unreadable) = (revision, message, true)
            }
            stamp = now.map(Stamp.init)
        case .success(let read):
            stamp = now.map(Stamp.init)
            guard read != bytes || state == nil || state!.unreadable else { return }
            bytes = read
            if state != nil { revision += 1 }
            rebuildLocked()
        }
    }

    /// The proof of the file's current text, as the page's state.
    private func rebuildLocked() {
        let parsed = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        var next = EditorState(revision: revision, file: FileSystem.baseName(path), description: parsed ?? .null)
        if parsed == nil || !(parsed?["pages"].map { if case .array = $0 { true } else { false } } ?? false) {
            // Not JSON, or not a description (a save another program has not finished): the page keeps the last
            // description it could read, and waits.
            next.description = state?.description ?? .null
            next.unreadable = true
        }
        let proof = EditorProof(book: self)
        do {
            let made = try proof.make(bytes)
            next.pages = made.pages
            next.leftOut = made.leftOut
            next.warnings = made.warnings
            next.error = made.error
            next.font = made.font
            renderStore.withLock { $0 = (made.renders, $0.current) }
        } catch {
            next.error = error.message
            // Keep the last pages that could be drawn, so that the person sees where they were.
            next.pages = state?.pages ?? []
            next.leftOut = state?.leftOut ?? []
        }
        state = next
        servable.withLock { $0 = Self.servable(bytes, book: path) }
        knownRevision.store(revision, ordering: .sequentiallyConsistent)
    }

    /// Runs `pipeline` as the editor's current proof (a signal cancels it); nil when the editor is closing.
    func runProof(_ pipeline: RenderPipeline) -> BuildReport? {
        running.withLock { $0 = pipeline }
        defer { running.withLock { $0 = nil } }
        if stopped.load(ordering: .sequentiallyConsistent) { return nil }
        return pipeline.run()
    }

    /// The real path of a photo listed in the book (in its pages or left out), by the path as written, when it lies
    /// in or under a folder of a photo placed in the pages (that folder as named, or the real one of the photo, so
    /// that a folder of symbolic links works): what `GET /photo` may show; nil otherwise. A path is compared only
    /// once every link in it is resolved: `..`, a link to a file or to a folder elsewhere lead out and are refused.
    func servablePhoto(_ written: String) -> String? {
        let (listed, roots) = servable.withLock { $0 }
        guard listed.contains(written), let real = Self.realPath(DescriptionInput.resolve(written, from: path))
        else { return nil }
        return roots.contains { $0 != "/" && real.hasPrefix($0 + "/") } ? real : nil
    }

    /// The photos the description at `book` lists, as written, and the real folders of those its pages place: made
    /// once a revision, not for each of the page's pictures.
    private static func servable(_ bytes: [UInt8], book: String) -> (listed: Set<String>, roots: Set<String>) {
        guard let description = try? BookDescription.decode(Data(bytes)) else { return ([], []) }
        let placed = description.pages.flatMap { $0.photos.map(\.path) }
        var roots: Set<String> = []
        for photo in placed.map({ DescriptionInput.resolve($0, from: book) }) {
            if let folder = realPath(FileSystem.directoryName(photo)) { roots.insert(folder) }
            if let file = realPath(photo) { roots.insert(FileSystem.directoryName(file)) }
        }
        return (Set(placed + (description.photosLeftOut ?? []).map(\.path)), roots)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
