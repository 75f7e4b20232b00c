/// A layout as a person writes it: the one grammar of `--layout` (read into a `LayoutMode`) and of a description
/// page's `"layout"` (read into a `PageArrangement`), and the one way both are written back (`description`), as
/// `--verbose`, `--dry-run`, the report and `photobook init` list them.
///
/// Case, and spaces at either end, do not matter; a grid is `grid CxR`, `grid:CxR`, `grid=CxR`, `gridCxR` or just
/// `CxR`; spaces inside a tree do not matter. A grid's sizes are as written: whether they are allowed is for the
/// reader to say (`LayoutLimits.gridSide`), so that a message can say which part is wrong.
enum LayoutName: Equatable, CustomStringConvertible {
    case single
    case auto
    case grid(columns: Int, rows: Int)
    /// A tree of rows and columns, its photos numbered 1 to n in reading order: `[1 | 2]`, `[1 / [2 | 3]]`, `1`.
    case arranged(Arrangement)

    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        if lower == "single" { self = .single; return }
        if lower == "auto" { self = .auto; return }
        if let (columns, rows) = Self.gridSize(lower) { self = .grid(columns: columns, rows: rows); return }
        guard let arrangement = Self.tree(Array(trimmed.filter { $0 != " " })) else { return nil }
        self = .arranged(arrangement)
    }

    var description: String {
        switch self {
        case .single: return "single"
        case .auto: return "auto"
        case .grid(let columns, let rows): return "grid \(columns)x\(rows)"
        case .arranged(let arrangement): return arrangement.description
        }
    }

    /// `grid 3x2` and its other spellings: two whole numbers (a `+` allowed) around an `x`.
    private static func gridSize(_ lower: String) -> (columns: Int, rows: Int)? {
        var size = Substring(lower)
        if size.hasPrefix("grid") {
            size = size.dropFirst(4)
            if let first = size.first, first == " " || first == ":" || first == "=" { size = size.dropFirst() }
        }
        let numbers = size.split(separator: "x", omittingEmptySubsequences: false)
        guard numbers.count == 2, numbers.allSatisfy({ $0.wholeMatch(of: /\+?[0-9]+/) != nil }),
              let columns = Int(numbers[0]), let rows = Int(numbers[1]) else { return nil }
        return (columns, rows)
    }

    /// A tree as `Arrangement.description` writes it (spaces taken out): rows hold no rows and columns no
    /// columns, every bracket holds two parts or more, and the photos are numbered 1 to n in reading order.
    private static func tree(_ characters: [Character]) -> Arrangement? {
        var position = 0, next = 1
        // The deepest tree of the most photos a page holds is that many brackets deep: deeper text is refused
        // before it can recurse further.
        func node(depth: Int) -> Arrangement? {
            guard position < characters.count, depth <= LayoutLimits.maxPerPage else { return nil }
            if characters[position] != "[" {
                let digits = characters[position...].prefix { $0.isASCII && $0.isNumber }
                guard !digits.isEmpty, String(digits) == String(next) else { return nil }
                position += digits.count
                next += 1
                return .photo
            }
            position += 1
            var parts: [Arrangement] = []
            var separator: Character?
            while true {
                guard let part = node(depth: depth + 1), position < characters.count else { return nil }
                parts.append(part)
                let mark = characters[position]
                position += 1
                if mark == "]" { break }
                guard mark == "|" || mark == "/", separator == nil || separator == mark else { return nil }
                separator = mark
            }
            // `[1]`, and a row inside a row (or a column inside a column), are other spellings of a tree that
            // has one: refused, so that each tree has one name.
            switch separator {
            case "|"?:
                guard !parts.contains(where: { if case .row = $0 { return true } else { return false } }) else { return nil }
                return .row(parts)
            case "/"?:
                guard !parts.contains(where: { if case .column = $0 { return true } else { return false } }) else { return nil }
                return .column(parts)
            default:
                return nil
            }
        }
        guard let arrangement = node(depth: 0), position == characters.count else { return nil }
        return arrangement
    }
}

extension LayoutMode {
    /// Reads `--layout`: `single`, `auto`, or a grid, as `LayoutName` spells them; nil for anything else. A grid's
    /// sizes are as written (`LayoutLimits.gridSide` bounds what the command line takes).
    public init?(_ text: String) {
        switch LayoutName(text) {
        case .single?: self = .single
        case .auto?: self = .auto
        case .grid(let columns, let rows)?: self = .grid(columns: columns, rows: rows)
        case .arranged?, nil: return nil
        }
    }

    public var description: String {
        switch self {
        case .single: return LayoutName.single.description
        case .grid(let columns, let rows): return LayoutName.grid(columns: columns, rows: rows).description
        case .auto: return LayoutName.auto.description
        }
    }
}

extension PageArrangement {
    /// Reads a description page's `"layout"`: `single`, a grid of 1 to `LayoutLimits.gridSide` columns and rows,
    /// or a tree of up to `LayoutLimits.maxPerPage` photos, as `LayoutName` spells them; nil for anything else.
    public init?(_ text: String) {
        switch LayoutName(text) {
        case .single?: self = .single
        case .grid(let columns, let rows)?:
            guard (1...LayoutLimits.gridSide).contains(columns), (1...LayoutLimits.gridSide).contains(rows) else {
                return nil
            }
            self = .grid(columns: columns, rows: rows)
        case .arranged(let arrangement)? where arrangement.count <= LayoutLimits.maxPerPage:
            self = .arranged(arrangement)
        case .arranged?, .auto?, nil: return nil
        }
    }

    public var description: String {
        switch self {
        case .single: return LayoutName.single.description
        case .grid(let columns, let rows): return LayoutName.grid(columns: columns, rows: rows).description
        case .arranged(let arrangement): return LayoutName.arranged(arrangement).description
        }
    }
}
