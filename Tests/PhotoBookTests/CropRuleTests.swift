import Geometry
import Testing
@testable import PhotoBook

/// The crop rule on plans: where a crop goes once its cell has fixed its size.
struct CropRuleTests {
    /// A face box in fractions of the upright photo, from pixel coordinates of a `width` x `height` photo.
    static func face(_ x: Double, _ y: Double, _ w: Double, _ h: Double, of size: (Double, Double) = (840, 700),
                     kind: PhotoRegion.Kind = .face) -> PhotoRegion {
        PhotoRegion(kind: kind, box: Rect(x: x / size.0, y: y / size.1, width: w / size.0, height: h / size.1))
    }

    /// The Curies, upright: Marie's face x 265...357, y 147...287; Pierre's x 538...622, y 84...252.
    static let curies = [face(264.6, 147, 92.4, 140), face(537.6, 84, 84, 168)]

    static func placed(_ photo: BookPhoto, page: PageSize, crop: CropMode = .auto, dpi: Double = 72) throws -> PlacedPhoto {
        var options = LayoutOptions(pageSize: page, margin: 0, dpi: dpi)
        options.crop = crop
        let plan = try #require(Planner.plan(photos: [photo], options: options))
        return try #require(plan.pages.first?.photos.first)
    }

    static func holds(_ crop: Rect, _ region: PhotoRegion, width: Double = 840, height: Double = 700) -> Bool {
        let box = Rect(x: region.box.x * width, y: region.box.y * height, width: region.box.width * width,
                       height: region.box.height * height)
        return !CropRule.misses(crop, box)
    }

    @Test("a wide page: the centre cuts both faces, the rule keeps both, centred on them")
    func wide() throws {
        let photo = BookPhoto(id: 0, width: 840, height: 700, regions: Self.curies)
        let page = PageSize(width: 300 * Length.pointsPerMillimetre, height: 100 * Length.pointsPerMillimetre)
        let centre = try Self.placed(photo, page: page, crop: .centre)
        #expect(centre.cropSource == .centre && centre.cutsRegion)
        #expect(!Self.holds(centre.crop, Self.curies[0]) && !Self.holds(centre.crop, Self.curies[1]))
        let auto = try Self.placed(photo, page: page)
        #expect(auto.crop.width == centre.crop.width && auto.crop.height == centre.crop.height)
        #expect(auto.cropSource == .regions && !auto.cutsRegion)
        #expect(Self.curies.allSatisfy { Self.holds(auto.crop, $0) })
        // Centred on the union of the faces, y 84...287.
        #expect(abs(auto.crop.y + auto.crop.height / 2 - (84 + 287) / 2) < 1)
    }

    @Test("a narrow page that holds both faces but not from the centre")
    func narrow() throws {
        let photo = BookPhoto(id: 0, width: 840, height: 700, regions: Self.curies)
        let page = PageSize(width: 110 * Length.pointsPerMillimetre, height: 200 * Length.pointsPerMillimetre)
        let centre = try Self.placed(photo, page: page, crop: .centre)
        #expect(Self.holds(centre.crop, Self.curies[0]) && !Self.holds(centre.crop, Self.curies[1]))
        let auto = try Self.placed(photo, page: page)
        #expect(Self.curies.allSatisfy { Self.holds(auto.crop, $0) } && !auto.cutsRegion)
    }

    @Test("too narrow for both: the larger face whole, the other left out rather than cut in two")
    func tooNarrow() throws {
        let photo = BookPhoto(id: 0, width: 840, height: 700, regions: Self.curies)
        let page = PageSize(width: 60 * Length.pointsPerMillimetre, height: 200 * Length.pointsPerMillimetre)
        let auto = try Self.placed(photo, page: page)
        // Pierre's face (84 x 168) is larger than Marie's (92.4 x 140).
        #expect(Self.holds(auto.crop, Self.curies[1]) && auto.cutsRegion)
        let marie = Rect(x: 264.6, y: 147, width: 92.4, height: 140)
        #expect(!CropRule.cuts(auto.crop, marie))
    }

