#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The libc file calls photobook makes, in one place, each turning `errno` into a readable reason.
public enum FileSystem {
    /// Identity of a file on this machine: the same file reached by two paths has the same identity.
    public struct FileID: Hashable, Sendable {
        public var device: UInt64
        public var inode: UInt64
    }

    public enum Kind: Sendable { case regular, directory, other }

    public struct Status: Sendable {
        public var kind: Kind
        public var id: FileID
        public var size: Int64
        public var modified: Int64
        public var mode: UInt32
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var code: Int32
        /// Said instead of `strerror` when errno alone would mislead ("invalid argument" for a FIFO).
        public var detail: String? = nil
        public var description: String { detail ?? FileSystem.reason(code) }
        /// The path (or, through a link, its target) does not exist.
        public var isNoSuchFile: Bool { code == ENOENT }
    }

    /// `strerror` in lower case, as diagnostics continue a sentence: "no such file or directory".
    public static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// `stat` (follows symbolic links) or `lstat`.
    public static func status(_ path: String, followLinks: Bool = true) -> Result<Status, Failure> {
        var info = stat()
        let result = followLinks ? stat(path, &info) : lstat(path, &info)
        guard result == 0 else { return .failure(Failure(code: errno)) }
        let type = info.st_mode & S_IFMT
        let kind: Kind = type == S_IFREG ? .regular : type == S_IFDIR ? .directory : .other
        return .success(Status(kind: kind, id: FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
                               size: Int64(info.st_size), modified: Int64(info.st_mtim.tv_sec),
                               mode: UInt32(info.st_mode)))
    }

    public static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// The names in a directory, without "." and "..".
    public static func directoryEntries(_ path: String) -> Result<[String], Failure> {
        guard let dir = opendir(path) else { return .failure(Failure(code: errno)) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }

    /// Reads a regular file, at most its first `limit` bytes.
    public static func readFile(_ path: String, limit: Int = Int.max) -> Result<[UInt8], Failure> {
        // O_NONBLOCK: opening a FIFO that has no writer must not wait for one.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            return .failure(Failure(code: code, detail: code == ENOENT && isSymbolicLink(path)
                                    ? "broken symbolic link (its target does not exist)" : nil))
        }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(Failure(code: errno)) }
        // A FIFO or device named like a photo would block or never end.
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(Failure(code: EINVAL, detail: "not a regular file (a FIFO, device or socket is never read)"))
        }
        let wanted = min(Int(info.st_size), limit)
        var bytes = [UInt8](repeating: 0, count: wanted)
        var filled = 0
        while filled < wanted {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, wanted - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(code: errno))
            }
            if n == 0 { break }  // the file shrank since fstat: return what is there, the decoder will judge it
            filled += n
        }
        if filled < wanted { bytes.removeSubrange(filled...) }
        return .success(bytes)
    }

    /// Creates a new file (which must not exist), mode 0600, and returns its open descriptor.
    public static func createNewFile(_ path: String) -> Result<Int32, Failure> {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        return fd >= 0 ? .success(fd) : .failure(Failure(code: errno))
    }

    /// Writes all of `bytes` to an open descriptor.
    public static func write(_ fd: Int32, _ bytes: [UInt8]) -> Result<Void, Failure> {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(code: errno))
            }
            written += n
        }
        return .success(())
    }

    public static func close(_ fd: Int32) -> Result<Void, Failure> {
        Glibc.close(fd) == 0 ? .success(()) : .failure(Failure(code: errno))
    }

    /// Creates a private directory (mode 0700) from a `mkdtemp` template ending in XXXXXX.
    public static func makeTemporaryDirectory(template: String) -> Result<String, Failure> {
        var chars = Array(template.utf8CString)
        guard mkdtemp(&chars) != nil else { return .failure(Failure(code: errno)) }
        return .success(chars.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    /// Creates an empty file (mode 0600) from a `mkstemp` template ending in XXXXXX; returns its path and descriptor.
    public static func makeTemporaryFile(template: String) -> Result<(path: String, fd: Int32), Failure> {
        var chars = Array(template.utf8CString)
        let fd = mkstemp(&chars)
        guard fd >= 0 else { return .failure(Failure(code: errno)) }
        return .success((chars.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, fd))
    }

    /// Flushes an open file's data to the disk.
    public static func sync(_ fd: Int32) -> Result<Void, Failure> {
        fsync(fd) == 0 ? .success(()) : .failure(Failure(code: errno))
    }

    public static func setMode(_ fd: Int32, _ mode: mode_t) -> Result<Void, Failure> {
        fchmod(fd, mode) == 0 ? .success(()) : .failure(Failure(code: errno))
    }

    /// Flushes a file's data to the disk.
    public static func sync(_ path: String, directory: Bool = false) -> Result<Void, Failure> {
        let fd = open(path, (directory ? O_RDONLY | O_DIRECTORY : O_RDWR) | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Failure(code: errno)) }
        defer { _ = close(fd) }
        guard fsync(fd) == 0 else { return .failure(Failure(code: errno)) }
        return .success(())
    }

    /// `rename(2)`: atomic when both paths are on one filesystem.
    public static func rename(_ from: String, to: String) -> Result<Void, Failure> {
        Glibc.rename(from, to) == 0 ? .success(()) : .failure(Failure(code: errno))
    }

    /// Removes a file; a file that is already gone is not an error.
    @discardableResult
    public static func remove(_ path: String) -> Bool {
        unlink(path) == 0 || errno == ENOENT
    }

    /// Removes an empty directory; one that is already gone is not an error.
    @discardableResult
    public static func removeDirectory(_ path: String) -> Bool {
        rmdir(path) == 0 || errno == ENOENT
    }

    public static func isWritableDirectory(_ path: String) -> Bool {
        access(path, W_OK | X_OK) == 0
    }

    /// The directory part of a path ("." for a bare name).
    public static func directoryName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = path[..<slash]
        return dir.isEmpty ? "/" : String(dir)
    }

    public static func baseName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

extension FileSystem {
    /// The permissions a replaced output keeps, or what a new file gets under the current umask.
    public static func modeForNewFile(replacing path: String) -> mode_t {
        if case .success(let status) = status(path), status.kind == .regular {
            return mode_t(status.mode & 0o777)
        }
        return 0o666 & ~processUmask
    }

    /// Read once at start-up: `umask` can only be read by setting it.
    static let processUmask: mode_t = {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()
}
