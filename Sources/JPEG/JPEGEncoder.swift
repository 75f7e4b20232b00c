import CJPEGShim
import Imaging

/// Writes RGB images as JPEG files in memory with libjpeg-turbo.
public enum JPEGEncoder {
    /// How to write the file. The defaults are a baseline JFIF with optimized Huffman tables and automatic chroma
    /// subsampling.
    public struct Options: Sendable, Equatable {
        /// How much colour resolution to keep, relative to luminance.
        public enum ChromaSubsampling: Sendable, Equatable {
            /// `.none` at quality 90 and above, `.both` below (libvips's rule: at high quality, halving the
            /// colour resolution costs more fidelity on sharp colour edges than the bytes it saves).
            case automatic
            /// 4:4:4: full colour resolution (best for sharp colour edges; larger files).
            case none
            /// 4:2:2: half the columns.
            case horizontal
            /// 4:2:0: half the columns and half the rows (libjpeg's default).
            case both
        }
        /// The components written to the file.
        public enum ColorModel: Sendable, Equatable {
            case ycbcr
            /// One luminance component.
            case grayscale
            /// Four components, Adobe-inverted as Photoshop writes them, with an Adobe marker.
            case cmyk
            /// CMYK stored as YCCK (Adobe transform 2), as Photoshop often writes it.
            case ycck
        }

        /// 1...100 (values outside are clamped).
        public var quality: Int
        public var progressive: Bool
        public var arithmeticCoding: Bool
        /// Two passes for Huffman tables fitted to the image (smaller files); ignored with arithmetic coding.
        public var optimizeCoding: Bool
        public var chromaSubsampling: ChromaSubsampling
        public var colorModel: ColorModel
        /// Written as the JFIF density (dots per inch), or left unspecified when nil.
        public var dotsPerInch: Int?

        public init(quality: Int = 90, progressive: Bool = false, arithmeticCoding: Bool = false,
                    optimizeCoding: Bool = true, chromaSubsampling: ChromaSubsampling = .automatic,
                    colorModel: ColorModel = .ycbcr, dotsPerInch: Int? = nil) {
            self.quality = quality
            self.progressive = progressive
            self.arithmeticCoding = arithmeticCoding
            self.optimizeCoding = optimizeCoding
            self.chromaSubsampling = chromaSubsampling
            self.colorModel = colorModel
            self.dotsPerInch = dotsPerInch
        }
    }

    /// libjpeg's largest side (`JPEG_MAX_DIMENSION`).
    public static let maximumDimension = 65500
    /// Rows compressed between two checks of `shouldCancel`.
    static let bandRows = 32

    /// A baseline JPEG of `image` at `quality` (1...100), with optimized Huffman tables; chroma is kept at full
    /// resolution from quality 90 up and halved both ways below.
    /// `shouldCancel` is asked between bands of rows and during the final passes; true throws `.cancelled`.
    public static func encode(_ image: RGBImage, quality: Int, pool: BufferPool = BufferPool(),
                              shouldCancel: () -> Bool = { false }) throws(JPEGError) -> [UInt8] {
        try encode(image, options: Options(quality: quality), pool: pool, shouldCancel: shouldCancel)
    }

    /// Turns `count` RGB pixels (3 bytes each) into Adobe-inverted CMYK (4 bytes each, 0 = full ink) for a
    /// `.cmyk` or `.ycck` encode: one band of rows at a time, so a whole CMYK image is never held.
    public typealias CMYKBandConversion = (_ rgb: UnsafePointer<UInt8>, _ cmyk: UnsafeMutablePointer<UInt8>,
                                           _ count: Int) -> Void

    /// A JPEG of `image` written as `options` says (backed by `jpeg_start_compress`, `jpeg_write_scanlines`
    /// and `jpeg_finish_compress` into a buffer we own). libjpeg's large blocks (the coefficients of a
    /// progressive or optimised encode) come from `pool`. A four-component encode takes its CMYK from
    /// `toCMYK` (a colour-managed conversion), else from the naive device formula (`CMYKConversion`).
    public static func encode(_ image: RGBImage, options: Options, pool: BufferPool = BufferPool(),
                              toCMYK: CMYKBandConversion? = nil,
                              shouldCancel: () -> Bool = { false }) throws(JPEGError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw .unsupported("cannot write an empty \(image.width)x\(image.height) image")
        }
        guard image.width <= maximumDimension, image.height <= maximumDimension else {
            throw .unsupported("\(image.width)x\(image.height) is more than \(maximumDimension) pixels on a side")
        }
        if shouldCancel() { throw .cancelled }
        let result: Result<[UInt8], JPEGError> = withCancellationProbe(shouldCancel) { probe in
            do throws(JPEGError) {
                let encoder = try EncoderHandle(probe: probe, pool: pool)
                return .success(try encode(image, options: options, with: encoder, toCMYK: toCMYK,
                                           shouldCancel: probe.shouldCancel))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func encode(_ image: RGBImage, options: Options, with encoder: EncoderHandle,
                               toCMYK: CMYKBandConversion?, shouldCancel: () -> Bool) throws(JPEGError) -> [UInt8] {
        var settings = pb_jpeg_encoder_options()
        settings.width = Int32(image.width)
        settings.height = Int32(image.height)
        let fourComponents = options.colorModel == .cmyk || options.colorModel == .ycck
        settings.input_components = fourComponents ? 4 : 3
        settings.grayscale = options.colorModel == .grayscale ? 1 : 0
        settings.ycck = options.colorModel == .ycck ? 1 : 0
        settings.quality = Int32(min(100, max(1, options.quality)))
        settings.progressive = options.progressive ? 1 : 0
        settings.arithmetic = options.arithmeticCoding ? 1 : 0
        settings.optimize_coding = options.optimizeCoding ? 1 : 0
        var subsampling = options.chromaSubsampling
        if subsampling == .automatic { subsampling = settings.quality >= 90 ? .none : .both }
        switch subsampling {
        case .automatic, .none: settings.chroma_h = 1; settings.chroma_v = 1
        case .horizontal: settings.chroma_h = 2; settings.chroma_v = 1
        case .both: settings.chroma_h = 2; settings.chroma_v = 2
        }
        settings.dots_per_inch = Int32(clamping: options.dotsPerInch ?? 0)
        try encoder.start(settings)

        let stride = image.bytesPerRow
        var cmyk = fourComponents ? [UInt8](repeating: 0, count: bandRows * image.width * 4) : []
        var row = 0
        while row < image.height {
            let count = min(bandRows, image.height - row)
            try image.pixels.withUnsafeBufferPointer { (pixels) throws(JPEGError) in
                let band = UnsafeBufferPointer(rebasing: pixels[(row * stride)..<((row + count) * stride)])
                if fourComponents {
                    if let toCMYK {
                        cmyk.withUnsafeMutableBufferPointer { toCMYK(band.baseAddress!, $0.baseAddress!, count * image.width) }
                    } else {
                        CMYKConversion.toAdobeCMYK(band, count: count * image.width, into: &cmyk)
                    }
                    try cmyk.withUnsafeBufferPointer { (converted) throws(JPEGError) in
                        try encoder.writeRows(converted.baseAddress!, stride: image.width * 4, count: count)
                    }
                } else {
                    try encoder.writeRows(band.baseAddress!, stride: stride, count: count)
                }
            }
            row += count
            if shouldCancel() { throw .cancelled }
        }
        return try encoder.finish()
    }
}