    @Test("a focus point from a description wins over the regions")
    func focusWins() throws {
        var photo = BookPhoto(id: 0, width: 840, height: 700, regions: Self.curies)
        photo.focus = FocusPoint(x: 0.5, y: 0.9)
        let page = PageSize(width: 300 * Length.pointsPerMillimetre, height: 100 * Length.pointsPerMillimetre)
        let placed = try Self.placed(photo, page: page)
        #expect(placed.cropSource == .description && placed.cutsRegion)
        #expect(placed.crop.y + placed.crop.height == 700)
    }

    @Test("no regions: the plan is the centre crop it always was")
    func none() throws {
        let page = PageSize(width: 300 * Length.pointsPerMillimetre, height: 100 * Length.pointsPerMillimetre)
        let placed = try Self.placed(BookPhoto(id: 0, width: 840, height: 700), page: page)
        let centred = Planner.centredCrop(width: 840, height: 700, aspect: page.width / page.height)
        #expect(placed.cropSource == .centre && !placed.cutsRegion)
        #expect(abs(placed.crop.y - centred.y) < 0.5 && placed.crop.x == 0)
    }

    @Test("a photo at its own density keeps whole pixels when the rule moves its crop")
    func wholePixels() throws {
        let photo = BookPhoto(id: 0, width: 840, height: 700, regions: Self.curies)
        let page = PageSize(width: 300 * Length.pointsPerMillimetre, height: 100 * Length.pointsPerMillimetre)
        let placed = try Self.placed(photo, page: page, dpi: 300)
        #expect(placed.crop.width == Double(placed.pixelWidth) && placed.crop.y == placed.crop.y.rounded())
        #expect(Self.curies.allSatisfy { Self.holds(placed.crop, $0) })
    }

    @Test("a focus point without size is kept like a face")
    func focusPoint() throws {
        let point = PhotoRegion(kind: .focus, box: Rect(x: 0.9, y: 0.5, width: 0, height: 0))
        let photo = BookPhoto(id: 0, width: 840, height: 700, regions: [point])
        let page = PageSize(width: 100 * Length.pointsPerMillimetre, height: 200 * Length.pointsPerMillimetre)
        let placed = try Self.placed(photo, page: page)
        #expect(placed.crop.x + placed.crop.width == 840 && !placed.cutsRegion)
    }

    @Test("a spread's halves are cut from one crop placed by the rule: they still meet")
    func spread() throws {
        // A panorama 2100 x 700 with one face near its top; the spread's canvas is wider than 3:1.
        let face = Self.face(1500, 20, 100, 120, of: (2100, 700))
        let photo = BookPhoto(id: 0, width: 2100, height: 700, regions: [face])
        var options = LayoutOptions(pageSize: PageSize(width: 300 * Length.pointsPerMillimetre,
                                                       height: 80 * Length.pointsPerMillimetre), margin: 0, dpi: 72)
        options.spreads = true
        let plan = try #require(Planner.plan(photos: [photo], options: options))
        let halves = plan.pages.flatMap(\.photos)
        #expect(halves.count == 2)
        #expect(abs(halves[0].crop.x + halves[0].crop.width - halves[1].crop.x) < 1e-6)
        #expect(halves[0].crop.y == halves[1].crop.y && halves[0].crop.y < 20)
        #expect(halves.allSatisfy { $0.cropSource == .regions && !$0.cutsRegion })
    }

    @Test("a wrap cover's front photo follows the rule too")
    func cover() throws {
        let geometry = CoverGeometry(panel: PageSize(width: 100 * Length.pointsPerMillimetre,
                                                     height: 300 * Length.pointsPerMillimetre), spine: 20, bleed: 0,
                                     safety: 10)
        let photo = BookPhoto(id: 0, width: 840, height: 700, regions: Self.curies)
        let auto = try #require(CoverPlanner.plan(geometry: geometry, front: photo, back: nil, dpi: 72, words: nil))
        #expect(auto.front.cropSource == .regions)
        #expect(Self.holds(auto.front.crop, Self.curies[1]))
        let centre = try #require(CoverPlanner.plan(geometry: geometry, front: photo, back: nil, dpi: 72, crop: .centre,
                                                    words: nil))
        #expect(centre.front.cropSource == .centre && centre.front.crop != auto.front.crop)
    }
}
