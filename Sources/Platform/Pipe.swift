#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension FileSystem {
    /// `pipe2(2)` with `O_CLOEXEC`: its read and write ends, each owned by the caller. `capacity` asks the kernel
    /// for a larger buffer (`F_SETPIPE_SZ`); a refusal (above /proc/sys/fs/pipe-max-size) keeps the default.
    public static func makePipe(capacity: Int? = nil) -> Result<(read: FileDescriptor, write: FileDescriptor), Failure> {
        var ends: [Int32] = [-1, -1]
        // Trap: pipe2 and F_SETPIPE_SZ are GNU extensions that Swift's Glibc module does not show: pipe(2), then
        // FD_CLOEXEC (no fork can come between in photobook), and F_SETPIPE_SZ's value from <linux/fcntl.h>.
        return valueOrErrno { pipe(&ends) }.map { (_: Int32) in
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            if let capacity { _ = fcntl(ends[1], linuxSetPipeSize, Int32(clamping: capacity)) }
            return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
        }
    }

    /// F_SETPIPE_SZ: F_LINUX_SPECIFIC_BASE (1024) + 7.
    private static let linuxSetPipeSize: Int32 = 1031

    /// Opens an existing file for writing from its start, emptied (`O_WRONLY | O_TRUNC`); the caller owns it.
    public static func openForRewriting(_ path: String) -> Result<FileDescriptor, Failure> {
        open(path, O_WRONLY | O_TRUNC)
    }

    /// The path under which this process's descriptor can be opened again by name (`/proc/self/fd/N`), for a
    /// library that only takes file names; nil when /proc is not mounted.
    public static func procPath(of descriptor: FileDescriptor) -> String? {
        let path = "/proc/self/fd/\(descriptor.rawValue)"
        return access(path, F_OK) == 0 ? path : nil
    }
}

extension FileDescriptor {
    /// `write(2)` until all `count` bytes at `bytes` are written.
    public func writeAll(_ bytes: UnsafeRawPointer, count: Int) throws(FileSystem.Failure) {
        var written = 0
        while written < count {
            let done = try valueOrErrno { Glibc.write(rawValue, bytes + written, count - written) }.get()
            // write(2) returns 0 only for a count of 0; anything else would loop for ever.
            guard done > 0 else { throw FileSystem.Failure(code: EIO) }
            written += done
        }
    }
}
