/// A straight line from (x0, y0) to (x1, y1), in points from a page's bottom-left corner: a crop mark, as the
/// plan places it and PDF strokes it.
public struct LineSegment: Sendable, Hashable {
    public var x0, y0, x1, y1: Double

    public init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
    }
}
