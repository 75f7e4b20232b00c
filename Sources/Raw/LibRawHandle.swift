import CRaw
import Glibc
import ImageCodec

/// One LibRaw processor (`libraw_data_t` of the thread-safe libraw_r), owned for one probe or one decode and
/// closed when it goes: LibRaw's state is per processor, so two decodes never share one.
///
/// Its callbacks are this object's: a data error (LibRaw's "data corrupted at N", which its default handler only
/// prints) is kept to fail the decode, a memory error likewise, and the progress callback asks `shouldCancel`.
final class LibRawHandle {
    let data: UnsafeMutablePointer<libraw_data_t>
    /// The file's bytes for `libraw_open_buffer`, which reads them in place: freed only when the processor is.
    private var buffer: UnsafeMutableRawBufferPointer?
    /// The first offset LibRaw found damaged data at (its data callback), if any.
    private(set) var dataErrorOffset: Int?
    private(set) var memoryError = false
    /// Asked by LibRaw's progress callback during `unpack` and `dcraw_process`.
    var shouldCancel: (() -> Bool)?
    private(set) var cancelled = false

    init() throws(CodecError) {
        guard let data = libraw_init(0) else { throw .outOfMemory("LibRaw could not start (out of memory)") }
        self.data = data
        let context = Unmanaged.passUnretained(self).toOpaque()
        libraw_set_dataerror_handler(data, { context, _, offset in
            guard let context else { return }
            let handle = Unmanaged<LibRawHandle>.fromOpaque(context).takeUnretainedValue()
            if handle.dataErrorOffset == nil { handle.dataErrorOffset = Int(offset) }
        }, context)
        libraw_set_memerror_handler(data, { context, _, _ in
            guard let context else { return }
            Unmanaged<LibRawHandle>.fromOpaque(context).takeUnretainedValue().memoryError = true
        }, context)
        libraw_set_progress_handler(data, { context, _, _, _ in
            guard let context else { return 0 }
            let handle = Unmanaged<LibRawHandle>.fromOpaque(context).takeUnretainedValue()
            if handle.cancelled || handle.shouldCancel?() == true {
                handle.cancelled = true
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
        buffer?.deallocate()
    }

    /// Opens `source`: a file on disk by its path (LibRaw reads only what it parses, so a probe reads the
    /// headers, not the 30 MB of a raw), any other source from its bytes in memory.
    func open(_ source: any ByteSource) throws(CodecError) -> Int32 {
        // Trap: the engine's probe hands codecs its header cache over the file (PrefixCachedSource): taken as
        // bytes, every probe would read a whole 30 MB raw into memory.
        let file = (source as? FileSource) ?? ((source as? PrefixCachedSource)?.base as? FileSource)
        if let file {
            return libraw_open_file(data, file.path)
        }
        if buffer == nil {
            let count = source.count
            let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, count), alignment: 16)
            buffer = bytes
            // A megabyte at a time: the file is not held twice.
            var offset = 0
            while offset < count {
                let chunk = try source.read(from: offset, count: min(1 << 20, count - offset))
                guard !chunk.isEmpty else { break }
                chunk.withUnsafeBytes { bytes.baseAddress!.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                offset += chunk.count
            }
            guard offset == count else { throw .corrupt("corrupt camera raw (the file changed while being read)") }
        }
        return libraw_open_buffer(data, buffer!.baseAddress, source.count)
    }

    /// Frees what the last file left (its raw data and images) and its callbacks' findings, for another open.
    func recycle() {
        libraw_recycle(data)
        dataErrorOffset = nil
        memoryError = false
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
