import Platform

/// Random access to the bytes of one file, for codecs: a file on disk read with `pread`, or bytes in memory
/// (tests, fuzzers). Codecs that need the whole file ask for it once; a TIFF reads its strips where they are.
public protocol ByteSource: Sendable {
    /// How many bytes the file holds.
    var count: Int { get }
    /// Up to `count` bytes from `offset`: fewer only where the file ends.
    func read(from offset: Int, count: Int) throws(CodecError) -> [UInt8]
}

extension ByteSource {
    /// The whole file.
    public func readAll() throws(CodecError) -> [UInt8] { try read(from: 0, count: count) }
    /// The file's first `limit` bytes (all of it when it is shorter).
    public func prefix(_ limit: Int) throws(CodecError) -> [UInt8] { try read(from: 0, count: limit) }

    /// The `count` bytes of a metadata box or chunk at `offset` (`what`: "its Exif box"), or nil with a note in
    /// `notes` when they are more than `limit`: real metadata is kilobytes, and a damaged size must not make a
    /// probe read megabytes.
    public func metadata(from offset: Int, count: Int, limit: Int, _ what: String,
                         notes: inout [String]) throws(CodecError) -> [UInt8]? {
        guard count <= limit else {
            notes.append("\(what) is larger than \(limit >> 20) MB and was not read")
            return nil
        }
        return try read(from: offset, count: count)
    }
}

/// Bytes in memory as a source.
public struct MemorySource: ByteSource {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var count: Int { bytes.count }
    public func read(from offset: Int, count: Int) throws(CodecError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= bytes.count else { return [] }
        return Array(bytes[offset..<min(bytes.count, offset + min(count, bytes.count - offset))])
    }
}

/// A regular file on disk as a source, read with `pread(2)`; its descriptor is closed when the source goes.
public final class FileSource: ByteSource {
    public let path: String
    public let count: Int
    /// The opened file's status (`fstat`), for a reader that must know it is the file now at `path`.
    public let status: FileSystem.Status
    private let descriptor: FileDescriptor

    /// Opens `path` (a regular file only: a FIFO or device would block or never end).
    public init(path: String) throws(FileSystem.Failure) {
        let (descriptor, status) = try FileSystem.openRegularFile(path).get()
        self.path = path
        self.descriptor = descriptor
        self.status = status
        count = Int(status.size)
    }

    deinit { descriptor.close() }

    public func read(from offset: Int, count wanted: Int) throws(CodecError) -> [UInt8] {
        guard offset >= 0, wanted > 0, offset < count else { return [] }
        let length = min(wanted, count - offset)
        var bytes = [UInt8](repeating: 0, count: length)
        var filled = 0
        while filled < length {
            let read = try bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(FileSystem.Failure) in
                    try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]),
                                        at: offset + filled)
                }
            }.mapError { CodecError.failed(.unreadable("cannot read: \($0)", $0)) }.get()
            // The file ends before the size it had when it was opened: it was cut short while photobook ran, which
            // is no fault of its data.
            if read == 0 { throw .changedOnDisk("the file changed while photobook ran (it is shorter than it was)") }
            filled += read
        }
        return bytes
    }
}

/// A source whose first bytes are read once, up front, and served from memory: the probe sniffs the format
/// and the codec reads its header out of one read of the file (a TIFF's directories past them are read where
/// they are).
public struct PrefixCachedSource: ByteSource {
    public let base: any ByteSource
    public let cached: [UInt8]

    public init(_ base: any ByteSource, length: Int = HeaderReading.prefixLength) throws(CodecError) {
        self.base = base
        cached = try base.prefix(length)
    }

    public var count: Int { base.count }

    public func read(from offset: Int, count wanted: Int) throws(CodecError) -> [UInt8] {
        guard offset >= 0, wanted > 0, offset < count else { return [] }
        if offset + min(wanted, count - offset) <= cached.count {
            return Array(cached[offset..<offset + min(wanted, count - offset)])
        }
        return try base.read(from: offset, count: wanted)
    }
}
