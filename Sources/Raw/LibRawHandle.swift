import CRaw
import CRawStream
import Glibc
import ImageCodec
import Synchronization

/// One LibRaw processor (`libraw_data_t` of the thread-safe libraw_r), owned for one probe or one decode and
/// closed when it goes: LibRaw's state is per processor, so two decodes never share one.
///
/// Its callbacks are this object's: a data error (LibRaw's "data corrupted at N", which its default handler only
/// prints) is kept to fail the decode, a memory error likewise, and the progress callback asks `shouldCancel`.
final class LibRawHandle {
    let data: UnsafeMutablePointer<libraw_data_t>
    /// The stream LibRaw reads the open file through (CRawStream), and the source it reads: both kept until the
    /// processor lets go of them (its next open or its close).
    private var stream: OpaquePointer?
    private var reading: Unmanaged<SourceReader>?
    /// What LibRaw's callbacks found: they may run on its OpenMP threads (CR3's parallel decode reports damaged
    /// data from them), so under a lock.
    private struct Findings {
        /// The first offset LibRaw found damaged data at, if any.
        var dataErrorOffset: Int?
        var memoryError = false
        var cancelled = false
    }
    private let findings = Mutex(Findings())
    var dataErrorOffset: Int? { findings.withLock { $0.dataErrorOffset } }
    var memoryError: Bool { findings.withLock { $0.memoryError } }
    var cancelled: Bool { findings.withLock { $0.cancelled } }
    /// Asked by LibRaw's progress callback during `unpack` and `dcraw_process`.
    var shouldCancel: (() -> Bool)?

    init() throws(CodecError) {
        guard let data = libraw_init(0) else { throw .outOfMemory("LibRaw could not start (out of memory)") }
        self.data = data
        let context = Unmanaged.passUnretained(self).toOpaque()
        libraw_set_dataerror_handler(data, { context, _, offset in
            guard let context else { return }
            let handle = Unmanaged<LibRawHandle>.fromOpaque(context).takeUnretainedValue()
            handle.findings.withLock { if $0.dataErrorOffset == nil { $0.dataErrorOffset = Int(offset) } }
        }, context)
        libraw_set_memerror_handler(data, { context, _, _ in
            guard let context else { return }
            Unmanaged<LibRawHandle>.fromOpaque(context).takeUnretainedValue().findings.withLock { $0.memoryError = true }
        }, context)
        libraw_set_progress_handler(data, { context, _, _, _ in
            guard let context else { return 0 }
            let handle = Unmanaged<LibRawHandle>.fromOpaque(context).takeUnretainedValue()
            if handle.cancelled || handle.shouldCancel?() == true {
                handle.findings.withLock { $0.cancelled = true }
                return 1
            }
            return 0
        }, context)
        // Trap: LibRaw turns the picture by its flip unless told not to (user_flip 0); the engine turns it instead
        // (`ImageHeader.orientation`), so that the embedded preview, stored unturned, and the raw agree.
        data.pointee.params.user_flip = 0
    }

    deinit {
        libraw_close(data)
        letGoOfStream()
    }

    /// Opens `source` through the stream that reads it where it is: the engine's open file, never the path again
    /// (LibRaw would open a file of its own each time), and never the whole file in memory.
    func open(_ source: any ByteSource) throws(CodecError) -> Int32 {
        recycle()
        let reader = Unmanaged.passRetained(SourceReader(source))
        reading = reader
        var opened: OpaquePointer?
        let code = pbraw_open(UnsafeMutableRawPointer(data), reader.toOpaque(), { context, offset, buffer, count in
            guard let context, let buffer else { return -1 }
            return Unmanaged<SourceReader>.fromOpaque(context).takeUnretainedValue()
                .read(at: Int(offset), into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
        }, Int64(source.count), &opened)
        stream = opened
        return code
    }

    private func letGoOfStream() {
        if let stream { pbraw_stream_free(stream) }
        stream = nil
        reading?.release()
        reading = nil
    }

    /// Frees what the last file left (its raw data and images) and its callbacks' findings, for another open.
    func recycle() {
        libraw_recycle(data)
        letGoOfStream()
        findings.withLock {
            $0.dataErrorOffset = nil
            $0.memoryError = false
        }
    }

    /// The first failure to read the file since it was opened (LibRaw saw only a short file and says "corrupt"
    /// or "I/O error"): thrown ahead of LibRaw's own code, so that a disk's error keeps its kind.
    var readFailure: CodecError? { reading?.takeUnretainedValue().failure }

    /// The failure LibRaw's `code` means for a file of `kind`, unless reading the file failed first or the stream
    /// stopped LibRaw reading past the file's end (CRawStream: a damaged count looped LibRaw over nothing).
    func failure(_ code: Int32, kind: String) -> CodecError {
        if let readFailure { return readFailure }
        if let stream, pbraw_stream_ran_past_end(stream) != 0 {
            return .corrupt("corrupt \(kind) (LibRaw kept reading past the end of the file: damaged or cut short)")
        }
        return RawCodec.failure(code, kind: kind)
    }

    /// Fails on LibRaw's `code`, or on what the callbacks found during the call that returned it.
    func check(_ code: Int32, kind: String) throws(CodecError) {
        if cancelled { throw .cancelled }
        guard code == LIBRAW_SUCCESS.rawValue else { throw failure(code, kind: kind) }
        // LibRaw fills what it could not read with zeros and may carry on: a failed read fails the decode.
        if let readFailure { throw readFailure }
        if memoryError { throw .outOfMemory("\(kind) too large to decode (LibRaw ran out of memory)") }
        // Trap: LibRaw reports damaged sensor data only to its data callback (it prints "data corrupted at N"
        // and carries on, white or black where the data was): that is a failure here, as a JPEG's warning is.
        if let offset = dataErrorOffset {
            throw .corrupt("corrupt \(kind) (LibRaw: data corrupted at byte \(offset))")
        }
    }

    /// Frees the raw data and images LibRaw holds, keeping the processor (after `dcraw_make_mem_image`).
    func freeImages() {
        libraw_recycle(data)
    }

    /// LibRaw's own words for `code` ("Unsupported file format or not RAW file").
    static func reason(_ code: Int32) -> String {
        String(cString: libraw_strerror(code))
    }

    /// A C string field of LibRaw's, as text (up to its first NUL), trimmed.
    static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self).trimmingSpaces()
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " }),
              let last = scalars.lastIndex(where: { $0 != " " }) else { return "" }
        return String(scalars[first...last])
    }
}

/// The file LibRaw reads through its stream (CRawStream's callback): a megabyte at a time at most, so that a large
/// read of LibRaw's (a whole strip of sensor data) is never held twice in full.
final class SourceReader {
    let source: any ByteSource
    /// The first read that failed (LibRaw's threads take the stream in turns, so one reader at a time).
    private(set) var failure: CodecError?

    init(_ source: any ByteSource) { self.source = source }

    /// Bytes read into `buffer` from `offset`: fewer where the file ends, -1 when it cannot be read.
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var filled = 0
        while filled < buffer.count {
            let chunk: [UInt8]
            do {
                chunk = try source.read(from: offset + filled, count: min(1 << 20, buffer.count - filled))
            } catch {
                if failure == nil { failure = error }
                return filled > 0 ? filled : -1
            }
            guard !chunk.isEmpty else { break }
            chunk.withUnsafeBytes { buffer.baseAddress!.advanced(by: filled).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            filled += chunk.count
        }
        return filled
    }
}
