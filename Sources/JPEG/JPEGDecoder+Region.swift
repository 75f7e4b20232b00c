import Colour
import Imaging

extension JPEGDecoder {
    /// Decodes at least `region` (clamped to the image) at the smallest DCT scale M/8 (M = 1...8) at which the
    /// region's scaled size, `side * M / 8` without rounding, is at least `minimumWidth` x `minimumHeight`
    /// (full size when none is); see `JPEGDecodedRegion` for how the result maps to the stored image.
    ///
    /// Columns outside the region are not inverse-transformed, upsampled or colour-converted
    /// (`jpeg_crop_scanline`); rows above it are skipped (`jpeg_skip_scanlines`), which still entropy-decodes
    /// them but does no more. The rows below are skipped the same way, all but the last iMCU row, which is read,
    /// so that a truncated or corrupt tail still fails the decode as it would a full decode.
    ///
    /// Fails with `.unsupported` when the region does not overlap the image. Everything else is as in
    /// `decode(_:minimumWidth:minimumHeight:maxPixels:shouldCancel:)`: `maxPixels` bounds the whole stored
    /// image, any libjpeg warning fails the decode, and `shouldCancel` is asked before starting, while libjpeg
    /// reads the scans of a progressive file, and between bands of rows decoded or skipped. The pixels, and
    /// libjpeg's large blocks, come from `pool`; a CMYK file is converted through `cmykProfile` when given.
    public static func decode(_ data: [UInt8], region: JPEGRegion, minimumWidth: Int, minimumHeight: Int,
                              maxPixels: Int, cmykProfile: [UInt8]? = nil, pool: BufferPool = BufferPool(),
                              shouldCancel: () -> Bool = { false }) throws(JPEGError) -> JPEGDecodedRegion {
        try decode(data, region: region, minimumWidth: minimumWidth, minimumHeight: minimumHeight,
                   maxPixels: maxPixels, tuning: RegionTuning(), cmykProfile: cmykProfile, pool: pool,
                   shouldCancel: shouldCancel)
    }

    /// The smallest M in 1...8 with `width * M / 8 >= minimumWidth` and `height * M / 8 >= minimumHeight`
    /// (no rounding: the region's span in output pixels must reach the minimum), or 8 when none has.
    public static func regionScale(width: Int, height: Int, minimumWidth: Int, minimumHeight: Int) -> Int {
        // Clamped so that 8 * minimum cannot overflow; a minimum above the side is never met anyway.
        let needWidth = min(max(0, minimumWidth), width + 1), needHeight = min(max(0, minimumHeight), height + 1)
        for scale in 1...8 where width * scale >= 8 * needWidth && height * scale >= 8 * needHeight {
            return scale
        }
        return 8
    }

    /// Knobs for measurements and tests; the public decode uses the defaults.
    struct RegionTuning {
        /// Read the rows below the region (see `decode(_:region:...)`); false skips straight to the end, which
        /// leaves a damaged tail unnoticed.
        var checksTail = true
        /// Add an iMCU of columns on each side, decoded and thrown away (see `decode(_:region:...)`).
        var marginColumns = true
        var fastIDCT = false
        var fancyUpsampling = true
        var maxProgressiveScans = JPEGDecoder.maximumProgressiveScans
        /// Rows skipped between two checks of `shouldCancel`, in iMCU rows.
        var skipBandIMCURows = 64
        /// Decode at this scale instead of the one the minimum size asks for.
        var scale: Int? = nil
    }

