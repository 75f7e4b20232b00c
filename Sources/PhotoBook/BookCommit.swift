import Platform
import Synchronization

/// Puts a finished book at the output path atomically: written to a temporary file beside it, synced, and
/// renamed over it under the session's lock unless the build was cancelled first. Nothing else writes the output.
///
/// Needs the build's session, which decides between cancellation and the commit and knows every temporary file.
struct BookCommit: Sendable {
    let outputPath: String
    let session: BuildSession
    let hooks: BuildHooks
    /// The largest file the print service takes, and whether a larger one is refused (`--strict`): refused, the
    /// temporary file goes and the old output stays.
    var sizeLimit: FileSizeLimit? = nil
    var refusesLargeFile = false
    /// The size of the file written, once it is written (committed or not).
    let writtenSize = WrittenSize()

    final class WrittenSize: Sendable {
        let bytes = Mutex<Int?>(nil)
    }

    /// Why the book could not be made durable; `reason` is worded for the summary line.
    private struct Unwritten: Error { var reason: String }

    /// Writes the book with `write`, which is given a path reaching the temporary file, and commits it. The
    /// temporary file is removed on every path that does not end in the commit.
    func commit(_ write: (_ path: String) throws -> Void) -> Outcome {
        let directory = FileSystem.directoryName(outputPath)
        let template = "\(directory)/.\(FileSystem.baseName(outputPath)).photobook-XXXXXX"
        let temporary: String, descriptor: FileDescriptor
        switch session.makeTemporaryFile(template: template) {
        case .failure(let failure): return .failed(.outputFailed("cannot create a temporary file in \(directory): \(failure)", failure))
        case .success(let file): (temporary, descriptor) = file
        }

        do {
            try descriptor.closeAfter({ (file) throws(Unwritten) in
                do {
                    // libharu opens the file by name; through our descriptor's /proc link it writes into the file we
                    // created, even if a second Ctrl-C has unlinked it meanwhile, so no stray file can reappear.
                    try write("/proc/self/fd/\(file.rawValue)")
                } catch {
                    throw Unwritten(reason: "cannot write the book: \(error)")
                }
                do {
                    try file.setMode(FileSystem.modeForNewFile(replacing: outputPath))
                } catch {
                    throw Unwritten(reason: "cannot set the permissions of \(temporary): \(error)")
                }
                do {
                    try file.sync()
                    writtenSize.bytes.withLock { $0 = Int(truncatingIfNeeded: (try? file.status())?.size ?? -1) }
                } catch {
                    throw Unwritten(reason: "cannot write the book: \(error)")
                }
            }, closeFailure: { Unwritten(reason: "cannot write the book: \($0)") })
        } catch {
            session.remove(temporaryFile: temporary)
            // A save stopped because the build was cancelled is a cancellation, not a failure.
            return session.isCancelled ? .cancelled : .failed(.outputFailed(error.reason))
        }

        // The file size is known only now: too large for the service under --strict, it is never committed.
        if refusesLargeFile, let limit = sizeLimit, let size = writtenSize.bytes.withLock({ $0 }),
           let finding = Preflight.fileSize(size, limit: limit) {
            session.remove(temporaryFile: temporary)
            return .skipped(because: .refused("\(finding.message), and --strict is set"))
        }
        hooks.beforeCommit?()
        switch session.commit(temporaryFile: temporary, { FileSystem.rename(temporary, to: outputPath) }) {
        case nil:
            session.remove(temporaryFile: temporary)
            return .cancelled
        case .failure(let failure)?:
            session.remove(temporaryFile: temporary)
            return .failed(.outputFailed("cannot write the book: \(failure)", failure))
        case .success?:
            hooks.afterCommit?()
            // The rename is done; a failing directory sync cannot undo it, so it is not a failure of the build.
            _ = FileSystem.sync(directory, directory: true)
            return .succeeded
        }
    }
}
