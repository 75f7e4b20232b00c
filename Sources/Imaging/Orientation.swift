import Geometry

/// How a stored image must be turned to be seen upright: the eight values of EXIF tag 0x0112.
///
/// The case names say where the stored image's first row and first column end up, as the TIFF
/// specification does ("row 0 is the visual top, column 0 the visual left" is `.topLeft`).
public enum Orientation: Int, Sendable, CaseIterable {
    case topLeft = 1       // as stored
    case topRight = 2      // mirrored left-right
    case bottomRight = 3   // rotated 180°
    case bottomLeft = 4    // mirrored top-bottom
    case leftTop = 5       // transposed (mirror along the main diagonal)
    case rightTop = 6      // needs a 90° clockwise turn
    case rightBottom = 7   // transversed (mirror along the other diagonal)
    case leftBottom = 8    // needs a 90° counter-clockwise turn

    /// The orientation for an EXIF value; anything outside 1-8 means "as stored", never an error.
    public init(exifValue: Int) {
        self = Orientation(rawValue: exifValue) ?? .topLeft
    }

    /// True when the upright image is the stored one with width and height exchanged (values 5-8).
    public var swapsDimensions: Bool { rawValue >= 5 }
}

extension Orientation {
    /// The orientation that undoes this one: applying `self` then `inverse` gives back the stored image.
    /// Mirrors and the half turn undo themselves; the two quarter turns undo each other.
    public var inverse: Orientation {
        switch self {
        case .rightTop: .leftBottom
        case .leftBottom: .rightTop
        default: self
        }
    }
}

extension Orientation {
    /// Where a rectangle of the upright image lies in the stored image (both in full-resolution pixels).
    public func storedRect(ofUpright rect: Rect, storedWidth: Double, storedHeight: Double) -> Rect {
        let (w, h) = (storedWidth, storedHeight)
        let (u0, v0, u1, v1) = (rect.x, rect.y, rect.x + rect.width, rect.y + rect.height)
        // Each case maps the upright corner (u, v) to the stored point (x, y), from where EXIF puts row 0.
        func stored(_ u: Double, _ v: Double) -> (Double, Double) {
            switch self {
            case .topLeft: return (u, v)
            case .topRight: return (w - u, v)
            case .bottomRight: return (w - u, h - v)
            case .bottomLeft: return (u, h - v)
            case .leftTop: return (v, u)
            case .rightTop: return (v, h - u)
            case .rightBottom: return (w - v, h - u)
            case .leftBottom: return (w - v, u)
            }
        }
        let (ax, ay) = stored(u0, v0), (bx, by) = stored(u1, v1)
        return Rect(x: min(ax, bx), y: min(ay, by), width: abs(bx - ax), height: abs(by - ay))
    }

    /// Where a rectangle of the stored image lies in the upright image (both in full-resolution pixels).
    public func uprightRect(ofStored rect: Rect, storedWidth: Double, storedHeight: Double) -> Rect {
        // The inverse orientation maps upright to stored for the upright image's own size.
        let (uprightWidth, uprightHeight) = swapsDimensions ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
        return inverse.storedRect(ofUpright: rect, storedWidth: uprightWidth, storedHeight: uprightHeight)
    }
}
