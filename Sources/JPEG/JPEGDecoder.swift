import Colour
import ImageCodec
import CJPEGShim
import Imaging

/// Reads JPEG files from memory with libjpeg-turbo: headers alone, or pixels as 8-bit RGB.
///
/// Baseline, progressive and arithmetic-coded files with 1, 3 or 4 components decode; 12-bit, lossless and
/// hierarchical files fail with `.unsupported`. Any libjpeg warning (truncated or corrupt data) fails the
/// decode with `.corrupt`: libjpeg would otherwise hand back a picture with a grey or garbled part.
public enum JPEGDecoder {
    /// Progressive files with more scans than this fail as corrupt (a known denial-of-service shape).
    public static let maximumProgressiveScans = 1000
    /// Rows decoded between two checks of `shouldCancel`.
    static let bandRows = 32

    /// True when `data` starts with a JPEG SOI marker (FF D8).
    public static func isJPEG(_ data: [UInt8]) -> Bool {
        data.count >= 2 && data[0] == 0xFF && data[1] == 0xD8
    }

    /// The header of a JPEG (`jpeg_read_header`, with APP1 markers saved for EXIF and APP2 for the ICC profile); no pixels are decoded.
    public static func readInfo(_ data: [UInt8]) throws(JPEGError) -> JPEGInfo {
        switch try readHeader(data) {
        case .complete(let info): return info
        case .dataEnded(let truncated): throw truncated
        }
    }

    /// The header from the first bytes of a longer file: nil when they end before the header does (large APP
    /// segments, an ICC profile or XMP block, come before the frame), so the caller can read more.
    /// Otherwise as `readInfo(_:)`.
    public static func readInfo(prefix data: [UInt8]) throws(JPEGError) -> JPEGInfo? {
        switch try readHeader(data) {
        case .complete(let info): return info
        case .dataEnded: return nil
        }
    }

    private enum HeaderRead {
        case complete(JPEGInfo)
        /// The bytes ended inside the header; the error says so for a caller that has no more.
        case dataEnded(JPEGError)
    }

