import CWebP
import Geometry
import ImageCodec
import Imaging

/// WebP through libwebp 1.2: lossy, lossless, with alpha, extended (ICC, EXIF, XMP) and animated files (their
/// first frame, with a warning).
///
/// A still picture is decoded by libwebp's incremental decoder, cropped to the region and scaled while decoding
/// (`WebPDecoderConfig.options`), so a page that needs a quarter of a photo's pixels never holds the rest. An
/// animation's first frame is decoded the same way (cropped, at full resolution) onto a white canvas and shrunk
/// by a whole factor on the way (`BoxShrink`); the engine's resampler does the rest.
public struct WebPCodec: SinglePictureCodec {
    public init() {}

    public var name: String { "WebP" }
    public var libraryVersion: String { WebPLibrary.version }
    public var fileExtensions: Set<String> { ["webp"] }

    public func recognises(_ prefix: [UInt8]) -> Bool { WebPLayout.isWebP(prefix) }

    public func damageInSignature(_ prefix: [UInt8]) -> String? {
        guard prefix.count >= 16, !recognises(prefix) else { return nil }
        let riff = prefix[0..<4].elementsEqual(WebPLayout.riff), webp = prefix[8..<12].elementsEqual(WebPLayout.webp)
        let vp8 = prefix[12..<15].elementsEqual(Array("VP8".utf8))
        // One of the two words damaged with a WebP chunk where the first one belongs.
        return (riff || webp) && vp8 ? "corrupt WebP (damaged signature)" : nil
    }

    // Per pixel, measured on a 4000x3000 q85 lossy photo of 2.9 MB (WebPPerformanceMeasurements, thread CPU):
    // 280 ms whole, of which ~275 ms are spent whatever the output size (every macroblock is entropy-decoded and
    // reconstructed; scaling inside libwebp saves memory, not time), so ~23 ns per stored pixel and little per
    // decoded pixel. A crop saves the rows below it (the top quarter: 94 ms), which this model cannot say.
    public var cost: DecodeCost { DecodeCost(perStoredPixel: 22, perDecodedPixel: 1) }

    /// The picture the file holds: the still image, or an animation's canvas (its first frame is used).
    public func probePicture(_ source: any ByteSource) throws(CodecError) -> ImageHeader {
        let layout = try WebPLayout.read(source)
        let features = try Self.features(source, layout)
        var header = ImageHeader(width: Int(features.width), height: Int(features.height))
        header.orientation = .exif
        if let profile = layout.iccProfile {
            header.colorProfile = Self.profile(profile)
        } else if let note = layout.iccNote {
            header.colorProfile = .unusable(note)
        }
        if let exif = layout.exif {
            if let tiff = WebPLayout.tiffStructure(exif) {
                header.exif = tiff
            } else {
                header.notes.append("its EXIF chunk is not a TIFF structure and was ignored")
            }
        }
        header.xmp = layout.xmp
        header.notes += layout.notes
        if features.has_animation != 0 {
            let frames = layout.frameCount == 1 ? "1 frame" : "\(layout.frameCount) frames"
            header.warnings.append("animated WebP (\(frames)): only the first frame is used")
            header.detail = "animated"
        } else {
            header.detail = (features.format == 2 ? "lossless" : "lossy") + (features.has_alpha != 0 ? " with alpha" : "")
        }
        return header
    }

    public func decodePicture(_ source: any ByteSource, _ request: DecodeRequest, pool: BufferPool,
                              shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        let layout = try WebPLayout.read(source)
        let features = try Self.features(source, layout)
        let width = Int(features.width), height = Int(features.height)
        try request.checkPixels(width: width, height: height)
        if features.has_animation != 0 {
            return try decodeFirstFrame(source, layout, canvasWidth: width, canvasHeight: height, request,
                                        pool: pool, shouldCancel: shouldCancel)
        }
        guard let range = layout.still, let bitstream = layout.bitstream else {
            throw .corrupt("corrupt WebP (no image data)")
        }
        guard let plan = WebPDecodePlan.make(width: width, height: height, region: request.region,
                                             minimumWidth: request.minimumWidth, minimumHeight: request.minimumHeight,
                                             lossy: !bitstream.lossless) else {
            throw .internalError("the region asked for lies outside the \(width)x\(height) picture")
        }
        let bytes = try Self.read(source, range)
        if shouldCancel() { throw .cancelled }
        // Trap: a lossless bitstream's alpha bit is only a hint (the VP8L spec says so) and libwebp writes the
        // pixels' real alpha all the same (bad_palette_index.webp is transparent with the bit clear): always RGBA.
        let hasAlpha = features.has_alpha != 0 || bitstream.lossless
        let image = try Self.decode(bytes, plan: plan, hasAlpha: hasAlpha, pool: pool, shouldCancel: shouldCancel)
        return DecodedImage(image: image, storedWidth: width, storedHeight: height,
                            covers: Rect(x: Double(plan.covers.x), y: Double(plan.covers.y),
                                         width: Double(plan.covers.width), height: Double(plan.covers.height)),
                            scale: plan.scale)
    }

