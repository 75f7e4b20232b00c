import CRaw
import CRawStream
import ImageCodec
import Imaging

/// LibRaw's full-size rendering made a band of rows at a time (issue 34: big pictures in little memory).
///
/// LibRaw 0.20 renders a whole raw at once: its sensor data (2 bytes a pixel), its 4 x 16-bit image (8 bytes a
/// pixel) and the 8-bit copy (3 bytes a pixel) are held together, 331 MB for a 22-megapixel DNG. Its `cropbox`
/// (applied by raw2image_ex, which dcraw_process calls first) renders part of the sensor instead: the raw is
/// unpacked once, and each band of the region, with a margin of rows and columns around it, is rendered, its
/// 8-bit rows handed to `BoxShrink` without the margins, and its image freed for the next. The peak is the
/// sensor data, one band and the output.
///
/// Three steps of LibRaw's rendering look at the whole picture, and a band must not see only itself:
/// - The white point (`adjust_maximum`: the largest value, when it is near the sensor's maximum) comes from the
///   whole sensor: taken from a first pass at half size (the same sensor values) and fixed by `user_sat`.
/// - The brightening (auto-bright: the curve's white is the level under which all but 1% of the rendered
///   pixels lie) comes from the whole rendering's histogram: taken from the first pass's image, a quarter of
///   the pixels demosaiced by halving, and fixed by `no_auto_bright` and `bright`. Trap: this is the one
///   difference from the whole rendering, about a thousandth of the curve's white (measured on 22-megapixel
///   DNGs: 2 to 11 levels in 7,000), a fraction of an 8-bit level.
/// - The camera's white balance is the file's; without one LibRaw balances by the whole picture's greys: such a
///   raw, a Fuji SuperCCD (turned 45°), non-square pixels and non-Bayer sensors are rendered whole.
struct RawBands {
    /// Rows each band hands out. AHD, LibRaw's demosaic, shares its work among threads a row of 506-pixel tiles
    /// at a time: a band of two tile rows with its margins keeps two cores busy.
    static let defaultHeight = 1000
    /// Pixels rendered beyond each side of a band and thrown away: AHD makes each pixel from about 5 around it and
    /// treats the outer 5 of its image as a border. Even, so that a band starts on the same colour of the Bayer
    /// pattern as the picture.
    static let margin = 16

    let handle: LibRawHandle
    let region: PixelRegion
    let height: Int
    /// Rows and columns a band's crop starts on: even for the Bayer pattern, and a whole number of black-level
    /// patterns (LibRaw subtracts a repeating one by the position in the cropped image).
    let rowStep: Int, columnStep: Int

    /// The banded rendering of `region`, when it is LibRaw's whole one (the checks above) and more than one band;
    /// nil otherwise. Call after unpack, with the rendering's parameters set.
    init?(handle: LibRawHandle, region: PixelRegion, height: Int) {
        let data = handle.data.pointee
        let filters = data.idata.filters, colors = data.idata.colors
        guard filters > 1000, colors == 3, data.rawdata.ioparams.fuji_width == 0, data.sizes.pixel_aspect == 1,
              data.params.use_camera_wb == 1, data.color.cam_mul.0 > 0.00001, height >= 2 * Self.margin,
              region.height > height else { return nil }
        // Phase One's compressed raws subtract their black level from a copy of the whole sensor each render.
        if let name = libraw_unpack_function_name(handle.data), String(cString: name).contains("phase_one") {
            return nil
        }
        var rows: UInt32 = 0, columns: UInt32 = 0
        pbraw_black_pattern(UnsafeRawPointer(handle.data), &rows, &columns)
        let patternRows = Int(rows), patternColumns = Int(columns)
        guard patternRows <= 16, patternColumns <= 16 else { return nil }
        func step(_ pattern: Int) -> Int { pattern == 0 || pattern % 2 == 0 ? max(2, pattern) : 2 * pattern }
        self.handle = handle
        self.region = region
        self.height = height
        rowStep = step(patternRows)
        columnStep = step(patternColumns)
    }

