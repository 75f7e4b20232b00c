import Geometry

/// A line of text on the spine, turned a quarter clockwise so that it reads from top to bottom (as English-language
/// books do: the tops of the letters face the front).
public struct SpineText: Sendable, Equatable {
    public enum Role: String, Sendable, Equatable { case title, author }
    public var role: Role
    public var text: String
    public var size: Double
    /// Where the baseline runs: a vertical line at this x.
    public var baselineX: Double
    /// Where the line starts, at the top, and how far down it runs.
    public var top: Double
    public var length: Double
    /// A column of upright characters centred on `baselineX` (then the column's middle), not a turned line.
    public var vertical = false

    /// What the letters cover on the page: from one descent left of the baseline to one ascent right of it.
    public func box(ascent: Double, descent: Double) -> Rect {
        Rect(x: baselineX - descent * size, y: top - length, width: (ascent + descent) * size, height: length)
    }
}
