import CJPEG  // Trap: never called from Swift, but only a Swift import of it links libjpeg (module map `link "jpeg"`)
import CJPEGShim
import Imaging

// The only file that touches CJPEGShim's handles: each C handle is owned by one final class (a ShimHandle) that
// frees it in deinit, and every C call goes through a method of that class, so the handle outlives the call.

/// Carries a Swift `shouldCancel` closure through C as a context pointer; the C side calls it between units
/// of work and longjmps (in C) only after it has returned.
final class CancellationProbe {
    let shouldCancel: () -> Bool
    init(_ shouldCancel: @escaping () -> Bool) { self.shouldCancel = shouldCancel }
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

private let cancellationCallback: pb_jpeg_cancel_fn = { context in
    guard let context else { return 0 }
    return Unmanaged<CancellationProbe>.fromOpaque(context).takeUnretainedValue().shouldCancel() ? 1 : 0
}

/// Runs `body` with a probe for a non-escaping closure; the probe must not outlive `body`.
func withCancellationProbe<R>(_ shouldCancel: () -> Bool, _ body: (CancellationProbe) -> R) -> R {
    withoutActuallyEscaping(shouldCancel) { escapable in
        let probe = CancellationProbe(escapable)
        return withExtendedLifetime(probe) { body(probe) }
    }
}

/// The start every cancellable read of a whole file shares (a decode, a region decode, a lossless crop, block
/// means): a file that is no JPEG, and a call cancelled already, are refused before any handle exists; then
/// `body` runs over `data`'s bytes with a probe for `shouldCancel`, neither of which may outlive it. Its error
/// comes out through a `Result`: the closures of `withUnsafeBufferPointer` and `withCancellationProbe` do not
/// throw.
func withJPEGBytes<R>(_ data: [UInt8], shouldCancel: () -> Bool,
                      _ body: (UnsafeBufferPointer<UInt8>, CancellationProbe) throws(JPEGError) -> R)
    throws(JPEGError) -> R {
    guard JPEGDecoder.isJPEG(data) else { throw .notJPEG }
    if shouldCancel() { throw .cancelled }
    let result: Result<R, JPEGError> = data.withUnsafeBufferPointer { bytes in
        withCancellationProbe(shouldCancel) { probe in
            do throws(JPEGError) {
                return .success(try body(bytes, probe))
            } catch {
                return .failure(error)
            }
        }
    }
    return try result.get()
}

/// Runs `body` with the C description of `lender`'s blocks (nil without a lender), which the handle being
/// created copies.
private func withLargeBlocks<R>(of lender: LargeBlockLender?, _ body: (UnsafePointer<pb_large_blocks>?) -> R) -> R {
    guard let lender else { return body(nil) }
    return withUnsafePointer(to: lender.blocks) { body($0) }
}

/// What the three handles share: the C handle, made with the cancel callback and the large blocks and freed in
/// deinit, the probe and the lender it holds raw pointers to, and a failed call's error read back from it.
class ShimHandle {
    fileprivate let raw: OpaquePointer
    /// Kept alive here because the C side holds raw pointers to them (released after `destroy` has run).
    private let probe: CancellationProbe?
    private let lender: LargeBlockLender?
    private let failure: (OpaquePointer) -> UnsafePointer<pb_jpeg_failure>
    private let destroy: (OpaquePointer) -> Void

    /// `create(callback, context, blocks)` makes the handle (nil: out of memory, said of the JPEG `kind`);
    /// libjpeg's large blocks come from `pool` (none: malloc's). `failure` reads the failure the handle recorded,
    /// `destroy` frees it.
    init(_ kind: String, probe: CancellationProbe?, pool: BufferPool?,
         create: (pb_jpeg_cancel_fn?, UnsafeMutableRawPointer?, UnsafePointer<pb_large_blocks>?) -> OpaquePointer?,
         failure: @escaping (OpaquePointer) -> UnsafePointer<pb_jpeg_failure>,
         destroy: @escaping (OpaquePointer) -> Void) throws(JPEGError) {
        let lender = pool.map(LargeBlockLender.init)
        let made = withLargeBlocks(of: lender) { blocks in
            create(probe == nil ? nil : cancellationCallback, probe?.context, blocks)
        }
        guard let raw = made else { throw .outOfMemory("to start a JPEG \(kind)") }
        self.raw = raw
        self.probe = probe
        self.lender = lender
        self.failure = failure
        self.destroy = destroy
    }

