import Geometry

/// The cells of each page, in points, for photos of the given aspects (width over height, upright): the part of
/// planning that decides where photos go, before what pixels each one needs.
enum PageLayouts {
    struct Page: Equatable {
        /// How many photos, from the first photo not yet placed.
        var count: Int
        /// Their cells in reading order (the last page of a grid may have more cells than photos).
        var cells: [Rect]
        /// How the photos share the page.
        var arrangement: PageArrangement
    }

    /// - Parameter bands: the height a photo's caption takes from a cell of a given width (photo index in
    ///   `aspects`, width); an automatic layout makes room for it, the others let the photo give it up.
    /// - Parameter firstArea: the area of the first page when it differs (a section's heading takes its top).
    static func pages(aspects: [Double], mode: LayoutMode, area: Rect, gap: Double, maxPerPage: Int,
                      bands: ((Int, Double) -> Double)? = nil, firstArea: Rect? = nil) -> [Page]? {
        switch mode {
        case .single:
            return aspects.indices.map { Page(count: 1, cells: [$0 == 0 ? firstArea ?? area : area], arrangement: .single) }
        case .grid(let columns, let rows):
            guard let cells = gridCells(columns: columns, rows: rows, area: area, gap: gap),
                  let firstCells = gridCells(columns: columns, rows: rows, area: firstArea ?? area, gap: gap)
            else { return nil }
            let perPage = columns * rows
            return stride(from: 0, to: aspects.count, by: perPage).map { start in
                Page(count: min(perPage, aspects.count - start), cells: start == 0 ? firstCells : cells,
                     arrangement: .grid(columns: columns, rows: rows))
            }
        case .auto:
            return AutoLayout(area: area, gap: gap, maxPerPage: maxPerPage, bands: bands, firstArea: firstArea)
                .pages(for: aspects)
        }
    }

    /// Equal cells, row by row from the top left; nil when the gaps leave no room.
    static func gridCells(columns: Int, rows: Int, area: Rect, gap: Double) -> [Rect]? {
        guard columns >= 1, rows >= 1 else { return nil }
        let width = (area.width - gap * Double(columns - 1)) / Double(columns)
        let height = (area.height - gap * Double(rows - 1)) / Double(rows)
        guard width >= LayoutOptions.minimumContentSide, height >= LayoutOptions.minimumContentSide else { return nil }
        var cells: [Rect] = []
        for row in 0..<rows {
            for column in 0..<columns {
                // Positions from the far edge for the last row and column, so that they end exactly on the margin.
                let x = column == columns - 1 ? area.x + area.width - width : area.x + Double(column) * (width + gap)
                let top = area.y + area.height - Double(row) * (height + gap)
                let y = row == rows - 1 ? area.y : top - height
                cells.append(Rect(x: x, y: y, width: width, height: height))
            }
        }
        return cells
    }
}

/// Lays photos out in their order, a page at a time, choosing how many go on each page and how they are arranged
/// so that as little of each photo as possible is cut away while every page is filled to its margins.
///
/// Every arrangement of 1 to `maxPerPage` photos is tried for every run of photos; a page costs the squares of the
/// shares cut from its photos (so that one photo losing a third costs far more than three losing a tenth) plus a
/// fixed price per page, which makes a page of four photos cropped a little better than four pages cropped as
/// little. The cheapest book is found by dynamic programming over the photos in order: deterministic, and the
/// order is never changed.
struct AutoLayout {
    let area: Rect
    let gap: Double
    let maxPerPage: Int
    /// The caption band of photo `index` in a cell `width` wide, or nil when no photo has a caption.
    var bands: ((Int, Double) -> Double)? = nil
    /// The area of the first page, when a heading takes part of it.
    var firstArea: Rect? = nil

    /// The price of one more page, in squared crop shares: a page is worth cropping one photo by about 6%.
    static let pagePrice = 0.004
    /// A cell less than this share of the area inside the margins, on either side, is too small to show a photo.
    static let smallestSide = 0.12

    static var maxPerPageLimit: Int { LayoutLimits.maxPerPage }

    func pages(for aspects: [Double]) -> [PageLayouts.Page]? {
        let n = aspects.count
        let perPage = max(1, min(maxPerPage, Self.maxPerPageLimit))
        let arrangements = (1...perPage).map { Arrangement.all(of: $0) }
        // best[i]: the cheapest way to lay out the first i photos, and its last page.
        var best: [(cost: Double, page: PageLayouts.Page?)] = [(0, nil)] + Array(repeating: (.infinity, nil), count: n)
        for end in 1...max(1, n) where n > 0 {
            for count in 1...min(perPage, end) {
                let start = end - count
                guard best[start].cost.isFinite,
                      let page = bestPage(Array(aspects[start..<end]), first: start, arrangements: arrangements[count - 1])
                else { continue }
                let cost = best[start].cost + page.cost
                // Strictly cheaper only: among equals the page with fewer photos, found first, stays.
                if cost < best[end].cost { best[end] = (cost, page.page) }
            }
        }
        guard n > 0 else { return [] }
        var pages: [PageLayouts.Page] = []
        var end = n
        while end > 0 {
            guard let page = best[end].page else { return nil }
            pages.append(page)
            end -= page.count
        }
        return pages.reversed()
    }

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

    /// The cheapest arrangement of these photos on one page, with its cost.
    func bestPage(_ aspects: [Double], first: Int = 0, arrangements: [Arrangement]) -> (cost: Double, page: PageLayouts.Page)? {
        let area = first == 0 ? firstArea ?? self.area : self.area
        var best: (cost: Double, page: PageLayouts.Page)?
        for arrangement in arrangements {
            guard let layout = solve(arrangement, aspects, first: first),
                  layout.cells.allSatisfy({ $0.width >= area.width * Self.smallestSide
                                                && $0.height >= area.height * Self.smallestSide }) else { continue }
            // Among arrangements that crop alike (a 2x2 is a row of columns or a column of rows), the one whose
            // cells read in the photos' order, top row first and left to right, wins.
            let cost = Double(aspects.count) * layout.cropShare * layout.cropShare + Self.pagePrice
                + 1e-7 * Double(Self.readingInversions(layout.cells))
            if best == nil || cost < best!.cost {
                best = (cost, PageLayouts.Page(count: aspects.count, cells: layout.cells, arrangement: .arranged(arrangement)))
            }
        }
        if best == nil, aspects.count == 1 {
            // One photo always fits: the whole area, however much it crops.
            let share = 1 - min(area.width / area.height / aspects[0], aspects[0] / (area.width / area.height))
            best = (share * share + Self.pagePrice, PageLayouts.Page(count: 1, cells: [area], arrangement: .arranged(.photo)))
        }
        return best
    }
}
