import ImageCodec
import Platform
import Imaging

/// What the header of a PNG says (IHDR and the ancillary chunks before the image data).
public struct PNGInfo: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var bitDepth: Int
    /// The PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
    public var colorType: Int
    public var isInterlaced: Bool
    /// The TIFF structure of an eXIf chunk, if one comes before the image data.
    public var exif: [UInt8]?
    /// The XMP packet of an uncompressed iTXt "XML:com.adobe.xmp" chunk before the image data (`PNGChunks`).
    public var xmp: [UInt8]?
    /// The iCCP chunk's profile before the image data, or why it cannot be used; nil when there is none.
    public var colorProfile: EmbeddedProfile?

    /// `width * height`, or nil when that does not fit in an `Int`.
    public var pixelCount: Int? {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? nil : count
    }
}

public enum PNGError: FormatError, Sendable, CustomStringConvertible {
    case notPNG
    case corrupt(String)
    case tooLarge(width: Int, height: Int, limit: Int)
    case outOfMemory
    case cancelled
    public var description: String {
        switch self {
        case .notPNG: return "not a PNG file"
        case .corrupt(let why): return "corrupt PNG (\(why))"
        case .outOfMemory: return "not enough memory to read the PNG"
        case .tooLarge(let w, let h, let limit): return "image is \(w)x\(h) pixels, more than the limit of \(limit)"
        case .cancelled: return "cancelled"
        }
    }

    /// The kind of the failure, with these words, as it crosses the codec interface.
    public var failure: Failure {
        switch self {
        case .notPNG: return Failure(.unsupported, description)
        case .corrupt: return Failure(.corrupt, description)
        case .tooLarge: return Failure(.tooLarge, description)
        case .outOfMemory: return Failure(.outOfMemory, description)
        case .cancelled: return Failure(.cancelled, description)
        }
    }
}

/// Reads PNG files from memory with libpng (through the CPNGShim C target, which owns every `setjmp`).
///
/// Colour samples are taken as sRGB: gAMA, cHRM, sRGB and iCCP chunks are not applied, which matches what
/// most viewers show. Damaged ancillary chunks are dropped with a libpng warning and do not fail a decode;
/// anything wrong with the image data, and a file cut short anywhere before IEND, does.
public enum PNGDecoder {
    /// How many rows are decoded between two calls of `shouldCancel`.
    public static let rowsPerBand = 32

    /// Reads the header only (`png_read_info`), and the XMP packet before the image data: no pixel is decoded.
    public static func readInfo(_ data: [UInt8]) throws(PNGError) -> PNGInfo {
        var info = try PNGReadSession.with(data) { (session) throws(PNGError) in try session.readHeader() }
        info.xmp = PNGChunks.xmpPacket(inPNG: data)
        info.colorProfile = EmbeddedProfile.find(inPNG: data)
        return info
    }

    /// Reads the header from the first bytes of a longer file: nil when they end before the header does (a large
    /// ancillary chunk comes before the image data), so the caller can read more. Otherwise as `readInfo(_:)`.
    public static func readInfo(prefix data: [UInt8]) throws(PNGError) -> PNGInfo? {
        let info = try PNGReadSession.with(data) { (session) throws(PNGError) -> PNGInfo? in
            do throws(PNGError) {
                return try session.readHeader()
            } catch {
                if session.dataEnded { return nil }
                throw error
            }
        }
        // libpng has read every chunk before the image data out of these bytes, so the XMP is among them too.
        return info.map {
            var info = $0
            info.xmp = PNGChunks.xmpPacket(inPNG: data)
            info.colorProfile = EmbeddedProfile.find(inPNG: data)
            return info
        }
    }

    /// Decodes to 8-bit RGB, transparency composited over white.
    ///
    /// Refuses an image of more than `maxPixels` pixels from its header, before any pixel buffer exists.
    /// Calls `shouldCancel` before each band of `rowsPerBand` rows (for an interlaced image, in every one
    /// of its seven passes) and throws `.cancelled` as soon as it returns true. The pixels come from `pool`.
    public static func decode(_ data: [UInt8], maxPixels: Int, pool: BufferPool = BufferPool(),
                              shouldCancel: () -> Bool = { false }) throws(PNGError) -> RGBImage {
        try decode(data, maxPixels: maxPixels, ownRows: true, pool: pool, shouldCancel: shouldCancel)
    }

