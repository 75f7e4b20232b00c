import Geometry

/// `--layout grid CxR`: equal cells, filled row by row; only the last page of a section may have empty cells.
/// With spreads, a panorama that comes while a page is part filled, or is due on a right-hand page, waits while
/// the photos after it fill the pages up to a left-hand one (`Spreads.waiting`).
struct GridLayout: SectionLayout {
    let columns: Int
    let rows: Int

    func steps(for section: Section, in frame: LayoutFrame) -> [LayoutStep]? {
        guard let (cells, firstCells) = cells(section, frame) else { return nil }
        let count = section.photos.count, perPage = columns * rows
        return stride(from: 0, to: count, by: perPage).map { start in
            let end = min(start + perPage, count)
            return .page(PageCells(count: end - start, cells: start == 0 ? firstCells : cells,
                                   arrangement: .grid(columns: columns, rows: rows)),
                         positions: Array(start..<end))
        }
    }

    func endings(for section: Section, startPage: Int, in frame: LayoutFrame) -> [Spreads.Ending]? {
        guard let (cells, firstCells) = cells(section, frame) else { return nil }
        let steps = Spreads.waiting(panoramic: Spreads.panoramic(section.photos), perPage: columns * rows,
                                    startPage: startPage) { positions, first in
            PageCells(count: positions.count, cells: first ? firstCells : cells, arrangement: .grid(columns: columns, rows: rows))
        }
        return [Spreads.ending(of: steps, startPage: startPage)]
    }

    /// The cells of a page, and of the section's first page (under its heading).
    private func cells(_ section: Section, _ frame: LayoutFrame) -> (cells: [Rect], first: [Rect])? {
        let gap = frame.options.gap
        guard let cells = PageCells.grid(columns: columns, rows: rows, area: frame.area, gap: gap),
              let first = PageCells.grid(columns: columns, rows: rows, area: section.firstArea ?? frame.area, gap: gap)
        else { return nil }
        return (cells, first)
    }
}
