import Geometry
import Imaging
import Testing
@testable import PhotoBook

/// The planner's geometry: one photo per page, centred inside the margins, cropped or fitted, never upsampled.
struct PlannerTests {
    let mm = Length.pointsPerMillimetre
    let tolerance = 1e-6

    @Test func a4DefaultsGiveTheAreaInsideTenMillimetreMargins() throws {
        let plan = try #require(Planner.plan(uprightSizes: [(4000, 3000)], options: LayoutOptions()))
        let page = try #require(plan.pages.first)
        #expect(abs(page.size.width - 595.2756) < 1e-3)
        #expect(abs(page.size.height - 841.8898) < 1e-3)
        let cell = page.photos[0].cell
        #expect(abs(cell.x - 10 * mm) < tolerance && abs(cell.y - 10 * mm) < tolerance)
        #expect(abs(cell.width - 190 * mm) < tolerance && abs(cell.height - 277 * mm) < tolerance)
    }

    @Test func fillCropsALandscapePhotoFromTheCentreToTheCellsAspect() throws {
        let plan = try #require(Planner.plan(uprightSizes: [(4000, 3000)], options: LayoutOptions()))
        let photo = plan.pages[0].photos[0]
        #expect(photo.placement == photo.cell)
        // The cell is 190 x 277 mm, taller than the photo: the full height is kept, the width cropped equally.
        let cropWidth = 3000 * (190.0 / 277.0)
        // (Within a pixel: the crop is trimmed so that its aspect equals the whole-pixel output's.)
        #expect(abs(photo.crop.height - 3000) < 1)
        #expect(abs(photo.crop.width - cropWidth) < 1)
        #expect(abs(photo.crop.x - (4000 - photo.crop.width) / 2) < 1e-6)
        #expect(abs(photo.crop.y - (3000 - photo.crop.height) / 2) < 1e-6)
        // 300 dpi over 190 mm is 2244 px; the crop holds 2058 px: never upsampled, so the crop's own pixels.
        #expect(photo.pixelWidth == Int(cropWidth.rounded()))
        #expect(photo.pixelHeight == 3000)
        #expect(photo.effectiveDPI < 300)
    }

    @Test func fillDownsamplesALargePhotoToTheTargetDensity() throws {
        let plan = try #require(Planner.plan(uprightSizes: [(6000, 8000)], options: LayoutOptions()))
        let photo = plan.pages[0].photos[0]
        let targetWidth = 190 / 25.4 * 300, targetHeight = 277 / 25.4 * 300
        #expect(abs(Double(photo.pixelWidth) - targetWidth) <= 1)
        #expect(abs(Double(photo.pixelHeight) - targetHeight) <= 1)
        #expect(abs(photo.effectiveDPI - 300) < 0.5)
        // The crop keeps the pixels' aspect exactly: nothing is stretched.
        let cropAspect = photo.crop.width / photo.crop.height
        #expect(abs(cropAspect - Double(photo.pixelWidth) / Double(photo.pixelHeight)) < 1e-9)
        #expect(abs(photo.crop.x + photo.crop.width / 2 - 3000) < 1e-6, "centred horizontally")
        #expect(abs(photo.crop.y + photo.crop.height / 2 - 4000) < 1e-6, "centred vertically")
    }

    @Test func fitShowsTheWholePhotoCentredInTheCell() throws {
        var options = LayoutOptions()
        options.fit = .fit
        let plan = try #require(Planner.plan(uprightSizes: [(4000, 3000)], options: options))
        let photo = plan.pages[0].photos[0]
        #expect(photo.crop == Rect(x: 0, y: 0, width: 4000, height: 3000))
        // Full width of the cell, height by the photo's aspect, centred vertically.
        #expect(abs(photo.placement.width - 190 * mm) < tolerance)
        #expect(abs(photo.placement.height - 190 * mm * 0.75) < tolerance)
        #expect(abs(photo.placement.x - photo.cell.x) < tolerance)
        let top = photo.cell.y + photo.cell.height - (photo.placement.y + photo.placement.height)
        #expect(abs(top - (photo.placement.y - photo.cell.y)) < tolerance)
        #expect(abs(Double(photo.pixelWidth) - 190 / 25.4 * 300) <= 1)
        #expect(abs(Double(photo.pixelHeight) / Double(photo.pixelWidth) - 0.75) < 1e-3)
    }