    private static func readHeader(_ data: [UInt8]) throws(JPEGError) -> HeaderRead {
        guard isJPEG(data) else { throw .notJPEG }
        let result: Result<HeaderRead, JPEGError> = data.withUnsafeBufferPointer { bytes in
            do throws(JPEGError) {
                let decoder = try DecoderHandle(maxScans: 0, probe: nil, pool: nil)
                let header: pb_jpeg_header, exif: [UInt8]?
                do throws(JPEGError) {
                    (header, exif) = try decoder.readHeader(bytes, saveEXIF: true)
                } catch {
                    if decoder.dataEnded { return .success(.dataEnded(error)) }
                    throw error
                }
                var info = JPEGInfo(width: Int(header.width), height: Int(header.height),
                                    components: Int(header.components),
                                    colorSpace: JPEGColorSpace(shim: header.color_space),
                                    isProgressive: header.progressive != 0, exif: exif)
                info.isArithmetic = header.arithmetic != 0
                info.iccProfile = EmbeddedProfile(jpegChunks: decoder.iccChunks())
                return .success(.complete(info))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The DCT scale libjpeg should decode at: the smallest `scale`/8 (scale 1...8) whose output, at libjpeg's
    /// rounding `ceil(side * scale / 8)`, is at least `minimumWidth` x `minimumHeight`; 8 (full size) when no
    /// smaller scale covers it, including a minimum larger than the image. Sizes are in stored orientation.
    public static func scaledSize(width: Int, height: Int, minimumWidth: Int, minimumHeight: Int)
        -> (scale: Int, width: Int, height: Int) {
        // Trap: libjpeg rounds scaled sides up, so a 1801-pixel side is 226 at 1/8, not 225.
        for scale in 1...8 {
            let scaledWidth = (width * scale + 7) / 8
            let scaledHeight = (height * scale + 7) / 8
            if scaledWidth >= minimumWidth && scaledHeight >= minimumHeight {
                return (scale, scaledWidth, scaledHeight)
            }
        }
        return (8, width, height)
    }

    /// Decodes a JPEG to RGB at the smallest DCT scale that still covers `minimumWidth` x `minimumHeight`
    /// (see `scaledSize`; pass the full size, or more, for a full-size decode).
    ///
    /// Refuses images of more than `maxPixels` pixels from the header, before allocating any pixel buffer.
    /// `shouldCancel` is asked before starting, while libjpeg reads the scans of a progressive file, and
    /// between bands of rows; when it returns true the decode throws `.cancelled`. The pixels, and libjpeg's
    /// large blocks, come from `pool`. A CMYK file is converted through `cmykProfile`, its own ICC profile
    /// (`JPEGInfo.iccProfile`: the decode does not keep the APP2 markers), when given.
    public static func decode(_ data: [UInt8], minimumWidth: Int, minimumHeight: Int, maxPixels: Int,
                              cmykProfile: [UInt8]? = nil, pool: BufferPool = BufferPool(),
                              shouldCancel: () -> Bool = { false }) throws(JPEGError) -> RGBImage {
        try decode(data, minimumWidth: minimumWidth, minimumHeight: minimumHeight, maxPixels: maxPixels,
                   maxProgressiveScans: maximumProgressiveScans, cmykProfile: cmykProfile, pool: pool,
                   shouldCancel: shouldCancel)
    }

    /// `decode` with the scan limit as a parameter, so tests can reach it with small files.
    static func decode(_ data: [UInt8], minimumWidth: Int, minimumHeight: Int, maxPixels: Int,
                       maxProgressiveScans: Int, cmykProfile: [UInt8]? = nil, pool: BufferPool = BufferPool(),
                       shouldCancel: () -> Bool) throws(JPEGError) -> RGBImage {
        try withJPEGBytes(data, shouldCancel: shouldCancel) { (bytes, probe) throws(JPEGError) in
            let decoder = try DecoderHandle(maxScans: maxProgressiveScans, probe: probe, pool: pool)
            return try decode(bytes, with: decoder, minimumWidth: minimumWidth, minimumHeight: minimumHeight,
                              maxPixels: maxPixels, cmykProfile: cmykProfile, pool: pool,
                              shouldCancel: probe.shouldCancel)
        }
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, with decoder: DecoderHandle,
                               minimumWidth: Int, minimumHeight: Int, maxPixels: Int, cmykProfile: [UInt8]?,
                               pool: BufferPool, shouldCancel: () -> Bool) throws(JPEGError) -> RGBImage {
        let (header, _) = try decoder.readHeader(bytes, saveEXIF: false)
        let width = Int(header.width), height = Int(header.height)
        guard width * height <= maxPixels else { throw .tooLarge(width: width, height: height, limit: maxPixels) }
        let plan = scaledSize(width: width, height: height, minimumWidth: max(0, minimumWidth),
                              minimumHeight: max(0, minimumHeight))
        let output = try decoder.start(scale: plan.scale)
        if shouldCancel() { throw .cancelled }

        // Every byte is written below: a pooled buffer, not zero-filled.
        var pixels = pool.take(output.width * output.height * 3)
        let rgbStride = output.width * 3
        var row = 0
        if output.components == 3 {
            while row < output.height {
                let wanted = min(bandRows, output.height - row)
                let read = try pixels.withUnsafeMutableBufferPointer { (buffer) throws(JPEGError) -> Int in
                    try decoder.readRows(into: buffer.baseAddress! + row * rgbStride, stride: rgbStride,
                                         maxRows: wanted)
                }
                row += read
                if shouldCancel() { throw .cancelled }
            }
        } else {
            // Four components: CMYK as stored (YCCK already turned into CMYK by libjpeg); converting it is ours.
            // Trap: Adobe CMYK is stored inverted (0 = full ink), and only the APP14 marker says so.
            let inverted = header.saw_adobe_marker != 0
            let profile = CMYKConversion.throughProfile(cmykProfile, adobeInverted: inverted)
            let cmykStride = output.width * 4
            var band = [UInt8](repeating: 0, count: bandRows * cmykStride)
            while row < output.height {
                let wanted = min(bandRows, output.height - row)
                let read = try band.withUnsafeMutableBufferPointer { (buffer) throws(JPEGError) -> Int in
                    try decoder.readRows(into: buffer.baseAddress!, stride: cmykStride, maxRows: wanted)
                }
                CMYKConversion.toRGB(band, count: read * output.width, adobeInverted: inverted, through: profile,
                                     into: &pixels, at: row * rgbStride)
                row += read
                if shouldCancel() { throw .cancelled }
            }
        }
        try decoder.finish()
        return RGBImage(width: output.width, height: output.height, pixels: pixels)
    }
}

extension JPEGColorSpace {
    init(shim value: Int32) {
        switch Int(value) {
        case Int(PB_JPEG_CS_GRAYSCALE): self = .grayscale
        case Int(PB_JPEG_CS_RGB): self = .rgb
        case Int(PB_JPEG_CS_YCBCR): self = .ycbcr
        case Int(PB_JPEG_CS_CMYK): self = .cmyk
        case Int(PB_JPEG_CS_YCCK): self = .ycck
        default: self = .unknown
        }
    }
}
