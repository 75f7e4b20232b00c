import Geometry
import Testing
@testable import PhotoBook

/// Crop marks in the plan: the trim sits at one offset on the page (bleed plus the marks' room), every box and
/// cell follows it, and the marks lie on the trim's edges extended, wholly outside the bleed.
struct CropMarkPlanTests {
    let mm = Length.pointsPerMillimetre

    func options(bleed: Double, marks: Bool, binding: Double = 0, margin: Double = 0,
                 mode: LayoutMode = .single) -> LayoutOptions {
        var options = LayoutOptions()
        options.pageSize = PageSize(width: 100 * mm, height: 150 * mm)
        options.bleed = bleed * mm
        options.cropMarks = marks
        options.binding = binding * mm
        options.margin = margin * mm
        options.mode = mode
        return options
    }

    func contains(_ outer: Rect, _ inner: Rect) -> Bool {
        inner.x >= outer.x - 1e-6 && inner.y >= outer.y - 1e-6 && inner.x + inner.width <= outer.x + outer.width + 1e-6
            && inner.y + inner.height <= outer.y + outer.height + 1e-6
    }

    @Test(arguments: [0.0, 3], [false, true])
    func theTrimSitsAtOneOffsetAndTheBoxesFollowIt(bleed: Double, marks: Bool) throws {
        let layout = options(bleed: bleed, marks: marks, binding: 5)
        let offset = (bleed + (marks ? 9 : 0)) * mm
        #expect(abs(layout.trimOffset - offset) < 1e-9)
        let plan = try #require(Planner.plan(uprightSizes: [(3000, 2000), (2000, 3000), (2500, 2500)], options: layout))
        for page in plan.pages {
            #expect(abs(page.size.width - (100 * mm + 2 * offset)) < 1e-6)
            #expect(abs(page.size.height - (150 * mm + 2 * offset)) < 1e-6)
            #expect(abs(page.trimBox.x - offset) < 1e-6 && abs(page.trimBox.y - offset) < 1e-6)
            #expect(abs(page.bleedBox.x - (offset - bleed * mm)) < 1e-6)
            #expect(abs(page.bleedBox.width - (100 + 2 * bleed) * mm) < 1e-6)
            // Photos run at most to the bleed edge, never into the marks' room.
            for photo in page.photos { #expect(contains(page.bleedBox, photo.placement), "\(photo.placement)") }
            #expect(page.cropMarks.count == (marks ? 8 : 0))
        }
    }

    @Test(arguments: [0.0, 3])
    func marksContinueTheTrimEdgesOutsideTheBleed(bleed: Double) throws {
        let layout = options(bleed: bleed, marks: true)
        let trim = layout.trimBox, bleedBox = layout.bleedBox
        let edgesX = [trim.x, trim.x + trim.width], edgesY = [trim.y, trim.y + trim.height]
        var corners = Set<String>()
        for line in layout.cropMarkLines {
            let horizontal = line.y0 == line.y1
            let length = horizontal ? abs(line.x1 - line.x0) : abs(line.y1 - line.y0)
            #expect(abs(length - 6 * mm) < 1e-9)
            if horizontal {
                #expect(edgesY.contains(line.y0))
                // Wholly left or right of the bleed box, at least 3 mm away from it.
                let near = min(abs(line.x0 - bleedBox.x), abs(line.x0 - bleedBox.x - bleedBox.width),
                               abs(line.x1 - bleedBox.x), abs(line.x1 - bleedBox.x - bleedBox.width))
                #expect(max(line.x0, line.x1) <= bleedBox.x - 3 * mm + 1e-9
                            || min(line.x0, line.x1) >= bleedBox.x + bleedBox.width + 3 * mm - 1e-9)
                #expect(abs(near - 3 * mm) < 1e-9)
                corners.insert("\(line.x0 < trim.x ? "L" : "R")\(line.y0 == trim.y ? "B" : "T")h")
            } else {
                #expect(edgesX.contains(line.x0))
                #expect(max(line.y0, line.y1) <= bleedBox.y - 3 * mm + 1e-9
                            || min(line.y0, line.y1) >= bleedBox.y + bleedBox.height + 3 * mm - 1e-9)
                corners.insert("\(line.x0 == trim.x ? "L" : "R")\(line.y0 < trim.y ? "B" : "T")v")
            }
            // And they end on the page: nothing is drawn off it.
            let media = layout.mediaSize
            for x in [line.x0, line.x1] { #expect(x >= -1e-9 && x <= media.width + 1e-9) }
            for y in [line.y0, line.y1] { #expect(y >= -1e-9 && y <= media.height + 1e-9) }
        }
        #expect(corners.count == 8, "two marks at each corner: \(corners)")
    }

    @Test func marksThatMakeThePageTooLargeForPDFAreRefused() {
        var layout = options(bleed: 0, marks: true)
        layout.pageSize = PageSize(width: 14_390, height: 1000)
        #expect(layout.problem == .pageSizeOutOfRange)
        layout.cropMarks = false
        #expect(layout.problem == nil)
    }
}
