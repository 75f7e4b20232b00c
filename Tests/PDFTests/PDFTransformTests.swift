import Geometry
import Testing

@testable import PDF

/// The orientation matrix as pure arithmetic: where the stored image's corners land in the rectangle.
@Suite struct PDFTransformTests {
    enum Corner: Sendable { case topLeft, topRight, bottomLeft, bottomRight }

    /// From TIFF 6.0 / EXIF tag 274: where the stored first row's first and last pixels end up.
    static let firstRowEnds: [(orientation: Int, first: Corner, last: Corner)] = [
        (1, .topLeft, .topRight),  // row 0 = top, column 0 = left
        (2, .topRight, .topLeft),  // row 0 = top, column 0 = right
        (3, .bottomRight, .bottomLeft),  // row 0 = bottom, column 0 = right
        (4, .bottomLeft, .bottomRight),  // row 0 = bottom, column 0 = left
        (5, .topLeft, .bottomLeft),  // row 0 = left, column 0 = top
        (6, .topRight, .bottomRight),  // row 0 = right, column 0 = top
        (7, .bottomRight, .topRight),  // row 0 = right, column 0 = bottom
        (8, .bottomLeft, .topLeft),  // row 0 = left, column 0 = bottom
    ]

    static func point(_ corner: Corner, x: Double, y: Double, w: Double, h: Double) -> (x: Double, y: Double) {
        switch corner {
        case .topLeft: return (x, y + h)
        case .topRight: return (x + w, y + h)
        case .bottomLeft: return (x, y)
        case .bottomRight: return (x + w, y)
        }
    }

    @Test(arguments: firstRowEnds)
    func firstRowOfTheStoredImageLandsWhereEXIFSays(orientation: Int, first: Corner, last: Corner) {
        let (x, y, w, h) = (30.0, 50.0, 120.0, 80.0)
        let m = PDFTransform.placing(orientation: orientation, in: Rect(x: x, y: y, width: w, height: h))
        // In the image's unit square the stored first row is v = 1, from u = 0 (column 0) to u = 1.
        let firstPixel = m.apply(0, 1)
        let lastPixel = m.apply(1, 1)
        let expectedFirst = Self.point(first, x: x, y: y, w: w, h: h)
        let expectedLast = Self.point(last, x: x, y: y, w: w, h: h)
        #expect(firstPixel == expectedFirst)
        #expect(lastPixel == expectedLast)
        // The whole unit square fills the rectangle: the four corners map onto the rectangle's four corners.
        let corners = [m.apply(0, 0), m.apply(1, 0), m.apply(0, 1), m.apply(1, 1)].map { "\($0.x),\($0.y)" }
        #expect(Set(corners) == ["30.0,50.0", "150.0,50.0", "30.0,130.0", "150.0,130.0"])
    }

    @Test(arguments: [0, 9, -1, 255])
    func invalidOrientationMeansAsStored(orientation: Int) {
        #expect(
            PDFTransform.placing(orientation: orientation, in: Rect(x: 1, y: 2, width: 3, height: 4))
                == PDFTransform(a: 3, b: 0, c: 0, d: 4, e: 1, f: 2))
    }
}