    deinit { destroy(raw) }

    /// Throws the failure the handle recorded when a call's `status` says it failed.
    fileprivate func check(_ status: Int32) throws(JPEGError) {
        guard status != 0 else { return }
        throw JPEGError(failure(raw).pointee)
    }

    /// The file `call(&output, &length)` finished in the handle's buffer, copied (the buffer is freed with the
    /// handle).
    fileprivate func copiedOutput(_ call: (inout UnsafePointer<UInt8>?, inout Int) -> Int32)
        throws(JPEGError) -> [UInt8] {
        var output: UnsafePointer<UInt8>? = nil
        var length = 0
        try check(call(&output, &length))
        guard let output else { return [] }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }
}

/// One `pb_jpeg_decoder` (a `jpeg_decompress_struct` with our error manager).
final class DecoderHandle: ShimHandle {
    /// `pb_jpeg_decoder_create`; `maxScans` bounds progressive scans (0: no bound). libjpeg's large blocks come
    /// from `pool` (none: malloc's, for a handle that only reads headers).
    init(maxScans: Int, probe: CancellationProbe?, pool: BufferPool?) throws(JPEGError) {
        try super.init("decoder", probe: probe, pool: pool, create: { callback, context, blocks in
            pb_jpeg_decoder_create(Int32(clamping: maxScans), callback, context, blocks)
        }, failure: { pb_jpeg_decoder_failure($0) }, destroy: { pb_jpeg_decoder_destroy($0) })
    }

    /// `jpeg_read_header` over `bytes`, which must stay valid for the life of the handle.
    /// Returns the header and, when `saveEXIF`, a copy of the first APP1 Exif payload.
    func readHeader(_ bytes: UnsafeBufferPointer<UInt8>, saveEXIF: Bool) throws(JPEGError)
        -> (header: pb_jpeg_header, exif: [UInt8]?) {
        var header = pb_jpeg_header()
        try check(pb_jpeg_decoder_read_header(raw, bytes.baseAddress, bytes.count, saveEXIF ? 1 : 0, &header))
        var exif: [UInt8]? = nil
        if let start = header.exif {
            exif = Array(UnsafeBufferPointer(start: start, count: header.exif_length))
        }
        return (header, exif)
    }

    /// The payloads of the APP2 "ICC_PROFILE" segments in file order (identifier removed), copied; empty
    /// unless the header was read with `saveEXIF`.
    func iccChunks() -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var data: UnsafePointer<UInt8>? = nil
        var length = 0
        while pb_jpeg_decoder_icc_chunk(raw, Int32(chunks.count), &data, &length) != 0, let start = data {
            chunks.append(Array(UnsafeBufferPointer(start: start, count: length)))
        }
        return chunks
    }

    /// `jpeg_start_decompress` at scale `scale`/8; returns the output size and 3 (RGB) or 4 (CMYK) components.
    func start(scale: Int) throws(JPEGError) -> (width: Int, height: Int, components: Int) {
        var width: Int32 = 0, height: Int32 = 0, components: Int32 = 0
        try check(pb_jpeg_decoder_start(raw, Int32(scale), &width, &height, &components))
        return (Int(width), Int(height), Int(components))
    }

    /// `jpeg_read_scanlines` until `maxRows` rows (each `stride` bytes apart) are read or the image ends.
    func readRows(into buffer: UnsafeMutablePointer<UInt8>, stride: Int, maxRows: Int) throws(JPEGError) -> Int {
        var rowsRead: Int32 = 0
        try check(pb_jpeg_decoder_read_rows(raw, buffer, stride, Int32(maxRows), &rowsRead))
        return Int(rowsRead)
    }

    /// `jpeg_finish_decompress`.
    func finish() throws(JPEGError) { try check(pb_jpeg_decoder_finish(raw)) }

    /// Before `start`: the fast integer IDCT (`JDCT_IFAST`) instead of the accurate one, and the simple
    /// (replicating) chroma upsampling instead of the smooth one.
    func setSpeed(fastIDCT: Bool, fancyUpsampling: Bool) throws(JPEGError) {
        try check(pb_jpeg_decoder_set_speed(raw, fastIDCT ? 1 : 0, fancyUpsampling ? 1 : 0))
    }