    // MARK: - Still pictures

    /// Decodes `plan` of the bitstream in `bytes` as 8-bit RGB in a buffer from `pool`, alpha composited over white.
    static func decode(_ bytes: [UInt8], plan: WebPDecodePlan, hasAlpha: Bool, pool: BufferPool,
                       shouldCancel: () -> Bool) throws(CodecError) -> RGBImage {
        let options = WebPIncrementalDecoder.Options(crop: plan.crop, scaledWidth: plan.scaledWidth,
                                                     scaledHeight: plan.scaledHeight, hasAlpha: hasAlpha)
        let decodedWidth = options.outputWidth, decodedHeight = options.outputHeight
        let keep = plan.keep
        let direct = !hasAlpha && keep.width == decodedWidth && keep.height == decodedHeight
        // Every byte of the buffer is written by libwebp (or by the copy below) before it is read: pooled.
        let decoded = try Self.decodePooled(bytes, options, byteCount: decodedWidth * decodedHeight * options.bytesPerPixel,
                                            pool: pool, shouldCancel: shouldCancel)
        if direct { return RGBImage(width: decodedWidth, height: decodedHeight, pixels: decoded) }
        var rgb = pool.take(keep.width * keep.height * 3)
        decoded.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { out in
                let stride = decodedWidth * options.bytesPerPixel
                for row in 0..<keep.height {
                    let from = source.baseAddress! + (keep.y + row) * stride + keep.x * options.bytesPerPixel
                    let to = out.baseAddress! + row * keep.width * 3
                    if hasAlpha {
                        compositeOverWhite(from, into: to, count: keep.width)
                    } else {
                        to.update(from: from, count: keep.width * 3)
                    }
                }
            }
        }
        pool.giveBack(decoded)
        return RGBImage(width: keep.width, height: keep.height, pixels: rgb)
    }

    /// `bytes` decoded as `options` say into a buffer of `byteCount` bytes from `pool`, which goes back to it
    /// when the decode fails or is cancelled.
    static func decodePooled(_ bytes: [UInt8], _ options: WebPIncrementalDecoder.Options, byteCount: Int,
                             pool: BufferPool, shouldCancel: () -> Bool) throws(CodecError) -> [UInt8] {
        var pixels = pool.take(byteCount)
        let result: Result<Void, CodecError> = bytes.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                Result { () throws(CodecError) in
                    try WebPIncrementalDecoder.decode(input, options, into: output, shouldCancel: shouldCancel)
                }
            }
        }
        if case .failure(let error) = result {
            pool.giveBack(pixels)
            throw error
        }
        return pixels
    }

    /// `count` RGBA pixels over white into RGB (`AlphaComposite`, as the PNG codec does).
    static func compositeOverWhite(_ rgba: UnsafePointer<UInt8>, into rgb: UnsafeMutablePointer<UInt8>, count: Int) {
        AlphaComposite.overWhite(rgba, into: rgb, count: count)
    }

    // MARK: - Animations

    /// The first frame as composited on the canvas (transparent, as WebPAnimDecoder starts it, then over white),
    /// for `request.region` at full resolution shrunk by `BoxShrink`'s whole factor.
    private func decodeFirstFrame(_ source: any ByteSource, _ layout: WebPLayout, canvasWidth: Int, canvasHeight: Int,
                                  _ request: DecodeRequest, pool: BufferPool,
                                  shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        guard let frame = layout.firstFrame else { throw .corrupt("corrupt WebP (an animation without frames)") }
        guard frame.x + frame.width <= canvasWidth, frame.y + frame.height <= canvasHeight else {
            throw .corrupt("corrupt WebP (its first frame lies outside the canvas)")
        }
        let bytes = try Self.read(source, frame.data)
        let (found, status) = WebPIncrementalDecoder.features(bytes)
        guard let features = found else { throw WebPIncrementalDecoder.failure(status) }
        guard Int(features.width) == frame.width, Int(features.height) == frame.height else {
            throw .corrupt("corrupt WebP (its first frame is \(features.width)x\(features.height) pixels, "
                          + "its header says \(frame.width)x\(frame.height))")
        }
        let bitstream = WebPLayout.bitstream(inFrame: bytes)
        let lossy = !(bitstream?.lossless ?? false)
        try Self.checkPlausible(bitstream, width: frame.width, height: frame.height)
        // Frame offsets are even, so an even canvas region is an even crop of the frame.
        guard let plan = WebPDecodePlan.make(width: canvasWidth, height: canvasHeight, region: request.region,
                                             minimumWidth: Int.max, minimumHeight: Int.max, lossy: lossy) else {
            throw .internalError("the region asked for lies outside the \(canvasWidth)x\(canvasHeight) picture")
        }
        let region = plan.covers
        let factor = request.shrinkFactor(for: region)
        // The part of the region the frame covers, in canvas pixels; the rest of the canvas is transparent.
        let inFrame = PixelRegion(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
        let overlap = PixelRegion(x: region.x - frame.x, y: region.y - frame.y, width: region.width,
                                  height: region.height).clamped(width: frame.width, height: frame.height)
        var framePixels: [UInt8] = []
        if let overlap {
            let options = WebPIncrementalDecoder.Options(crop: overlap, scaledWidth: nil, scaledHeight: nil,
                                                         hasAlpha: true)
            framePixels = try Self.decodePooled(bytes, options, byteCount: overlap.width * overlap.height * 4,
                                                pool: pool, shouldCancel: shouldCancel)
        }
        var shrink = BoxShrink(region: region, factor: factor, pool: pool)
        var row = [UInt8](repeating: 255, count: region.width * 3)
        for y in region.y..<(region.y + region.height) {
            if (y - region.y) % 32 == 0 && shouldCancel() {
                pool.giveBack(framePixels)
                shrink.abandon()
                throw .cancelled
            }
            for i in row.indices { row[i] = 255 }
            if let overlap, y >= inFrame.y + overlap.y, y < inFrame.y + overlap.y + overlap.height {
                let frameRow = y - inFrame.y - overlap.y
                let column = inFrame.x + overlap.x - region.x
                framePixels.withUnsafeBufferPointer { source in
                    row.withUnsafeMutableBufferPointer { out in
                        Self.compositeOverWhite(source.baseAddress! + frameRow * overlap.width * 4,
                                                into: out.baseAddress! + column * 3, count: overlap.width)
                    }
                }
            }
            row.withUnsafeBufferPointer { shrink.add(row: $0) }
        }
        pool.giveBack(framePixels)
        return shrink.finish(storedWidth: canvasWidth, storedHeight: canvasHeight)
    }

    // MARK: - Headers

    /// `WebPGetFeatures` on the file's bytes up to its first image chunk's header (the ICCP and ALPH chunks
    /// before it included; bounded by `HeaderReading.headerLimit`), and a check that a lossy bitstream has
    /// data enough for the size it claims.
    static func features(_ source: any ByteSource, _ layout: WebPLayout) throws(CodecError) -> WebPBitstreamFeatures {
        // libwebp reads the VP8/VP8L frame header (10 and 5 bytes) after the chunk header.
        let wanted = layout.still.map { $0.upperBound - layout.bitstream!.payloadSize + 32 } ?? 64
        guard wanted <= HeaderReading.headerLimit else { throw .corrupt("corrupt WebP (its header does not end)") }
        let bytes = try source.prefix(min(wanted, layout.riffEnd))
        let (found, status) = WebPIncrementalDecoder.features(bytes)
        guard let features = found else { throw WebPIncrementalDecoder.failure(status) }
        guard features.width > 0, features.height > 0 else { throw .corrupt("corrupt WebP (a picture of no pixels)") }
        if features.has_animation == 0 {
            guard layout.still != nil else { throw .corrupt("corrupt WebP (no image data)") }
            try checkPlausible(layout.bitstream, width: Int(features.width), height: Int(features.height))
        } else if layout.firstFrame == nil {
            throw .corrupt("corrupt WebP (an animation without frames)")
        }
        return features
    }

    /// Refuses a lossy bitstream with less than one bit per 16x16 macroblock: a real VP8 key frame spends more
    /// than 3 bits on each one's modes alone (RFC 6386 §11.2 and §11.4: fixed mode probabilities), so such a file
    /// is a tiny file claiming a huge size, refused before its output buffer exists.
    static func checkPlausible(_ bitstream: (lossless: Bool, payloadSize: Int)?, width: Int, height: Int)
        throws(CodecError) {
        guard let bitstream, !bitstream.lossless else { return }
        let macroblocks = ((width + 15) / 16) * ((height + 15) / 16)
        guard bitstream.payloadSize >= macroblocks / 8 else {
            throw .corrupt("corrupt WebP (\(bitstream.payloadSize) bytes of image data cannot hold "
                          + "\(width)x\(height) pixels)")
        }
    }

    /// The bytes of `range`, all of them, or a truncated file.
    static func read(_ source: any ByteSource, _ range: Range<Int>) throws(CodecError) -> [UInt8] {
        let bytes = try source.read(from: range.lowerBound, count: range.count)
        guard bytes.count == range.count else { throw .corrupt("corrupt WebP (truncated file)") }
        return bytes
    }

    /// An ICCP chunk's profile, or why it is no profile (ICC.1: a 128-byte header with "acsp" at byte 36).
    static func profile(_ bytes: [UInt8]) -> EmbeddedProfile {
        guard bytes.count >= 132, bytes[36..<40].elementsEqual(Array("acsp".utf8)) else {
            return .unusable("its ICCP chunk holds no ICC profile")
        }
        return .profile(bytes)
    }
}
