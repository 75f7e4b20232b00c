import Geometry
import Testing
@testable import Imaging

@Suite("Orientation")
struct OrientationTests {
    /// The stored image, two rows of three distinct pixels:
    ///
    ///     A B C
    ///     D E F
    static let stored = grid(["ABC", "DEF"])

    /// An image drawn with letters; each letter is a distinct colour.
    static func grid(_ rows: [String]) -> RGBImage {
        let letters = rows.map(Array.init)
        return TestImages.image(width: letters[0].count, height: letters.count) { x, y in
            let n = UInt8(letters[y][x].asciiValue! - 64)  // A = 1
            return (n * 10, n * 20, 255 - n)
        }
    }

    /// The upright pictures, read off the EXIF/TIFF definition of each value: where the stored row 0 and
    /// column 0 are seen (e.g. 6, "right-top": stored row 0 is the visual right edge, read top to bottom).
    static let upright: [(Orientation, [String])] = [
        (.topLeft, ["ABC", "DEF"]),          // 1: row 0 top, column 0 left
        (.topRight, ["CBA", "FED"]),         // 2: row 0 top, column 0 right
        (.bottomRight, ["FED", "CBA"]),      // 3: row 0 bottom, column 0 right
        (.bottomLeft, ["DEF", "ABC"]),       // 4: row 0 bottom, column 0 left
        (.leftTop, ["AD", "BE", "CF"]),      // 5: row 0 left, column 0 top
        (.rightTop, ["DA", "EB", "FC"]),     // 6: row 0 right, column 0 top
        (.rightBottom, ["FC", "EB", "DA"]),  // 7: row 0 right, column 0 bottom
        (.leftBottom, ["CF", "BE", "AD"]),   // 8: row 0 left, column 0 bottom
    ]

    @Test("each orientation gives the hand-derived upright grid", arguments: upright)
    func uprightGrid(orientation: Orientation, expected: [String]) {
        #expect(Self.stored.applying(orientation) == Self.grid(expected))
    }

    @Test("inverse undoes each orientation", arguments: Orientation.allCases)
    func inverse(orientation: Orientation) {
        let expectedInverse: [Orientation: Orientation] = [.rightTop: .leftBottom, .leftBottom: .rightTop]
        #expect(orientation.inverse == expectedInverse[orientation, default: orientation])
        for (width, height) in [(3, 2), (1, 5), (130, 70), (64, 64), (65, 1)] {
            let image = TestImages.noise(width: width, height: height)
            #expect(image.applying(orientation).applying(orientation.inverse) == image, "\(width)x\(height)")
        }
    }

    /// Source (x, y) shown at output (ox, oy), straight from the definitions; checks every tile edge.
    @Test("large images match the definition pixel by pixel", arguments: Orientation.allCases)
    func largeImage(orientation: Orientation) {
        let image = TestImages.noise(width: 130, height: 70, seed: 7)
        let (w, h) = (image.width, image.height)
        let result = image.applying(orientation)
        #expect(result.width == (orientation.swapsDimensions ? h : w))
        #expect(result.height == (orientation.swapsDimensions ? w : h))
        var mismatches = 0
        for oy in 0..<result.height {
            for ox in 0..<result.width {
                let (sx, sy) = switch orientation {
                case .topLeft: (ox, oy)
                case .topRight: (w - 1 - ox, oy)
                case .bottomRight: (w - 1 - ox, h - 1 - oy)
                case .bottomLeft: (ox, h - 1 - oy)
                case .leftTop: (oy, ox)
                case .rightTop: (oy, h - 1 - ox)
                case .rightBottom: (w - 1 - oy, h - 1 - ox)
                case .leftBottom: (w - 1 - oy, ox)
                }
                if result.pixel(x: ox, y: oy) != image.pixel(x: sx, y: sy) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("EXIF values outside 1-8 mean as stored", arguments: [0, 9, -1, 65535])
    func invalidExifValue(value: Int) {
        #expect(Orientation(exifValue: value) == .topLeft)
    }

    @Test("empty images keep their swapped dimensions")
    func emptyImage() {
        let result = RGBImage(width: 0, height: 4, pixels: []).applying(.rightTop)
        #expect(result.width == 4 && result.height == 0)
    }
}

@Suite("Cropping")
struct CropTests {
    @Test("an integer crop keeps exactly the pixels inside")
    func crop() {
        let image = OrientationTests.grid(["ABCD", "EFGH", "IJKL"])
        #expect(image.cropped(x: 1, y: 1, width: 2, height: 2) == OrientationTests.grid(["FG", "JK"]))
        #expect(image.cropped(x: 0, y: 0, width: 4, height: 3) == image)
        #expect(image.cropped(x: 3, y: 2, width: 1, height: 1) == OrientationTests.grid(["L"]))
        #expect(image.cropped(x: 2, y: 1, width: 0, height: 2).pixels.isEmpty)
    }
}

/// Rectangles between the upright and the stored image, checked against the pixel kernel itself.
struct OrientationRectTests {
    @Test(arguments: Orientation.allCases)
    func aRectangleMapsToThePixelsTheKernelMovesThere(_ orientation: Orientation) {
        // A 7x5 stored image whose every pixel is unique; a rectangle of the upright image must hold exactly
        // the stored pixels of the mapped rectangle.
        let stored = RGBImage(width: 7, height: 5, pixels: (0..<35).flatMap { [UInt8($0), UInt8($0 * 3 % 256), 0] })
        let upright = stored.applying(orientation)
        let rect = Rect(x: 1, y: 2, width: 2, height: 1)
        let mapped = orientation.storedRect(ofUpright: rect, storedWidth: 7, storedHeight: 5)
        var fromUpright: Set<UInt8> = [], fromStored: Set<UInt8> = []
        for v in 2..<3 { for u in 1..<3 { fromUpright.insert(upright.pixel(x: u, y: v).red) } }
        for y in Int(mapped.y)..<Int(mapped.y + mapped.height) {
            for x in Int(mapped.x)..<Int(mapped.x + mapped.width) { fromStored.insert(stored.pixel(x: x, y: y).red) }
        }
        #expect(fromUpright == fromStored, "\(orientation): \(mapped)")
        let back = orientation.uprightRect(ofStored: mapped, storedWidth: 7, storedHeight: 5)
        #expect(back == rect)
    }
}