    static func decode(_ data: [UInt8], region: JPEGRegion, minimumWidth: Int, minimumHeight: Int,
                       maxPixels: Int, tuning: RegionTuning, cmykProfile: [UInt8]? = nil,
                       pool: BufferPool = BufferPool(),
                       shouldCancel: () -> Bool) throws(JPEGError) -> JPEGDecodedRegion {
        try withJPEGBytes(data, shouldCancel: shouldCancel) { (bytes, probe) throws(JPEGError) in
            let decoder = try DecoderHandle(maxScans: tuning.maxProgressiveScans, probe: probe, pool: pool)
            return try decode(bytes, with: decoder, region: region, minimumWidth: minimumWidth,
                              minimumHeight: minimumHeight, maxPixels: maxPixels, tuning: tuning,
                              cmykProfile: cmykProfile, pool: pool, shouldCancel: probe.shouldCancel)
        }
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, with decoder: DecoderHandle,
                               region: JPEGRegion, minimumWidth: Int, minimumHeight: Int, maxPixels: Int,
                               tuning: RegionTuning, cmykProfile: [UInt8]?, pool: BufferPool,
                               shouldCancel: () -> Bool) throws(JPEGError) -> JPEGDecodedRegion {
        let (header, _) = try decoder.readHeader(bytes, saveEXIF: false)
        let width = Int(header.width), height = Int(header.height)
        guard width * height <= maxPixels else { throw .tooLarge(width: width, height: height, limit: maxPixels) }
        let left = max(0, region.x), top = max(0, region.y)
        let right = min(width, region.x.addingReportingOverflow(max(0, region.width)).partialValue)
        let bottom = min(height, region.y.addingReportingOverflow(max(0, region.height)).partialValue)
        guard left < right, top < bottom else {
            throw .unsupported("the region \(region) lies outside the \(width)x\(height) image")
        }
        let scale = tuning.scale ?? regionScale(width: right - left, height: bottom - top,
                                                minimumWidth: minimumWidth, minimumHeight: minimumHeight)
        if tuning.fastIDCT || !tuning.fancyUpsampling {
            try decoder.setSpeed(fastIDCT: tuning.fastIDCT, fancyUpsampling: tuning.fancyUpsampling)
        }
        let output = try decoder.start(scale: scale)
        if shouldCancel() { throw .cancelled }
        let iMCU = try decoder.iMCUSize()

        // What the output covers, in full-resolution pixels: the region widened to iMCU boundaries on the left
        // and top (where libjpeg can start), to 8-pixel blocks on the right and bottom (whole output pixels).
        let blockWidth = iMCU.width * 8 / scale, blockHeight = iMCU.height * 8 / scale
        let coversLeft = left / blockWidth * blockWidth, coversTop = top / blockHeight * blockHeight
        let coversRight = min(width, (right + 7) / 8 * 8), coversBottom = min(height, (bottom + 7) / 8 * 8)
        // The same in output pixels. libjpeg's scaled size is ceil(side * scale / 8), which is where an image
        // edge lands.
        let columns = coversLeft * scale / 8
            ..< (coversRight == width ? output.width : coversRight * scale / 8)
        let rows = coversTop * scale / 8 ..< (coversBottom == height ? output.height : coversBottom * scale / 8)

        // Trap: with subsampled chroma, libjpeg upsamples the edge columns of a cropped row as if they were the
        // image's edge (libjpeg.txt, "Partial image decompression"), so they differ from a full decode; decode an
        // iMCU more on each side and drop it.
        let margin = tuning.marginColumns && iMCU.width > scale ? iMCU.width : 0
        var decoded = max(0, columns.lowerBound - margin) ..< min(output.width, columns.upperBound + margin)
        if decoded.count < output.width {
            let crop = try decoder.cropColumns(offset: decoded.lowerBound, width: decoded.count)
            decoded = crop.offset ..< crop.offset + crop.width
        }
        guard decoded.lowerBound <= columns.lowerBound && decoded.upperBound >= columns.upperBound else {
            // Not expected: our iMCU size is libjpeg's own crop alignment. Fail this photo, not the process.
            throw .unsupported("libjpeg cropped columns \(decoded), short of the needed \(columns)")
        }

        try skip(to: rows.lowerBound, with: decoder, iMCURows: iMCU.height, tuning: tuning,
                 shouldCancel: shouldCancel)
        let inverted = header.saw_adobe_marker != 0
        let profile = output.components == 4 ? CMYKConversion.throughProfile(cmykProfile, adobeInverted: inverted) : nil
        let image = try readRows(rows.count, columns: columns, of: decoded, components: output.components,
                                 adobeInverted: inverted, through: profile, with: decoder, pool: pool,
                                 shouldCancel: shouldCancel)
        try finishEarly(with: decoder, outputHeight: output.height, rowWidth: decoded.count * output.components,
                        iMCURows: iMCU.height, tuning: tuning, shouldCancel: shouldCancel)

        let covers = JPEGRegion(x: coversLeft, y: coversTop, width: coversRight - coversLeft,
                                height: coversBottom - coversTop)
        return JPEGDecodedRegion(image: image, covers: covers, scale: scale)
    }

