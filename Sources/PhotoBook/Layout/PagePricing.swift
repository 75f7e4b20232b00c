import Geometry

/// Prices a page of photos in an arrangement and keeps the cheapest: how the automatic layout weighs every page
/// it could make, and how a description's page without a layout of its own is arranged.
///
/// A page costs the squares of the shares cut from its photos (so that one photo losing a third costs far more
/// than three losing a tenth) plus a fixed price per page, which makes a page of four photos cropped a little
/// better than four pages cropped as little.
struct PagePricing {
    let area: Rect
    let gap: Double
    /// The caption band of the photo at a position (in the run) in a cell of a width; nil for a book without words.
    var bands: ((Int, Double) -> Double)? = nil
    /// The area of the run's first page, when a heading takes part of it.
    var firstArea: Rect? = nil

    /// The price of one more page, in squared crop shares: a page is worth cropping one photo by about 6%.
    static let pagePrice = 0.004
    /// A cell less than this share of the area inside the margins, on either side, is too small to show a photo.
    static let smallestSide = 0.12

    /// The arrangement laid out in the area; with captions, solved once with each caption's band at the width of
    /// the whole area, then again at the widths the first solution gave the cells.
    private func solve(_ arrangement: Arrangement, _ aspects: [Double], first: Int) -> ArrangementLayout? {
        let area = first == 0 ? firstArea ?? self.area : self.area
        guard let bands else { return ArrangementLayout(arrangement, aspects: aspects, in: area, gap: gap) }
        var widths = Array(repeating: area.width, count: aspects.count)
        var layout: ArrangementLayout?
        for _ in 0..<2 {
            let heights = widths.enumerated().map { bands(first + $0.offset, $0.element) }
            layout = ArrangementLayout(arrangement, aspects: aspects, in: area, gap: gap, bands: heights)
            guard let solved = layout else { return nil }
            widths = solved.cells.map(\.width)
        }
        return layout
    }

    /// How many pairs of cells a reader would meet in the other order: a later cell whose top is higher, or at the
    /// same height and further left.
    static func readingInversions(_ cells: [Rect]) -> Int {
        var count = 0
        for i in cells.indices {
            for j in cells.indices where j > i {
                let topI = cells[i].y + cells[i].height, topJ = cells[j].y + cells[j].height
                if topJ > topI + 0.5 || (abs(topJ - topI) <= 0.5 && cells[j].x < cells[i].x) { count += 1 }
            }
        }
        return count
    }

    /// The cheapest arrangement of these photos (of the run, from position `first`) on one page, with its cost.
    func bestPage(_ aspects: [Double], first: Int = 0, arrangements: [Arrangement]) -> (cost: Double, page: PageCells)? {
        let area = first == 0 ? firstArea ?? self.area : self.area
        var best: (cost: Double, page: PageCells)?
        for arrangement in arrangements {
            guard let layout = solve(arrangement, aspects, first: first),
                  layout.cells.allSatisfy({ $0.width >= area.width * Self.smallestSide
                                                && $0.height >= area.height * Self.smallestSide }) else { continue }
            // Among arrangements that crop alike (a 2x2 is a row of columns or a column of rows), the one whose
            // cells read in the photos' order, top row first and left to right, wins.
            let cost = Double(aspects.count) * layout.cropShare * layout.cropShare + Self.pagePrice
                + 1e-7 * Double(Self.readingInversions(layout.cells))
            if best == nil || cost < best!.cost {
                best = (cost, PageCells(count: aspects.count, cells: layout.cells, arrangement: .arranged(arrangement)))
            }
        }
        if best == nil, aspects.count == 1 {
            // One photo always fits: the whole area, however much it crops.
            let share = 1 - min(area.width / area.height / aspects[0], aspects[0] / (area.width / area.height))
            best = (share * share + Self.pagePrice, PageCells(count: 1, cells: [area], arrangement: .arranged(.photo)))
        }
        return best
    }
}
