extension AttentionMap {
    /// The share of the photo's interest a crop must keep beyond the centre crop's before it leaves the centre:
    /// below it the gain is the noise of a photo interesting all over, and a crop that wanders is worse than none.
    static let gainToMove = 0.15
    /// Positions within this share of the photo's interest of the best are as good: the crop goes to the middle of
    /// them, so that a subject smaller than the crop is framed with room on both sides rather than against an edge.
    static let sameInterest = 0.03
    /// Positions tried along a side the crop can move along.
    static let steps = 48

    /// Where a `size` crop of a `photo`-sized upright picture keeps the most interest: its top left corner in the
    /// picture's pixels, or nil to leave it at the centre (nothing cut, or no place clearly better than the centre).
    ///
    /// libvips centres its crop on the blurred map's brightest point; this weighs the interest each crop would
    /// hold instead, which keeps a subject whole when it fits and is what the crop's size is known for.
    func place(size: (width: Double, height: Double), photo: (width: Double, height: Double)) -> (x: Double, y: Double)? {
        let slackX = max(0, photo.width - size.width), slackY = max(0, photo.height - size.height)
        guard Self.canMove(size: size, photo: photo) else { return nil }
        let table = SummedCells(self)
        let total = table.sum(x0: 0, y0: 0, x1: Double(columns), y1: Double(rows))
        guard total > 0 else { return nil }
        // Corners in cells.
        let scaleX = Double(columns) / photo.width, scaleY = Double(rows) / photo.height
        let cropX = size.width * scaleX, cropY = size.height * scaleY
        let kept = { (x: Double, y: Double) in
            table.sum(x0: x * scaleX, y0: y * scaleY, x1: x * scaleX + cropX, y1: y * scaleY + cropY) / total
        }
        let xs = Self.starts(slack: slackX), ys = Self.starts(slack: slackY)
        var best = (share: -1.0, i: 0, j: 0)
        for (j, y) in ys.enumerated() {
            for (i, x) in xs.enumerated() where kept(x, y) > best.share + 1e-12 { best = (kept(x, y), i, j) }
        }
        guard best.share - kept(slackX / 2, slackY / 2) >= Self.gainToMove else { return nil }
        let x = Self.middle(of: xs, around: best.i, best: best.share) { kept($0, ys[best.j]) }
        let y = Self.middle(of: ys, around: best.j, best: best.share) { kept(x, $0) }
        return (x, y)
    }

    /// The least a crop must leave out of a side, as a share of it, for a map to move it: two cells. A map places
    /// a crop to within a cell (3% of a side), and a crop with less slack is never further than a cell from the
    /// centre, so the centre is as good as the map could tell. A 3:4 photo on an A4 page (5.7% of its width cut)
    /// is the common case: its map would cost a whole entropy pass beside a render that decodes every pixel.
    static let leastSlackToMove = 2.0 / Double(side)

    /// True when a `size` crop of a `photo`-sized upright picture leaves out enough for a map to place it
    /// (`leastSlackToMove`): the render asks for no map otherwise, and `place` keeps the centre, so that the dry
    /// run, which has every map, places every crop where the build does.
    static func canMove(size: (width: Double, height: Double), photo: (width: Double, height: Double)) -> Bool {
        guard photo.width > 0, photo.height > 0 else { return false }
        let slackX = max(0, photo.width - size.width), slackY = max(0, photo.height - size.height)
        return (slackX > 0.5 && slackX >= leastSlackToMove * photo.width)
            || (slackY > 0.5 && slackY >= leastSlackToMove * photo.height)
    }

    /// Where a crop may start along a side with `slack` pixels to spare.
    static func starts(slack: Double) -> [Double] {
        slack > 0.5 ? (0...steps).map { slack * Double($0) / Double(steps) } : [slack / 2]
    }

    /// The middle of the run of `starts` around `index` that keep as much as the best, less `sameInterest`.
    static func middle(of starts: [Double], around index: Int, best: Double, keeps: (Double) -> Double) -> Double {
        var low = index, high = index
        while low > 0, keeps(starts[low - 1]) >= best - sameInterest { low -= 1 }
        while high < starts.count - 1, keeps(starts[high + 1]) >= best - sameInterest { high += 1 }
        return (starts[low] + starts[high]) / 2
    }
}

/// A map's summed-area table: the interest in any rectangle of cells, fractions of cells included, in constant
/// time. The interest is even within a cell, so between the table's corners it grows bilinearly.
struct SummedCells {
    let columns: Int, rows: Int
    private let sums: [Double]

    init(_ map: AttentionMap) {
        columns = map.columns
        rows = map.rows
        var sums = [Double](repeating: 0, count: (columns + 1) * (rows + 1))
        for v in 0..<rows {
            var row = 0.0
            for u in 0..<columns {
                row += Double(map.cells[v * columns + u])
                sums[(v + 1) * (columns + 1) + u + 1] = sums[v * (columns + 1) + u + 1] + row
            }
        }
        self.sums = sums
    }

    /// The interest over `x0..<x1` by `y0..<y1`, in cells.
    func sum(x0: Double, y0: Double, x1: Double, y1: Double) -> Double {
        below(x1, y1) - below(x0, y1) - below(x1, y0) + below(x0, y0)
    }

    /// The interest above and left of the point (x, y), in cells.
    private func below(_ x: Double, _ y: Double) -> Double {
        let x = max(0, min(Double(columns), x)), y = max(0, min(Double(rows), y))
        let i = min(columns - 1, Int(x)), j = min(rows - 1, Int(y))
        let fx = x - Double(i), fy = y - Double(j)
        let stride = columns + 1
        let top = sums[j * stride + i] * (1 - fx) + sums[j * stride + i + 1] * fx
        let bottom = sums[(j + 1) * stride + i] * (1 - fx) + sums[(j + 1) * stride + i + 1] * fx
        return top * (1 - fy) + bottom * fy
    }
}
