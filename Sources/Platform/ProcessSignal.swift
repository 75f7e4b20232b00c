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
