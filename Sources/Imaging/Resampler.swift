import Geometry

public enum ImagingError: Error, Sendable, Equatable {
    /// `shouldCancel` returned true at a safe point.
    case cancelled
}

/// Resampling with a real filter (never nearest neighbour).
public enum Resampler {
    /// How many output rows are produced between two calls of `shouldCancel`.
    public static let rowsPerCancellationCheck = 32

    /// Resamples `region` of `image` to exactly `width` x `height` pixels, then turns the result upright by
    /// `orientation`, as `applying(_:)` would, without a second pass or buffer: each band of output rows is
    /// put in its upright place as soon as it is made. `region`, `width` and `height` are along the stored
    /// image's axes; when `orientation` swaps the dimensions, the result is `height` x `width`.
    /// Checks `shouldCancel` between bands of rows and throws `.cancelled` when it returns true.
    ///
    /// The filter is separable Lanczos-3, stretched by the scale factor on each axis that is reduced (so
    /// large reductions average areas rather than alias) and plain Lanczos-3 interpolation on an axis that
    /// is enlarged. Pixels outside the image repeat its edge; pixels outside `region` but inside the image
    /// are real neighbours and are used. `region` must have a finite origin and a positive, finite size,
    /// each at most 2^32 pixels; a zero `width` or `height` gives an empty image. The result's buffer comes
    /// from `pool`.
    public static func resample(_ image: RGBImage, region: Rect, width: Int, height: Int,
                                orientation: Orientation = .topLeft, pool: BufferPool = BufferPool(),
                                shouldCancel: () -> Bool = { false }) throws(ImagingError) -> RGBImage {
        try resample(image, region: region, width: width, height: height, orientation: orientation, order: .cheaper,
                     pool: pool, shouldCancel: shouldCancel)
    }

    /// Which pass runs first; tests pin it to cover both code paths, everyone else wants `.cheaper`.
    enum PassOrder: CaseIterable {
        case cheaper, horizontalFirst, verticalFirst
    }

    static func resample(_ image: RGBImage, region: Rect, width: Int, height: Int,
                         orientation: Orientation = .topLeft, order: PassOrder, pool: BufferPool = BufferPool(),
                         shouldCancel: () -> Bool) throws(ImagingError) -> RGBImage {
        if width > 0 && height > 0 {
            guarantee(image.hasValidPixelCount, "RGBImage \(image.width)x\(image.height) holds \(image.pixels.count) bytes")
        }
        return try image.pixels.withUnsafeBufferPointer { (pixels) throws(ImagingError) -> RGBImage in
            let source = pixels.baseAddress, sourceWidth = image.width
            return try resample(sourceWidth: image.width, sourceHeight: image.height, region: region, width: width,
                                height: height, orientation: orientation, order: order, pool: pool,
                                shouldCancel: shouldCancel) { y, x, _ in UnsafePointer(source! + (y * sourceWidth + x) * 3) }
        }
    }

    /// Where the passes read the source: row `y`'s `count` pixels from column `x` as RGB bytes, valid until the
    /// next call (each is read into Floats at once).
    typealias SourceRow = (_ y: Int, _ x: Int, _ count: Int) -> UnsafePointer<UInt8>

