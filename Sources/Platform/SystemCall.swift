#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Every libc call of photobook that can fail goes through one of these two functions: they are where EINTR is
// retried and where `errno` becomes a `FileSystem.Failure`, so no caller reads `errno` itself.

/// Runs a libc call that returns -1 and sets `errno` when it fails, and returns its result or the failure.
///
/// With `retryOnInterrupt` (the default) a call that a signal interrupted (EINTR) is simply made again.
/// Pass false for `close`: see `FileDescriptor.close()`.
@inline(__always)
func valueOrErrno<Value: FixedWidthInteger>(retryOnInterrupt: Bool = true,
                                            _ call: () -> Value) -> Result<Value, FileSystem.Failure> {
    while true {
        let value = call()
        if value != -1 { return .success(value) }
        // Trap: errno must be read before anything else runs; even a Swift allocation may change it.
        let code = errno
        if code == EINTR && retryOnInterrupt { continue }
        return .failure(FileSystem.Failure(code: code))
    }
}

/// Runs a libc call that returns NULL and sets `errno` when it fails (`opendir`, `mkdtemp`), retrying EINTR.
@inline(__always)
func pointerOrErrno<Pointer>(_ call: () -> Pointer?) -> Result<Pointer, FileSystem.Failure> {
    while true {
        if let pointer = call() { return .success(pointer) }
        let code = errno
        if code == EINTR { continue }
        return .failure(FileSystem.Failure(code: code))
    }
}
