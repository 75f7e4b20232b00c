/// A rectangle in stored (un-rotated) full-resolution pixels.
public struct JPEGRegion: Sendable, Equatable, CustomStringConvertible {
    public var x, y, width, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