    /// Renders the region band by band into `pool`'s buffer.
    func decode(facts: RawFacts, kind: String, pool: BufferPool,
                exactWhite: Bool = false) throws(CodecError) -> DecodedImage {
        let data = handle.data
        let saved = data.pointee.params
        defer {
            data.pointee.params.cropbox = saved.cropbox
            data.pointee.params.user_sat = saved.user_sat
            data.pointee.params.no_auto_bright = saved.no_auto_bright
            data.pointee.params.bright = saved.bright
            data.pointee.params.half_size = saved.half_size
            libraw_free_image(data)
        }
        let (maximum, white) = try firstPass(kind: kind, halfSize: !exactWhite)
        data.pointee.params.half_size = 0
        data.pointee.params.user_sat = maximum
        // copy_mem_image makes its curve's white (t_white << 3) / bright, t_white 0x2000 without auto-bright:
        // this bright gives 8 x `white` + 0.5, which its conversion to int truncates to LibRaw's own 8 x white.
        data.pointee.params.no_auto_bright = 1
        data.pointee.params.bright = Float(0x2000 << 3) / (Float(white << 3) + 0.5)

        let width = facts.width, pictureHeight = facts.height
        let left = max(0, (region.x - Self.margin) / columnStep * columnStep)
        let right = min(width, region.x + region.width + Self.margin)
        var shrink = BoxShrink(region: region, factor: 1, pool: pool)
        var bands = 0
        do throws(CodecError) {
            var top = region.y
            while top < region.y + region.height {
                let bottom = min(top + height, region.y + region.height)
                let cropTop = max(0, (top - Self.margin) / rowStep * rowStep)
                let cropBottom = min(pictureHeight, bottom + Self.margin)
                data.pointee.params.cropbox = (UInt32(left), UInt32(cropTop), UInt32(right - left),
                                               UInt32(cropBottom - cropTop))
                try handle.check(libraw_dcraw_process(data), kind: kind)
                try hand(rows: top..<bottom, cropTop: cropTop, left: left, right: right, kind: kind, to: &shrink)
                bands += 1
                top = bottom
            }
        } catch {
            shrink.abandon()
            throw error
        }
        var decoded = shrink.finish(storedWidth: facts.width, storedHeight: facts.height)
        decoded.notes.append("decoded by LibRaw at full size (\(width)x\(pictureHeight)), in \(bands) bands")
        return decoded
    }

    /// The white point LibRaw takes from the whole sensor and the histogram's white level (auto-bright's t_white)
    /// of the whole rendering, from a render at half size (or, for tests, at full size).
    private func firstPass(kind: String, halfSize: Bool) throws(CodecError) -> (maximum: Int32, white: Int) {
        let data = handle.data
        data.pointee.params.half_size = halfSize ? 1 : 0
        try handle.check(libraw_dcraw_process(data), kind: kind)
        let maximum = Int32(data.pointee.color.maximum)
        let pixels = Int(data.pointee.sizes.iwidth) * Int(data.pointee.sizes.iheight)
        let colors = Int(data.pointee.idata.colors)
        guard maximum > 0, colors == 3, pixels > 0, let image = data.pointee.image else {
            throw .corrupt("corrupt \(kind) (LibRaw rendered no picture)")
        }
        // As copy_mem_image counts: each channel's levels in steps of 8 (LibRaw's 0x2000-bin histogram).
        var histogram = [Int](repeating: 0, count: 3 * 0x2000)
        UnsafeRawPointer(image).withMemoryRebound(to: UInt16.self, capacity: pixels * 4) { samples in
            histogram.withUnsafeMutableBufferPointer { counts in
                for i in 0..<pixels {
                    counts[Int(samples[i * 4] >> 3)] += 1
                    counts[0x2000 + Int(samples[i * 4 + 1] >> 3)] += 1
                    counts[0x4000 + Int(samples[i * 4 + 2] >> 3)] += 1
                }
            }
        }
        libraw_free_image(data)
        return (maximum, Self.whiteLevel(histogram, pixels: pixels, threshold: data.pointee.params.auto_bright_thr))
    }

    /// LibRaw's t_white: the highest level of any channel above which more than `threshold` of the pixels lie.
    static func whiteLevel(_ histogram: [Int], pixels: Int, threshold: Float) -> Int {
        // Trap: LibRaw computes the count as int * int * float, truncated: the same here.
        let limit = Int(Float(pixels) * threshold)
        var white = 0
        for channel in 0..<3 {
            var level = 0x2000, total = 0
            while true {
                level -= 1
                guard level > 32 else { break }
                total += histogram[channel * 0x2000 + level]
                if total > limit { break }
            }
            white = max(white, level)
        }
        return white
    }

    /// The band's 8-bit rows `rows` (picture rows) from LibRaw's image of the crop starting at `cropTop`, `left`.
    private func hand(rows: Range<Int>, cropTop: Int, left: Int, right: Int, kind: String,
                      to shrink: inout BoxShrink) throws(CodecError) {
        let data = handle.data
        var code: Int32 = 0
        guard let image = libraw_dcraw_make_mem_image(data, &code) else {
            try handle.check(code == 0 ? LIBRAW_UNSUFFICIENT_MEMORY.rawValue : code, kind: kind)
            throw .outOfMemory("\(kind) too large to decode")
        }
        defer { libraw_dcraw_clear_mem(image) }
        let width = Int(image.pointee.width)
        guard image.pointee.type == LIBRAW_IMAGE_BITMAP, image.pointee.colors == 3, image.pointee.bits == 8,
              width == right - left, Int(image.pointee.height) >= rows.upperBound - cropTop else {
            throw .corrupt("corrupt \(kind) (LibRaw rendered a band of \(width)x\(image.pointee.height) pixels)")
        }
        // The band's image goes before its rows are copied out: the next band's is made afresh.
        libraw_free_image(data)
        let offset = MemoryLayout<libraw_processed_image_t>.offset(of: \libraw_processed_image_t.data)!
        let base = UnsafeRawPointer(image).advanced(by: offset).assumingMemoryBound(to: UInt8.self)
        let column = region.x - left
        for row in rows {
            let start = base + ((row - cropTop) * width + column) * 3
            shrink.add(row: UnsafeBufferPointer(start: start, count: region.width * 3))
        }
    }
}
