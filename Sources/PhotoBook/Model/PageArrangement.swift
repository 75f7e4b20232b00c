/// How the photos of one page share it: one photo on the whole area, a grid of equal cells, or a tree of rows and
/// columns (an automatic layout's, or one pinned in a description file).
///
/// Its name (`LayoutName`: read by `init?(_:)`, written by `description`) is the one `--verbose`, `--dry-run`, the
/// report and description files use: `single`, `grid 3x2`, `[1 | 2]`, `[1 / [2 | 3]]`, and `1` for an automatic
/// layout's one photo on the whole area.
public enum PageArrangement: Sendable, Hashable, CustomStringConvertible {
    case single
    case grid(columns: Int, rows: Int)
    case arranged(Arrangement)

    /// Whether a page of `count` photos can use it: a grid holds up to its cells, the others exactly their photos.
    public func holds(_ count: Int) -> Bool {
        switch self {
        case .single: return count == 1
        case .grid(let columns, let rows): return (1...(columns * rows)).contains(count)
        case .arranged(let arrangement): return arrangement.count == count
        }
    }

    /// What it holds, for messages: `1 photo`, `1 to 6 photos`, `3 photos`.
    public var capacity: String {
        switch self {
        case .single: return "1 photo"
        case .grid(let columns, let rows): return columns * rows == 1 ? "1 photo" : "1 to \(columns * rows) photos"
        case .arranged(let arrangement): return arrangement.count == 1 ? "1 photo" : "\(arrangement.count) photos"
        }
    }
}
