import Geometry
import Testing
@testable import PhotoBook

/// The automatic layout knows faces (issue 21): a cell that cuts a face costs more than one that cuts background,
/// and a photo alone on a page is never cut by more than it can afford.
struct FaceLayoutTests {
    /// Two square photos on a square page: side by side or one above the other crop them alike (half each), so
    /// the faces the first one marks decide.
    static func page(faces: Rect?) throws -> PageCells {
        var pricing = PagePricing(area: Rect(x: 0, y: 0, width: 500, height: 500), gap: 0)
        pricing.faces = { $0 == 0 ? faces.map { ($0.width, $0.height) } : nil }
        return try #require(pricing.bestPage([1, 1], arrangements: Arrangement.all(of: 2))).page
    }

    @Test("a row of faces gets a wide cell, a column of them a tall one; faces that fit either way change nothing")
    func facesChooseTheArrangement() throws {
        let wide = try Self.page(faces: Rect(x: 0.1, y: 0.35, width: 0.8, height: 0.3)).cells[0]
        #expect(wide.width > wide.height, "\(wide)")
        let tall = try Self.page(faces: Rect(x: 0.35, y: 0.1, width: 0.3, height: 0.8)).cells[0]
        #expect(tall.height > tall.width, "\(tall)")
        let small = try Self.page(faces: Rect(x: 0.4, y: 0.4, width: 0.2, height: 0.2))
        #expect(small == (try Self.page(faces: nil)))
    }

    @Test("the planner prices a photo's marked faces: a book of a group photo keeps the group whole")
    func thePlannerWeighsFaces() throws {
        var options = LayoutOptions(mode: .auto)
        options.pageSize = PageSize(width: 200 * Length.pointsPerMillimetre, height: 200 * Length.pointsPerMillimetre)
        options.maxPerPage = 2
        for faces in [Rect(x: 0.1, y: 0.35, width: 0.8, height: 0.3), Rect(x: 0.35, y: 0.1, width: 0.3, height: 0.8)] {
            var photos = BookPhoto.numbered([(width: 2000, height: 2000), (width: 2000, height: 2000)])
            photos[0].regions = [PhotoRegion(kind: .face, box: faces)]
            let plan = try #require(Planner.plan(photos: photos, options: options))
            #expect(plan.pages.allSatisfy { $0.photos.allSatisfy { !$0.cutsRegion } }, "\(faces)")
        }
    }

    @Test("a photo alone is cropped up to 15%, and beyond that placed whole in the middle of the page")
    func aPhotoAloneIsNeverCutByMoreThanItAffords() throws {
        var options = LayoutOptions(mode: .auto)
        options.maxPerPage = 1
        let area = try #require(options.contentArea)
        // A 3:4 photo in an A4 area loses 6% filling it; a square one would lose 29%, a 4:3 one 47%.
        for (size, whole) in [((width: 3000, height: 4000), false), ((width: 2000, height: 2000), true),
                              ((width: 4000, height: 3000), true)] {
            let plan = try #require(Planner.plan(uprightSizes: [size], options: options))
            let placed = plan.pages[0].photos[0]
            if whole {
                #expect(placed.cropShare < 0.01, "\(size): \(placed.cropShare)")
                #expect(abs(placed.cell.width - area.width) < 1e-6, "\(size): as wide as the area")
                #expect(abs(placed.cell.y * 2 + placed.cell.height - area.y * 2 - area.height) < 1e-6, "centred")
            } else {
                #expect(placed.cropShare > 0.05 && placed.cropShare <= PagePricing.affordableAloneCrop)
                #expect(placed.cell == area)
            }
        }
        // The single layout fills its pages as ever.
        options.mode = .single
        let single = try #require(Planner.plan(uprightSizes: [(width: 2000, height: 2000)], options: options))
        #expect(single.pages[0].photos[0].cell == area && single.pages[0].photos[0].cropShare > 0.25)
    }
}
