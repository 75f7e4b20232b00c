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
    private var renders: [String: [UInt8]] = [:]
    private var earlierRenders: [String: [UInt8]] = [:]
    /// The proof running now, for a signal to cancel.
    private let running = Mutex<RenderPipeline?>(nil)
    private let stopped = Atomic<Bool>(false)

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
        _ = refreshLocked()
        if let error = state?.error, state?.pages.isEmpty ?? true { throw .usage(error) }
    }

    /// The state, after taking up any change made to the file outside.
    func currentState() -> EditorState {
        lock.lock()
        defer { lock.unlock() }
        _ = refreshLocked()
        return state!
    }

    /// The revision, after taking up any change made to the file outside.
    func currentRevision() -> Int {
        lock.lock()
        defer { lock.unlock() }
        _ = refreshLocked()
        return revision
    }

    /// A render of the current or the previous revision.
    func render(named name: String) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        return renders[name] ?? earlierRenders[name]
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
        _ = refreshLocked()
        guard asked == revision else { return .conflict(state!) }
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
            try InitCommand.writeAtomically(Data(text), to: path)
            if case .success(let status) = FileSystem.status(path) { stamp = Stamp(status) }
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

    /// Takes up the file as it is on disk when it is not what was last read or written; true when it changed.
    private func refreshLocked() -> Bool {
        let status = FileSystem.status(path)
        let now = try? status.get()
        if let now, stamp == Stamp(now), state != nil { return false }
        switch FileSystem.readFile(path, limit: 64 << 20) {
        case .failure(let failure):
            // Gone or unreadable (another program replacing it): keep showing what was, with why.
            if state == nil {
                state = EditorState(revision: revision, file: path, description: .null,
                                    error: "\(path): cannot read the book description: \(failure)")
            } else {
                state!.error = "\(path): cannot read the book description: \(failure)"
            }
            return false
        case .success(let read):
            stamp = now.map(Stamp.init)
            guard read != bytes || state == nil else { return false }
            bytes = read
            if state != nil { revision += 1 }
            rebuildLocked()
            return true
        }
    }

    /// The proof of the file's current text, as the page's state.
    private func rebuildLocked() {
        var next = EditorState(revision: revision, file: FileSystem.baseName(path),
                               description: (try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))) ?? .null)
        let proof = EditorProof(book: self)
        do {
            let made = try proof.make(bytes)
            next.pages = made.pages
            next.leftOut = made.leftOut
            next.warnings = made.warnings
            next.error = made.error
            earlierRenders = renders
            renders = made.renders
        } catch {
            next.error = error.message
            // Keep the last pages that could be drawn, so that the person sees where they were.
            next.pages = state?.pages ?? []
            next.leftOut = state?.leftOut ?? []
        }
        state = next
    }

    /// Runs `pipeline` as the editor's current proof (a signal cancels it); nil when the editor is closing.
    func runProof(_ pipeline: RenderPipeline) -> BuildReport? {
        running.withLock { $0 = pipeline }
        defer { running.withLock { $0 = nil } }
        if stopped.load(ordering: .sequentiallyConsistent) { return nil }
        return pipeline.run()
    }

    /// The real path of a photo listed in the book (in its pages or left out), by the path as written, when it lies
    /// in a folder the book lists photos in (symbolic links resolved): what `GET /photo` may show; nil otherwise.
    func servablePhoto(_ written: String) -> String? {
        lock.lock()
        let description = try? BookDescription.decode(Data(bytes))
        lock.unlock()
        guard let description else { return nil }
        let listed = description.pages.flatMap { $0.photos.map(\.path) } + (description.photosLeftOut ?? []).map(\.path)
        guard listed.contains(written), !written.split(separator: "/").contains("..") else { return nil }
        let base = FileSystem.directoryName(path)
        func resolved(_ listedPath: String) -> String { listedPath.hasPrefix("/") ? listedPath : base + "/" + listedPath }
        let folders = Set(listed.compactMap { realPath(FileSystem.directoryName(resolved($0))) })
        guard let real = realPath(resolved(written)) else { return nil }
        return folders.contains(FileSystem.directoryName(real)) ? real : nil
    }

    private func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
