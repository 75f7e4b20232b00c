import COpenJPEG
import ImageCodec

/// One OpenJPEG 2.5 decompressor over a file: the `.jp2` container or a bare codestream, read through the
/// codec's `ByteSource` by OpenJPEG's stream callbacks (it reads what it needs, where it is), with its error and
/// warning messages kept so that a refusal can say OpenJPEG's reason.
final class OpenJPEGSession {
    let codec: UnsafeMutablePointer<opj_codec_t?>
    private let stream: UnsafeMutablePointer<opj_stream_t?>
    private let reader: Reader
    private let messages: Messages
    private(set) var image: UnsafeMutablePointer<opj_image_t>?

    /// The `.jp2` signature box, and a codestream's SOC + SIZ markers.
    static let jp2Signature: [UInt8] = [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
    static let codestreamSignature: [UInt8] = [0xFF, 0x4F, 0xFF, 0x51]

    /// The file in `source`, of the kind its first bytes say; its main header read (`opj_read_header`: size,
    /// components; no tile data). OpenJPEG reads `readSize` bytes at a time: a probe needs a few kilobytes, a
    /// decode reads the codestream through.
    init(_ source: any ByteSource, readSize: Int = 1 << 20) throws(CodecError) {
        let head = try source.read(from: 0, count: 12)
        let format: OPJ_CODEC_FORMAT
        if head.starts(with: Self.jp2Signature) {
            format = OPJ_CODEC_JP2
        } else if head.starts(with: Self.codestreamSignature) {
            format = OPJ_CODEC_J2K
        } else {
            throw .unsupported("not a JPEG 2000 file")
        }
        guard let codec = opj_create_decompress(format) else {
            throw .outOfMemory("not enough memory to decode the JPEG 2000")
        }
        self.codec = codec
        messages = Messages()
        reader = Reader(source)
        let context = Unmanaged.passUnretained(messages).toOpaque()
        opj_set_error_handler(codec, { message, context in
            guard let message, let context else { return }
            Unmanaged<Messages>.fromOpaque(context).takeUnretainedValue().errors.append(String(cString: message))
        }, context)
        opj_set_warning_handler(codec, { message, context in
            guard let message, let context else { return }
            let messages = Unmanaged<Messages>.fromOpaque(context).takeUnretainedValue()
            if messages.warnings.count < 20 { messages.warnings.append(String(cString: message)) }
        }, context)
        opj_set_info_handler(codec, { _, _ in }, nil)
        guard let stream = opj_stream_create(readSize, 1) else {
            opj_destroy_codec(codec)
            throw .outOfMemory("not enough memory to decode the JPEG 2000")
        }
        self.stream = stream
        opj_stream_set_user_data(stream, Unmanaged.passUnretained(reader).toOpaque(), nil)
        opj_stream_set_user_data_length(stream, UInt64(source.count))
        opj_stream_set_read_function(stream) { buffer, count, context in
            guard let buffer, let context else { return -1 }
            return Unmanaged<Reader>.fromOpaque(context).takeUnretainedValue().read(into: buffer, count: count)
        }
        opj_stream_set_skip_function(stream) { count, context in
            guard let context else { return -1 }
            return Unmanaged<Reader>.fromOpaque(context).takeUnretainedValue().skip(count)
        }
        opj_stream_set_seek_function(stream) { offset, context in
            guard let context else { return 0 }
            return Unmanaged<Reader>.fromOpaque(context).takeUnretainedValue().seek(to: offset) ? 1 : 0
        }
        var parameters = opj_dparameters_t()
        opj_set_default_decoder_parameters(&parameters)
        // One thread: the engine already decodes photos side by side on every core (and OPJ_NUM_THREADS, if
        // set in the environment, would otherwise start a pool per decode).
        guard opj_setup_decoder(codec, &parameters) != 0, opj_codec_set_threads(codec, 0) != 0 else {
            throw .unsupported("unsupported JPEG 2000 (OpenJPEG refuses its decoder's settings)")
        }
        var image: UnsafeMutablePointer<opj_image_t>?
        let read = opj_read_header(stream, codec, &image)
        self.image = image
        try reader.rethrow()
        guard read != 0, let image, image.pointee.numcomps > 0, image.pointee.comps != nil else {
            throw failure("its header cannot be read")
        }
    }

    deinit {
        if let image { opj_image_destroy(image) }
        opj_stream_destroy(stream)
        opj_destroy_codec(codec)
    }

    /// The fewest resolution levels of any component (the main header's): `numresolutions - 1` is the
    /// largest reduction factor OpenJPEG accepts.
    var resolutionLevels: Int {
        guard let info = opj_get_cstr_info(codec) else { return 1 }
        var copy: UnsafeMutablePointer<opj_codestream_info_v2_t>? = info
        defer { opj_destroy_cstr_info(&copy) }
        let components = Int(info.pointee.nbcomps)
        guard let tccp = info.pointee.m_default_tile_info.tccp_info, components > 0 else { return 1 }
        var fewest = Int.max
        for c in 0..<components { fewest = min(fewest, Int(tccp[c].numresolutions)) }
        return max(1, fewest)
    }

    /// Decodes `area` (reference-grid coordinates, full resolution) at 1/2^`factor` of it into `image`.
    ///
    /// Trap: OpenJPEG 2.5 has no cancel callback, and failing a read of the stream to stop it does not help:
    /// opj_decode reads the codestream up front (a 25 MB file in 512-pixel tiles: its ~100 reads of 256 KB
    /// within the first millisecond of a 4.7 s decode), so a cancel is noticed before and after it only.
    func decode(area: (x0: Int, y0: Int, x1: Int, y1: Int), factor: Int) throws(CodecError) {
        guard let image else { throw .internalError("no JPEG 2000 header") }
        if factor > 0 && opj_set_decoded_resolution_factor(codec, UInt32(factor)) == 0 {
            throw failure("its resolution levels cannot be reduced by \(factor)")
        }
        guard opj_set_decode_area(codec, image, Int32(area.x0), Int32(area.y0), Int32(area.x1), Int32(area.y1)) != 0 else {
            throw failure("the area to decode is refused")
        }
        let decoded = opj_decode(codec, stream, image)
        try reader.rethrow()
        guard decoded != 0 else { throw failure("damaged or truncated data") }
        guard opj_end_decompress(codec, stream) != 0 else { throw failure("damaged or truncated data") }
        try reader.rethrow()
    }

    /// OpenJPEG's warnings so far, for `--verbose`.
    var warnings: [String] { messages.warnings.map(Self.tidy) }

    /// A refusal naming OpenJPEG's own reason when it gave one, else `fallback`.
    func failure(_ fallback: String) -> CodecError {
        let reason = messages.errors.last.map(Self.tidy) ?? fallback
        if reason.localizedStandardContains("truncat") || reason.contains("Stream too short")
            || reason.contains("not enough data") {
            return .corrupt("corrupt JPEG 2000 (truncated file: \(reason))")
        }
        return .corrupt("corrupt JPEG 2000 (\(reason))")
    }

    private static func tidy(_ message: String) -> String {
        var text = message
        while let last = text.last, last == "\n" || last == " " || last == "." { text.removeLast() }
        return text
    }

    /// The messages OpenJPEG's handlers are given.
    final class Messages {
        var errors: [String] = []
        var warnings: [String] = []
    }

    /// The source as OpenJPEG's stream: read, skip and seek at a position of its own. A read that fails is
    /// kept and thrown once OpenJPEG returns (a C callback cannot throw).
    final class Reader {
        let source: any ByteSource
        var position = 0
        var error: CodecError?

        init(_ source: any ByteSource) { self.source = source }

        func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
            guard position < source.count else { return -1 }  // (OPJ_SIZE_T)-1: the end
            do {
                let bytes = try source.read(from: position, count: min(count, source.count - position))
                guard !bytes.isEmpty else { return -1 }
                bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
                position += bytes.count
                return bytes.count
            } catch {
                self.error = error
                return -1
            }
        }

        func skip(_ count: Int64) -> Int64 {
            let target = Int64(position) + count
            guard target >= 0, target <= Int64(source.count) else {
                position = source.count
                return -1
            }
            position = Int(target)
            return count
        }

        func seek(to offset: Int64) -> Bool {
            guard offset >= 0, offset <= Int64(source.count) else { return false }
            position = Int(offset)
            return true
        }

        func rethrow() throws(CodecError) {
            if let error { throw error }
        }
    }
}

private extension String {
    func localizedStandardContains(_ other: String) -> Bool { lowercased().contains(other.lowercased()) }
}
