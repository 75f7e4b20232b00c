import Geometry
import Imaging
import Testing
@testable import PhotoBook

/// Which planned photos are lossless-crop candidates, and where a lossless crop's larger picture is drawn.
struct LosslessPlacementTests {
    @Test("a photo shown at its own resolution copies its pixels; one resampled does not")
    func copiesPixels() throws {
        // 1800x1200 on A4 at 300 dpi: fewer pixels than asked for, cropped to the cell at its own resolution.
        let own = try #require(Planner.plan(uprightSizes: [(1800, 1200)], options: LayoutOptions())).pages[0].photos[0]
        #expect(own.copiesPixels)
        #expect(own.pixelHeight == 1200 && own.crop.width < 1800)
        // 8000x6000 on A4 at 300 dpi: resampled to the density, unless the originals are kept.
        let resampled = try #require(Planner.plan(uprightSizes: [(8000, 6000)], options: LayoutOptions())).pages[0].photos[0]
        #expect(!resampled.copiesPixels)
        var keep = LayoutOptions()
        keep.keepOriginals = true
        #expect(try #require(Planner.plan(uprightSizes: [(8000, 6000)], options: keep)).pages[0].photos[0].copiesPixels)
    }

    @Test("the whole photo lands where wholePhotoRect says, and the crop on the placement")
    func pageRect() throws {
        for size in [(1800, 1200), (1200, 1800), (601, 449)] {
            let placed = try #require(Planner.plan(uprightSizes: [size], options: LayoutOptions())).pages[0].photos[0]
            let whole = placed.pageRect(ofUpright: Rect(x: 0, y: 0, width: Double(size.0), height: Double(size.1)))
            let expected = placed.wholePhotoRect(uprightWidth: size.0, uprightHeight: size.1)
            for (a, b) in [(whole.x, expected.x), (whole.y, expected.y), (whole.width, expected.width), (whole.height, expected.height)] {
                #expect(abs(a - b) < 1e-9, "\(size)")
            }
            let crop = placed.pageRect(ofUpright: placed.crop)
            for (a, b) in [(crop.x, placed.placement.x), (crop.y, placed.placement.y), (crop.width, placed.placement.width),
                           (crop.height, placed.placement.height)] {
                #expect(abs(a - b) < 1e-9, "\(size)")
            }
            // Sixteen more rows at the top of the upright picture (padding a turn brought there) lie above the cell.
            let taller = placed.pageRect(ofUpright: Rect(x: placed.crop.x, y: placed.crop.y - 16,
                                                         width: placed.crop.width, height: placed.crop.height + 16))
            #expect(abs(taller.y - placed.placement.y) < 1e-9 && taller.y + taller.height > placed.placement.y + placed.placement.height)
        }
    }
}
