import Foundation
import Geometry
import Testing

@testable import PDF
import TestSupport

/// Where the photo lands, checked on pages rendered by poppler at 72 dpi (one pixel per point).
@Suite struct PlacementTests {
    struct Rect: CustomStringConvertible, Sendable {
        let x, y, width, height: Int
        var description: String { "(\(x), \(y)) \(width)x\(height)" }
    }

    static func isRed(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.r > 200 && p.g < 60 && p.b < 60 }
    static func isWhite(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.r > 245 && p.g > 245 && p.b > 245 }

    @Test(arguments: [
        Rect(x: 50, y: 20, width: 80, height: 40),
        Rect(x: 0, y: 0, width: 200, height: 100),
        Rect(x: 1, y: 57, width: 33, height: 42),
    ])
    func imageCoversExactlyItsRectangle(rect: Rect) throws {
        try Tools.withTempDirectory { dir in
            let red = try Tools.makeJPEG(["-size", "64x48", "xc:red"], in: dir, name: "red.jpg")
            let doc = try PDFDocument()
            let page = try doc.addPage(width: 200, height: 100)
            try page.drawJPEG(
                red, in: Geometry.Rect(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width),
                                       height: Double(rect.height)))
            try doc.save(to: dir + "/book.pdf")
            let raster = try Tools.render(dir + "/book.pdf")
            #expect(raster.width == 200 && raster.height == 100)

            // PDF y runs up from the bottom; raster rows run down from the top.
            let columns = rect.x..<(rect.x + rect.width)
            let rows = (100 - rect.y - rect.height)..<(100 - rect.y)
            var wrong: [(Int, Int)] = []
            for row in 0..<raster.height {
                for column in 0..<raster.width {
                    let inside = columns.contains(column) && rows.contains(row)
                    let pixel = raster[column, row]
                    if inside ? !Self.isRed(pixel) : !Self.isWhite(pixel) { wrong.append((column, row)) }
                }
            }
            #expect(wrong.isEmpty, "\(wrong.count) pixels wrong, first at \(wrong.prefix(5))")
        }
    }

    /// Landscape_N.jpg is stored so that EXIF orientation N shows the same picture as Landscape_1.jpg.
    @Test(arguments: 1...8)
    func storedSidewaysPhotoIsShownUpright(orientation: Int) throws {
        try Tools.withTempDirectory { dir in
            let reference = try renderFullPage(fixture: "exif-orientation/Landscape_1.jpg", orientation: 1, in: dir)
            let turned = try renderFullPage(
                fixture: "exif-orientation/Landscape_\(orientation).jpg", orientation: orientation, in: dir)
            let difference = turned.meanDifference(to: reference)
            #expect(difference < 4, "orientation \(orientation) differs from upright by \(difference)")
            // And the check can tell: the same file drawn as stored differs clearly (except orientation 1).
            if orientation != 1 {
                let asStored = try renderFullPage(
                    fixture: "exif-orientation/Landscape_\(orientation).jpg", orientation: 1, in: dir)
                #expect(asStored.meanDifference(to: reference) > 20)
            }
        }
    }

    /// The same check against ImageMagick's own idea of upright, with a photo that needs a 90° clockwise turn.
    @Test func matchesImageMagickAutoOrient() throws {
        try Tools.withTempDirectory { dir in
            let pdfRender = try renderFullPage(fixture: "exif-orientation/Landscape_6.jpg", orientation: 6, in: dir)
            let source = Fixtures.packageRoot.appendingPathComponent("Fixtures/exif-orientation/Landscape_6.jpg").path
            try Tools.run("convert", [source, "-auto-orient", "-resize", "180x120!", dir + "/magick.ppm"])
            let magick = try RGBRaster(ppm: Fixtures.read(dir + "/magick.ppm"))
            let difference = pdfRender.meanDifference(to: magick)
            #expect(difference < 6, "PDF render differs from convert -auto-orient by \(difference)")
        }
    }

    @Test func orientationSixTurnsTheMarkedCornerClockwise() throws {
        try Tools.withTempDirectory { dir in
            // Stored 40x60 (portrait, as a camera held sideways writes it): red in the stored top-left corner.
            let stored = try Tools.makeJPEG(
                ["-size", "40x60", "xc:white", "-fill", "red", "-draw", "rectangle 0,0 19,19"], in: dir, name: "m.jpg")
            let doc = try PDFDocument()
            // Upright it is 60 wide and 40 high; orientation 6 puts stored row 0 on the right, column 0 at the top.
            try doc.addPage(width: 100, height: 100)
                .drawJPEG(stored, in: Geometry.Rect(x: 20, y: 30, width: 60, height: 40), orientation: 6)
            try doc.save(to: dir + "/book.pdf")
            let raster = try Tools.render(dir + "/book.pdf")
            // Rect spans columns 20..<80, rows 30..<70: the red corner is now top right.
            #expect(Self.isRed(raster[75, 35]))
            #expect(!Self.isRed(raster[25, 35]) && !Self.isRed(raster[25, 65]) && !Self.isRed(raster[75, 65]))
        }
    }

    private func renderFullPage(fixture: String, orientation: Int, in dir: String) throws -> RGBRaster {
        let doc = try PDFDocument()
        try doc.addPage(width: 180, height: 120)
            .drawJPEG(Fixtures.bytes(fixture), in: Geometry.Rect(x: 0, y: 0, width: 180, height: 120), orientation: orientation)
        let path = dir + "/\(UUID().uuidString).pdf"
        try doc.save(to: path)
        return try Tools.render(path)
    }
}
