import Geometry

/// Where the photos of one page go: how many from the next one not yet placed, their cells in points in reading
/// order (the last page of a grid may have more cells than photos), and the arrangement those cells make.
struct PageCells: Equatable {
    var count: Int
    var cells: [Rect]
    var arrangement: PageArrangement

    /// A grid's equal cells, row by row from the top left; nil when the gaps leave no room.
    static func grid(columns: Int, rows: Int, area: Rect, gap: Double) -> [Rect]? {
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
