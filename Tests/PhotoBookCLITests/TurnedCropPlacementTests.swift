import Foundation
import TestSupport
import Testing

/// Issue 21, item 3: "a lossless crop of an orientation-8 JPEG sits 1 pt (0.6 source pixel) off its cell". The same
/// picture stored upright and stored turned (EXIF 3, 6, 8), cropped by a page to the same faces, shows the same
/// page: rendered, a turned photo's page matches the upright one's far better than either shifted by a point.
struct TurnedCropPlacementTests {
    @Test(arguments: ["curie.3.mwg.jpg", "curie.6.mwg.jpg", "curie.8.mwg.jpg", "curie.6.shown.jpg", "curie.8.shown.jpg"],
          ["300x100mm", "110x200mm"])
    func aTurnedPhotosCropSitsWhereTheUprightOnesDoes(name: String, page: String) throws {
        let scratch = try Scratch()
        var rendered: [(width: Int, height: Int, rgb: [UInt8])] = []
        for (index, photo) in ["curie.1.mwg.jpg", name].enumerated() {
            let pdf = scratch.file("\(index).pdf")
            let run = try Run.photobook(["build", Run.fixture("face-regions/" + photo), "-o", pdf, "--page-size", page,
                                         "--margin", "0", "-q"])
            #expect(run.status == 0, "\(run.stderr)")
            // 144 dpi: a pixel of the page is half a point; the photo's pixels are about a point each.
            rendered.append(try renderPageWithCairo(pdf, page: 1, dpi: 144, scratch: scratch))
        }
        let (upright, turned) = (rendered[0], rendered[1])
        #expect(upright.width == turned.width && upright.height == turned.height)
        let same = meanAbsoluteDifference(upright.rgb, turned.rgb)
        // The page cuts rows on the wide page and columns on the narrow one: a point (2 pixels) off along that side.
        let rows = page == "300x100mm"
        let off = meanAbsoluteDifference(Self.trimmed(upright, rows: rows, first: false),
                                         Self.trimmed(turned, rows: rows, first: true))
        #expect(same * 2 < off, "\(name) on \(page): \(same) per sample, against \(off) a point off")
    }

    /// The raster less its first (or last) two rows, or columns.
    static func trimmed(_ image: (width: Int, height: Int, rgb: [UInt8]), rows: Bool, first: Bool) -> [UInt8] {
        var out: [UInt8] = []
        let kept = { (index: Int, count: Int) in first ? index >= 2 : index < count - 2 }
        for y in 0..<image.height where !rows || kept(y, image.height) {
            for x in 0..<image.width where rows || kept(x, image.width) {
                let i = (y * image.width + x) * 3
                out += image.rgb[i..<i + 3]
            }
        }
        return out
    }
}
