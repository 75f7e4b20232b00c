import Foundation
import Geometry

/// Lays an arrangement out in a rectangle so that it fills it exactly, gaps exact, every cell's aspect the same
/// factor away from its photo's: the factor that the whole arrangement needs to match the rectangle.
struct ArrangementLayout {
    /// The cells in reading order.
    var cells: [Rect]
    /// Each cell's aspect over its photo's aspect: below 1 the photos lose their sides, above 1 top and bottom.
    var stretch: Double

    /// The share of each photo's area a cell of this stretch cuts away (with `--fit fill`).
    var cropShare: Double { 1 - min(stretch, 1 / stretch) }

    /// Nil when the gaps leave no room in `rect`.
    /// - Parameter bands: per photo, a height its cell holds beyond the photo (a caption), the same at any width.
    init?(_ arrangement: Arrangement, aspects: [Double], in rect: Rect, gap: Double, bands: [Double]? = nil) {
        precondition(aspects.count == arrangement.count)
        let bands = bands ?? Array(repeating: 0, count: aspects.count)
        // A node's height is affine in its width, h = slope * w + offset, for leaf aspects a * stretch; the
        // height for rect.width falls as the stretch grows: find the stretch that gives rect.height.
        func height(_ stretch: Double) -> Double {
            var next = 0
            return Self.line(arrangement, aspects: aspects, bands: bands, stretch: stretch, gap: gap, next: &next)
                .height(rect.width)
        }
        // Secant steps on the logarithm of the stretch (the height is smooth and falls steadily with it), kept
        // inside a bracket that bisection narrows whenever a step would leave it.
        var low = -12.0, high = 12.0
        let target = rect.height
        guard height(exp(low)) >= target, height(exp(high)) <= target else { return nil }
        var a = 0.0, fa = height(1) - target
        var b = 0.1, fb = height(exp(b)) - target
        for _ in 0..<60 {
            if fa > 0 { low = max(low, a) } else { high = min(high, a) }
            if fb > 0 { low = max(low, b) } else { high = min(high, b) }
            if abs(fb) <= target * 1e-12 || high - low < 1e-13 { break }
            var c = fb != fa ? b - fb * (b - a) / (fb - fa) : (low + high) / 2
            if !(c > low && c < high) { c = (low + high) / 2 }
            (a, fa) = (b, fb)
            (b, fb) = (c, height(exp(c)) - target)
        }
        stretch = exp(b)
        var cells: [Rect] = []
        var next = 0
        guard Self.place(arrangement, aspects: aspects, bands: bands, stretch: stretch, gap: gap, in: rect,
                         next: &next, cells: &cells) else { return nil }
        self.cells = cells
    }

    private struct Line {
        var slope: Double
        var offset: Double
        func height(_ width: Double) -> Double { slope * width + offset }
        func width(_ height: Double) -> Double { (height - offset) / slope }
    }

    private static func line(_ node: Arrangement, aspects: [Double], bands: [Double], stretch: Double, gap: Double,
                             next: inout Int) -> Line {
        switch node {
        case .photo:
            defer { next += 1 }
            return Line(slope: 1 / (aspects[next] * stretch), offset: bands[next])
        case .row(let parts):
            // Side by side at one height h: the widths (h - offset) / slope and the gaps add up to the width.
            var inverse = 0.0, shift = 0.0
            for part in parts {
                let child = line(part, aspects: aspects, bands: bands, stretch: stretch, gap: gap, next: &next)
                inverse += 1 / child.slope
                shift += child.offset / child.slope
            }
            return Line(slope: 1 / inverse, offset: (shift - gap * Double(parts.count - 1)) / inverse)
        case .column(let parts):
            var slope = 0.0, offset = gap * Double(parts.count - 1)
            for part in parts {
                let child = line(part, aspects: aspects, bands: bands, stretch: stretch, gap: gap, next: &next)
                slope += child.slope
                offset += child.offset
            }
            return Line(slope: slope, offset: offset)
        }
    }

    /// Cuts `rect` for `node`; the last part of a row or column takes what is left, so the edges meet exactly.
    private static func place(_ node: Arrangement, aspects: [Double], bands: [Double], stretch: Double, gap: Double,
                              in rect: Rect, next: inout Int, cells: inout [Rect]) -> Bool {
        guard rect.width > 0, rect.height > 0 else { return false }
        switch node {
        case .photo:
            cells.append(rect)
            next += 1
            return true
        case .row(let parts):
            var x = rect.x
            for (index, part) in parts.enumerated() {
                var probe = next
                let width = index == parts.count - 1
                    ? rect.x + rect.width - x
                    : line(part, aspects: aspects, bands: bands, stretch: stretch, gap: gap, next: &probe).width(rect.height)
                guard place(part, aspects: aspects, bands: bands, stretch: stretch, gap: gap,
                            in: Rect(x: x, y: rect.y, width: width, height: rect.height), next: &next, cells: &cells)
                else { return false }
                x += width + gap
            }
            return true
        case .column(let parts):
            var top = rect.y + rect.height
            for (index, part) in parts.enumerated() {
                var probe = next
                let height = index == parts.count - 1
                    ? top - rect.y
                    : line(part, aspects: aspects, bands: bands, stretch: stretch, gap: gap, next: &probe).height(rect.width)
                guard place(part, aspects: aspects, bands: bands, stretch: stretch, gap: gap,
                            in: Rect(x: rect.x, y: top - height, width: rect.width, height: height), next: &next,
                            cells: &cells)
                else { return false }
                top -= height + gap
            }
            return true
        }
    }
}
