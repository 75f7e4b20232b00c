extension RGBImage {
    /// The pixels of the integer rectangle at (`x`, `y`), `width` x `height`, which must lie inside the image.
    public func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) -> RGBImage {
        // Subtractions of non-negative numbers: unlike `x + cropWidth`, they cannot overflow.
        guarantee(hasValidPixelCount && x >= 0 && y >= 0 && cropWidth >= 0 && cropHeight >= 0
                  && x <= width - cropWidth && y <= height - cropHeight,
                  "crop \(cropWidth)x\(cropHeight) at (\(x), \(y)) is outside the \(width)x\(height) image")
        if x == 0 && y == 0 && cropWidth == width && cropHeight == height { return self }
        var output: [UInt8] = []
        output.reserveCapacity(cropWidth * cropHeight * 3)
        for row in y..<(y + cropHeight) {
            let start = (row * width + x) * 3
            output.append(contentsOf: pixels[start..<(start + cropWidth * 3)])
        }
        return RGBImage(width: cropWidth, height: cropHeight, pixels: output)
    }
}