    @Test func fitOfATallPhotoOnAWidePageIsLimitedByHeight() throws {
        let options = LayoutOptions(pageSize: PageSize(width: 800, height: 400), margin: 0, dpi: 72, fit: .fit)
        let plan = try #require(Planner.plan(uprightSizes: [(1000, 2000)], options: options))
        let photo = plan.pages[0].photos[0]
        #expect(photo.placement == Rect(x: 300, y: 0, width: 200, height: 400))
        #expect(photo.pixelWidth == 200 && photo.pixelHeight == 400)
    }

    @Test func aSmallPhotoKeepsItsPixelsAndReportsItsLowerDensity() throws {
        let options = LayoutOptions(pageSize: PageSize(width: 720, height: 720), margin: 0, dpi: 300, fit: .fill)
        let plan = try #require(Planner.plan(uprightSizes: [(500, 500)], options: options))
        let photo = plan.pages[0].photos[0]
        #expect(photo.pixelWidth == 500 && photo.pixelHeight == 500)
        #expect(abs(photo.effectiveDPI - 50) < 1e-9)
    }

    @Test(arguments: [(4000, 3000), (3000, 4000), (1, 1), (1, 5000), (5000, 1), (2481, 3508), (17, 9)])
    func everyPlacementStaysInsideThePhotoAndThePage(width: Int, height: Int) throws {
        for fit in FitMode.allCases {
            for page in [PageSize.a4, .a3, .letter, PageSize(width: 566.93, height: 566.93)] {
                let options = LayoutOptions(pageSize: page, margin: 20, dpi: 300, fit: fit)
                let photo = try #require(Planner.plan(uprightSizes: [(width, height)], options: options)).pages[0].photos[0]
                #expect(photo.crop.x >= -1e-9 && photo.crop.y >= -1e-9)
                #expect(photo.crop.x + photo.crop.width <= Double(width) + 1e-9)
                #expect(photo.crop.y + photo.crop.height <= Double(height) + 1e-9)
                #expect(photo.pixelWidth >= 1 && photo.pixelHeight >= 1)
                #expect(Double(photo.pixelWidth) <= photo.crop.width.rounded() + 1e-9, "never upsampled")
                #expect(photo.placement.x >= photo.cell.x - 1e-9)
                #expect(photo.placement.x + photo.placement.width <= photo.cell.x + photo.cell.width + 1e-9)
                #expect(photo.placement.y + photo.placement.height <= photo.cell.y + photo.cell.height + 1e-9)
            }
        }
    }

    @Test func onePagePerPhotoInOrder() throws {
        let plan = try #require(Planner.plan(uprightSizes: [(10, 20), (30, 40), (50, 60)], options: LayoutOptions()))
        #expect(plan.pages.map { $0.photos.map(\.photo) } == [[0], [1], [2]])
    }

    @Test func keepOriginalsNeverResamplesAndMapsTheCropOntoTheCell() throws {
        let options = LayoutOptions(pageSize: PageSize(width: 400, height: 400), margin: 0, dpi: 72, fit: .fill,
                                    keepOriginals: true)
        let photo = try #require(Planner.plan(uprightSizes: [(4000, 2000)], options: options)).pages[0].photos[0]
        #expect(photo.crop == Rect(x: 1000, y: 0, width: 2000, height: 2000))
        #expect(photo.pixelWidth == 2000 && photo.pixelHeight == 2000, "its own pixels, not 400x400")
        #expect(!photo.usesWholePhoto(uprightWidth: 4000, uprightHeight: 2000))
        // The whole photo drawn at 0.2 pt per pixel, shifted left so that its centre square lands on the page.
        #expect(photo.wholePhotoRect(uprightWidth: 4000, uprightHeight: 2000) == Rect(x: -200, y: 0, width: 800, height: 400))
    }

