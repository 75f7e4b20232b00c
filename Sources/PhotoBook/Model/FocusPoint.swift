/// Where a crop keeps its centre: fractions of the upright photo's width and height, from its top left corner.
public struct FocusPoint: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}
