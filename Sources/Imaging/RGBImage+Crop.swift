extension RGBImage {
    /// The pixels of the integer rectangle at (`x`, `y`), `width` x `height`, which must lie inside the image, in
    /// a buffer from `pool` (the image itself when the rectangle is all of it).
    public func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int,
                        pool: BufferPool = BufferPool()) -> RGBImage {
        // Subtractions of non-negative numbers: unlike `x + cropWidth`, they cannot overflow.
        guarantee(hasValidPixelCount && x >= 0 && y >= 0 && cropWidth >= 0 && cropHeight >= 0
                  && x <= width - cropWidth && y <= height - cropHeight,
                  "crop \(cropWidth)x\(cropHeight) at (\(x), \(y)) is outside the \(width)x\(height) image")
        if x == 0 && y == 0 && cropWidth == width && cropHeight == height { return self }
        // Every byte is copied into: a pooled buffer.
        let rowBytes = cropWidth * 3
        var output = pool.take(rowBytes * cropHeight)
        guard !output.isEmpty else { return RGBImage(width: cropWidth, height: cropHeight, pixels: output) }
        output.withUnsafeMutableBufferPointer { destination in
            pixels.withUnsafeBufferPointer { source in
                for row in 0..<cropHeight {
                    (destination.baseAddress! + row * rowBytes)
                        .update(from: source.baseAddress! + ((y + row) * width + x) * 3, count: rowBytes)
                }
            }
        }
        return RGBImage(width: cropWidth, height: cropHeight, pixels: output)
    }
}
