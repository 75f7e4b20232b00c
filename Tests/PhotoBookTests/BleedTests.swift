import Geometry
import Testing
@testable import PhotoBook

/// Bleed and page boxes in the plan: the PDF page grows by the bleed, the trim stays the page size, and photos
/// that touch the trim edge run on over the bleed with more of themselves, never stretched.
struct BleedTests {
    let mm = Length.pointsPerMillimetre

    func options(bleed: Double, margin: Double, mode: LayoutMode = .single, safety: Double? = nil) -> LayoutOptions {
        var options = LayoutOptions()
        options.bleed = bleed * mm
        options.margin = margin * mm
        options.mode = mode
        options.safety = safety.map { $0 * mm }
        return options
    }

    @Test func thePageGrowsByTheBleedAndTheBoxesSayWhereToCut() throws {
        let layout = options(bleed: 3, margin: 10)
        let plan = try #require(Planner.plan(uprightSizes: [(3000, 2000)], options: layout))
        let page = try #require(plan.pages.first)
        #expect(abs(page.size.width - (210 + 6) * mm) < 1e-6 && abs(page.size.height - (297 + 6) * mm) < 1e-6)
        func near(_ a: Rect, _ b: Rect) -> Bool {
            abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6 && abs(a.width - b.width) < 1e-6 && abs(a.height - b.height) < 1e-6
        }
        #expect(near(page.trimBox, Rect(x: 3 * mm, y: 3 * mm, width: 210 * mm, height: 297 * mm)))
        #expect(near(page.artBox, Rect(x: 13 * mm, y: 13 * mm, width: 190 * mm, height: 277 * mm)))
        // Inside the margins the photo does not reach the trim, so it does not bleed.
        #expect(near(page.photos[0].placement, Rect(x: 13 * mm, y: 13 * mm, width: 190 * mm, height: 277 * mm)))
    }

    @Test(arguments: [LayoutMode.single, .grid(columns: 2, rows: 2), .auto])
    func cellsOnTheTrimEdgeRunOverTheBleedWithMoreOfThePhoto(mode: LayoutMode) throws {
        let layout = options(bleed: 3, margin: 0, mode: mode)
        let sizes = Array(repeating: (width: 4000, height: 3000), count: 4)
        let plan = try #require(Planner.plan(uprightSizes: sizes, options: layout))
        let trim = layout.trimBox
        for page in plan.pages {
            for photo in page.photos {
                let placement = photo.placement
                // Each side that met the trim now meets the page edge; the others stay where the gap is.
                let touchesLeft = abs(placement.x) < 1e-6, touchesRight = abs(placement.x + placement.width - page.size.width) < 1e-6
                let touchesBottom = abs(placement.y) < 1e-6, touchesTop = abs(placement.y + placement.height - page.size.height) < 1e-6
                #expect(touchesLeft || placement.x >= trim.x + layout.gap - 1e-6)
                #expect(touchesRight || placement.x + placement.width <= trim.x + trim.width - layout.gap + 1e-6)
                #expect(touchesBottom || placement.y >= trim.y + layout.gap - 1e-6)
                #expect(touchesTop || placement.y + placement.height <= trim.y + trim.height - layout.gap + 1e-6)
                #expect(touchesLeft || touchesRight || touchesTop || touchesBottom, "some photo reaches the bleed")
                // Never stretched: the crop has the placement's shape.
                let cropAspect = photo.crop.width / photo.crop.height, placedAspect = placement.width / placement.height
                #expect(abs(cropAspect / placedAspect - 1) < 0.002)
            }
        }
    }

    @Test func aBleedThatMakesThePageTooLargeForPDFIsRefused() {
        var layout = options(bleed: 10, margin: 10)
        layout.pageSize = PageSize(width: 14_400, height: 14_400)
        #expect(layout.problem == .pageSizeOutOfRange)
        #expect(options(bleed: 3, margin: 10, safety: 150).problem == .safetyLeavesNoRoom)
    }
}
