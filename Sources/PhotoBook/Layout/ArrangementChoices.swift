import Geometry

extension PageArrangement {
    /// The arrangements a page of photos of these aspects (width over height, upright) could be given, the least
    /// cropping first: every tree whose cells the automatic layout's rule accepts (none under 12% of the area across
    /// or down), then the grids that hold them with no empty row or column, then `single` for one photo. `area` is
    /// the page's area for photos, `gap` the space between cells. The editor's choice of a page's arrangement.
    public static func choices(aspects: [Double], area: Rect, gap: Double, limit: Int = 12) -> [PageArrangement] {
        let count = aspects.count
        guard count >= 1 else { return [] }
        var trees: [(cut: Double, arrangement: Arrangement)] = []
        if count <= 6 {
            for arrangement in Arrangement.all(of: count) {
                guard let layout = ArrangementLayout(arrangement, aspects: aspects, in: area, gap: gap),
                      layout.cells.allSatisfy({ $0.width >= area.width * PagePricing.smallestSide
                                                && $0.height >= area.height * PagePricing.smallestSide })
                else { continue }
                trees.append((layout.cropShare, arrangement))
            }
        }
        trees.sort { $0.cut != $1.cut ? $0.cut < $1.cut : $0.arrangement.description < $1.arrangement.description }
        var found = trees.prefix(limit).map { PageArrangement.arranged($0.arrangement) }
        for rows in 1...4 {
            for columns in 1...4 where columns * rows >= count && (columns - 1) * rows < count
                && columns * (rows - 1) < count && count > 1 {
                found.append(.grid(columns: columns, rows: rows))
            }
        }
        if count == 1 { found.append(.single) }
        return found
    }
}
