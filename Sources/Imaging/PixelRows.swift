import Geometry

/// A picture that hands out its 8-bit RGB rows as they are asked for, made from something smaller than the
/// picture's RGB (a decoder's YCbCr planes): the resampler reads a window of rows from it, so that the RGB picture
/// itself never exists (`Resampler.resample(rows:)`).
///
/// Sendable because it passes from the decode to the resize that depends on it; it is read by one thread at a time.
public protocol PixelRows: AnyObject, Sendable {
    var width: Int { get }
    var height: Int { get }

    /// Row `y`'s columns `x ..< x + count` as RGB into `rgb` (at least `count * 3` bytes).
    func row(_ y: Int, from x: Int, count: Int, into rgb: UnsafeMutableBufferPointer<UInt8>)
}

extension RGBImage {
    /// All of `rows` in one buffer from `pool`, for the work that needs the whole picture at once.
    public init(rows: any PixelRows, pool: BufferPool) {
        guard let count = Self.byteCount(width: rows.width, height: rows.height) else {
            fatalError("RGBImage \(rows.width)x\(rows.height): no such image")
        }
        let width = rows.width
        let pixels = pool.array(count: count) { buffer, initialized in
            for y in 0..<rows.height {
                rows.row(y, from: 0, count: width, into: UnsafeMutableBufferPointer(rebasing: buffer[(y * width * 3)...]))
            }
            initialized = count
        }
        self.init(width: width, height: rows.height, pixels: pixels)
    }
}

extension Resampler {
    /// As `resample(_:region:width:height:orientation:pool:shouldCancel:)`, from a picture read a row at a time:
    /// the same pixels as from `RGBImage(rows:)`, with only a window of its rows converted at once. Each row the
    /// filters need is asked for once, top to bottom, only its columns the output reads.
    public static func resample(rows: any PixelRows, region: Rect, width: Int, height: Int,
                                orientation: Orientation = .topLeft, pool: BufferPool = BufferPool(),
                                shouldCancel: () -> Bool = { false }) throws(ImagingError) -> RGBImage {
        try resample(rows: rows, region: region, width: width, height: height, orientation: orientation,
                     order: .cheaper, pool: pool, shouldCancel: shouldCancel)
    }

    static func resample(rows: any PixelRows, region: Rect, width: Int, height: Int,
                         orientation: Orientation = .topLeft, order: PassOrder, pool: BufferPool = BufferPool(),
                         shouldCancel: () -> Bool) throws(ImagingError) -> RGBImage {
        let line = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, rows.width * 3))
        defer { line.deallocate() }
        return try resample(sourceWidth: rows.width, sourceHeight: rows.height, region: region, width: width,
                            height: height, orientation: orientation, order: order, pool: pool,
                            shouldCancel: shouldCancel) { y, x, count in
            rows.row(y, from: x, count: count, into: line)
            return UnsafePointer(line.baseAddress!)
        }
    }
}
