import CHEIF
import ImageCodec

/// A `ByteSource` as libheif's `heif_reader`: libheif seeks and reads where it wants instead of being handed
/// the whole file.
///
/// Why a reader rather than `source.readAll()` and `heif_context_read_from_memory_without_copy`: libheif 1.15
/// parses with seeks over boxes it does not know and asks `wait_for_file_size` before it allocates for a box
/// or an extent, so nothing is allocated beyond what the file holds, and the file's bytes are never held twice
/// (once by us, once in the item data libheif copies out). It does not save reading: libheif 1.15's
/// `heif_context_read_*` reads the data of every item (images and tiles included) in its metadata loop, so a
/// probe reads about the whole file. A read failure (an I/O error, a file cut short) is kept in `failure`
/// and reported instead of libheif's vaguer "end of data".
final class HEIFByteReader {
    let source: any ByteSource
    let count: Int64
    private(set) var position: Int64 = 0
    /// The first read that failed, if any: the reason to give rather than libheif's own.
    private(set) var failure: CodecError?

    init(_ source: any ByteSource) {
        self.source = source
        count = Int64(source.count)
    }

    /// The C function table libheif calls with this reader as `userdata`.
    /// libheif 1.15 keeps the table's pointer for the context's life (StreamReader_CApi): the caller must keep
    /// the table allocated until the context is freed.
    static let functions = heif_reader(
        reader_api_version: 1,
        get_position: { userdata in reader(userdata).position },
        read: { data, size, userdata in reader(userdata).read(into: data, count: size) ? 0 : 1 },
        seek: { position, userdata in reader(userdata).seek(to: position) ? 0 : 1 },
        wait_for_file_size: { target, userdata in
            // A file on disk does not grow: a box or extent past the end is a truncated file.
            target <= reader(userdata).count ? heif_reader_grow_status_size_reached
                                             : heif_reader_grow_status_size_beyond_eof
        })

    private static func reader(_ userdata: UnsafeMutableRawPointer?) -> HEIFByteReader {
        Unmanaged<HEIFByteReader>.fromOpaque(userdata!).takeUnretainedValue()
    }

    private func read(into data: UnsafeMutableRawPointer?, count wanted: Int) -> Bool {
        // libheif 1.15 reads 0 bytes into an empty std::vector's data(), a null pointer (an AVIF's empty av1C
        // config OBUs): that is a success, not a fault.
        if wanted == 0 { return failure == nil }
        guard failure == nil, let data, wanted > 0, position + Int64(wanted) <= count else { return false }
        do throws(CodecError) {
            let bytes = try source.read(from: Int(position), count: wanted)
            guard bytes.count == wanted else {
                failure = .corrupt("corrupt HEIF (truncated: its data runs past the end of the file)")
                return false
            }
            bytes.withUnsafeBytes { data.copyMemory(from: $0.baseAddress!, byteCount: wanted) }
            position += Int64(wanted)
            return true
        } catch {
            failure = error
            return false
        }
    }

    private func seek(to target: Int64) -> Bool {
        guard target >= 0, target <= count else { return false }
        position = target
        return true
    }
}
