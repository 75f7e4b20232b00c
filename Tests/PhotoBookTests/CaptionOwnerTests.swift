import Testing
@testable import PhotoBook

/// A caption belongs to its photo: the warning for a caption cut short names that photo, wherever the cells sit,
/// and after the bleed has moved them.
struct CaptionOwnerTests {
    static let long = Array(repeating: "words", count: 200).joined(separator: " ")

    /// One photo above the other: the caption under the lower one is below the upper one's cell too, which a
    /// search by place took for the upper photo's.
    @Test func theCutCaptionOfTheLowerPhotoOfAColumnIsTheLowerOnes() throws {
        let options = LayoutOptions(mode: .grid(columns: 1, rows: 2))
        let photos = BookPhoto.numbered([(3000, 2000), (3000, 2000)], captions: [nil, Self.long])
        let plan = try #require(Planner.plan(photos: photos, options: options, text: BookText(measure: FixedMeasure())))
        let page = plan.pages[0]
        #expect(page.photos.map { $0.caption == nil } == [true, false])
        let warnings = BookRenderPlan.textWarnings(plan) { "photo-\($0.index)" }
        #expect(warnings.map(\.path) == ["photo-1"])
    }

    /// Cells on the trim edge run into the bleed and leave their captions where they were: each cut caption is
    /// still its own photo's (a search by place lost the left column's).
    @Test func captionsStayWithTheirPhotosWhenTheCellsBleed() throws {
        var options = LayoutOptions(mode: .grid(columns: 2, rows: 1))
        options.margin = 0
        options.bleed = 3 * Length.pointsPerMillimetre
        let photos = BookPhoto.numbered([(3000, 2000), (3000, 2000)], captions: [Self.long, Self.long])
        let plan = try #require(Planner.plan(photos: photos, options: options, text: BookText(measure: FixedMeasure())))
        let page = plan.pages[0]
        #expect(page.photos.allSatisfy { $0.caption != nil })
        #expect(page.photos[0].cell.x < page.photos[0].caption!.box.x, "the left cell runs into the bleed")
        let warnings = BookRenderPlan.textWarnings(plan) { "photo-\($0.index)" }
        #expect(warnings.map(\.path) == ["photo-0", "photo-1"])
        #expect(page.texts.filter { $0.role == .caption } == page.photos.compactMap(\.caption))
    }
}
