import Geometry

/// A PDF transformation matrix `[a b c d e f]`: a point (u, v) goes to (a·u + c·v + e, b·u + d·v + f).
public struct PDFTransform: Sendable, Equatable {
    public var a, b, c, d, e, f: Double

    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    /// Where the point (u, v) goes.
    public func apply(_ u: Double, _ v: Double) -> (x: Double, y: Double) {
        (a * u + c * v + e, b * u + d * v + f)
    }

    /// The matrix that maps an image's unit square onto the rectangle so that a photo stored in EXIF
    /// `orientation` appears upright; values outside 1-8 mean "as stored".
    ///
    /// In the unit square, u runs along the stored image's rows left to right and v from its last row (0) to
    /// its first (1). The rectangle is in page points from the bottom left and holds the upright photo, so for
    /// orientations 5-8 its width pairs with the stored image's height.
    public static func placing(orientation: Int, in rect: Rect) -> PDFTransform {
        let (x, y, w, h) = (rect.x, rect.y, rect.width, rect.height)
        // Derived from where EXIF puts the stored row 0 and column 0 (TIFF 6.0, tag 274); see the tests.
        switch orientation {
        case 2: return PDFTransform(a: -w, b: 0, c: 0, d: h, e: x + w, f: y)           // mirrored left-right
        case 3: return PDFTransform(a: -w, b: 0, c: 0, d: -h, e: x + w, f: y + h)      // turned 180°
        case 4: return PDFTransform(a: w, b: 0, c: 0, d: -h, e: x, f: y + h)           // mirrored top-bottom
        case 5: return PDFTransform(a: 0, b: -h, c: -w, d: 0, e: x + w, f: y + h)      // transposed
        case 6: return PDFTransform(a: 0, b: -h, c: w, d: 0, e: x, f: y + h)           // needs 90° clockwise
        case 7: return PDFTransform(a: 0, b: h, c: w, d: 0, e: x, f: y)                // transversed
        case 8: return PDFTransform(a: 0, b: h, c: -w, d: 0, e: x + w, f: y)           // needs 90° anticlockwise
        default: return PDFTransform(a: w, b: 0, c: 0, d: h, e: x, f: y)               // as stored
        }
    }
}
