/// A rectangle of doubles: on a page, in points from its bottom-left corner (PDF's convention), or in a photo,
/// in its full-resolution pixels from its top-left corner, where a crop may start and end between two pixels.
/// The one type for both, shared by Imaging (the region a resample reads), the book's plan and PDF (where an
/// image goes, what clips it, the page boxes). Whole pixels of a stored picture are `ImageCodec.PixelRegion`.
public struct Rect: Sendable, Hashable {
    public var x, y, width, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The smallest rectangle holding both: the part of a photo that two crops of it show together.
    public func union(_ other: Rect) -> Rect {
        let left = min(x, other.x), bottom = min(y, other.y)
        let right = max(x + width, other.x + other.width), top = max(y + height, other.y + other.height)
        return Rect(x: left, y: bottom, width: right - left, height: top - bottom)
    }
}