    /// After `start`: one iMCU in output pixels, the unit of column cropping and of cheap row skipping.
    func iMCUSize() throws(JPEGError) -> (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        try check(pb_jpeg_decoder_imcu_size(raw, &width, &height))
        return (Int(width), Int(height))
    }

    /// `jpeg_crop_scanline`: later rows hold only output columns `offset..<offset + width`, with `offset`
    /// moved left to an iMCU boundary by libjpeg; returns the columns actually decoded.
    func cropColumns(offset: Int, width: Int) throws(JPEGError) -> (offset: Int, width: Int) {
        var offset = Int32(clamping: offset), width = Int32(clamping: width)
        try check(pb_jpeg_decoder_crop_columns(raw, &offset, &width))
        return (Int(offset), Int(width))
    }

    /// `jpeg_skip_scanlines` for up to `count` rows; returns how many were skipped.
    func skipRows(_ count: Int) throws(JPEGError) -> Int {
        var skipped: Int32 = 0
        try check(pb_jpeg_decoder_skip_rows(raw, Int32(clamping: count), &skipped))
        return Int(skipped)
    }

    /// True when the call that failed ran out of bytes: a longer read of the file may succeed.
    var dataEnded: Bool { pb_jpeg_decoder_failure(raw).pointee.dataEnded }

    /// The next output row to be read or skipped.
    var nextRow: Int { Int(pb_jpeg_decoder_next_row(raw)) }
}

/// One `pb_jpeg_encoder` (a `jpeg_compress_struct` writing to a buffer it owns).
final class EncoderHandle: ShimHandle {
    /// libjpeg's large blocks (a multi-pass encode's coefficients) come from `pool`.
    init(probe: CancellationProbe?, pool: BufferPool) throws(JPEGError) {
        try super.init("encoder", probe: probe, pool: pool, create: pb_jpeg_encoder_create,
                       failure: { pb_jpeg_encoder_failure($0) }, destroy: { pb_jpeg_encoder_destroy($0) })
    }

    /// `jpeg_set_defaults`, the options, then `jpeg_start_compress`.
    func start(_ options: pb_jpeg_encoder_options) throws(JPEGError) {
        var options = options
        try check(pb_jpeg_encoder_start(raw, &options))
    }

    /// `jpeg_write_scanlines` for `count` rows, each `stride` bytes apart.
    func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws(JPEGError) {
        try check(pb_jpeg_encoder_write_rows(raw, rows, stride, Int32(count)))
    }

    /// `jpeg_finish_compress`; returns a copy of the finished file.
    func finish() throws(JPEGError) -> [UInt8] {
        try copiedOutput { output, length in pb_jpeg_encoder_finish(raw, &output, &length) }
    }
}

/// One `pb_jpeg_transcoder` (a `jpeg_decompress_struct` and a `jpeg_compress_struct` sharing our error
/// manager, for copying coefficients).
final class TranscoderHandle: ShimHandle {
    /// `pb_jpeg_transcoder_create`; `maxScans` bounds progressive scans (0: no bound). libjpeg's large blocks
    /// (every coefficient of the source, the new file's) come from `pool`.
    init(maxScans: Int, probe: CancellationProbe?, pool: BufferPool) throws(JPEGError) {
        try super.init("transcoder", probe: probe, pool: pool, create: { callback, context, blocks in
            pb_jpeg_transcoder_create(Int32(clamping: maxScans), callback, context, blocks)
        }, failure: { pb_jpeg_transcoder_failure($0) }, destroy: { pb_jpeg_transcoder_destroy($0) })
    }

    /// `jpeg_read_header` over `bytes`, which must stay valid for the life of the handle.
    func readHeader(_ bytes: UnsafeBufferPointer<UInt8>) throws(JPEGError) -> pb_jpeg_header {
        var header = pb_jpeg_header()
        try check(pb_jpeg_transcoder_read_header(raw, bytes.baseAddress, bytes.count, &header))
        return header
    }

    /// `jpeg_read_coefficients`: every scan entropy-decoded, nothing inverse-transformed.
    func readCoefficients() throws(JPEGError) { try check(pb_jpeg_transcoder_read_coefficients(raw)) }

