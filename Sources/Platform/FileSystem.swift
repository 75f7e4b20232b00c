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

        public init(device: UInt64, inode: UInt64) {
            self.device = device
            self.inode = inode
        }
    }

    public enum Kind: Sendable { case regular, directory, other }

    public struct Status: Sendable {
        public var kind: Kind
        public var id: FileID
        public var size: Int64
        public var modified: Int64
        /// Modification and status-change times in nanoseconds since the epoch (the render cache's digest index).
        public var modifiedNanoseconds: Int64
        public var changedNanoseconds: Int64
        public var mode: UInt32
        public var owner: UInt32
        public var group: UInt32

        init(_ info: stat) {
            let type = info.st_mode & S_IFMT
            kind = type == S_IFREG ? .regular : type == S_IFDIR ? .directory : .other
            id = FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            changedNanoseconds = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
            mode = UInt32(info.st_mode)
            owner = UInt32(info.st_uid)
            group = UInt32(info.st_gid)
        }
    }

    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var code: Int32
        /// Said instead of `strerror` when errno alone would mislead ("invalid argument" for a FIFO).
        public var detail: String? = nil
        public init(code: Int32, detail: String? = nil) {
            self.code = code
            self.detail = detail
        }
        public var description: String { detail ?? FileSystem.reason(code) }
        /// The path (or, through a link, its target) does not exist.
        public var isNoSuchFile: Bool { code == ENOENT }
        /// The work was refused because it was cancelled (ECANCELED).
        public static let cancelled = Failure(code: ECANCELED)
    }

    /// `strerror` in lower case, as diagnostics continue a sentence: "no such file or directory".
    public static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// `stat` (follows symbolic links) or `lstat`.
    public static func status(_ path: String, followLinks: Bool = true) -> Result<Status, Failure> {
        var info = stat()
        return valueOrErrno { followLinks ? stat(path, &info) : lstat(path, &info) }.map { _ in Status(info) }
    }

    public static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// The names in a directory, without "." and "..".
    public static func directoryEntries(_ path: String) -> Result<[String], Failure> {
        pointerOrErrno { opendir(path) }.map { dir in
            defer { closedir(dir) }
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                if name != "." && name != ".." { names.append(name) }
            }
            return names
        }
    }

    /// `open(2)` for an existing file or directory.
    static func open(_ path: String, _ flags: Int32) -> Result<FileDescriptor, Failure> {
        valueOrErrno { Glibc.open(path, flags | O_CLOEXEC) }.map(FileDescriptor.init(rawValue:))
    }

    /// Opens a regular file for reading and returns it with its status; refuses anything else (a FIFO or
    /// device named like a photo would block or never end). The caller owns the descriptor.
    public static func openRegularFile(_ path: String) -> Result<(FileDescriptor, Status), Failure> {
        // O_NONBLOCK: opening a FIFO that has no writer must not wait for one.
        let descriptor: FileDescriptor
        switch open(path, O_RDONLY | O_NONBLOCK) {
        case .failure(let failure):
            return .failure(Failure(code: failure.code, detail: failure.isNoSuchFile && isSymbolicLink(path)
                                    ? "broken symbolic link (its target does not exist)" : nil))
        case .success(let opened): descriptor = opened
        }
        do throws(Failure) {
            let status = try descriptor.status()
            guard status.kind == .regular else {
                throw Failure(code: EINVAL, detail: "not a regular file (a FIFO, device or socket is never read)")
            }
            return .success((descriptor, status))
        } catch {
            _ = descriptor.close()
            return .failure(error)
        }
    }

    /// Reads a regular file, at most its first `limit` bytes.
    public static func readFile(_ path: String, limit: Int = Int.max) -> Result<[UInt8], Failure> {
        let descriptor: FileDescriptor, status: Status
        switch openRegularFile(path) {
        case .failure(let failure): return .failure(failure)
        case .success(let opened): (descriptor, status) = opened
        }
        return Result { () throws(Failure) in
            try descriptor.closeAfter { (file) throws(Failure) in
                let wanted = min(Int(status.size), limit)
                var bytes = [UInt8](repeating: 0, count: wanted)
                var filled = 0
                while filled < wanted {
                    // withUnsafeMutableBytes only rethrows `any Error`: the typed failure travels in a Result.
                    let count = try bytes.withUnsafeMutableBytes { buffer in
                        Result { () throws(Failure) in
                            try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                        }
                    }.get()
                    if count == 0 { break }  // the file shrank since fstat: return what is there, the decoder will judge it
                    filled += count
                }
                if filled < wanted { bytes.removeSubrange(filled...) }
                return bytes
            }
        }
    }

    /// Opens an existing file for reading (`open(2)`, `O_RDONLY`); the caller owns the descriptor.
    public static func openForReading(_ path: String) -> Result<FileDescriptor, Failure> {
        open(path, O_RDONLY)
    }

    /// Creates a new file (which must not exist), mode 0600, and returns its open descriptor.
    public static func createNewFile(_ path: String) -> Result<FileDescriptor, Failure> {
        valueOrErrno { Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
            .map(FileDescriptor.init(rawValue:))
    }

    /// Creates a private directory (mode 0700) from a `mkdtemp` template ending in XXXXXX.
    public static func makeTemporaryDirectory(template: String) -> Result<String, Failure> {
        var chars = Array(template.utf8CString)
        return pointerOrErrno { mkdtemp(&chars) }.map { _ in cString(chars) }
    }

    /// Creates an empty file (mode 0600) from a `mkstemp` template ending in XXXXXX; returns its path and descriptor.
    public static func makeTemporaryFile(template: String) -> Result<(path: String, descriptor: FileDescriptor), Failure> {
        var chars = Array(template.utf8CString)
        return valueOrErrno { mkstemp(&chars) }.map { (cString(chars), FileDescriptor(rawValue: $0)) }
    }

    /// The text of a NUL-terminated array that mkdtemp or mkstemp filled in.
    private static func cString(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Flushes a file's (or a directory's entries') data to the disk.
    public static func sync(_ path: String, directory: Bool = false) -> Result<Void, Failure> {
        open(path, directory ? O_RDONLY | O_DIRECTORY : O_RDWR).flatMap { descriptor in
            Result { () throws(Failure) in try descriptor.closeAfter { (file) throws(Failure) in try file.sync() } }
        }
    }

    /// `rename(2)`: atomic when both paths are on one filesystem.
    public static func rename(_ from: String, to: String) -> Result<Void, Failure> {
        valueOrErrno { Glibc.rename(from, to) }.map { _ in }
    }

    /// Removes a file; a file that is already gone is not an error.
    @discardableResult
    public static func remove(_ path: String) -> Bool {
        switch valueOrErrno({ unlink(path) }) {
        case .success: return true
        case .failure(let failure): return failure.isNoSuchFile
        }
    }

    /// Creates a directory and any missing parents (mode 0700); one that exists is not an error.
    public static func makeDirectories(_ path: String) -> Result<Void, Failure> {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if case .failure(let failure) = valueOrErrno({ mkdir(built, 0o700) }), failure.code != EEXIST {
                return .failure(failure)
            }
        }
        return status(path).flatMap { $0.kind == .directory ? .success(()) : .failure(Failure(code: ENOTDIR)) }
    }

    /// Sets a file's access and modification times to now (a cache entry just used).
    @discardableResult
    public static func touch(_ path: String) -> Bool {
        if case .success = valueOrErrno({ utimensat(AT_FDCWD, path, nil, 0) }) { return true }
        return false
    }

    /// The clock `ctime` is read against: nanoseconds since the epoch.
    public static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Removes an empty directory; one that is already gone is not an error.
    @discardableResult
    public static func removeDirectory(_ path: String) -> Bool {
        switch valueOrErrno({ rmdir(path) }) {
        case .success: return true
        case .failure(let failure): return failure.isNoSuchFile
        }
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
