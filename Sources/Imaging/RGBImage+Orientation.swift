extension RGBImage {
    /// The image as a person should see it, given the orientation it was stored with.
    ///
    /// One pass over the output, in square tiles so that the quarter turns (which read the source down
    /// its columns) stay within the cache; no allocation besides the result.
    public func applying(_ orientation: Orientation) -> RGBImage {
        if orientation == .topLeft { return self }
        guarantee(hasValidPixelCount, "RGBImage \(width)x\(height) holds \(pixels.count) bytes")
        let (outputWidth, outputHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        if width == 0 || height == 0 {
            return RGBImage(width: outputWidth, height: outputHeight, pixels: [])
        }
        // Source pixel index of output pixel (x, y) = origin + x * stepX + y * stepY, read off the EXIF
        // definitions: e.g. for .rightTop (turn 90° clockwise) output (x, y) shows source (y, height-1-x).
        let w = width, h = height
        let (origin, stepX, stepY): (Int, Int, Int) = switch orientation {
        case .topLeft:     (0, 1, w)
        case .topRight:    (w - 1, -1, w)
        case .bottomRight: ((h - 1) * w + w - 1, -1, -w)
        case .bottomLeft:  ((h - 1) * w, 1, -w)
        case .leftTop:     (0, w, 1)
        case .rightTop:    ((h - 1) * w, -w, 1)
        case .rightBottom: ((h - 1) * w + w - 1, -w, -1)
        case .leftBottom:  (w - 1, w, -1)
        }
        let tile = 64
        let count = outputWidth * outputHeight * 3
        let output = BufferPool.shared.array(count: count) { destination, initialized in
            pixels.withUnsafeBufferPointer { source in
                let src = source.baseAddress!, dst = destination.baseAddress!
                for tileY in Swift.stride(from: 0, to: outputHeight, by: tile) {
                    let endY = min(tileY + tile, outputHeight)
                    for tileX in Swift.stride(from: 0, to: outputWidth, by: tile) {
                        let endX = min(tileX + tile, outputWidth)
                        for y in tileY..<endY {
                            var s = (origin + tileX * stepX + y * stepY) * 3
                            var d = (y * outputWidth + tileX) * 3
                            for _ in tileX..<endX {
                                dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                                s += stepX * 3
                                d += 3
                            }
                        }
                    }
                }
            }
            initialized = count
        }
        return RGBImage(width: outputWidth, height: outputHeight, pixels: output)
    }
}
