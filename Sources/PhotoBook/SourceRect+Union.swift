import Imaging

extension SourceRect {
    /// The smallest rectangle holding both: the part of a photo that two crops of it show together.
    func union(_ other: SourceRect) -> SourceRect {
        let left = min(x, other.x), top = min(y, other.y)
        let right = max(x + width, other.x + other.width), bottom = max(y + height, other.y + other.height)
        return SourceRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
