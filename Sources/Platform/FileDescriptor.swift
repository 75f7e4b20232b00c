#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open file descriptor. Whoever opens one owns it and ends its life with `closeAfter(_:)` (or, when the
/// descriptor must outlive the function that opened it, one explicit `close()` by the one owner).
public struct FileDescriptor: Sendable, Hashable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// Runs `body` with this descriptor, then closes it, also when `body` throws. A failing `close` is reported
    /// only when `body` succeeded, through `closeFailure` (a write error may first show up at close, on NFS).
    public func closeAfter<Value, Failure: Error>(
        _ body: (FileDescriptor) throws(Failure) -> Value,
        closeFailure: (FileSystem.Failure) -> Failure
    ) throws(Failure) -> Value {
        let value: Value
        do {
            value = try body(self)
        } catch {
            _ = close()
            throw error
        }
        if case .failure(let failure) = close() { throw closeFailure(failure) }
        return value
    }

    /// `closeAfter(_:closeFailure:)` for a body whose failures are the file system's own.
    public func closeAfter<Value>(_ body: (FileDescriptor) throws(FileSystem.Failure) -> Value)
        throws(FileSystem.Failure) -> Value {
        try closeAfter(body, closeFailure: { $0 })
    }

    /// `close(2)`. Call it once, as the descriptor's one owner; prefer `closeAfter(_:)`.
    @discardableResult
    public func close() -> Result<Void, FileSystem.Failure> {
        // Trap: never retry close on EINTR. Linux has released the descriptor already, and a retry could close
        // one that another thread has just been given.
        valueOrErrno(retryOnInterrupt: false) { Glibc.close(rawValue) }.map { _ in }
    }

    /// `read(2)` into `buffer`: the number of bytes read, 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileSystem.Failure) -> Int {
        try valueOrErrno { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }.get()
    }

    /// `pread(2)` into `buffer` from `offset`: the number of bytes read, 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FileSystem.Failure) -> Int {
        try valueOrErrno { Glibc.pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }.get()
    }

    /// `write(2)` until every byte of `bytes` is written.
    public func writeAll(_ bytes: [UInt8]) throws(FileSystem.Failure) {
        var written = 0
        while written < bytes.count {
            let count = try valueOrErrno {
                bytes.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress! + written, $0.count - written) }
            }.get()
            // write(2) returns 0 only for a count of 0; anything else would loop for ever.
            guard count > 0 else { throw FileSystem.Failure(code: EIO) }
            written += count
        }
    }

    /// `fsync(2)`: the file's data is on the disk when it returns.
    public func sync() throws(FileSystem.Failure) {
        _ = try valueOrErrno { fsync(rawValue) }.get()
    }

    /// `fchmod(2)`.
    public func setMode(_ mode: mode_t) throws(FileSystem.Failure) {
        _ = try valueOrErrno { fchmod(rawValue, mode) }.get()
    }

    /// `fchown(2)`.
    public func setOwner(_ owner: UInt32, group: UInt32) throws(FileSystem.Failure) {
        _ = try valueOrErrno { fchown(rawValue, uid_t(owner), gid_t(group)) }.get()
    }

    /// `fstat(2)`.
    public func status() throws(FileSystem.Failure) -> FileSystem.Status {
        var info = stat()
        _ = try valueOrErrno { fstat(rawValue, &info) }.get()
        return FileSystem.Status(info)
    }

    /// `isatty(3)`.
    public var isTerminal: Bool { isatty(rawValue) == 1 }
}
