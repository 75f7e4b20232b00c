import Testing
import TestSupport
@testable import PhotoBook

/// The planner's given pages (a book description): the pages a plan made, given back, are the same plan; pinned
/// layouts are used; focus points move the crop and nothing else.
struct GivenPagesTests {
    /// The pages of `plan` as a description would list them.
    static func given(_ plan: BookPlan) -> [GivenPage] {
        plan.pages.filter { !$0.photos.isEmpty }.map { page in
            GivenPage(photos: page.photos.map(\.photo), layout: PageArrangement(page.arrangement))
        }
    }

    @Test(arguments: [LayoutMode.single, .grid(columns: 3, rows: 2), .auto], [UInt64(1), 2, 3])
    func thePagesOfAPlanGivenBackAreThatPlan(mode: LayoutMode, seed: UInt64) throws {
        let sizes = LayoutTests.mixedSizes(count: 23, seed: seed)
        var options = LayoutOptions(mode: mode)
        options.padTo = 4
        let plan = try #require(Planner.plan(uprightSizes: sizes, options: options))
        let again = try #require(Planner.plan(photos: BookPhoto.numbered(sizes), pages: Self.given(plan), options: options))
        #expect(again == plan)
    }

    @Test func layoutNamesAreTheListingsNames() {
        #expect(PageArrangement("single") == .single)
        #expect(PageArrangement("grid 3x4") == .grid(columns: 3, rows: 4))
        #expect(PageArrangement(" [1|[2 / 3]] ") == .arranged(.row([.photo, .column([.photo, .photo])])))
        #expect(PageArrangement("1") == .arranged(.photo))
        for wrong in ["", "grid", "grid 0x2", "grid 2x", "grid 21x1", "[1 | 3]", "[2 | 1]", "[1 | 2", "auto", "[1|2|3|4|5|6|7]"] {
            #expect(PageArrangement(wrong) == nil, "\(wrong)")
        }
        #expect(PageArrangement("grid 2x2")!.holds(3) && !PageArrangement("grid 2x2")!.holds(5))
        #expect(PageArrangement("[1 | 2]")!.holds(2) && !PageArrangement("[1 | 2]")!.holds(1))
    }

    @Test func aPinnedLayoutIsUsedAndOneThatNoLongerHoldsGivesWay() throws {
        let sizes = [(width: 3000, height: 2000), (width: 3000, height: 2000), (width: 2000, height: 3000)]
        let options = LayoutOptions(mode: .auto)
        let pinned = try #require(Planner.plan(photos: BookPhoto.numbered(sizes), pages: [GivenPage(photos: [0, 1, 2], layout: PageArrangement("[1 | 2 | 3]"))],
                                               options: options))
        #expect(pinned.pages.map(\.arrangement) == ["[1 | 2 | 3]"])
        let cells = pinned.pages[0].photos.map(\.cell)
        #expect(cells[0].x < cells[1].x && cells[1].x < cells[2].x)
        // Two photos left of three (one failed to decode): the best arrangement of two.
        let fewer = try #require(Planner.plan(photos: BookPhoto.numbered(sizes), pages: [GivenPage(photos: [0, 1], layout: PageArrangement("[1 | 2 | 3]"))],
                                              options: options))
        #expect(fewer.pages[0].photos.count == 2 && fewer.pages[0].arrangement != "[1 | 2 | 3]")
    }

    @Test func focusMovesTheCropWithinThePhotoAndKeepsItsSize() throws {
        let sizes = [(width: 6000, height: 2000)]
        do {
            let options = LayoutOptions(mode: .single)
            let centred = try #require(Planner.plan(uprightSizes: sizes, options: options)).pages[0].photos[0]
            for (point, expectedX) in [((0.0, 0.5), 0.0), ((1.0, 0.5), 6000 - centred.crop.width),
                                       ((0.25, 0.9), 1500 - centred.crop.width / 2)] {
                var photos = BookPhoto.numbered(sizes)
                photos[0].focus = FocusPoint(x: point.0, y: point.1)
                let plan = try #require(Planner.plan(photos: photos, pages: [GivenPage(photos: [0])], options: options))
                let photo = plan.pages[0].photos[0]
                #expect(abs(photo.crop.x - max(0, expectedX)) < 1e-6, "\(point): \(photo.crop)")
                #expect(photo.crop.y == 0 && photo.crop.width == centred.crop.width && photo.crop.height == centred.crop.height)
                #expect(photo.pixelWidth == centred.pixelWidth && photo.cell == centred.cell)
            }
        }
        // A photo kept at its own density stays on whole pixels.
        let small = [(width: 900, height: 300)]
        var photos = BookPhoto.numbered(small)
        photos[0].focus = FocusPoint(x: 0.3, y: 0.5)
        let plan = try #require(Planner.plan(photos: photos, pages: [GivenPage(photos: [0])],
                                             options: LayoutOptions(mode: .single)))
        let crop = plan.pages[0].photos[0].crop
        #expect(crop.x == crop.x.rounded() && crop.x >= 0 && crop.x + crop.width <= 900)
    }
}
