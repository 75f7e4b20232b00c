import Geometry
import Imaging
import Testing
@testable import PhotoBook

/// The wrap cover's geometry and plan: the page is two panels and the spine plus the bleed, the spine follows
/// pages / PPI, the photos cover their panels to the bleed edges but not the spine, and the words stay where they
/// may (the spine's across its width, the front's inside its safe area).
struct CoverPlanTests {
    let mm = Length.pointsPerMillimetre
    let measure = FixedMeasure()

    func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }
    func near(_ a: Rect, _ b: Rect) -> Bool {
        near(a.x, b.x) && near(a.y, b.y) && near(a.width, b.width) && near(a.height, b.height)
    }
    func inside(_ inner: Rect, _ outer: Rect) -> Bool {
        inner.x >= outer.x - 1e-6 && inner.y >= outer.y - 1e-6 && inner.x + inner.width <= outer.x + outer.width + 1e-6
            && inner.y + inner.height <= outer.y + outer.height + 1e-6
    }

    // Trap: inline in @Test(arguments:), this literal of tuples and arithmetic timed out the type checker.
    static let spines: [(pages: Int, ppi: Double, points: Double)] = [
        (200, 444, 200.0 / 444 * 72), (24, 444, 24.0 / 444 * 72), (500, 526, 500.0 / 526 * 72), (100, 72, 100),
    ]

    @Test(arguments: spines)
    func theSpineIsPagesOverPPIInches(pages: Int, ppi: Double, points: Double) {
        #expect(near(CoverGeometry.spineWidth(interiorPages: pages, pagesPerInch: ppi), points))
    }

    @Test(arguments: [0.0, 3, 3.175])
    func thePageIsTwoPanelsAndTheSpinePlusTheBleed(bleedMillimetres: Double) {
        let bleed = bleedMillimetres * mm, spine = 11.5 * mm
        let cover = CoverGeometry(panel: .a4, spine: spine, bleed: bleed, safety: 10 * mm)
        #expect(cover.problem == nil)
        #expect(near(cover.mediaSize.width, 2 * PageSize.a4.width + spine + 2 * bleed))
        #expect(near(cover.mediaSize.height, PageSize.a4.height + 2 * bleed))
        #expect(near(cover.trimBox, Rect(x: bleed, y: bleed, width: 2 * PageSize.a4.width + spine, height: PageSize.a4.height)))
        #expect(near(cover.artBox, Rect(x: bleed + 10 * mm, y: bleed + 10 * mm, width: cover.trimBox.width - 20 * mm,
                                        height: PageSize.a4.height - 20 * mm)))
        // Back, spine and front tile the trim box from left to right.
        #expect(near(cover.back.x, cover.trimBox.x))
        #expect(near(cover.back.x + cover.back.width, cover.spineStrip.x))
        #expect(near(cover.spineStrip.x + cover.spineStrip.width, cover.front.x))
        #expect(near(cover.front.x + cover.front.width, cover.trimBox.x + cover.trimBox.width))
        // The photos' cells reach the page edges outside and stop at the folds.
        #expect(near(cover.backPhotoCell, Rect(x: 0, y: 0, width: cover.spineStrip.x, height: cover.mediaSize.height)))
        #expect(near(cover.frontPhotoCell, Rect(x: cover.front.x, y: 0, width: cover.mediaSize.width - cover.front.x,
                                                height: cover.mediaSize.height)))
    }

    @Test func aCoverWiderThanPDFAllowsSaysHowWideTheSpineMayBe() {
        let panel = PageSize(width: 7000, height: 800)
        let cover = CoverGeometry(panel: panel, spine: 500, bleed: 10, safety: 10)
        #expect(cover.problem == .tooWide(largestSpine: 14_400 - 14_000 - 20))
        var fits = cover
        fits.spine = 380
        #expect(fits.problem == nil)
        #expect(CoverGeometry(panel: .a4, spine: 10, bleed: 0, safety: 105 * mm).problem == .safetyLeavesNoRoom)
        #expect(CoverGeometry(panel: .a4, spine: -1, bleed: 0, safety: 0).problem == .notFinite)
        #expect(CoverGeometry(panel: .a4, spine: .nan, bleed: 0, safety: 0).problem == .notFinite)
    }

    @Test(arguments: [0.0, 3])
    func thePhotosCoverTheirPanelsToTheBleedAndLeaveTheSpineAlone(bleedMillimetres: Double) throws {
        let cover = CoverGeometry(panel: .a5, spine: 12 * mm, bleed: bleedMillimetres * mm, safety: 8 * mm)
        let plan = try #require(CoverPlanner.plan(geometry: cover, front: (4000, 3000), back: (3000, 4000), dpi: 300,
                                                  words: nil))
        let back = try #require(plan.back)
        #expect(near(plan.front.placement, cover.frontPhotoCell))
        #expect(near(back.placement, cover.backPhotoCell))
        #expect(plan.front.photo == 0 && back.photo == 1)
        for photo in [plan.front, back] {
            // Filled, never stretched: the crop has the cell's shape.
            #expect(abs(photo.crop.width / photo.crop.height / (photo.placement.width / photo.placement.height) - 1) < 0.002)
            #expect(photo.placement.x + photo.placement.width <= cover.spineStrip.x + 1e-6
                        || photo.placement.x >= cover.spineStrip.x + cover.spineStrip.width - 1e-6)
        }
        #expect(plan.frontTexts.isEmpty && plan.spineTexts.isEmpty && plan.warnings.isEmpty)
        let frontOnly = try #require(CoverPlanner.plan(geometry: cover, front: (4000, 3000), back: nil, dpi: 300, words: nil))
        #expect(frontOnly.back == nil)
    }

    @Test func theFrontWordsStayInsideTheFrontSafeArea() throws {
        let cover = CoverGeometry(panel: .a4, spine: 15 * mm, bleed: 3 * mm, safety: 12 * mm)
        let words = CoverWords(measure: measure, title: "A long title that has to wrap onto a second line",
                               subtitle: "Subtitle", author: "Author")
        let plan = try #require(CoverPlanner.plan(geometry: cover, front: (3000, 4000), back: nil, dpi: 300, words: words))
        #expect(plan.frontTexts.map(\.role) == [.title, .subtitle, .author])
        #expect(plan.frontTexts[0].lines.count == 2)
        for text in plan.frontTexts {
            #expect(inside(text.box, cover.frontSafeArea), "\(text.role) at \(text.box)")
            for line in text.lines { #expect(measure.width(of: line, size: text.size) <= text.box.width + 1e-6) }
        }
        // The title is at the top of the safe area, the others under it in order.
        #expect(near(plan.frontTexts[0].box.y + plan.frontTexts[0].box.height, cover.frontSafeArea.y + cover.frontSafeArea.height))
        #expect(plan.frontTexts[1].box.y + plan.frontTexts[1].box.height <= plan.frontTexts[0].box.y)
        #expect(plan.frontTexts[2].box.y + plan.frontTexts[2].box.height <= plan.frontTexts[1].box.y)
        #expect(plan.warnings.isEmpty, "\(plan.warnings)")
    }

    @Test func aTitleTooLongForTheFrontIsCutWithAWarning() throws {
        let cover = CoverGeometry(panel: .a5, spine: 15 * mm, bleed: 0, safety: 10 * mm)
        let title = Array(repeating: "word", count: 60).joined(separator: " ")
        let plan = try #require(CoverPlanner.plan(geometry: cover, front: (3000, 4000), back: nil, dpi: 300,
                                                  words: CoverWords(measure: measure, title: title)))
        #expect(plan.frontTexts[0].lines.count == 3)
        #expect(plan.frontTexts[0].lines.last?.hasSuffix("…") == true)
        #expect(plan.warnings.contains { $0.contains("title is too long for the front") }, "\(plan.warnings)")
    }

    /// The spine's line runs down the middle of the strip: the letters (one descent left of the baseline to one
    /// ascent right of it) are centred across it and keep clear of both folds.
    @Test(arguments: [8.0, 12, 30])
    func theSpineTitleIsCentredAcrossTheSpineAndReadsDownIt(spineMillimetres: Double) throws {
        let cover = CoverGeometry(panel: .a4, spine: spineMillimetres * mm, bleed: 3 * mm, safety: 10 * mm)
        let plan = try #require(CoverPlanner.plan(geometry: cover, front: (3000, 4000), back: nil, dpi: 300,
                                                  words: CoverWords(measure: measure, title: "Summer")))
        let line = try #require(plan.spineTexts.first)
        #expect(plan.spineTexts.count == 1)
        let box = line.box(ascent: measure.ascent, descent: measure.descent)
        let strip = cover.spineStrip
        #expect(near(box.x + box.width / 2, strip.x + strip.width / 2))
        #expect(box.x >= strip.x + CoverPlanner.spineFoldClearance - 1e-6)
        #expect(box.x + box.width <= strip.x + strip.width - CoverPlanner.spineFoldClearance + 1e-6)
        #expect(line.size <= CoverPlanner.maximumSpineSize && line.size >= CoverPlanner.minimumSpineSize)
        // Alone, the title sits in the middle of the spine's length.
        #expect(near(line.top - line.length / 2, strip.y + strip.height / 2))
        #expect(near(line.length, measure.width(of: "Summer", size: line.size)))
    }

    @Test func aSpineTooNarrowForALineIsLeftBlankWithAWarning() throws {
        // 24 pages at 444 PPI: a spine of 1.4 mm.
        let spine = CoverGeometry.spineWidth(interiorPages: 24, pagesPerInch: 444)
        let cover = CoverGeometry(panel: .a4, spine: spine, bleed: 3 * mm, safety: 10 * mm)
        let plan = try #require(CoverPlanner.plan(geometry: cover, front: (3000, 4000), back: nil, dpi: 300,
                                                  words: CoverWords(measure: measure, title: "Summer", author: "Me")))
        #expect(plan.spineTexts.isEmpty)
        #expect(plan.warnings.contains { $0.hasPrefix("the spine is 1.4 mm wide, too narrow") }, "\(plan.warnings)")
        // The front keeps its words.
        #expect(plan.frontTexts.map(\.role) == [.title, .author])
    }

    @Test func theAuthorGoesToTheFootOfTheSpineAndTheTitleToItsHead() throws {
        let cover = CoverGeometry(panel: .a4, spine: 15 * mm, bleed: 3 * mm, safety: 10 * mm)
        let plan = try #require(CoverPlanner.plan(geometry: cover, front: (3000, 4000), back: nil, dpi: 300,
                                                  words: CoverWords(measure: measure, title: "Summer", author: "A. Reader")))
        #expect(plan.spineTexts.map(\.role) == [.title, .author])
        let strip = cover.spineStrip
        #expect(near(plan.spineTexts[0].top, strip.y + strip.height - cover.safety))
        let author = plan.spineTexts[1]
        #expect(near(author.top - author.length, strip.y + cover.safety))
        #expect(plan.spineTexts[0].top - plan.spineTexts[0].length > author.top)
    }

    @Test func aTitleAndAuthorTooLongForTheSpineShrinkThenLoseTheAuthorThenAreCut() throws {
        let cover = CoverGeometry(panel: .a5, spine: 15 * mm, bleed: 0, safety: 10 * mm)
        let usable = cover.spineStrip.height - 2 * cover.safety
        // Fits at a smaller size: same words, smaller type, no warning.
        let shrunk = try #require(CoverPlanner.plan(geometry: cover, front: (10, 10), back: nil, dpi: 300,
                                                    words: CoverWords(measure: measure, title: String(repeating: "T", count: 40),
                                                                      author: String(repeating: "A", count: 20))))
        #expect(shrunk.spineTexts.count == 2 && shrunk.warnings.isEmpty, "\(shrunk.warnings)")
        #expect(shrunk.spineTexts[0].size < CoverPlanner.maximumSpineSize)
        #expect(shrunk.spineTexts[0].top - shrunk.spineTexts[0].length >= shrunk.spineTexts[1].top - 1e-6)
        // Too long even at the smallest size: the author goes, then the title is cut to the spine's length.
        let long = String(repeating: "T", count: 200)
        let cut = try #require(CoverPlanner.plan(geometry: cover, front: (10, 10), back: nil, dpi: 300,
                                                 words: CoverWords(measure: measure, title: long, author: "Author")))
        #expect(cut.spineTexts.map(\.role) == [.title])
        #expect(cut.spineTexts[0].text.hasSuffix("…"))
        #expect(cut.spineTexts[0].length <= usable + 1e-6)
        #expect(cut.warnings.contains { $0.contains("author does not fit on the spine") }, "\(cut.warnings)")
        #expect(cut.warnings.contains { $0.contains("title is too long for the spine") }, "\(cut.warnings)")
    }

    @Test func textOverADarkPartIsWhiteAndOverALightPartBlack() {
        // Left half black, right half white; drawn on a 100 x 50 pt rectangle at (10, 20).
        var image = RGBImage(width: 20, height: 10)
        for y in 0..<10 { for x in 0..<10 { let i = (y * 20 + x) * 3; image.pixels[i] = 0; image.pixels[i + 1] = 0; image.pixels[i + 2] = 0 } }
        let drawn = Rect(x: 10, y: 20, width: 100, height: 50)
        #expect(TextShade.gray(for: Rect(x: 15, y: 30, width: 30, height: 10), over: image, drawn: drawn) == 1)
        #expect(TextShade.gray(for: Rect(x: 70, y: 30, width: 30, height: 10), over: image, drawn: drawn) == 0)
        #expect(TextShade.meanLuma(of: Rect(x: 10, y: 20, width: 100, height: 50), in: image, drawn: drawn).map { abs($0 - 0.5) < 1e-9 } == true)
        // Off the photo: paper, so black.
        #expect(TextShade.gray(for: Rect(x: 200, y: 30, width: 30, height: 10), over: image, drawn: drawn) == 0)
    }
}
