import Testing
@testable import PhotoBook

/// Facing pages: the binding margin on the spine side (page 1 on the right), numbers in the outer corners, and
/// blank pages that make up the count a print shop binds in.
struct FacingPagesTests {
    let mm = Length.pointsPerMillimetre

    @Test(arguments: [LayoutMode.single, .grid(columns: 2, rows: 2), .auto])
    func theBindingIsOnTheSpineSideOfEachPage(mode: LayoutMode) throws {
        var options = LayoutOptions()
        options.mode = mode
        options.binding = 15 * mm
        let text = BookText(measure: FixedMeasure(), title: BookText.Title(title: "T"), pageNumbers: true, facingPages: true)
        let plan = try #require(Planner.plan(uprightSizes: Array(repeating: (3000, 2000), count: 9), options: options,
                                             text: text))
        for page in plan.pages {
            let right = page.number % 2 == 1
            let inner = 10 * mm + (right ? 15 * mm : 0)
            let outer = 595.2756 - 10 * mm - (right ? 0 : 15 * mm)
            for photo in page.photos {
                #expect(photo.cell.x >= inner - 1e-6 && photo.cell.x + photo.cell.width <= outer + 1e-3,
                        "page \(page.number): \(photo.cell)")
            }
            if let number = page.texts.first(where: { $0.role == .pageNumber }) {
                #expect(number.alignment == (right ? .right : .left), "page \(page.number)")
                #expect(abs(number.box.x - inner) < 1e-6)
            }
        }
        // Photo pages reach their inner and outer margins alike on both sides of the spread.
        let photoPages = plan.pages.filter { !$0.photos.isEmpty && $0.arrangement != "title" }
        for page in photoPages {
            let right = page.number % 2 == 1
            let minX = page.photos.map(\.cell.x).min()!
            #expect(abs(minX - (10 * mm + (right ? 15 * mm : 0))) < 1e-6, "page \(page.number)")
        }
    }

    @Test func blankPagesMakeUpTheCount() throws {
        var options = LayoutOptions()
        options.padTo = 4
        let plan = try #require(Planner.plan(uprightSizes: Array(repeating: (3000, 2000), count: 5), options: options,
                                             text: BookText(measure: FixedMeasure(), pageNumbers: true)))
        #expect(plan.pages.count == 8 && plan.blankPages == 3)
        for page in plan.pages.suffix(3) {
            #expect(page.photos.isEmpty && page.texts.isEmpty && page.arrangement == "blank")
        }
        options.padTo = 5
        #expect(try #require(Planner.plan(uprightSizes: Array(repeating: (3000, 2000), count: 5), options: options)).blankPages == 0)
    }
}