    @Test func wholePhotoRectOfAVerticalCropCountsFromTheTop() throws {
        let options = LayoutOptions(pageSize: PageSize(width: 300, height: 100), margin: 0, dpi: 72, fit: .fill,
                                    keepOriginals: true)
        let photo = try #require(Planner.plan(uprightSizes: [(300, 400)], options: options)).pages[0].photos[0]
        #expect(photo.crop == Rect(x: 0, y: 150, width: 300, height: 100))
        // 1 pt per pixel; the photo's top is 150 pt above the page's top edge.
        #expect(photo.wholePhotoRect(uprightWidth: 300, uprightHeight: 400) == Rect(x: 0, y: -150, width: 300, height: 400))
    }

    @Test func aWholePhotoAtItsOwnSizeNeedsNoPixelWork() throws {
        let options = LayoutOptions(pageSize: .a4, margin: 0, dpi: 300, fit: .fit)
        let photo = try #require(Planner.plan(uprightSizes: [(1200, 1800)], options: options)).pages[0].photos[0]
        #expect(photo.usesWholePhoto(uprightWidth: 1200, uprightHeight: 1800))
        let big = try #require(Planner.plan(uprightSizes: [(6000, 9000)], options: options)).pages[0].photos[0]
        #expect(!big.usesWholePhoto(uprightWidth: 6000, uprightHeight: 9000), "too dense: resampled")
    }

    @Test func marginsThatLeaveNoRoomGiveNoPlan() {
        let options = LayoutOptions(pageSize: .a5, margin: 80 * mm)
        #expect(Planner.plan(uprightSizes: [(10, 10)], options: options) == nil)
    }
}

struct PageSizeTests {
    @Test(arguments: [
        ("a4", 595.276, 841.890), ("A3", 841.890, 1190.551), ("a5", 419.528, 595.276),
        ("letter", 612, 792), ("legal", 612, 1008), ("200x200mm", 566.929, 566.929),
        ("20x30cm", 566.929, 850.394), ("8x10in", 576, 720), ("600x800pt", 600, 800), ("8.5X11IN", 612, 792),
    ])
    func parses(text: String, width: Double, height: Double) throws {
        let size = try #require(PageSize(parsing: text))
        #expect(abs(size.width - width) < 1e-3 && abs(size.height - height) < 1e-3)
    }

    @Test(arguments: ["", "a6", "200x200", "x200mm", "200xmm", "0x10mm", "-5x10mm", "10x10km", "nanxnanmm", "inf x 2in"])
    func rejects(text: String) {
        #expect(PageSize(parsing: text) == nil)
    }

    @Test func lengths() {
        #expect(Length.points(parsing: "10mm").map { abs($0 - 28.3465) < 1e-3 } == true)
        #expect(Length.points(parsing: "1in") == 72)
        #expect(Length.points(parsing: "12pt") == 12)
        #expect(Length.points(parsing: "0") == 0)
        #expect(Length.points(parsing: "-1mm") == nil)
        #expect(Length.points(parsing: "ten") == nil)
    }
}

struct NaturalOrderTests {
    @Test func numbersCompareByValue() {
        let names = ["img10.jpg", "img2.jpg", "IMG1.jpg", "img1b.jpg", "img02.jpg", "a.jpg", "img100.jpg"]
        #expect(names.sorted(by: NaturalOrder.less) == ["a.jpg", "IMG1.jpg", "img1b.jpg", "img2.jpg", "img02.jpg", "img10.jpg", "img100.jpg"])
    }

    @Test func isAStrictOrder() {
        let names = ["x", "X", "x1", "x01", "x001", "", "1", "01", "é", "e"]
        for a in names {
            #expect(!NaturalOrder.less(a, a))
            for b in names where a != b {
                #expect(NaturalOrder.less(a, b) != NaturalOrder.less(b, a), "\(a) vs \(b)")
            }
        }
    }
}
