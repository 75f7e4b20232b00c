import CWebP
import ImageCodec

/// One libwebp incremental decode (`WebPIDecode`) into memory the caller owns; `deinit` deletes the decoder and
/// frees what libwebp allocated on every path.
///
/// libwebp keeps a pointer to the configuration for the decoder's whole life (decode.h: "config must outlive
/// the WebPIDecoder"), so it lives on the heap here, not in a Swift local that may move.
final class WebPIncrementalDecoder {
    /// How many bytes are handed to libwebp between two calls of `shouldCancel`: a 12-Mpixel lossy photo is
    /// about 50 such steps of a few milliseconds each.
    static let bytesPerStep = 64 << 10

    /// What to decode: the part of the bitstream's picture, and the size libwebp scales it to while decoding.
    struct Options {
        var crop: PixelRegion
        var scaledWidth: Int?, scaledHeight: Int?
        var hasAlpha: Bool
        /// The decoded size: the crop's, or the scaled one.
        var outputWidth: Int { scaledWidth ?? crop.width }
        var outputHeight: Int { scaledHeight ?? crop.height }
        var bytesPerPixel: Int { hasAlpha ? 4 : 3 }
    }

    private let config: UnsafeMutablePointer<WebPDecoderConfig>
    private let decoder: OpaquePointer

    /// A decoder writing `options` into `output` (`outputWidth * bytesPerPixel` bytes a row, no padding):
    /// 8-bit RGB, or non-premultiplied RGBA when `options.hasAlpha`.
    private init(_ options: Options, output: UnsafeMutableBufferPointer<UInt8>) throws(CodecError) {
        config = .allocate(capacity: 1)
        guard WebPInitDecoderConfig(config) != 0 else {
            config.deallocate()
            throw .unsupported("unsupported WebP (libwebp's decoder does not match its headers)")
        }
        config.pointee.options.use_cropping = 1
        config.pointee.options.crop_left = Int32(options.crop.x)
        config.pointee.options.crop_top = Int32(options.crop.y)
        config.pointee.options.crop_width = Int32(options.crop.width)
        config.pointee.options.crop_height = Int32(options.crop.height)
        if let width = options.scaledWidth, let height = options.scaledHeight {
            config.pointee.options.use_scaling = 1
            config.pointee.options.scaled_width = Int32(width)
            config.pointee.options.scaled_height = Int32(height)
        }
        config.pointee.output.colorspace = options.hasAlpha ? MODE_RGBA : MODE_RGB
        config.pointee.output.is_external_memory = 1
        config.pointee.output.u.RGBA.rgba = output.baseAddress
        config.pointee.output.u.RGBA.stride = Int32(options.outputWidth * options.bytesPerPixel)
        config.pointee.output.u.RGBA.size = output.count
        // No bytes yet: they come through WebPIUpdate, step by step, so that cancellation is asked between steps.
        guard let decoder = WebPIDecode(nil, 0, config) else {
            config.deallocate()
            throw .outOfMemory("not enough memory to decode the WebP")
        }
        self.decoder = decoder
    }

    deinit {
        WebPIDelete(decoder)
        WebPFreeDecBuffer(&config.pointee.output)
        config.deallocate()
    }

    /// Decodes `bytes` (a whole RIFF file up to its image, or a frame's ALPH/VP8/VP8L chunks) as `options` say into
    /// `output`, which must hold `outputWidth * outputHeight * bytesPerPixel` bytes. Asks `shouldCancel` before
    /// each step of `bytesPerStep` bytes.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ options: Options,
                       into output: UnsafeMutableBufferPointer<UInt8>,
                       shouldCancel: () -> Bool) throws(CodecError) {
        precondition(output.count >= options.outputWidth * options.outputHeight * options.bytesPerPixel,
                     "WebP output buffer too small")
        let session = try WebPIncrementalDecoder(options, output: output)
        var fed = 0
        var status = VP8_STATUS_SUSPENDED
        while fed < bytes.count {
            if shouldCancel() { throw .cancelled }
            fed = min(bytes.count, fed + bytesPerStep)
            // WebPIUpdate reads the caller's bytes in place (WebPIAppend would copy each step).
            status = WebPIUpdate(session.decoder, bytes.baseAddress, fed)
            if status != VP8_STATUS_SUSPENDED { break }
            // Trap: libwebp 1.2's incremental VP8 decoder goes on through every macroblock row below a crop (the
            // one-shot WebPDecode stops at the crop's bottom): a crop of the top quarter cost a whole decode. So
            // stop feeding it once every output row is written.
            if session.rowsWritten >= options.outputHeight {
                status = VP8_STATUS_OK
                break
            }
        }
        // Trap: with every byte given, an incremental decode that still wants more says SUSPENDED, not
        // NOT_ENOUGH_DATA: that is a file cut short.
        guard status == VP8_STATUS_OK else { throw failure(status) }
        let output = session.config.pointee.output
        guard Int(output.width) == options.outputWidth, Int(output.height) == options.outputHeight else {
            throw .corrupt("corrupt WebP (decoded \(output.width)x\(output.height) pixels, not the "
                          + "\(options.outputWidth)x\(options.outputHeight) asked for)")
        }
    }

    /// How many output rows libwebp has written so far (`WebPIDecGetRGB`'s last_y); 0 before the headers are read.
    private var rowsWritten: Int {
        var lastRow: Int32 = 0
        guard WebPIDecGetRGB(decoder, &lastRow, nil, nil, nil) != nil else { return 0 }
        return Int(lastRow)
    }

    /// The user's words for a libwebp status.
    static func failure(_ status: VP8StatusCode) -> CodecError {
        switch status {
        case VP8_STATUS_SUSPENDED, VP8_STATUS_NOT_ENOUGH_DATA: return .corrupt("corrupt WebP (truncated file)")
        case VP8_STATUS_OUT_OF_MEMORY: return .outOfMemory("not enough memory to decode the WebP")
        case VP8_STATUS_UNSUPPORTED_FEATURE: return .unsupported("unsupported WebP (a feature libwebp 1.2 cannot decode)")
        case VP8_STATUS_INVALID_PARAM: return .corrupt("corrupt WebP (its headers do not fit its picture)")
        default: return .corrupt("corrupt WebP (damaged image data)")
        }
    }

    /// `WebPGetFeatures` over the first bytes of a file or a frame: size, alpha, animation, lossy or lossless.
    static func features(_ bytes: [UInt8]) -> (WebPBitstreamFeatures?, VP8StatusCode) {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        return (status == VP8_STATUS_OK ? features : nil, status)
    }
}
