import Platform
import Synchronization

/// The one place where cancellation and the commit are decided, under one lock, and where every temporary
/// file of a build is known so that it can be removed on every path.
///
/// A build is `running` until either `cancel()` wins (no rename will ever happen) or the commit wins (the
/// book exists and stays, whatever signal arrives a moment later).
public final class BuildSession: Sendable {
    public enum State: Sendable, Equatable { case running, cancelled, committed }

    private struct Guarded {
        var state: State = .running
        var temporaryFiles: Set<String> = []
        var temporaryDirectories: [String] = []
        /// Set by `removeTemporaryFiles()`: from then on no temporary file may be created.
        var tornDown = false
        /// Why the build stopped itself (a fault of the machine, not of a photo), when it did.
        var abortReason: Failure?
    }

    /// Refused: the build's temporary files were already removed (the program is about to exit).
    static let tornDownFailure = FileSystem.Failure.cancelled

    private let guarded = Mutex(Guarded())

    public init() {}

    public var state: State { guarded.withLock { $0.state } }
    public var isCancelled: Bool { state == .cancelled }

    /// Asks the build to stop. Returns false when it is too late: the book was already committed.
    @discardableResult
    public func cancel() -> Bool {
        guarded.withLock { guarded in
            switch guarded.state {
            case .running: guarded.state = .cancelled; return true
            case .cancelled: return true
            case .committed: return false
            }
        }
    }

    /// Stops the build because of a fault that is no photo's fault (a full or unwritable temporary folder):
    /// every operation stops at its next safe point and the build fails with `reason`. Ignored once committed.
    func abort(because reason: Failure) {
        guarded.withLock { guarded in
            guard guarded.state == .running else { return }
            guarded.state = .cancelled
            guarded.abortReason = reason
        }
    }

    /// Why the build stopped itself, or nil when it did not (a user's cancellation has no reason here).
    public var abortReason: Failure? { guarded.withLock { $0.abortReason } }

    /// Runs `rename` under the lock unless the build was cancelled first; on success the build is committed.
    /// - Returns: nil when cancellation won and `rename` never ran, else what `rename` returned.
    func commit<Failure: Error>(temporaryFile: String,
                                _ rename: () -> Result<Void, Failure>) -> Result<Void, Failure>? {
        guarded.withLock { guarded in
            guard guarded.state == .running else { return nil }
            let result = rename()
            if case .success = result {
                guarded.state = .committed
                guarded.temporaryFiles.remove(temporaryFile)
            }
            return result
        }
    }

    /// Creates a temporary file and registers it in one step under the lock, so that a concurrent
    /// `removeTemporaryFiles()` either sees it or prevents it: no file can appear after the clean-up.
    func createTemporaryFile(_ path: String) -> Result<FileDescriptor, FileSystem.Failure> {
        guarded.withLock { guarded in
            guard !guarded.tornDown else { return .failure(Self.tornDownFailure) }
            let result = FileSystem.createNewFile(path)
            if case .success = result { guarded.temporaryFiles.insert(path) }
            return result
        }
    }

    /// Writes `bytes` to a new temporary file at `path` (a render's page, in `directory`), registered as
    /// `createTemporaryFile` registers it; true when written. A temporary folder that is full or unwritable is the
    /// machine's fault, not a photo's: the whole build is aborted, rather than quietly leaving out every photo
    /// that did not fit, and false is returned (a cancel that came first stays a cancel).
    func writeTemporaryFile(_ path: String, _ bytes: [UInt8], in directory: String) -> Bool {
        switch createTemporaryFile(path) {
        case .failure(let failure):
            if !isCancelled { abort(because: .outputFailed("cannot create a temporary file in \(directory): \(failure)", failure)) }
            return false
        case .success(let descriptor):
            do {
                try descriptor.closeAfter { (file) throws(FileSystem.Failure) in try file.writeAll(bytes) }
            } catch {
                remove(temporaryFile: path)
                abort(because: .outputFailed("cannot write a temporary file in \(directory): \(error)", error))
                return false
            }
            return true
        }
    }

    /// `mkstemp` and registration in one step under the lock.
    func makeTemporaryFile(template: String) -> Result<(path: String, descriptor: FileDescriptor), FileSystem.Failure> {
        guarded.withLock { guarded in
            guard !guarded.tornDown else { return .failure(Self.tornDownFailure) }
            let result = FileSystem.makeTemporaryFile(template: template)
            if case .success(let file) = result { guarded.temporaryFiles.insert(file.path) }
            return result
        }
    }

    /// `mkdtemp` and registration in one step under the lock.
    func makeTemporaryDirectory(template: String) -> Result<String, FileSystem.Failure> {
        guarded.withLock { guarded in
            guard !guarded.tornDown else { return .failure(Self.tornDownFailure) }
            let result = FileSystem.makeTemporaryDirectory(template: template)
            if case .success(let path) = result { guarded.temporaryDirectories.append(path) }
            return result
        }
    }

    /// Removes a temporary file now and forgets it.
    func remove(temporaryFile path: String) {
        guarded.withLock { guarded in
            FileSystem.remove(path)
            guarded.temporaryFiles.remove(path)
        }
    }

    /// Removes every temporary file and directory this build created and still knows of. Safe to call more
    /// than once and from any thread (a second Ctrl-C calls it while operations may still run).
    public func removeTemporaryFiles() {
        guarded.withLock { guarded in
            guarded.tornDown = true
            for path in guarded.temporaryFiles { FileSystem.remove(path) }
            guarded.temporaryFiles.removeAll()
            for directory in guarded.temporaryDirectories.reversed() { FileSystem.removeDirectory(directory) }
            guarded.temporaryDirectories.removeAll()
        }
    }

    /// For a second Ctrl-C: unless the book is already committed, makes sure it never will be, removes every
    /// temporary file and returns true (the caller exits at once); returns false when the book exists.
    public func abandon() -> Bool {
        let abandoned = guarded.withLock { guarded in
            guard guarded.state != .committed else { return false }
            guarded.state = .cancelled
            return true
        }
        if abandoned { removeTemporaryFiles() }
        return abandoned
    }

    /// Paths still registered (for tests and diagnostics).
    public var temporaryPaths: [String] {
        guarded.withLock { Array($0.temporaryFiles) + $0.temporaryDirectories }
    }
}
