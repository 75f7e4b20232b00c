import CPNGShim

/// One libpng read over borrowed bytes; `deinit` frees libpng's structures on every path.
///
/// Only `with(_:_:)` creates one, and the session never outlives the closure, so the borrowed pointer
/// stays valid for as long as libpng reads through it.
final class PNGReadSession {
    private let decoder: OpaquePointer

    private init(decoder: OpaquePointer) {
        self.decoder = decoder
    }

    deinit {
        pbpng_decoder_destroy(decoder)
    }

    /// Runs `body` with a session reading `data`.
    static func with<T>(_ data: [UInt8], _ body: (PNGReadSession) throws(PNGError) -> T) throws(PNGError) -> T {
        let result: Result<T, PNGError> = data.withUnsafeBufferPointer { bytes in
            guard let decoder = pbpng_decoder_create(bytes.baseAddress, bytes.count) else {
                return .failure(.outOfMemory)
            }
            let session = PNGReadSession(decoder: decoder)
            do throws(PNGError) {
                return .success(try body(session))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `pbpng_read_header`: signature, IHDR and the chunks before the first IDAT.
    func readHeader() throws(PNGError) -> PNGInfo {
        var header = pbpng_header()
        try check(pbpng_read_header(decoder, &header))
        var exif: [UInt8]?
        if let bytes = header.exif, header.exif_length > 0 {
            exif = Array(UnsafeBufferPointer(start: bytes, count: header.exif_length))
        }
        return PNGInfo(width: Int(header.width), height: Int(header.height), bitDepth: Int(header.bit_depth),
                       colorType: Int(header.color_type), isInterlaced: header.interlaced != 0, exif: exif)
    }

    /// `pbpng_start_decode`: sets up 8-bit RGBA output; returns the number of passes (1, or 7 for Adam7).
    func startDecode() throws(PNGError) -> Int {
        var passes: Int32 = 0
        try check(pbpng_start_decode(decoder, &passes))
        return Int(passes)
    }

    /// `pbpng_read_rows`: the next `count` rows, into `buffer` from row `startingAtRow` on.
    func readRows(into buffer: inout [UInt8], startingAtRow firstRow: Int = 0, rowStride: Int,
                  count: Int) throws(PNGError) {
        precondition(firstRow >= 0 && count >= 0 && (firstRow + count) * rowStride <= buffer.count,
                     "PNG rows \(firstRow)..<\(firstRow + count) do not fit a buffer of \(buffer.count) bytes")
        let status = buffer.withUnsafeMutableBufferPointer { rows in
            pbpng_read_rows(decoder, rows.baseAddress! + firstRow * rowStride, rowStride, UInt32(count))
        }
        try check(status)
    }

    /// `pbpng_finish`: reads up to IEND so that a damaged or missing tail is an error too.
    func finish() throws(PNGError) {
        try check(pbpng_finish(decoder))
    }

    /// True when the call that failed ran out of bytes (`pbpng_data_ended`): a longer read of the file may succeed.
    var dataEnded: Bool { pbpng_data_ended(decoder) != 0 }

    /// How many (non-fatal) warnings libpng has given so far, and the last one.
    var warnings: (count: Int, last: String) {
        (Int(pbpng_warning_count(decoder)), String(cString: pbpng_last_warning(decoder)))
    }

    /// The largest single allocation libpng has made for this read, in bytes (`pbpng_largest_allocation`).
    var largestAllocation: Int { pbpng_largest_allocation(decoder) }

    private func check(_ status: pbpng_status) throws(PNGError) {
        switch status {
        case PBPNG_OK: return
        case PBPNG_NOT_PNG: throw .notPNG
        default: throw .corrupt(Self.plainWords(String(cString: pbpng_message(decoder))))
        }
    }

    /// libpng's reason, with a word more where its own words only make sense to a PNG expert.
    static func plainWords(_ reason: String) -> String {
        switch reason {
        // libpng only calls IEND "out of place" when no IDAT came before it (IHDR is checked first).
        case "IEND: out of place": return "no image data: IEND comes before any IDAT"
        default: return reason
        }
    }
}