    static func resample(sourceWidth: Int, sourceHeight: Int, region: Rect, width: Int, height: Int,
                         orientation: Orientation, order: PassOrder, pool: BufferPool,
                         shouldCancel: () -> Bool, source: SourceRow) throws(ImagingError) -> RGBImage {
        guard let count = RGBImage.byteCount(width: width, height: height) else {
            fatalError("cannot resample to \(width)x\(height)")
        }
        guarantee(region.x.isFinite && region.y.isFinite && region.width.isFinite && region.height.isFinite
                  && region.width > 0 && region.height > 0, "invalid source region \(region)")
        let placement = UprightPlacement(storedWidth: width, storedHeight: height, orientation: orientation)
        if count == 0 { return RGBImage(width: placement.uprightWidth, height: placement.uprightHeight, pixels: []) }
        guarantee(sourceWidth > 0 && sourceHeight > 0, "cannot resample an empty image")

        let columns = ResamplingWeights(sourceLength: sourceWidth, regionOrigin: region.x,
                                        regionLength: region.width, outputCount: width)
        let rows = ResamplingWeights(sourceLength: sourceHeight, regionOrigin: region.y,
                                     regionLength: region.height, outputCount: height)
        // Multiply-adds of each order; they differ when the two axes are scaled differently. On a tie the
        // vertical-first order wins, so the horizontal-first order must be clearly cheaper to be chosen. (Both
        // orders now run at about the same speed per multiply-add; the rule stays as it was because the two
        // orders round differently: it decides which bytes a job gives, and ResamplerExactnessTests pins them.)
        let horizontalFirstCost = Double(rows.endSource - rows.firstSource) * Double(columns.totalTaps)
            + Double(width) * Double(rows.totalTaps)
        let verticalFirstCost = Double(columns.endSource - columns.firstSource) * Double(rows.totalTaps)
            + Double(height) * Double(columns.totalTaps)

        let horizontalFirst = switch order {
        case .cheaper: horizontalFirstCost < 0.9 * verticalFirstCost
        case .horizontalFirst: true
        case .verticalFirst: false
        }

        var finished = false
        // The result's one allocation, from the pool of large buffers.
        let output = pool.array(count: count) { destination, initialized in
            let writer = UprightWriter(placement, into: destination.baseAddress!)
            defer { writer.deallocate() }
            withExtendedLifetime((columns, rows)) {
                finished = horizontalFirst
                    ? resampleHorizontalFirst(source, columns: columns, rows: rows, into: writer, shouldCancel)
                    : resampleVerticalFirst(source, columns: columns, rows: rows, into: writer, shouldCancel)
            }
            initialized = finished ? count : 0
        }
        guard finished else { throw .cancelled }
        return RGBImage(width: placement.uprightWidth, height: placement.uprightHeight, pixels: output)
    }

    /// How many rows the horizontal filter runs through at once: each weight, loaded once, serves them all,
    /// and their sums are independent chains of additions that overlap in the pipeline. Eight sums and their
    /// operands fit in the 16 SSE registers (filterHorizontally is written for eight); eight rows measured
    /// ~10% faster than four.
    static let rowsPerGroup = 8

