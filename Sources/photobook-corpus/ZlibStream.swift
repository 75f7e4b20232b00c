import CZlib
import CZlibShim

/// A zlib stream (RFC 1950) made by zlib itself.
enum ZlibStream {
    /// `input` deflated in one call, with zlib's default level and the given strategy.
    static func compress(_ input: [UInt8], strategy: Int32) throws -> [UInt8] {
        guard input.count <= Int(UInt32.max) else {
            throw CorpusError(message: "zlib: \(input.count) bytes is too much for one call")
        }
        var stream = z_stream()
        // 15: a 32 KiB window with the zlib header and Adler-32 trailer; 8: zlib's default memory level.
        var status = pbz_deflate_init2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15, 8, strategy)
        guard status == Z_OK else { throw CorpusError(message: "zlib: deflateInit2 failed (\(status))") }
        defer { deflateEnd(&stream) }
        // deflateBound is large enough for deflate to finish in one call.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
        input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                status = deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw CorpusError(message: "zlib: deflate did not finish (\(status))") }
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }

    /// CRC-32 as PNG chunks carry it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}
