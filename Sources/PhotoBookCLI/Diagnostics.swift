import Platform
import Synchronization

/// Everything photobook says goes through here: diagnostics and progress on stderr, help and version on stdout.
final class Diagnostics: Sendable {
    let quiet: Bool
    let verbose: Bool
    /// A progress line is drawn only when stderr is a terminal and the user did not ask for quiet.
    let showsProgress: Bool
    private let progressVisible = Mutex(false)

    /// The lines said, when they are kept rather than written (`capturing`).
    private let kept: KeptLines?

    private final class KeptLines: Sendable { let lines = Mutex<[String]>([]) }

    /// `progressAnyway`: draw the progress line on a stderr that is no terminal too (`PHOTOBOOK_PROGRESS=1`).
    init(quiet: Bool = false, verbose: Bool = false, progressAnyway: Bool = false) {
        self.quiet = quiet
        self.verbose = verbose && !quiet
        showsProgress = !quiet && (FileDescriptor.standardError.isTerminal || progressAnyway)
        kept = nil
    }

    /// Keeps its errors and warnings for `lines` instead of writing them (the editor shows them in the page).
    private init(capturing: Void) {
        quiet = false
        verbose = false
        showsProgress = false
        kept = KeptLines()
    }

    static func capturing() -> Diagnostics { Diagnostics(capturing: ()) }

    /// What a capturing `Diagnostics` was told, in order.
    var lines: [String] { kept?.lines.withLock { $0 } ?? [] }

    func error(_ message: String, path: String? = nil) {
        emit("photobook: error: " + (path.map { "\($0): " } ?? "") + message)
    }

    func warning(_ message: String, path: String? = nil) {
        guard !quiet else { return }
        emit("photobook: warning: " + (path.map { "\($0): " } ?? "") + message)
    }

    func note(_ message: String, path: String? = nil) {
        guard verbose else { return }
        emit("photobook: " + (path.map { "\($0): " } ?? "") + message)
    }

    /// A line that is not a warning (the summary, "cancelling...").
    func status(_ message: String, evenWhenQuiet: Bool = false) {
        guard !quiet || evenWhenQuiet else { return }
        emit("photobook: " + message)
    }

    /// Redraws the single progress line.
    func progress(_ message: String) {
        guard showsProgress else { return }
        progressVisible.withLock { visible in
            write(.standardError, "\r\u{1B}[K" + message)
            visible = true
        }
    }

    static func standardOutput(_ text: String) {
        write(.standardOutput, text)
    }

    static func standardError(_ text: String) {
        write(.standardError, text)
    }

    private func emit(_ line: String) {
        if let kept {
            kept.lines.withLock { $0.append(line) }
            return
        }
        progressVisible.withLock { visible in
            write(.standardError, (visible ? "\r\u{1B}[K" : "") + line + "\n")
            visible = false
        }
    }
}

/// One `write(2)` per message, so lines from several threads never interleave and nothing waits in a buffer
/// when the process exits from a signal handler. A closed or full stderr costs the message, never the build.
private func write(_ descriptor: FileDescriptor, _ text: String) {
    try? descriptor.writeAll(Array(text.utf8))
}
