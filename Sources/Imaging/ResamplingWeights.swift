import Foundation

/// The Lanczos-3 weights of one axis: for each output pixel, a run of consecutive source pixels and their
/// weights (normalised to sum 1), with the source edges clamped.
///
/// Pointers rather than arrays so that the resampler's inner loops index them without checks or
/// retain/release traffic; the owner keeps the table alive across those loops.
final class ResamplingWeights {
    let outputCount: Int
    /// Weights of output pixel `j` are `weights[j * stride ..< j * stride + counts[j]]`.
    let stride: Int
    let starts: UnsafeMutablePointer<Int>
    let counts: UnsafeMutablePointer<Int>
    let weights: UnsafeMutablePointer<Float>
    /// The source pixels any output pixel reads: `firstSource..<endSource`.
    let firstSource: Int
    let endSource: Int
    /// Sum of `counts`: the multiply-adds per channel of one pass over a line.
    let totalTaps: Int

    /// Output pixel `j` covers source `[origin + j * scale, origin + (j + 1) * scale)`, `scale =
    /// regionLength / outputCount`; source pixel `i` covers `[i, i + 1)`. When reducing, the kernel is
    /// stretched by `scale`, so it low-passes (and at large factors area-averages) instead of aliasing;
    /// when enlarging it stays at one source pixel per lobe, which is plain Lanczos-3 interpolation.
    ///
    /// Every `starts[j] ..< starts[j] + counts[j]` lies in `0..<sourceLength`, and `counts[j] <= stride`:
    /// the resampler's unchecked loops rely on it. The region must be finite, positive and within
    /// `maximumCoordinate` so that every `Double` -> `Int` conversion below is defined.
    init(sourceLength: Int, regionOrigin: Double, regionLength: Double, outputCount: Int) {
        guarantee(sourceLength > 0 && outputCount > 0, "\(outputCount) weights over \(sourceLength) pixels")
        guarantee(regionOrigin.isFinite && regionLength.isFinite && regionLength > 0
                  && abs(regionOrigin) <= Self.maximumCoordinate && regionLength <= Self.maximumCoordinate,
                  "source region at \(regionOrigin), \(regionLength) long")
        self.outputCount = outputCount
        let scale = regionLength / Double(outputCount)
        let support = max(scale, 1)
        let radius = 3 * support
        stride = Int((2 * radius).rounded(.up)) + 2
        let (weightCount, weightsOverflow) = outputCount.multipliedReportingOverflow(by: stride)
        guarantee(!weightsOverflow, "\(outputCount) x \(stride) weights do not fit in memory")
        starts = .allocate(capacity: outputCount)
        counts = .allocate(capacity: outputCount)
        weights = .allocate(capacity: weightCount)
        weights.initialize(repeating: 0, count: weightCount)

        var accumulated = [Double](repeating: 0, count: stride)
        var first = Int.max, end = Int.min, total = 0
        let last = sourceLength - 1
        for j in 0..<outputCount {
            let centre = regionOrigin + (Double(j) + 0.5) * scale
            // Pixel i's centre is i + 0.5; it contributes when |i + 0.5 - centre| < radius.
            let low = Int((centre - radius - 0.5).rounded(.up))
            let high = max(low, Int((centre + radius - 0.5).rounded(.down)))
            let clampedLow = min(max(low, 0), last), clampedHigh = min(max(high, 0), last)
            let span = clampedHigh - clampedLow + 1
            for t in 0..<span { accumulated[t] = 0 }
            var sum = 0.0
            for i in low...high {
                let weight = Self.lanczos3((Double(i) + 0.5 - centre) / support)
                accumulated[min(max(i, 0), last) - clampedLow] += weight
                sum += weight
            }
            if abs(sum) < 1e-9 {
                // Cannot happen for a sane region; a single nearest pixel beats dividing by zero.
                for t in 0..<span { accumulated[t] = 0 }
                accumulated[min(max(Int(centre.rounded(.down)), clampedLow), clampedHigh) - clampedLow] = 1
                sum = 1
            }
            // Drop the runs of (numerically) zero weights at either end, e.g. the integer zeros of the
            // kernel when the scale is 1: an identity resample then reads one pixel per output.
            var from = 0, to = span
            while from < to - 1 && abs(accumulated[from]) < 1e-9 { from += 1 }
            while to - 1 > from && abs(accumulated[to - 1]) < 1e-9 { to -= 1 }
            let row = weights + j * stride
            for t in from..<to { row[t - from] = Float(accumulated[t] / sum) }
            starts[j] = clampedLow + from
            counts[j] = to - from
            first = min(first, clampedLow + from)
            end = max(end, clampedLow + to)
            total += to - from
        }
        firstSource = first
        endSource = end
        totalTaps = total
    }

    /// Far beyond any image's size (2^32 pixels), and small enough that no sum of a few such values
    /// leaves the range where `Int(Double)` is exact.
    static let maximumCoordinate = Double(1 << 32)

    deinit {
        starts.deallocate()
        counts.deallocate()
        weights.deallocate()
    }

    /// sinc(x) * sinc(x / 3) inside |x| < 3, else 0.
    static func lanczos3(_ x: Double) -> Double {
        let distance = abs(x)
        if distance < 1e-12 { return 1 }
        if distance >= 3 { return 0 }
        let a = Double.pi * x
        return 3 * sin(a) * sin(a / 3) / (a * a)
    }
}
