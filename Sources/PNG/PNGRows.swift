import CPNGShim
import Imaging

/// The image data of non-interlaced 8-bit RGB and RGBA PNGs, inflated and unfiltered by photobook's own C
/// (`png_rows.c`) instead of libpng, which Debian builds without its SIMD filter code (see png_rows.h).
/// libpng has read and checked everything before the first IDAT; this reads the rest up to IEND.
enum PNGRows {
    /// Whether this reader takes the image `info` describes (the caller has read the header with libpng).
    static func handles(_ info: PNGInfo) -> Bool {
        !info.isInterlaced && info.bitDepth == 8 && (info.colorType == 2 || info.colorType == 6)
    }

    /// The image as RGB (alpha composited over white), or nil when this reader does not take it (an RGB image
    /// with a tRNS colour key, or no memory for its two rows): then libpng decodes it. The pixels come from `pool`.
    static func decode(_ data: [UInt8], info: PNGInfo, rowsPerBand: Int, pool: BufferPool,
                       shouldCancel: () -> Bool) throws(PNGError) -> [UInt8]? {
        guard handles(info) else { return nil }
        let width = info.width, height = info.height
        let result: Result<[UInt8]?, PNGError> = data.withUnsafeBufferPointer { bytes in
            guard let reader = pbpng_rows_create(bytes.baseAddress, bytes.count, UInt32(width), UInt32(height),
                                                 info.colorType == 6 ? 4 : 3) else { return .success(nil) }
            defer { pbpng_rows_destroy(reader) }
            func check(_ status: pbpng_status) throws(PNGError) {
                guard status == PBPNG_OK else {
                    throw .corrupt(PNGReadSession.plainWords(String(cString: pbpng_rows_message(reader))))
                }
            }
            let rowBytes = width * 3
            do throws(PNGError) {
                var failure: PNGError?
                // Every byte is written by the rows below before anyone reads it: a pooled buffer.
                let rgb = pool.array(count: rowBytes * height) { buffer, initialized in
                    var row = 0
                    do throws(PNGError) {
                        while row < height {
                            if shouldCancel() { throw .cancelled }
                            let count = min(rowsPerBand, height - row)
                            try check(pbpng_rows_read(reader, buffer.baseAddress! + row * rowBytes, rowBytes,
                                                      UInt32(count)))
                            row += count
                        }
                        initialized = rowBytes * height
                    } catch {
                        failure = error
                        initialized = 0
                    }
                }
                if let failure { throw failure }
                try check(pbpng_rows_finish(reader))
                return .success(rgb)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
