extension RGBImage {
    /// The image as a person should see it, given the orientation it was stored with, in a buffer from `pool`
    /// (the image itself when it is upright already).
    ///
    /// One pass over the output, in square tiles so that the quarter turns (which read the source down
    /// its columns) stay within the cache; no allocation besides the result.
    public func applying(_ orientation: Orientation, pool: BufferPool = BufferPool()) -> RGBImage {
        if orientation == .topLeft { return self }
        return cropped(x: 0, y: 0, width: width, height: height, applying: orientation, pool: pool)
    }

    /// `cropped(x:y:width:height:).applying(orientation)` in one copy: the rectangle at (`x`, `y`), which must
    /// lie inside the image, turned upright, in a buffer from `pool`.
    public func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int,
                        applying orientation: Orientation, pool: BufferPool = BufferPool()) -> RGBImage {
        // Subtractions of non-negative numbers: unlike `x + cropWidth`, they cannot overflow.
        guarantee(hasValidPixelCount && x >= 0 && y >= 0 && cropWidth >= 0 && cropHeight >= 0
                  && x <= width - cropWidth && y <= height - cropHeight,
                  "crop \(cropWidth)x\(cropHeight) at (\(x), \(y)) is outside the \(width)x\(height) image")
        if orientation == .topLeft { return cropped(x: x, y: y, width: cropWidth, height: cropHeight, pool: pool) }
        let placement = UprightPlacement(storedWidth: cropWidth, storedHeight: cropHeight, orientation: orientation)
        let count = cropWidth * cropHeight * 3
        if count == 0 {
            return RGBImage(width: placement.uprightWidth, height: placement.uprightHeight, pixels: [])
        }
        let output = pool.array(count: count) { destination, initialized in
            pixels.withUnsafeBufferPointer { source in
                placement.place(rows: 0..<cropHeight, from: source.baseAddress! + (y * width + x) * 3,
                                rowBytes: width * 3, into: destination.baseAddress!)
            }
            initialized = count
        }
        return RGBImage(width: placement.uprightWidth, height: placement.uprightHeight, pixels: output)
    }
}

/// Where each pixel of a stored image lands in the upright one.
struct UprightPlacement {
    let storedWidth: Int
    let storedHeight: Int
    let orientation: Orientation

    init(storedWidth: Int, storedHeight: Int, orientation: Orientation) {
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.orientation = orientation
    }

    var uprightWidth: Int { orientation.swapsDimensions ? storedHeight : storedWidth }
    var uprightHeight: Int { orientation.swapsDimensions ? storedWidth : storedHeight }

    /// Copies stored rows `rows` to their upright places in `output` (the whole upright image). Row
    /// `rows.lowerBound` starts at `source`, the next ones `rowBytes` apart.
    ///
    /// The stored pixel shown at upright (u, v) is (sx, sy) = (ax + u * xu + v * xv, ay + u * yu + v * yv),
    /// read off the EXIF definitions: e.g. for .rightTop (turn 90° clockwise) upright (u, v) shows stored
    /// (v, h-1-u). The rows cover a band of upright rows (no turn, or a half turn) or of upright columns
    /// (quarter turns), walked in square tiles so that reading down stored columns stays within the cache.
    ///
    /// `sourceHasSpareByte`: one more byte can be read after the last pixel of the rows, so that every
    /// pixel can be read as four bytes.
    func place(rows: Range<Int>, from source: UnsafePointer<UInt8>, rowBytes: Int, sourceHasSpareByte: Bool = false,
               into output: UnsafeMutablePointer<UInt8>) {
        let wordReads = sourceHasSpareByte
        let w = storedWidth, h = storedHeight
        guarantee(rows.lowerBound >= 0 && rows.upperBound <= h && rowBytes >= w * 3, "rows \(rows) of \(w)x\(h)")
        if rows.isEmpty || w == 0 { return }
        let (ax, xu, xv, ay, yu, yv): (Int, Int, Int, Int, Int, Int) = switch orientation {
        case .topLeft:     (0, 1, 0, 0, 0, 1)
        case .topRight:    (w - 1, -1, 0, 0, 0, 1)
        case .bottomRight: (w - 1, -1, 0, h - 1, 0, -1)
        case .bottomLeft:  (0, 1, 0, h - 1, 0, -1)
        case .leftTop:     (0, 0, 1, 0, 1, 0)
        case .rightTop:    (0, 0, 1, h - 1, -1, 0)
        case .rightBottom: (w - 1, 0, -1, h - 1, -1, 0)
        case .leftBottom:  (w - 1, 0, -1, 0, 1, 0)
        }
        // The upright rectangle the rows cover: sy runs along v (no turn, half turn) or u (quarter turns).
        let uprightWidth = self.uprightWidth
        let low = yu + yv > 0 ? rows.lowerBound : h - rows.upperBound
        let high = low + rows.count
        let (u0, u1, v0, v1) = orientation.swapsDimensions ? (low, high, 0, w) : (0, w, low, high)
        // Byte offset in `source` of the stored pixel shown at (u, v) = origin + u * stepU + v * stepV.
        let origin = (ay - rows.lowerBound) * rowBytes + ax * 3
        let stepU = yu * rowBytes + xu * 3, stepV = yv * rowBytes + xv * 3
        let tile = 64
        for tileV in Swift.stride(from: v0, to: v1, by: tile) {
            let endV = min(tileV + tile, v1)
            for tileU in Swift.stride(from: u0, to: u1, by: tile) {
                let endU = min(tileU + tile, u1)
                for v in tileV..<endV {
                    var s = origin + tileU * stepU + v * stepV
                    var d = (v * uprightWidth + tileU) * 3
                    if wordReads {
                        // Four bytes a pixel: the fourth lands on the next pixel of the row, which this run or
                        // the next tile writes after it; the rectangle's last pixel in the row is copied as three.
                        let last = endU == u1 ? endU - 1 : endU
                        for _ in tileU..<last {
                                                UnsafeMutableRawPointer(output + d).storeBytes(
                                of: UnsafeRawPointer(source + s).loadUnaligned(as: UInt32.self), as: UInt32.self)
                            s += stepU
                            d += 3
                        }
                        if last < endU {
                            output[d] = source[s]; output[d + 1] = source[s + 1]; output[d + 2] = source[s + 2]
                        }
                    } else {
                        for _ in tileU..<endU {
                            output[d] = source[s]; output[d + 1] = source[s + 1]; output[d + 2] = source[s + 2]
                            s += stepU
                            d += 3
                        }
                    }
                }
            }
        }
    }
}