    /// Skips output rows up to `row`, in bands that start and end on iMCU rows, asking `shouldCancel` after each.
    private static func skip(to row: Int, with decoder: DecoderHandle, iMCURows: Int, tuning: RegionTuning,
                             shouldCancel: () -> Bool) throws(JPEGError) {
        // Trap: libjpeg-turbo 2.1.5's jpeg_skip_scanlines can hand back stale rows when a skip starts inside a
        // row group (fixed upstream after 2.1.5): every skip here starts on an iMCU row.
        precondition(decoder.nextRow % iMCURows == 0, "a skip must start on an iMCU row")
        let band = max(1, tuning.skipBandIMCURows) * iMCURows
        while decoder.nextRow < row {
            let skipped = try decoder.skipRows(min(band, row - decoder.nextRow))
            if skipped == 0 { throw .corrupt("no rows skipped") }
            if shouldCancel() { throw .cancelled }
        }
    }

    /// Reads `count` rows of `decoded` columns and keeps `columns` of them, as RGB.
    private static func readRows(_ count: Int, columns: Range<Int>, of decoded: Range<Int>, components: Int,
                                 adobeInverted: Bool, through profile: ConversionToSRGB?, with decoder: DecoderHandle,
                                 pool: BufferPool, shouldCancel: () -> Bool) throws(JPEGError) -> RGBImage {
        let width = columns.count
        // Every byte is written below: a pooled buffer, not zero-filled.
        var pixels = pool.take(width * count * 3)
        let rgbStride = width * 3
        var row = 0
        if components == 3 && decoded == columns {
            while row < count {
                let wanted = min(bandRows, count - row)
                row += try pixels.withUnsafeMutableBufferPointer { (buffer) throws(JPEGError) -> Int in
                    try decoder.readRows(into: buffer.baseAddress! + row * rgbStride, stride: rgbStride,
                                         maxRows: wanted)
                }
                if shouldCancel() { throw .cancelled }
            }
            return RGBImage(width: width, height: count, pixels: pixels)
        }
        // Trap: CMYK is as stored (Adobe files inverted, YCCK already turned into CMYK by libjpeg).
        let bandStride = decoded.count * components
        let skipBytes = (columns.lowerBound - decoded.lowerBound) * components
        var band = [UInt8](repeating: 0, count: bandRows * bandStride)
        while row < count {
            let wanted = min(bandRows, count - row)
            let read = try band.withUnsafeMutableBufferPointer { (buffer) throws(JPEGError) -> Int in
                try decoder.readRows(into: buffer.baseAddress!, stride: bandStride, maxRows: wanted)
            }
            band.withUnsafeBufferPointer { source in
                pixels.withUnsafeMutableBufferPointer { target in
                    for r in 0..<read {
                        let from = source.baseAddress! + r * bandStride + skipBytes
                        let to = target.baseAddress! + (row + r) * rgbStride
                        if components == 3 {
                            to.update(from: from, count: rgbStride)
                        } else {
                            CMYKConversion.toRGB(from, count: width, adobeInverted: adobeInverted, through: profile,
                                                 into: to)
                        }
                    }
                }
            }
            row += read
            if shouldCancel() { throw .cancelled }
        }
        return RGBImage(width: width, height: count, pixels: pixels)
    }

    /// Ends the decode after the last needed row: skips what is left, except that (with `tuning.checksTail`)
    /// the last iMCU row is read, so that libjpeg meets the end of the data, then `jpeg_finish_decompress`.
    private static func finishEarly(with decoder: DecoderHandle, outputHeight: Int, rowWidth: Int, iMCURows: Int,
                                    tuning: RegionTuning, shouldCancel: () -> Bool) throws(JPEGError) {
        if decoder.nextRow < outputHeight {
            if tuning.checksTail {
                var scratch = [UInt8](repeating: 0, count: iMCURows * rowWidth)
                func discard(until row: Int) throws(JPEGError) {
                    while decoder.nextRow < row {
                        _ = try scratch.withUnsafeMutableBufferPointer { (buffer) throws(JPEGError) -> Int in
                            try decoder.readRows(into: buffer.baseAddress!, stride: rowWidth,
                                                 maxRows: min(iMCURows, row - decoder.nextRow))
                        }
                    }
                }
                // Up to an iMCU row (skips must start on one), skip to the last iMCU row, read it.
                try discard(until: min(outputHeight, (decoder.nextRow + iMCURows - 1) / iMCURows * iMCURows))
                let lastIMCURow = (outputHeight - 1) / iMCURows * iMCURows
                if decoder.nextRow < lastIMCURow {
                    try skip(to: lastIMCURow, with: decoder, iMCURows: iMCURows, tuning: tuning,
                             shouldCancel: shouldCancel)
                }
                try discard(until: outputHeight)
            } else {
                _ = try decoder.skipRows(outputHeight - decoder.nextRow)
            }
        }
        try decoder.finish()
    }
}