    /// Filters each needed source row horizontally once, into a ring of Float rows, and combines the ring's
    /// rows vertically into each output row. Returns false when cancelled.
    private static func resampleHorizontalFirst(
        _ source: SourceRow, columns: ResamplingWeights, rows: ResamplingWeights,
        into output: UprightWriter, _ shouldCancel: () -> Bool
    ) -> Bool {
        let lineLength = columns.outputCount * 3
        // + 1: filterHorizontally stores each pixel as a SIMD4, one Float past its last pixel.
        let ringLineLength = lineLength + 1
        // An output row's taps, plus the rest of the last group of rows filtered together.
        let ringSize = rows.stride + rowsPerGroup - 1
        let firstColumn = columns.firstSource
        let spanPixels = columns.endSource - firstColumn, spanLength = spanPixels * 3
        let (ringLength, ringOverflows) = (ringSize + 1).multipliedReportingOverflow(by: ringLineLength)
        guarantee(!ringOverflows, "a ring of \(ringSize) rows of \(lineLength) floats does not fit in memory")
        // The ring, and one more row for the rows of a group that lie past the source's last row.
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: ringLength)
        let spare = ring + ringSize * ringLineLength
        let spans = SpanRows(length: spanLength)
        let taps = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: rows.stride)
        let results = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: rowsPerGroup)
        var ringRow = [Int](repeating: -1, count: ringSize)
        defer { ring.deallocate(); spans.deallocate(); taps.deallocate(); results.deallocate() }

        for y in 0..<rows.outputCount {
            if y % rowsPerCancellationCheck == 0 && shouldCancel() { return false }
            let start = rows.starts[y], count = max(rows.counts[y], 1)
            for sourceRow in start..<(start + count) {
                if ringRow[sourceRow % ringSize] != sourceRow {
                    // This row and the next ones, as a group. Any `ringSize` consecutive rows have distinct
                    // slots, and the group evicts only rows before `start`, which no later output row reads
                    // (row windows only move down).
                    let available = min(rowsPerGroup, rows.endSource - sourceRow)
                    for i in 0..<rowsPerGroup {
                        results[i] = i < available ? ring + ((sourceRow + i) % ringSize) * ringLineLength : spare
                    }
                    for i in 0..<available {
                        spans.load(row: i, from: source(sourceRow + i, firstColumn, spanPixels))
                        ringRow[(sourceRow + i) % ringSize] = sourceRow + i
                    }
                    filterHorizontally(spans, from: firstColumn, columns, into: results)
                }
                taps[sourceRow - start] = UnsafePointer(ring + (sourceRow % ringSize) * ringLineLength)
            }
            combineFloatRows(taps, weights: rows.weights + y * rows.stride, count: count, length: lineLength,
                             into: output.row(y))
            output.finished(row: y)
        }
        return true
    }

    /// Combines source rows vertically into Float rows (only the columns the output reads), a group of
    /// output rows at a time, then filters the group horizontally into output rows. Each source row is
    /// converted to Float once, into a ring of rows. Returns false when cancelled.
    private static func resampleVerticalFirst(
        _ source: SourceRow, columns: ResamplingWeights, rows: ResamplingWeights,
        into output: UprightWriter, _ shouldCancel: () -> Bool
    ) -> Bool {
        let firstColumn = columns.firstSource
        let spanPixels = columns.endSource - firstColumn, spanLength = spanPixels * 3
        let outputLineLength = columns.outputCount * 3
        let spans = SpanRows(length: spanLength)
        let ringSize = rows.stride
        let (ringLength, ringOverflows) = ringSize.multipliedReportingOverflow(by: spanLength)
        guarantee(!ringOverflows, "a ring of \(ringSize) rows of \(spanLength) floats does not fit in memory")
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: ringLength)
        var ringRow = [Int](repeating: -1, count: ringSize)
        let taps = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: rows.stride)
        // + 1: filterHorizontally stores each pixel as a SIMD4, one Float past its last pixel.
        let filteredLength = outputLineLength + 1
        let filtered = UnsafeMutablePointer<Float>.allocate(capacity: rowsPerGroup * filteredLength)
        let results = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: rowsPerGroup)
        for i in 0..<rowsPerGroup { results[i] = filtered + i * filteredLength }
        defer { spans.deallocate(); filtered.deallocate(); ring.deallocate(); taps.deallocate(); results.deallocate() }

        for group in Swift.stride(from: 0, to: rows.outputCount, by: rowsPerGroup) {
            // Groups start on multiples of rowsPerGroup, which divides rowsPerCancellationCheck.
            if group % rowsPerCancellationCheck == 0 && shouldCancel() { return false }
            let members = min(rowsPerGroup, rows.outputCount - group)
            for i in 0..<members {
                let y = group + i
                let start = rows.starts[y], count = max(rows.counts[y], 1)
                // A window of at most `ringSize` consecutive rows never has two rows in one slot.
                for sourceRow in start..<(start + count) {
                    let slot = ring + (sourceRow % ringSize) * spanLength
                    if ringRow[sourceRow % ringSize] != sourceRow {
                        floats(source(sourceRow, firstColumn, spanPixels), count: spanLength, into: slot)
                        ringRow[sourceRow % ringSize] = sourceRow
                    }
                    taps[sourceRow - start] = UnsafePointer(slot)
                }
                combineFloatRows(taps, weights: rows.weights + y * rows.stride, count: count, length: spanLength,
                                 into: spans.row(i))
            }
            // A short last group filters stale rows too, into rows that are not used.
            filterHorizontally(spans, from: firstColumn, columns, into: results)
            for i in 0..<members {
                bytes(filtered + i * filteredLength, count: outputLineLength, into: output.row(group + i))
                output.finished(row: group + i)
            }
        }
        return true
    }

    /// `count` bytes as Floats.
    @inline(__always)
    private static func floats(_ line: UnsafePointer<UInt8>, count: Int, into floats: UnsafeMutablePointer<Float>) {
        convert(line, count: count, into: floats, floats16, { Float($0) })
    }

    /// `count` values converted, 16 at a time by `sixteen` and the last few one by one by `one` (which must give
    /// what `sixteen` gives in each lane). Specialised and inlined for each use: the loops stay as written.
    @inline(__always)
    private static func convert<From: SIMDScalar, To: SIMDScalar>(_ values: UnsafePointer<From>, count: Int,
                                                                into result: UnsafeMutablePointer<To>,
                                                                _ sixteen: (SIMD16<From>) -> SIMD16<To>,
                                                                _ one: (From) -> To) {
        var k = 0
        while k + 16 <= count {
            let chunk = UnsafeRawPointer(values + k).loadUnaligned(as: SIMD16<From>.self)
            UnsafeMutableRawPointer(result + k).storeBytes(of: sixteen(chunk), as: SIMD16<To>.self)
            k += 16
        }
        while k < count { result[k] = one(values[k]); k += 1 }
    }

    /// `rowsPerGroup` rows of Floats, interleaved RGB from the first source column any output reads, each
    /// followed by one spare Float: `filterHorizontally` reads every pixel as one `SIMD4`.
    private struct SpanRows {
        let floats: UnsafeMutablePointer<Float>
        let length: Int
        var rowLength: Int { length + 1 }

        init(length: Int) {
            let (count, overflows) = (length + 1).multipliedReportingOverflow(by: Resampler.rowsPerGroup)
            guarantee(!overflows, "\(Resampler.rowsPerGroup) rows of \(length) floats do not fit in memory")
            floats = .allocate(capacity: count)
            floats.initialize(repeating: 0, count: count)
            self.length = length
        }

        func row(_ i: Int) -> UnsafeMutablePointer<Float> { floats + i * rowLength }

        /// A row of bytes into row `i`, each converted to Float once.
        func load(row i: Int, from line: UnsafePointer<UInt8>) { Resampler.floats(line, count: length, into: row(i)) }

        func deallocate() { floats.deallocate() }
    }

    /// `Σ weights[t] * lines[t][k]` for 16 `k` from `k`, summed in tap order, in registers through all taps.
    @inline(__always)
    private static func combined(_ lines: UnsafePointer<UnsafePointer<Float>>, _ weights: UnsafePointer<Float>,
                                 _ count: Int, at k: Int) -> SIMD16<Float> {
        var sum = weights[0] * UnsafeRawPointer(lines[0] + k).loadUnaligned(as: SIMD16<Float>.self)
        for t in 1..<count {
            sum += weights[t] * UnsafeRawPointer(lines[t] + k).loadUnaligned(as: SIMD16<Float>.self)
        }
        return sum
    }

    /// The same sum, one `k` at a time, for rows shorter than 16.
    @inline(__always)
    private static func combined(_ lines: UnsafePointer<UnsafePointer<Float>>, _ weights: UnsafePointer<Float>,
                                 _ count: Int, at k: Int) -> Float {
        var sum = weights[0] * lines[0][k]
        for t in 1..<count { sum += weights[t] * lines[t][k] }
        return sum
    }

    /// `result[k] = Σ weights[t] * lines[t][k]` for `k` in `0..<length`.
    @inline(__always)
    private static func combineFloatRows(_ lines: UnsafePointer<UnsafePointer<Float>>, weights: UnsafePointer<Float>,
                                         count: Int, length: Int, into result: UnsafeMutablePointer<Float>) {
        if length < 16 {
            for k in 0..<length { result[k] = combined(lines, weights, count, at: k) }
            return
        }
        var k = 0
        while k + 16 <= length {
            UnsafeMutableRawPointer(result + k).storeBytes(of: combined(lines, weights, count, at: k), as: SIMD16<Float>.self)
            k += 16
        }
        // The last chunk overlaps the one before: its sums are computed again, identically.
        if k < length {
            UnsafeMutableRawPointer(result + length - 16).storeBytes(of: combined(lines, weights, count, at: length - 16),
                                                                    as: SIMD16<Float>.self)
        }
    }

    /// `result[k] = byte(Σ weights[t] * lines[t][k])` for `k` in `0..<length`.
    @inline(__always)
    private static func combineFloatRows(_ lines: UnsafePointer<UnsafePointer<Float>>, weights: UnsafePointer<Float>,
                                         count: Int, length: Int, into result: UnsafeMutablePointer<UInt8>) {
        if length < 16 {
            for k in 0..<length { result[k] = byte(combined(lines, weights, count, at: k)) }
            return
        }
        var k = 0
        while k + 16 <= length {
            UnsafeMutableRawPointer(result + k).storeBytes(of: bytes(combined(lines, weights, count, at: k)),
                                                           as: SIMD16<UInt8>.self)
            k += 16
        }
        if k < length {
            UnsafeMutableRawPointer(result + length - 16).storeBytes(
                of: bytes(combined(lines, weights, count, at: length - 16)), as: SIMD16<UInt8>.self)
        }
    }

    /// The rows of `spans` through the horizontal weights, each into its own `results` row. Rows start at
    /// source column `firstColumn`; every pixel is read as one `SIMD4` (R, G, B and the next pixel's R,
    /// summed but never used) and stored as one, so each result row has one spare Float after its last pixel.
    /// A tap's weight is loaded once for all the rows, whose sums are independent.
    @inline(__always)
    private static func filterHorizontally(_ spans: SpanRows, from firstColumn: Int, _ columns: ResamplingWeights,
                                           into results: UnsafePointer<UnsafeMutablePointer<Float>>) {
        let pixelSize = 3 * MemoryLayout<Float>.stride
        let rowSize = spans.rowLength * MemoryLayout<Float>.stride
        let origin = UnsafeRawPointer(spans.floats - firstColumn * 3)
        let stride = columns.stride, starts = columns.starts, counts = columns.counts
        @inline(__always)
        func store(_ sum: SIMD4<Float>, _ row: Int, _ x: Int) {
            UnsafeMutableRawPointer(results[row] + x * 3).storeBytes(of: sum, as: SIMD4<Float>.self)
        }
        for x in 0..<columns.outputCount {
            let weights = columns.weights + x * stride
            var pixel = origin + starts[x] * pixelSize
            var s0 = SIMD4<Float>(), s1 = SIMD4<Float>(), s2 = SIMD4<Float>(), s3 = SIMD4<Float>()
            var s4 = SIMD4<Float>(), s5 = SIMD4<Float>(), s6 = SIMD4<Float>(), s7 = SIMD4<Float>()
            for t in 0..<counts[x] {
                let weight = weights[t]
                s0 += weight * pixel.loadUnaligned(as: SIMD4<Float>.self)
                s1 += weight * pixel.loadUnaligned(fromByteOffset: rowSize, as: SIMD4<Float>.self)
                s2 += weight * pixel.loadUnaligned(fromByteOffset: 2 * rowSize, as: SIMD4<Float>.self)
                s3 += weight * pixel.loadUnaligned(fromByteOffset: 3 * rowSize, as: SIMD4<Float>.self)
                s4 += weight * pixel.loadUnaligned(fromByteOffset: 4 * rowSize, as: SIMD4<Float>.self)
                s5 += weight * pixel.loadUnaligned(fromByteOffset: 5 * rowSize, as: SIMD4<Float>.self)
                s6 += weight * pixel.loadUnaligned(fromByteOffset: 6 * rowSize, as: SIMD4<Float>.self)
                s7 += weight * pixel.loadUnaligned(fromByteOffset: 7 * rowSize, as: SIMD4<Float>.self)
                pixel += pixelSize
            }
            // In pixel order: each store's fourth Float is overwritten by the next pixel's red.
            store(s0, 0, x); store(s1, 1, x); store(s2, 2, x); store(s3, 3, x)
            store(s4, 4, x); store(s5, 5, x); store(s6, 6, x); store(s7, 7, x)
        }
    }

    /// `count` Floats rounded to bytes, 16 at a time.
    @inline(__always)
    private static func bytes(_ values: UnsafePointer<Float>, count: Int, into result: UnsafeMutablePointer<UInt8>) {
        convert(values, count: count, into: result, bytes, byte)
    }

    /// 16 bytes as Floats. Lane by lane: the stdlib's SIMD16<Float>(SIMD16<UInt8>) is a generic call, not inlined.
    @inline(__always)
    private static func floats16(_ bytes: SIMD16<UInt8>) -> SIMD16<Float> {
        var result = SIMD16<Float>()
        for i in 0..<16 { result[i] = Float(bytes[i]) }
        return result
    }

    /// `byte` on 16 values: the same rounding and clamping.
    @inline(__always)
    private static func bytes(_ values: SIMD16<Float>) -> SIMD16<UInt8> {
        var rounded = values + 0.5
        rounded.replace(with: 0, where: rounded .<= 0)
        rounded.replace(with: 255, where: rounded .>= 255)
        // Lane by lane: the stdlib's SIMD16<Int32>(SIMD16<Float>) is a generic, unvectorised call per lane.
        var result = SIMD16<UInt8>()
        for i in 0..<16 { result[i] = UInt8(rounded[i]) }
        return result
    }

    /// Rounds to the nearest byte, clamping the overshoot of the kernel's negative lobes.
    @inline(__always)
    private static func byte(_ value: Float) -> UInt8 {
        let rounded = value + 0.5
        if rounded <= 0 { return 0 }
        if rounded >= 255 { return 255 }
        return UInt8(rounded)
    }
}
