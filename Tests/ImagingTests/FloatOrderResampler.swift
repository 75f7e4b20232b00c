@testable import Imaging
import Geometry

/// The resampler's exact arithmetic, written the plain scalar way: the same `ResamplingWeights`, the same Float
/// products, each sum taken in tap order t = 0, 1, ... and each pass in the same order as the fast kernels.
/// Unlike `ReferenceResampler` (the definition, in Double, within 1), this one must agree with the fast kernels
/// bit for bit: it pins what the kernels compute, so that they can be restructured without changing one byte.
enum FloatOrderResampler {
    static func resample(_ image: RGBImage, region: Rect, width: Int, height: Int,
                         order: Resampler.PassOrder) -> RGBImage {
        if width == 0 || height == 0 { return RGBImage(width: width, height: height, pixels: []) }
        let columns = ResamplingWeights(sourceLength: image.width, regionOrigin: region.x,
                                        regionLength: region.width, outputCount: width)
        let rows = ResamplingWeights(sourceLength: image.height, regionOrigin: region.y,
                                     regionLength: region.height, outputCount: height)
        let horizontalFirst = switch order {
        case .horizontalFirst: true
        case .verticalFirst: false
        case .cheaper: prefersHorizontalFirst(columns: columns, rows: rows, width: width, height: height)
        }
        return horizontalFirst ? resampleHorizontalFirst(image, columns, rows) : resampleVerticalFirst(image, columns, rows)
    }

    /// Today's rule: the horizontal-first order only when it costs under 0.9 of the other's multiply-adds.
    static func prefersHorizontalFirst(columns: ResamplingWeights, rows: ResamplingWeights,
                                       width: Int, height: Int) -> Bool {
        let horizontalFirstCost = Double(rows.endSource - rows.firstSource) * Double(columns.totalTaps)
            + Double(width) * Double(rows.totalTaps)
        let verticalFirstCost = Double(columns.endSource - columns.firstSource) * Double(rows.totalTaps)
            + Double(height) * Double(columns.totalTaps)
        return horizontalFirstCost < 0.9 * verticalFirstCost
    }

    /// The taps of output `j` on one axis: (source index, weight) in order.
    static func taps(_ table: ResamplingWeights, _ j: Int) -> [(index: Int, weight: Float)] {
        (0..<table.counts[j]).map { (table.starts[j] + $0, table.weights[j * table.stride + $0]) }
    }

    /// Channel `c` of source row `line` (Floats, one per byte, full width) filtered to output column `x`.
    static func horizontal(_ line: [Float], _ columns: ResamplingWeights, x: Int, channel c: Int) -> Float {
        var sum: Float = 0
        for (index, weight) in taps(columns, x) { sum += weight * line[index * 3 + c] }
        return sum
    }

    static func resampleVerticalFirst(_ image: RGBImage, _ columns: ResamplingWeights,
                                      _ rows: ResamplingWeights) -> RGBImage {
        let rowLength = image.width * 3
        var pixels: [UInt8] = []
        for y in 0..<rows.outputCount {
            let vertical = taps(rows, y)
            var line = [Float](repeating: 0, count: rowLength)
            for k in 0..<rowLength {
                var sum = vertical[0].weight * Float(image.pixels[vertical[0].index * rowLength + k])
                for (index, weight) in vertical.dropFirst() { sum += weight * Float(image.pixels[index * rowLength + k]) }
                line[k] = sum
            }
            for x in 0..<columns.outputCount {
                for c in 0..<3 { pixels.append(byte(horizontal(line, columns, x: x, channel: c))) }
            }
        }
        return RGBImage(width: columns.outputCount, height: rows.outputCount, pixels: pixels)
    }

    static func resampleHorizontalFirst(_ image: RGBImage, _ columns: ResamplingWeights,
                                        _ rows: ResamplingWeights) -> RGBImage {
        let rowLength = image.width * 3
        // Every source row filtered horizontally (only the rows some output row reads are ever looked at).
        let filtered: [[Float]] = (0..<image.height).map { r in
            let line = image.pixels[(r * rowLength)..<((r + 1) * rowLength)].map(Float.init)
            return (0..<columns.outputCount * 3).map { horizontal(line, columns, x: $0 / 3, channel: $0 % 3) }
        }
        var pixels: [UInt8] = []
        for y in 0..<rows.outputCount {
            let vertical = taps(rows, y)
            for k in 0..<columns.outputCount * 3 {
                var sum = vertical[0].weight * filtered[vertical[0].index][k]
                for (index, weight) in vertical.dropFirst() { sum += weight * filtered[index][k] }
                pixels.append(byte(sum))
            }
        }
        return RGBImage(width: columns.outputCount, height: rows.outputCount, pixels: pixels)
    }

    /// Round half up, clamped to 0...255, as the kernels do.
    static func byte(_ value: Float) -> UInt8 {
        let rounded = value + 0.5
        if rounded <= 0 { return 0 }
        if rounded >= 255 { return 255 }
        return UInt8(rounded)
    }
}
