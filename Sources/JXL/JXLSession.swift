import Foundation
import CJXL
import ImageCodec

/// One libjxl 0.7 decoder over a file, fed from its `ByteSource` a chunk at a time: `next` runs the decoder to
/// its next event and reads more of the file only when libjxl asks for it, so a probe reads the first
/// kilobytes and a decode asks `shouldCancel` between chunks. libjxl decodes each group as soon as its data is
/// in, so the chunks pace the work: 4000x3000, 11 chunks lossy and 96 lossless, at most 41 ms of CPU between two
/// checks (measured with 256 KB chunks).
///
/// A decode (not a probe) runs libjxl's thread runner over every core: a 12-MP JPEG XL holds 81 MB while it
/// decodes, more than the memory window lets two of beside their pages, and on one thread the other cores stood
/// idle (issue 34's bench: 9.1 s of CPU in 16.4 s of wall).
final class JXLSession {
    private let decoder: OpaquePointer
    private var runner: UnsafeMutableRawPointer?
    private let source: any ByteSource
    /// The bytes handed to libjxl: those it has not consumed yet, then the next chunk. Owned here, not a Swift
    /// array, because libjxl keeps the pointer between calls until `JxlDecoderReleaseInput`.
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var filled = 0
    /// The next offset of the file to read, and where reading stops (`limit`, at most the file's size).
    private var nextRead = 0
    private let limit: Int
    /// Every byte of the file is in libjxl's input.
    private var wholeFileGiven = false

    /// Bytes read from the file at a time: a decode's, and a probe's (the headers are in the first kilobytes).
    static let chunk = 256 << 10
    static let headerChunk = 32 << 10
    private let chunk: Int

    /// A decoder that reports `events` (JXL_DEC_* flags), gives pixels as stored (libjxl applies the
    /// codestream's orientation unless told not to: the engine turns the picture, so it is turned once), with
    /// alpha not premultiplied, and reads at most `limit` bytes of `source`.
    /// `threads`: more than 1 decodes groups side by side on that many threads (a decode's, not a probe's).
    init(_ source: any ByteSource, events: Int32, limit: Int = Int.max, chunk: Int = JXLSession.chunk,
         threads: Int = 1) throws(CodecError) {
        guard let decoder = JxlDecoderCreate(nil) else { throw .outOfMemory("not enough memory to decode the JPEG XL") }
        self.decoder = decoder
        self.source = source
        self.limit = min(limit, source.count)
        self.chunk = chunk
        capacity = chunk
        buffer = .allocate(capacity: capacity)
        guard JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS,
              JxlDecoderSetKeepOrientation(decoder, 1) == JXL_DEC_SUCCESS,
              JxlDecoderSetUnpremultiplyAlpha(decoder, 1) == JXL_DEC_SUCCESS else {
            throw .unsupported("unsupported JPEG XL (libjxl refuses the decoder's settings)")
        }
        if threads > 1, let runner = JxlThreadParallelRunnerCreate(nil, threads) {
            self.runner = runner
            guard JxlDecoderSetParallelRunner(decoder, JxlThreadParallelRunner, runner) == JXL_DEC_SUCCESS else {
                throw .unsupported("unsupported JPEG XL (libjxl refuses its thread runner)")
            }
        }
    }

    /// The threads a decode runs on: the cores, at most 8.
    static let decodeThreads = min(8, ProcessInfo.processInfo.activeProcessorCount)

    deinit {
        JxlDecoderDestroy(decoder)
        if let runner { JxlThreadParallelRunnerDestroy(runner) }
        buffer.deallocate()
    }

    /// Runs the decoder to its next event (or error), feeding it the file as it asks. Asks `shouldCancel`
    /// before each chunk is read. Once the whole file is in, libjxl asking for more is JXL_DEC_ERROR, as libjxl
    /// itself answers when its input is closed (`JxlDecoderCloseInput`), which it is not here.
    func next(shouldCancel: () -> Bool = { false }) throws(CodecError) -> JxlDecoderStatus {
        while true {
            let status = JxlDecoderProcessInput(decoder)
            guard status == JXL_DEC_NEED_MORE_INPUT else { return status }
            // Trap: closed input that runs out makes Debian's libjxl 0.7 print "decode.cc:2143: missing input".
            if wholeFileGiven { return JXL_DEC_ERROR }
            try feed(shouldCancel: shouldCancel)
        }
    }

