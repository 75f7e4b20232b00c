import Geometry
import Imaging
import Testing
@testable import PhotoBook

/// Spreads as the planner makes them: a panorama's two halves on a left-hand page and the right-hand page after
/// it, cut from one picture so that they meet exactly at the spine, each with its own bleed.
struct SpreadPlanTests {
    let mm = Length.pointsPerMillimetre
    static let panorama = (width: 3600, height: 1200)
    static let landscape = (width: 3000, height: 2000)
    static let portrait = (width: 2000, height: 3000)

    static func options(_ mode: LayoutMode = .single, bleed: Double = 0, binding: Double = 0) -> LayoutOptions {
        var options = LayoutOptions()
        options.mode = mode
        options.spreads = true
        options.bleed = bleed
        options.binding = binding
        return options
    }

    /// Every spread starts on an even page and ends on the odd one after it, with the same photo; every photo is
    /// in the book, a panorama on exactly two pages and any other photo on one.
    static func checkSpreads(_ plan: BookPlan, sizes: [(width: Int, height: Int)], cover: Int? = nil,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        var seen: [Int: [Int]] = [:]
        for (offset, page) in plan.pages.enumerated() {
            #expect(page.number == offset + 1, sourceLocation: sourceLocation)
            for photo in page.photos { seen[photo.photo.index, default: []].append(page.number) }
            switch page.spread {
            case .left?:
                #expect(page.number % 2 == 0, "spread starts on page \(page.number)", sourceLocation: sourceLocation)
                let next = plan.pages[offset + 1]
                #expect(next.spread == .right && next.photos.map(\.photo) == page.photos.map(\.photo),
                        sourceLocation: sourceLocation)
            case .right?:
                #expect(offset > 0 && plan.pages[offset - 1].spread == .left, sourceLocation: sourceLocation)
            case nil:
                for photo in page.photos {
                    #expect(!Spreads.isPanorama(width: sizes[photo.photo.index].width,
                                                height: sizes[photo.photo.index].height),
                            "a panorama on page \(page.number) outside a spread", sourceLocation: sourceLocation)
                }
            }
        }
        for index in sizes.indices where index != cover {
            let panorama = Spreads.isPanorama(width: sizes[index].width, height: sizes[index].height)
            #expect(seen[index]?.count == (panorama ? 2 : 1), "photo \(index) on pages \(seen[index] ?? [])",
                    sourceLocation: sourceLocation)
        }
    }

    /// Books of every mix: each is checked for the parity of its spreads, with and without a title page.
    @Test(arguments: [LayoutMode.single, .grid(columns: 2, rows: 2), .grid(columns: 3, rows: 1), .auto])
    func everySpreadStartsOnALeftHandPage(mode: LayoutMode) throws {
        let p = Self.panorama, l = Self.landscape, t = Self.portrait
        let books: [[(width: Int, height: Int)]] = [
            [p], [l, p], [p, l], [l, l, p], [p, p, l], [l, p, p, l, l, p], [t, p, l, t, p, l, l, p],
            [p, l, l, l, l, l, p, t, t, p], [l, l, l, p, l, p, p],
        ]
        for sizes in books {
            for title in [false, true] {
                let text = title ? BookText(measure: FixedMeasure(), title: BookText.Title(title: "T")) : nil
                let plan = try #require(Planner.plan(uprightSizes: sizes, options: Self.options(mode), text: text))
                Self.checkSpreads(plan, sizes: sizes)
                #expect(title == (plan.pages.first?.arrangement == "title"))
            }
        }
    }

    /// Without a panorama, `--spreads` changes nothing: the same pages as a book without it.
    @Test(arguments: [LayoutMode.single, .grid(columns: 2, rows: 2), .auto])
    func booksWithoutPanoramasAreUnchanged(mode: LayoutMode) throws {
        let sizes = [Self.landscape, Self.portrait, (1999, 1000), Self.landscape, Self.portrait, (1000, 1000)]
        var options = Self.options(mode, bleed: 3 * mm, binding: 10 * mm)
        let text = BookText(measure: FixedMeasure(), pageNumbers: true, facingPages: true)
        let photos = BookPhoto.numbered(sizes, captions: ["one", nil, "three", nil, "five", nil])
        let with = try #require(Planner.plan(photos: photos, options: options, text: text))
        options.spreads = false
        let without = try #require(Planner.plan(photos: photos, options: options, text: text))
        #expect(with == without)
    }

    /// auto never leaves a blank page that another grouping avoids: two photos share the first page so that the
    /// panorama after them starts on page 2, though apart they would crop less.
    @Test func autoGroupsPhotosRatherThanLeaveABlankPage() throws {
        let sizes = [Self.portrait, Self.portrait, Self.panorama]
        var options = Self.options(.auto)
        options.spreads = false
        let apart = try #require(Planner.plan(uprightSizes: Array(sizes.prefix(2)), options: options))
        #expect(apart.pages.count == 2, "without the panorama the portraits take a page each")
        options.spreads = true
        let plan = try #require(Planner.plan(uprightSizes: sizes, options: options))
        Self.checkSpreads(plan, sizes: sizes)
        #expect(plan.pages.map(\.arrangement) == ["[1 | 2]", "spread, left half", "spread, right half"])
        #expect(plan.spreadBlanks.isEmpty)
        // Three photos can take pages 1 to 3 on their own, and do: the panorama starts on page 4.
        let three = try #require(Planner.plan(uprightSizes: [Self.portrait, Self.portrait, Self.portrait, Self.panorama],
                                              options: options))
        #expect(three.pages.count == 5 && three.pages[3].spread == .left && three.spreadBlanks.isEmpty)
    }

    /// Over many mixes, in sections or not, auto leaves exactly as few blank pages as the best grouping of its
    /// photos can (found here by trying every way of cutting each section's photos into pages of 1 to 4).
    @Test(arguments: [false, true])
    func autoLeavesTheFewestBlankPages(sections: Bool) throws {
        var seed: UInt64 = 0x5EED
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 33 }
        for _ in 0..<60 {
            let count = 1 + Int(next() % 9)
            let sizes = (0..<count).map { _ in next() % 3 == 0 ? Self.panorama : next() % 2 == 0 ? Self.landscape : Self.portrait }
            let panoramic = sizes.map { Spreads.isPanorama(width: $0.width, height: $0.height) }
            // Runs of one heading: a page never holds photos of two sections.
            var headings: [String?] = []
            for _ in 0..<count { headings.append(sections && next() % 3 == 0 ? "day \(headings.count)" : headings.last ?? "day 0") }
            // fewest(i, page): blanks needed for photos i... when the next page is `page`.
            var memo: [Int: Int] = [:]
            func fewest(_ i: Int, _ page: Int) -> Int {
                if i == count { return 0 }
                if let known = memo[i * 2 + page % 2] { return known }
                var result: Int
                if panoramic[i] {
                    result = page % 2 == 0 ? fewest(i + 1, page + 2) : 1 + fewest(i + 1, page + 3)
                } else {
                    result = Int.max
                    for n in 1...4 where i + n <= count && !panoramic[i..<i + n].contains(true)
                        && Set(headings[i..<i + n].map { $0 ?? "" }).count == 1 {
                        result = min(result, fewest(i + n, page + 1))
                    }
                }
                memo[i * 2 + page % 2] = result
                return result
            }
            let text = BookText(measure: FixedMeasure())
            let photos = BookPhoto.numbered(sizes, headings: sections ? headings : [])
            let plan = try #require(Planner.plan(photos: photos, options: Self.options(.auto), text: text))
            Self.checkSpreads(plan, sizes: sizes)
            #expect(plan.spreadBlanks.count == fewest(0, 1), "\(panoramic) \(headings)")
            #expect(plan.pages.filter { $0.arrangement == "blank" }.count == plan.spreadBlanks.count)
        }
    }

    /// When nothing can fill a right-hand page, one blank page is left, and the plan says which.
    @Test(arguments: [LayoutMode.single, .grid(columns: 2, rows: 2), .auto])
    func aBlankPageOnlyWhenNothingElseWorks(mode: LayoutMode) throws {
        let alone = try #require(Planner.plan(uprightSizes: [Self.panorama], options: Self.options(mode)))
        #expect(alone.pages.map(\.arrangement) == ["blank", "spread, left half", "spread, right half"])
        #expect(alone.spreadBlanks == [SpreadBlank(page: 1, photo: 0)])
        // A photo after the panorama is there to take page 1 in single and grid (it moves ahead of it); auto keeps
        // the order, so it needs the blank.
        let two = try #require(Planner.plan(uprightSizes: [Self.panorama, Self.landscape], options: Self.options(mode)))
        Self.checkSpreads(two, sizes: [Self.panorama, Self.landscape])
        if mode == .auto {
            #expect(two.spreadBlanks == [SpreadBlank(page: 1, photo: 0)] && two.pages.count == 4)
        } else {
            #expect(two.spreadBlanks.isEmpty && two.pages.count == 3)
            #expect(two.pages[0].photos.map(\.photo) == [1])
        }
    }

    /// In sections, a panorama waits only for photos of its own section: the last one of a section that would
    /// start on a right-hand page gets a blank page, and the next section starts after its spread.
    @Test func inSectionsAPanoramaWaitsForItsOwnPhotosOnly() throws {
        let l = Self.landscape, p = Self.panorama
        let sizes = [l, l, p, p, l, l]
        let text = BookText(measure: FixedMeasure())
        let photos = BookPhoto.numbered(sizes, headings: ["A", "A", "A", "B", "B", "B"])
        let plan = try #require(Planner.plan(photos: photos, options: Self.options(.single), text: text))
        Self.checkSpreads(plan, sizes: sizes)
        // A: l, l on pages 1-2, its panorama due on page 3 with no photo of A left: blank, spread on 4-5.
        // B: its panorama due on page 6, a left-hand page: no wait.
        #expect(plan.pages.map { $0.photos.map(\.photo) } == [[0], [1], [], [2], [2], [3], [3], [4], [5]])
        #expect(plan.spreadBlanks == [SpreadBlank(page: 3, photo: 2)])
        #expect(plan.pages[5].heading == "B" && plan.pages[5].spread == .left)
    }

    /// In a grid, a panorama waits while the photos after it fill the page it came on.
    @Test func inAGridAPanoramaWaitsForThePageToFill() throws {
        let l = Self.landscape, p = Self.panorama
        let sizes = [l, l, p, l, l, l, l]
        let plan = try #require(Planner.plan(uprightSizes: sizes, options: Self.options(.grid(columns: 2, rows: 2))))
        Self.checkSpreads(plan, sizes: sizes)
        #expect(plan.pages.map { $0.photos.map(\.photo) } == [[0, 1, 3, 4], [2], [2], [5, 6]])
        #expect(plan.pages.map(\.arrangement) == ["grid 2x2", "spread, left half", "spread, right half", "grid 2x2"])
    }

    /// The two halves are one picture: the same scale, the same rows of the photo, and at the spine the left trim
    /// ends on the very column the right trim starts; each page's spine-side bleed shows what continues on the
    /// other page, and the picture covers both pages, bleed and all.
    @Test(arguments: [(0.0, 0.0), (3.0, 0.0), (3.0, 15.0), (0.0, 15.0)])
    func theHalvesMeetExactlyAtTheSpine(bleedMM: Double, bindingMM: Double) throws {
        for size in [Self.panorama, (width: 5000, height: 1000), (width: 2400, height: 1200), (width: 20000, height: 1500)] {
            let options = Self.options(.single, bleed: bleedMM * mm, binding: bindingMM * mm)
            let plan = try #require(Planner.plan(uprightSizes: [(1000, 1000), size], options: options))
            let left = try #require(plan.pages.first { $0.spread == .left }), right = plan.pages[left.number]
            #expect(left.number == 2)
            let l = try #require(left.photos.first), r = try #require(right.photos.first)
            let b = options.bleed, w = options.pageSize.width, media = options.mediaSize
            for half in [l, r] {
                #expect(half.placement == Rect(x: 0, y: 0, width: media.width, height: media.height))
                #expect(half.cell == half.placement)
                #expect(half.crop.x >= 0 && half.crop.x + half.crop.width <= Double(size.width) + 1e-9)
                #expect(half.crop.y >= 0 && half.crop.y + half.crop.height <= Double(size.height) + 1e-9)
            }
            #expect(left.trimBox == options.trimBox && right.trimBox == options.trimBox)
            let scale = l.crop.width / l.placement.width
            #expect(abs(r.crop.width / r.placement.width - scale) < 1e-12)
            #expect(l.crop.y == r.crop.y && l.crop.height == r.crop.height)
            #expect(l.pixelWidth == r.pixelWidth && l.pixelHeight == r.pixelHeight && l.cropShare == r.cropShare)
            // The spine in the photo, seen from each page.
            let spineFromLeft = l.crop.x + (b + w) * scale
            let spineFromRight = r.crop.x + b * scale
            #expect(abs(spineFromLeft - spineFromRight) < 1e-9, "\(spineFromLeft) vs \(spineFromRight)")
            // Each half reaches over the spine by exactly one bleed: the strip the other page starts (or ends) with.
            #expect(abs(l.crop.x + l.crop.width - (spineFromLeft + b * scale)) < 1e-9)
            #expect(abs(r.crop.x - (spineFromLeft - b * scale)) < 1e-9)
            // The picture is centred in the photo: as much cut from the left as from the right.
            #expect(abs(l.crop.x - (Double(size.width) - r.crop.x - r.crop.width)) < 1e-6)
        }
    }

    /// Pixel sizes follow the target density and never upsample.
    @Test func theHalvesAreRenderedAtTheTargetDensity() throws {
        var options = Self.options()
        options.dpi = 150
        let plan = try #require(Planner.plan(uprightSizes: [(1, 1), (20000, 4000)], options: options))
        let half = try #require(plan.pages[1].photos.first)
        #expect(abs(half.effectiveDPI - 150) < 0.5)
        let small = try #require(Planner.plan(uprightSizes: [(1, 1), (900, 300)], options: options))
        let smallHalf = try #require(small.pages[1].photos.first)
        #expect(abs(Double(smallHalf.pixelWidth) - smallHalf.crop.width) < 1, "never more pixels than the crop holds")
    }

    /// A caption goes on the right-hand page; the picture stops above its band on both pages.
    @Test func aCaptionedSpreadKeepsItsHalvesLevel() throws {
        let options = Self.options(.single, bleed: 3 * mm, binding: 10 * mm)
        let text = BookText(measure: FixedMeasure(), pageNumbers: true, facingPages: true)
        let photos = BookPhoto.numbered([Self.landscape, Self.panorama], captions: [nil, "A long way round"])
        let plan = try #require(Planner.plan(photos: photos, options: options, text: text))
        let left = plan.pages[1], right = plan.pages[2]
        #expect(left.spread == .left && right.spread == .right)
        #expect(left.texts.isEmpty, "no caption and no number on the left half")
        #expect(right.texts.map(\.role) == [.caption])
        let caption = try #require(right.texts.first)
        let area = try #require(options.area(onPage: 3))
        #expect(caption.box.x == area.x && caption.box.width == area.width && caption.box.y == area.y)
        let l = left.photos[0], r = right.photos[0]
        #expect(l.placement.y == r.placement.y && l.placement.height == r.placement.height)
        #expect(l.placement.y > caption.box.y + caption.box.height)
        #expect(l.placement.y + l.placement.height == options.mediaSize.height, "still bleeds at the top")
        // The page before and after keep their numbers, in the outer corners.
        #expect(plan.pages[0].texts.contains { $0.role == .pageNumber })
    }

    /// A section that starts with a panorama puts its heading on the spread's left page, the picture under it.
    @Test func aHeadingSitsOverTheSpread() throws {
        let options = Self.options(.auto)
        let text = BookText(measure: FixedMeasure(), title: BookText.Title(title: "T"))
        let photos = BookPhoto.numbered([Self.panorama, Self.landscape], headings: ["Alps", "Alps"])
        let plan = try #require(Planner.plan(photos: photos, options: options, text: text))
        let left = plan.pages[1]
        #expect(left.spread == .left && left.heading == "Alps")
        let heading = try #require(left.texts.first { $0.role == .heading })
        #expect(left.photos[0].placement.y + left.photos[0].placement.height < heading.box.y)
        #expect(plan.pages[2].photos[0].placement.height == left.photos[0].placement.height)
    }

    /// With `--fit fit` the whole panorama shows, centred on the spine, within both pages' outer margins.
    @Test func fitShowsTheWholePanorama() throws {
        var options = Self.options(.single, bleed: 3 * mm)
        options.fit = .fit
        let size = (width: 8000, height: 1000)
        let plan = try #require(Planner.plan(uprightSizes: [(1000, 1000), size], options: options))
        let l = plan.pages[1].photos[0], r = plan.pages[2].photos[0]
        #expect(l.crop.x == 0 && abs(r.crop.x + r.crop.width - 8000) < 1e-9 && l.cropShare == 0)
        #expect(abs(l.placement.x - (options.bleed + options.margin)) < 1e-9)
        #expect(abs(r.placement.x + r.placement.width - (options.bleed + options.pageSize.width - options.margin)) < 1e-9)
        #expect(abs(l.placement.x + l.placement.width - options.mediaSize.width) < 1e-9, "reaches over the spine")
        #expect(r.placement.x == 0)
    }

    /// Two ways to end a section that tie (same blanks, same cost) must give the same book in every run: the
    /// sides were once compared in a Dictionary's order, which its seeded hashing changes from one dictionary to
    /// the next (64 tries see both orders).
    @Test func aTieBetweenTwoEndingsIsBrokenTheSameWayEveryTime() {
        let section = Section(photos: [], heading: nil, firstArea: nil)
        for _ in 0..<64 {
            let steps = Spreads.choose([section], firstPage: 1) { _, _ in
                [Spreads.Ending(nextSide: 1, blanks: 0, cost: 2, steps: [.spread(1)]),
                 Spreads.Ending(nextSide: 0, blanks: 0, cost: 2, steps: [.spread(0)])]
            }
            #expect(steps == [[.spread(0)]])
        }
    }
}
