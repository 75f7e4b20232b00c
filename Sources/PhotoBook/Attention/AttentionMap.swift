import Foundation
import Imaging

/// Where the eye goes in a photo that marks no region: a coarse grid over the upright picture, each cell's
/// interest above the photo's own typical level (0 for the background). Made once per photo from a small decode
/// (`AttentionProbe`); the crop rule asks it where a crop of a given size keeps the most (`place`).
///
/// Interest is libvips' `attention` mix (docs/research/attention.md): edges (Sobel on CIE L*), skin tones
/// (a narrow a*b* box with L* at least 15) and saturated colour (chroma over 60), averaged per cell. Two changes:
/// saturation is graded rather than a step, and the median cell is subtracted, so that a photo busy all over (grass,
/// a crowd, a wall of leaves) has no point of interest and keeps its centre crop.
public struct AttentionMap: Sendable, Equatable {
    /// Cells across and down the upright picture.
    public let columns: Int
    public let rows: Int
    /// Row by row from the top left, `columns * rows` of them, never negative.
    public let cells: [Float]

    public init(columns: Int, rows: Int, cells: [Float]) {
        precondition(columns > 0 && rows > 0 && cells.count == columns * rows, "AttentionMap of the wrong size")
        self.columns = columns
        self.rows = rows
        self.cells = cells
    }

    /// Cells along each side of the stored picture, as libvips' 32 x 32: enough to place a crop within 3% of a side.
    static let side = 32

    /// The map of `image` (a small decode of the stored picture), turned by `orientation` into the upright one.
    public static func measure(_ image: RGBImage, orientation: Orientation) -> AttentionMap {
        let stored = storedCells(image)
        // The grid is square in cells, so a turn changes which cell is where, not how many there are.
        let columns = side, rows = side
        var cells = [Float](repeating: 0, count: columns * rows)
        // Each upright cell takes the stored cell its centre falls in.
        for v in 0..<rows {
            for u in 0..<columns {
                let box = orientation.storedRect(ofUpright: .init(x: Double(u) + 0.5, y: Double(v) + 0.5, width: 0, height: 0),
                                                 storedWidth: Double(side), storedHeight: Double(side))
                let x = min(side - 1, max(0, Int(box.x))), y = min(side - 1, max(0, Int(box.y)))
                cells[v * columns + u] = stored[y * side + x]
            }
        }
        return AttentionMap(columns: columns, rows: rows, cells: baselined(cells))
    }

    /// The stored picture's `side` x `side` cells of raw interest, the mean of each cell's pixels.
    static func storedCells(_ image: RGBImage) -> [Float] {
        let width = image.width, height = image.height
        var cells = [Float](repeating: 0, count: side * side)
        guard width >= 3, height >= 3 else { return cells }
        let lab = LabPlanes(image)
        let l = lab.lightness
        let cellOfColumn = (0..<width).map { min(side - 1, $0 * side / width) }
        for y in 0..<height {
            let cellRow = min(side - 1, y * side / height) * side
            let up = max(0, y - 1) * width, here = y * width, down = min(height - 1, y + 1) * width
            for x in 0..<width {
                let left = max(0, x - 1), right = min(width - 1, x + 1)
                // Sobel in both directions on L*, |gx| + |gy|, as libvips sums them.
                let gx = (l[up + right] + 2 * l[here + right] + l[down + right])
                    - (l[up + left] + 2 * l[here + left] + l[down + left])
                let gy = (l[down + left] + 2 * l[down + x] + l[down + right])
                    - (l[up + left] + 2 * l[up + x] + l[up + right])
                var interest = abs(gx) + abs(gy)
                let a = lab.a[here + x], b = lab.b[here + x], lightness = l[here + x]
                if a >= 3, a <= 22, b >= 4, b <= 31, lightness >= 15 { interest += skinWeight }
                let chroma = (a * a + b * b).squareRoot()
                interest += saturationWeight * min(1, max(0, (chroma - 45) / 30))
                cells[cellRow + cellOfColumn[x]] += interest
            }
        }
        // The mean of each cell's pixels, so that a map does not depend on the decode's size.
        // Trap: a 50-row picture gives cells of 1 or 2 rows; summed, a brick wall's interest was a comb.
        var columnsIn = [Int](repeating: 0, count: side), rowsIn = [Int](repeating: 0, count: side)
        for cell in cellOfColumn { columnsIn[cell] += 1 }
        for y in 0..<height { rowsIn[min(side - 1, y * side / height)] += 1 }
        for v in 0..<side where rowsIn[v] > 0 {
            for u in 0..<side where columnsIn[u] > 0 { cells[v * side + u] /= Float(rowsIn[v] * columnsIn[u]) }
        }
        return cells
    }

    /// libvips adds its skin and saturation masks as 255 against a Sobel sum of L* (a hard edge: some hundreds).
    static let skinWeight: Float = 255
    static let saturationWeight: Float = 255

    /// Each cell less the median cell, never below 0.
    static func baselined(_ cells: [Float]) -> [Float] {
        let median = cells.sorted()[cells.count / 2]
        return cells.map { max(0, $0 - median) }
    }

    /// The interest over the whole picture.
    var total: Float { cells.reduce(0, +) }
}

/// A small picture's CIE L*a*b* (D65), one plane each, as the attention map weighs it.
struct LabPlanes {
    var lightness: [Float]
    var a: [Float]
    var b: [Float]

    init(_ image: RGBImage) {
        let count = image.width * image.height
        lightness = [Float](repeating: 0, count: count)
        a = lightness
        b = lightness
        let linear = Self.linear
        image.pixels.withUnsafeBufferPointer { pixels in
            for i in 0..<count {
                let r = linear[Int(pixels[3 * i])], g = linear[Int(pixels[3 * i + 1])], bl = linear[Int(pixels[3 * i + 2])]
                // sRGB to XYZ, each over the D65 white's.
                let x = (0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047
                let y = 0.2126 * r + 0.7152 * g + 0.0722 * bl
                let z = (0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883
                let fx = Self.f(x), fy = Self.f(y), fz = Self.f(z)
                lightness[i] = 116 * fy - 16
                a[i] = 500 * (fx - fy)
                b[i] = 200 * (fy - fz)
            }
        }
    }

    /// sRGB's decoding curve for each 8-bit value.
    static let linear: [Float] = (0..<256).map { value in
        let v = Float(value) / 255
        return v <= 0.04045 ? v / 12.92 : Float(pow(Double((v + 0.055) / 1.055), 2.4))
    }

    /// CIE's f(t), through a table: a cube root per channel per pixel was most of the map's time.
    static func f(_ t: Float) -> Float {
        let index = Int(max(0, min(1, t)) * Float(cubeRoots.count - 1) + 0.5)
        return cubeRoots[index]
    }

    static let cubeRoots: [Float] = (0...4096).map { step in
        let t = Double(step) / 4096
        let delta = 6.0 / 29
        return Float(t > delta * delta * delta ? cbrt(t) : t / (3 * delta * delta) + 4.0 / 29)
    }
}