    /// After `readCoefficients`: one component's sampling, block counts, quantisation table and, when asked,
    /// a copy of its stored blocks.
    func component(_ index: Int, copyBlocks: Bool) throws(JPEGError) -> (pb_jpeg_component_blocks, [Int16]) {
        var info = pb_jpeg_component_blocks()
        try check(pb_jpeg_transcoder_component(raw, Int32(index), &info, nil))
        guard copyBlocks else { return (info, []) }
        var blocks = [Int16](repeating: 0, count: Int(info.stored_width) * Int(info.stored_height) * 64)
        try blocks.withUnsafeMutableBufferPointer { (buffer) throws(JPEGError) in
            try check(pb_jpeg_transcoder_component(raw, Int32(index), &info, buffer.baseAddress))
        }
        return (info, blocks)
    }

    /// After `readCoefficients`: component `index`'s quantised DC terms, one a real block, row by row.
    func dcTerms(_ index: Int, count: Int) throws(JPEGError) -> [Int16] {
        var terms = [Int16](repeating: 0, count: count)
        try terms.withUnsafeMutableBufferPointer { (buffer) throws(JPEGError) in
            try check(pb_jpeg_transcoder_dc_terms(raw, Int32(index), buffer.baseAddress, count))
        }
        return terms
    }

    /// `jpeg_copy_critical_parameters`, the blocks under `region` moved as `orientation` says,
    /// `jpeg_write_coefficients` and `jpeg_finish_compress`; returns a copy of the new file.
    func run(region: JPEGRegion, orientation: Int, optimizeCoding: Bool) throws(JPEGError) -> [UInt8] {
        try copiedOutput { output, length in
            pb_jpeg_transcoder_run(raw, Int32(clamping: region.x), Int32(clamping: region.y),
                                   Int32(clamping: region.width), Int32(clamping: region.height),
                                   Int32(orientation), optimizeCoding ? 1 : 0, &output, &length)
        }
    }
}

extension pb_jpeg_failure {
    /// The data ended before libjpeg had read what it needed (the shim's typed reason, not libjpeg's words).
    var dataEnded: Bool {
        (status == Int32(PB_JPEG_ERROR.rawValue) || status == Int32(PB_JPEG_WARNING.rawValue))
            && reason == Int32(PB_JPEG_CORRUPT_TRUNCATED)
    }
}

extension JPEGError {
    /// The Swift error for a failure recorded by the shim, with libjpeg's text made readable.
    init(_ failure: pb_jpeg_failure) {
        let message = withUnsafeBytes(of: failure.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        switch UInt32(failure.status) {
        case PB_JPEG_CANCELLED.rawValue:
            self = .cancelled
        case PB_JPEG_TOO_MANY_SCANS.rawValue:
            self = .corrupt(message)
        case PB_JPEG_OUT_OF_MEMORY.rawValue:
            self = .outOfMemory(message)
        case PB_JPEG_UNSUPPORTED.rawValue:
            switch UInt32(failure.reason) {
            case PB_JPEG_UNSUPPORTED_PRECISION.rawValue: self = .unsupported("\(failure.detail)-bit samples")
            case PB_JPEG_UNSUPPORTED_LOSSLESS.rawValue: self = .unsupported("lossless JPEG")
            case PB_JPEG_UNSUPPORTED_HIERARCHICAL.rawValue: self = .unsupported("hierarchical JPEG")
            case PB_JPEG_UNSUPPORTED_COLOR.rawValue: self = .unsupported(message)
            default: self = .unsupported(JPEGError.readable(message))
            }
        case PB_JPEG_MISUSE.rawValue:
            self = .internalError(message)
        default:  // PB_JPEG_ERROR, PB_JPEG_WARNING
            if failure.dataEnded {
                self = .corrupt("truncated file: premature end of data")
            } else if failure.reason == Int32(PB_JPEG_CORRUPT_EMPTY_IMAGE) {
                self = .corrupt("the frame header gives a zero width or height")
            } else {
                self = .corrupt(JPEGError.readable(message))
            }
        }
    }

    /// libjpeg's text without its "Corrupt JPEG data: " prefix, starting in lower case unless it is an acronym.
    static func readable(_ message: String) -> String {
        var text = Substring(message)
        for prefix in ["Corrupt JPEG data: ", "Warning: "] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        guard let first = text.first, let second = text.dropFirst().first, second.isLowercase else {
            return String(text)
        }
        return first.lowercased() + text.dropFirst()
    }
}
