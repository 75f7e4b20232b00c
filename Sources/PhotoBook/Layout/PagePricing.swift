import Geometry

/// Prices a page of photos in an arrangement and keeps the cheapest: how the automatic layout weighs every page
/// it could make, and how a description's page without a layout of its own is arranged.
///
/// A page costs the squares of the shares cut from its photos (so that one photo losing a third costs far more
/// than three losing a tenth) plus a fixed price per page, which makes a page of four photos cropped a little
/// better than four pages cropped as little. A cell too narrow or too flat for all of a photo's faces costs more
/// (`faceCutPrice`); in the automatic layout a photo alone on a page is never cut by more than `affordableAloneCrop`.
struct PagePricing {
    let area: Rect
    let gap: Double
    /// The caption band of the photo at a position (in the run) in a cell of a width; nil for a book without words.
    var bands: ((Int, Double) -> Double)? = nil
    /// The area of the run's first page, when a heading takes part of it.
    var firstArea: Rect? = nil
    /// The shares of a photo's width and height (the photo at a position in the run) that its faces and pets take
    /// together; nil for a photo that marks none.
    var faces: ((Int) -> (width: Double, height: Double)?)? = nil
    /// The most a page may cut from a photo alone on it (`affordableAloneCrop` in the automatic layout); nil for a
    /// description's page, whose photo is cropped to its area as the description's focus asks.
    var aloneCropLimit: Double? = nil

    /// The price of one more page, in squared crop shares: a page is worth cropping one photo by about 6%.
    static let pagePrice = 0.004
    /// A cell less than this share of the area inside the margins, on either side, is too small to show a photo.
    static let smallestSide = 0.12
    /// What a cell that cannot hold all of a photo's faces costs beyond its crop: as much as cutting a third of a
    /// photo away, so that the layout gives a group its width before it saves a page.
    static let faceCutPrice = 0.1
    /// The most the automatic layout cuts from a photo alone on a page; beyond, it places it whole, white around it.
    /// 15% keeps the crops a print lab makes without asking (a 4:3 photo on 3:2 paper loses 11%, a 3:4 one on A4
    /// 6%) and refuses those that cut a subject's side off (a square photo on A4 loses 29%, a landscape one on a
    /// portrait page half of it).
    static let affordableAloneCrop = 0.15

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
            // A photo alone that filling would cut by more than it can afford is placed whole, white around it, but
            // priced as the crop was: no better a page, and the book's pages stay those it had.
            var cells = layout.cells
            if aspects.count == 1, let limit = aloneCropLimit, layout.cropShare > limit {
                cells = [wholeCell(aspects[0], in: area, first: first)]
            }
            // Among arrangements that crop alike (a 2x2 is a row of columns or a column of rows), the one whose
            // cells read in the photos' order, top row first and left to right, wins.
            let cost = Double(aspects.count) * layout.cropShare * layout.cropShare + Self.pagePrice
                + faceCuts(stretch: layout.stretch, count: aspects.count, first: first) * Self.faceCutPrice
                + 1e-7 * Double(Self.readingInversions(layout.cells))
            if best == nil || cost < best!.cost {
                best = (cost, PageCells(count: aspects.count, cells: cells, arrangement: .arranged(arrangement)))
            }
        }
        if best == nil, aspects.count == 1 {
            // One photo always fits: the whole area when that crops it little, else the photo whole inside it.
            let share = 1 - min(area.width / area.height / aspects[0], aspects[0] / (area.width / area.height))
            let cell = share > (aloneCropLimit ?? 1) ? wholeCell(aspects[0], in: area, first: first) : area
            best = (share * share + Self.pagePrice, PageCells(count: 1, cells: [cell], arrangement: .arranged(.photo)))
        }
        return best
    }

    /// How many of the photos from `first` a page of this stretch cuts a face of: their cells leave less of the
    /// photo's width (or height) than all its faces take.
    func faceCuts(stretch: Double, count: Int, first: Int) -> Double {
        guard let faces else { return 0 }
        let width = min(1, stretch), height = min(1, 1 / stretch)
        return Double((0..<count).filter { position in
            faces(first + position).map { $0.width > width + 1e-9 || $0.height > height + 1e-9 } ?? false
        }.count)
    }

    /// The largest cell of a photo of `aspect` (and its caption's band) inside `area`, centred in it.
    func wholeCell(_ aspect: Double, in area: Rect, first: Int) -> Rect {
        let band = { (width: Double) in bands?(first, width) ?? 0 }
        var width = area.width
        if width / aspect + band(width) > area.height {
            // The band depends on the width a little (a caption wraps): twice settles it.
            for _ in 0..<2 { width = max(1, (area.height - band(width)) * aspect) }
        }
        let height = min(area.height, width / aspect + band(width))
        return Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
    }
}
