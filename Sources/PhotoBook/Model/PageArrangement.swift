import Foundation

/// How the photos of one page share it: one photo on the whole area, a grid of equal cells, or a tree of rows and
/// columns (an automatic layout's, or one pinned in a description file).
///
/// `description` is its name as `--verbose`, `--dry-run`, the report and description files write it: `single`,
/// `grid 3x2`, `[1 | 2]`, `[1 / [2 | 3]]`, and `1` for an automatic layout's one photo on the whole area.
public enum PageArrangement: Sendable, Hashable, CustomStringConvertible {
    case single
    case grid(columns: Int, rows: Int)
    case arranged(Arrangement)

    /// Nil when `name` is none of these; spaces inside the tree do not matter.
    public init?(_ name: String) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed == "single" { self = .single; return }
        if trimmed.hasPrefix("grid ") {
            let size = trimmed.dropFirst(5).split(separator: "x", omittingEmptySubsequences: false)
            guard size.count == 2, let columns = Int(size[0]), let rows = Int(size[1]),
                  (1...LayoutLimits.gridSide).contains(columns), (1...LayoutLimits.gridSide).contains(rows) else { return nil }
            self = .grid(columns: columns, rows: rows)
            return
        }
        let compact = trimmed.filter { $0 != " " }
        let count = compact.filter(\.isNumber).count
        // An arrangement names its photos 1 to n in reading order; the enumeration is what the auto layout tries.
        guard (1...LayoutLimits.maxPerPage).contains(count),
              let found = Arrangement.all(of: count).first(where: { $0.description.filter { $0 != " " } == compact })
        else { return nil }
        self = .arranged(found)
    }

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

    public var description: String {
        switch self {
        case .single: return "single"
        case .grid(let columns, let rows): return LayoutMode.grid(columns: columns, rows: rows).description
        case .arranged(let arrangement): return arrangement.description
        }
    }
}