    /// `ownRows: false` reads every image through libpng (tests compare the two readers).
    static func decode(_ data: [UInt8], maxPixels: Int, ownRows: Bool, pool: BufferPool = BufferPool(),
                       shouldCancel: () -> Bool = { false }) throws(PNGError) -> RGBImage {
        try PNGReadSession.with(data) { (session) throws(PNGError) in
            let info = try session.readHeader()
            // The RGBA buffer's byte count must fit in an Int too, whatever limit the caller passed.
            guard let pixelCount = info.pixelCount, pixelCount <= maxPixels, pixelCount <= Int.max / 4 else {
                throw .tooLarge(width: info.width, height: info.height, limit: maxPixels)
            }
            if shouldCancel() { throw .cancelled }
            if ownRows, let pixels = try PNGRows.decode(data, info: info, rowsPerBand: rowsPerBand, pool: pool,
                                                        shouldCancel: shouldCancel) {
                return RGBImage(width: info.width, height: info.height, pixels: pixels)
            }
            let passes = try session.startDecode()
            let pixels: [UInt8]
            if passes == 1 {
                pixels = try readProgressive(session, info: info, pool: pool, shouldCancel: shouldCancel)
            } else {
                pixels = try readInterlaced(session, info: info, passes: passes, pool: pool,
                                            shouldCancel: shouldCancel)
            }
            try session.finish()
            return RGBImage(width: info.width, height: info.height, pixels: pixels)
        }
    }

    /// Rows in file order: one band of RGBA at a time, composited into the RGB result as it comes.
    private static func readProgressive(_ session: PNGReadSession, info: PNGInfo, pool: BufferPool,
                                        shouldCancel: () -> Bool) throws(PNGError) -> [UInt8] {
        let width = info.width, height = info.height
        // Every row is composited into `rgb` below: a pooled buffer, not zero-filled.
        var rgb = pool.take(width * height * 3)
        var band = [UInt8](repeating: 0, count: width * 4 * min(rowsPerBand, height))
        var row = 0
        while row < height {
            if shouldCancel() { throw .cancelled }
            let count = min(rowsPerBand, height - row)
            try session.readRows(into: &band, rowStride: width * 4, count: count)
            rgb.withUnsafeMutableBufferPointer { out in
                band.withUnsafeBufferPointer { rgba in
                    compositeOverWhite(rgba, into: out, firstPixel: row * width, pixelCount: count * width)
                }
            }
            row += count
        }
        return rgb
    }

    /// Adam7: every pass refines the same full RGBA image, so it is kept whole until the last pass.
    private static func readInterlaced(_ session: PNGReadSession, info: PNGInfo, passes: Int, pool: BufferPool,
                                       shouldCancel: () -> Bool) throws(PNGError) -> [UInt8] {
        let width = info.width, height = info.height
        // Adam7's seven passes write every pixel once between them, so neither buffer needs zero-filling.
        var rgba = pool.take(width * height * 4)
        for _ in 0..<passes {
            var row = 0
            while row < height {
                if shouldCancel() { throw .cancelled }
                let count = min(rowsPerBand, height - row)
                try session.readRows(into: &rgba, startingAtRow: row, rowStride: width * 4, count: count)
                row += count
            }
        }
        var rgb = pool.take(width * height * 3)
        rgb.withUnsafeMutableBufferPointer { out in
            rgba.withUnsafeBufferPointer { source in
                compositeOverWhite(source, into: out, firstPixel: 0, pixelCount: width * height)
            }
        }
        pool.giveBack(rgba)
        return rgb
    }

    /// `pixelCount` RGBA pixels of `rgba` over white into `rgb` from pixel `firstPixel` on (`AlphaComposite`).
    static func compositeOverWhite(_ rgba: UnsafeBufferPointer<UInt8>, into rgb: UnsafeMutableBufferPointer<UInt8>,
                                   firstPixel: Int, pixelCount: Int) {
        precondition(rgba.count >= pixelCount * 4 && rgb.count >= (firstPixel + pixelCount) * 3, "composite out of range")
        AlphaComposite.overWhite(rgba.baseAddress!, into: rgb.baseAddress! + firstPixel * 3, count: pixelCount)
    }
}
