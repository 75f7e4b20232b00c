#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A POSIX signal photobook handles, so the command line names signals without importing libc.
public struct ProcessSignal: Sendable, Hashable {
    public let rawValue: Int32

    public static let interrupt = ProcessSignal(rawValue: SIGINT)
    public static let terminate = ProcessSignal(rawValue: SIGTERM)
    public static let hangUp = ProcessSignal(rawValue: SIGHUP)
    public static let brokenPipe = ProcessSignal(rawValue: SIGPIPE)
    public static let user1 = ProcessSignal(rawValue: SIGUSR1)
    public static let user2 = ProcessSignal(rawValue: SIGUSR2)

    /// Sends the signal to this process (`kill(2)` on `getpid()`).
    public func raise() {
        _ = kill(getpid(), rawValue)
    }

    /// Sets the signal's disposition to ignore (`signal(2)` with `SIG_IGN`). A `DispatchSource` for the signal
    /// still sees it; without this the default action ends the process before the source does.
    public func ignore() {
        signal(rawValue, SIG_IGN)
    }
}

/// Leaving the process at once.
public enum ProcessExit {
    /// Ends the process with `status` without running atexit handlers or flushing stdio (`_exit`): for a second
    /// interrupt, when nothing the process would still do may run.
    public static func now(_ status: Int32) -> Never {
        _exit(status)
    }
}
