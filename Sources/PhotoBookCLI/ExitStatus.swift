/// The exit statuses photobook promises to scripts.
public enum ExitStatus: Int32, Sendable {
    case success = 0
    /// The build ran and failed: no usable photo, a write error, or a left-out photo under `--strict`.
    case failure = 1
    /// The command line cannot work as given: unknown option, bad value, unusable input or output path.
    case usage = 2
    /// Stopped by Ctrl-C, SIGTERM or SIGHUP before the book was committed.
    case interrupted = 130
}

/// An error that ends the program before any work, with its message and exit status.
struct CLIError: Error {
    var message: String
    var status: ExitStatus
    static func usage(_ message: String) -> CLIError { CLIError(message: message, status: .usage) }
}