    private func feed(shouldCancel: () -> Bool) throws(CodecError) {
        let unconsumed = JxlDecoderReleaseInput(decoder)
        guard unconsumed <= filled else { throw .internalError("libjxl released more input than it was given") }
        if unconsumed > 0 && unconsumed < filled {
            (buffer).update(from: buffer + (filled - unconsumed), count: unconsumed)
        }
        filled = unconsumed
        guard nextRead < limit else {
            throw limit < source.count ? .corrupt("corrupt JPEG XL (its header does not end)")
                                       : .corrupt("corrupt JPEG XL (truncated file)")
        }
        if shouldCancel() { throw .cancelled }
        let bytes = try source.read(from: nextRead, count: min(chunk, limit - nextRead))
        guard !bytes.isEmpty else { throw .corrupt("corrupt JPEG XL (truncated file)") }
        if filled + bytes.count > capacity {
            // Grows only when libjxl needs more than a chunk at once (one big section of the codestream).
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity * 2, filled + bytes.count))
            bigger.update(from: buffer, count: filled)
            buffer.deallocate()
            buffer = bigger
            capacity = max(capacity * 2, filled + bytes.count)
        }
        bytes.withUnsafeBufferPointer { (buffer + filled).update(from: $0.baseAddress!, count: bytes.count) }
        filled += bytes.count
        nextRead += bytes.count
        guard JxlDecoderSetInput(decoder, buffer, filled) == JXL_DEC_SUCCESS else {
            throw .internalError("libjxl refused its input")
        }
        wholeFileGiven = nextRead >= source.count
    }

    /// The basic info, after JXL_DEC_BASIC_INFO.
    func basicInfo() throws(CodecError) -> JxlBasicInfo {
        var info = JxlBasicInfo()
        guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
            throw .corrupt("corrupt JPEG XL (its header cannot be read)")
        }
        return info
    }

    /// After JXL_DEC_COLOR_ENCODING: makes the decoded pixels sRGB where libjxl has the choice, and returns
    /// the ICC profile of those pixels (nil when libjxl cannot describe them as one).
    ///
    /// Trap: an XYB-encoded (lossy) picture whose original space is an ICC profile comes out in *linear* sRGB
    /// unless a preference is set (grayscale.jxl did): as 8 bits that is a dark, banded picture. So where the
    /// pixels are not the original's own values, ask for sRGB (its grey for a grey picture); the PDF then
    /// gets the profile of the pixels handed out, which libjxl writes for whichever space it chose.
    func settleColour(_ info: JxlBasicInfo) -> [UInt8]? {
        if info.uses_original_profile == 0 {
            var original = JxlColorEncoding()
            let encoded = JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_ORIGINAL,
                                                             &original) == JXL_DEC_SUCCESS
            // An original described by enums (sRGB, Display P3...) is what libjxl renders into: keep it.
            if !encoded || original.transfer_function == JXL_TRANSFER_FUNCTION_LINEAR {
                var sRGB = JxlColorEncoding()
                sRGB.color_space = info.num_color_channels == 1 ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB
                sRGB.white_point = JXL_WHITE_POINT_D65
                sRGB.primaries = JXL_PRIMARIES_SRGB
                sRGB.transfer_function = JXL_TRANSFER_FUNCTION_SRGB
                sRGB.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL
                _ = JxlDecoderSetPreferredColorProfile(decoder, &sRGB)
            }
        }
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS,
              size > 0, size <= EmbeddedProfile.maximumSize else { return nil }
        var profile = [UInt8](repeating: 0, count: size)
        let status = profile.withUnsafeMutableBufferPointer {
            JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, $0.baseAddress, size)
        }
        return status == JXL_DEC_SUCCESS ? profile : nil
    }

    /// Hands libjxl `picture`'s buffer for the current frame (after JXL_DEC_NEED_IMAGE_OUT_BUFFER): 8-bit
    /// samples, `picture.channels` of them (3 RGB, 4 RGBA), rows packed.
    func setOutput(_ picture: JXLPicture) throws(CodecError) {
        var format = JxlPixelFormat(num_channels: UInt32(picture.channels), data_type: JXL_TYPE_UINT8,
                                    endianness: JXL_NATIVE_ENDIAN, align: 0)
        var size = 0
        guard JxlDecoderImageOutBufferSize(decoder, &format, &size) == JXL_DEC_SUCCESS,
              size == picture.output.count else {
            throw .unsupported("unsupported JPEG XL (libjxl refuses 8-bit output)")
        }
        guard JxlDecoderSetImageOutBuffer(decoder, &format, picture.output.baseAddress, size) == JXL_DEC_SUCCESS else {
            throw .unsupported("unsupported JPEG XL (libjxl refuses 8-bit output)")
        }
    }

    /// Asks libjxl for the picture so far, after JXL_DEC_FRAME_PROGRESSION (a 1/8 detail picture from the DC).
    func flush() -> Bool { JxlDecoderFlushImage(decoder) == JXL_DEC_SUCCESS }

    func setProgressiveDetail(_ detail: JxlProgressiveDetail) -> Bool {
        JxlDecoderSetProgressiveDetail(decoder, detail) == JXL_DEC_SUCCESS
    }

    /// The version of the libjxl decoding here, as a number (0.7.0 is 7000).
    static var version: String { "libjxl \(JxlDecoderVersion())" }
}
