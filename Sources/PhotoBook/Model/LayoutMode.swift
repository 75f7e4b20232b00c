/// What the layouts can do, for the command line to check values against.
public enum LayoutLimits {
    /// The most photos an automatic page may hold: every arrangement is tried, and 394 of them hold six.
    public static let maxPerPage = 6
    /// The most columns or rows of a grid.
    public static let gridSide = 20
    /// The largest page-count step (a print service's signature is 4 to 32 pages).
    public static let padTo = 64
}

/// How photos are shared out over pages (`--layout`; its name is a `LayoutName`).
public enum LayoutMode: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// One photo per page, in the area inside the margins.
    case single
    /// `columns` x `rows` equal cells per page, filled row by row; only the last page may have empty cells.
    case grid(columns: Int, rows: Int)
    /// Pages of 1 to `LayoutOptions.maxPerPage` photos in arrangements chosen to crop as little as possible.
    case auto
}
