/// How photos share a page: a tree of rows and columns whose leaves are the photos, in reading order (a row
/// from left to right, a column from top to bottom). Rows hold no rows and columns no columns, so each way of
/// cutting a page into rectangles appears once.
public indirect enum Arrangement: Sendable, Equatable, Hashable, CustomStringConvertible {
    case photo
    /// Side by side, left to right, all as tall as the row.
    case row([Arrangement])
    /// Stacked, top to bottom, all as wide as the column.
    case column([Arrangement])

    /// How many photos it holds.
    public var count: Int {
        switch self {
        case .photo: return 1
        case .row(let parts), .column(let parts): return parts.reduce(0) { $0 + $1.count }
        }
    }

    /// `[1 | 2]` for two side by side, `[1 / [2 | 3]]` for one over two: the leaves numbered in reading order.
    public var description: String {
        var next = 0
        func text(_ node: Arrangement) -> String {
            switch node {
            case .photo: next += 1; return String(next)
            case .row(let parts): return "[" + parts.map(text).joined(separator: " | ") + "]"
            case .column(let parts): return "[" + parts.map(text).joined(separator: " / ") + "]"
            }
        }
        return text(self)
    }

    private enum Parent { case none, row, column }

    /// Every arrangement of `count` photos (1, 2, 6, 22, 90, 394 for 1 to 6: the large Schröder numbers).
    public static func all(of count: Int) -> [Arrangement] {
        precondition(count >= 1 && count <= 8, "arrangements are enumerated for up to 8 photos")
        var memo: [Int: [Arrangement]] = [:]
        return arrangements(count, under: .none, memo: &memo)
    }

    private static func arrangements(_ count: Int, under parent: Parent, memo: inout [Int: [Arrangement]]) -> [Arrangement] {
        if count == 1 { return [.photo] }
        let key = count * 3 + (parent == .none ? 0 : parent == .row ? 1 : 2)
        if let known = memo[key] { return known }
        var result: [Arrangement] = []
        if parent != .row {
            for parts in compositions(of: count) {
                for children in product(parts.map { arrangements($0, under: .row, memo: &memo) }) {
                    result.append(.row(children))
                }
            }
        }
        if parent != .column {
            for parts in compositions(of: count) {
                for children in product(parts.map { arrangements($0, under: .column, memo: &memo) }) {
                    result.append(.column(children))
                }
            }
        }
        memo[key] = result
        return result
    }

    /// The ways of writing `n` as an ordered sum of at least two positive parts.
    private static func compositions(of n: Int) -> [[Int]] {
        var result: [[Int]] = []
        // Each of the n - 1 places between units is a cut or not; at least one cut.
        for mask in 1..<(1 << (n - 1)) {
            var parts: [Int] = [], size = 1
            for place in 0..<(n - 1) {
                if mask & (1 << place) != 0 { parts.append(size); size = 1 } else { size += 1 }
            }
            parts.append(size)
            result.append(parts)
        }
        return result
    }

    private static func product(_ lists: [[Arrangement]]) -> [[Arrangement]] {
        lists.reduce([[]]) { partial, list in partial.flatMap { prefix in list.map { prefix + [$0] } } }
    }
}
