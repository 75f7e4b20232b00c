import ImageCodec

/// What libwebp is asked to decode for a request, and how its output maps to the stored picture: a pure
/// function of the picture's size and the request, so that tests pin it down without files.
struct WebPDecodePlan: Equatable {
    /// The part of the picture libwebp decodes (`use_cropping`): `covers` and a margin around it.
    var crop: PixelRegion
    /// The size libwebp scales the crop to (`use_scaling`); nil at full resolution.
    var scaledWidth: Int?, scaledHeight: Int?
    /// The decoded pixels handed out, in the decoded image's own pixels (the margin is dropped).
    var keep: PixelRegion
    /// The part of the stored picture the kept pixels show, in full-resolution pixels.
    var covers: PixelRegion
    /// Kept pixels per full-resolution pixel.
    var scale: Double

    /// Pixels decoded beyond a full-resolution crop on each side and dropped: libwebp's fancy upsampling
    /// treats a crop's edges as the picture's (it mirrors chroma there), so a crop's edge pixels differ from a
    /// full decode's; one chroma sample (2 pixels) more on each side makes them equal.
    static let margin = 2

    /// The plan for `region` of a `width` x `height` picture with at least `minimumWidth` x `minimumHeight`
    /// pixels for it; nil when the region lies outside the picture.
    static func make(width: Int, height: Int, region: PixelRegion, minimumWidth: Int, minimumHeight: Int,
                     lossy: Bool) -> WebPDecodePlan? {
        guard var covers = region.clamped(width: width, height: height) else { return nil }
        if lossy {
            // Trap: libwebp snaps a lossy crop's left and top down to even (4:2:0 chroma) but keeps its width and
            // height, so an odd crop would lose its last column or row; widen the crop to the even edge instead.
            let x = covers.x & ~1, y = covers.y & ~1
            covers = PixelRegion(x: x, y: y, width: covers.width + covers.x - x, height: covers.height + covers.y - y)
        }
        // Trap: libwebp 1.2's scaling saves memory, not time (every macroblock is still reconstructed, and its
        // rescaler reads every row: 4000x3000 to 2000x1500 took 312 ms against 280 ms whole); it is used because
        // the decoded image, and the engine's resampling of it, are then a quarter of the size.
        if let (scaledWidth, scaledHeight, scale) = scaledSize(of: covers, minimumWidth: minimumWidth,
                                                               minimumHeight: minimumHeight) {
            // Scaling turns fancy upsampling off in libwebp (io_dec.c), so a crop's edges need no margin.
            return WebPDecodePlan(crop: covers, scaledWidth: scaledWidth, scaledHeight: scaledHeight,
                                  keep: PixelRegion(x: 0, y: 0, width: scaledWidth, height: scaledHeight),
                                  covers: covers, scale: scale)
        }
        var crop = covers
        if lossy && (covers.width < width || covers.height < height) {
            let left = min(margin, covers.x), top = min(margin, covers.y)
            let right = min(margin, width - covers.x - covers.width)
            let bottom = min(margin, height - covers.y - covers.height)
            crop = PixelRegion(x: covers.x - left, y: covers.y - top,
                               width: covers.width + left + right, height: covers.height + top + bottom)
        }
        return WebPDecodePlan(crop: crop, scaledWidth: nil, scaledHeight: nil,
                              keep: PixelRegion(x: covers.x - crop.x, y: covers.y - crop.y,
                                                width: covers.width, height: covers.height),
                              covers: covers, scale: 1)
    }

    /// The scaled size of `region` with at least the minimum pixels whose two scales (`scaledWidth /
    /// region.width` and `scaledHeight / region.height`) agree best, and the one scale reported; nil when
    /// the minimum needs the full resolution.
    ///
    /// The reported scale, `(width + height) / (region.width + region.height)`, splits the disagreement
    /// between the two sides: each decoded side is within `|width * region.height - height * region.width| /
    /// (region.width + region.height)` pixels of `side * scale`. A few dozen candidate sizes from the smallest
    /// upwards keep that under a tenth of a pixel for most regions and under half a pixel for any.
    static func scaledSize(of region: PixelRegion, minimumWidth: Int, minimumHeight: Int)
        -> (width: Int, height: Int, scale: Double)? {
        let needWidth = min(max(1, minimumWidth), region.width), needHeight = min(max(1, minimumHeight), region.height)
        let wanted = max(Double(needWidth) / Double(region.width), Double(needHeight) / Double(region.height))
        guard wanted < 1 else { return nil }
        let sides = Double(region.width + region.height)
        var best: (width: Int, height: Int, mismatch: Double)?
        func consider(width: Int, height: Int) {
            guard width >= needWidth, height >= needHeight, width <= region.width, height <= region.height else { return }
            let mismatch = abs(Double(width) * Double(region.height) - Double(height) * Double(region.width)) / sides
            if best == nil || mismatch < best!.mismatch - 1e-9 { best = (width, height, mismatch) }
        }
        // Candidates along each side, from the smallest that reaches the minimum upwards.
        let firstWidth = max(needWidth, Int((Double(region.width) * wanted).rounded(.up)))
        let firstHeight = max(needHeight, Int((Double(region.height) * wanted).rounded(.up)))
        for step in 0..<64 {
            let width = firstWidth + step
            consider(width: width, height: Int((Double(region.height) * Double(width) / Double(region.width)).rounded()))
            let height = firstHeight + step
            consider(width: Int((Double(region.width) * Double(height) / Double(region.height)).rounded()), height: height)
            if let best, best.mismatch <= 0.05 { break }
        }
        guard let best, best.width < region.width || best.height < region.height else { return nil }
        return (best.width, best.height, Double(best.width + best.height) / sides)
    }
}
