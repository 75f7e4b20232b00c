import Imaging

/// A rectangle on a page, in points, with the origin at the page's bottom-left corner (PDF's convention).
public struct Rect: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// How a photo meets its cell.
public enum FitMode: String, Sendable, CaseIterable {
    /// Cover the whole cell and crop the overflow equally from both sides (aspect-fill, centre crop).
    case fill
    /// Show the whole photo, as large as the cell allows, centred.
    case fit
}

/// The page geometry the planner needs.
public struct LayoutOptions: Sendable, Equatable {
    public var pageSize: PageSize
    /// Blank border on every side, in points.
    public var margin: Double
    /// Target density of the printed photos, in pixels per inch.
    public var dpi: Double
    public var fit: FitMode
    /// Never resample: every photo keeps its own pixels, whatever density that gives.
    public var keepOriginals: Bool
    /// How photos are shared out over pages.
    public var mode: LayoutMode
    /// The space between two cells, in points.
    public var gap: Double
    /// The most photos an automatic layout puts on one page.
    public var maxPerPage: Int
    /// How far photos that touch the trim edge run past it, in points; the PDF page grows by this on every side.
    public var bleed: Double = 0
    /// How far inside the trim edge text must stay, in points; nil for the margin.
    public var safety: Double?
    /// An inside margin on the spine side of each page, in points: page 1 is a right-hand page, so odd pages have
    /// it on the left and even pages on the right. Books with a binding have facing pages.
    public var binding: Double = 0
    /// Blank pages are added at the end to make the page count a multiple of this.
    public var padTo: Int = 1
    /// Trim marks outside the bleed: the PDF page grows by `CropMarks.room` on every side (see CropMarks.swift).
    public var cropMarks = false
    /// A panorama (upright, at least twice as wide as tall) crosses the gutter of a left-hand (even) page and the
    /// right-hand page after it (`Spreads`). Pages face (page 1 on the right) even without a binding.
    public var spreads = false

    /// The PDF page: the trim size plus, on every side, the trim's offset on it (bleed and room for marks).
    public var mediaSize: PageSize {
        PageSize(width: pageSize.width + 2 * trimOffset, height: pageSize.height + 2 * trimOffset)
    }
    /// Where the sheet is cut, on the PDF page.
    public var trimBox: Rect { Rect(x: trimOffset, y: trimOffset, width: pageSize.width, height: pageSize.height) }
    /// What must survive the cut: the trim less the safety margin.
    public var artBox: Rect {
        let inset = safety ?? margin
        return Rect(x: trimOffset + inset, y: trimOffset + inset, width: pageSize.width - 2 * inset,
                    height: pageSize.height - 2 * inset)
    }

    public init(pageSize: PageSize = .a4, margin: Double = 10 * Length.pointsPerMillimetre,
                dpi: Double = 300, fit: FitMode = .fill, keepOriginals: Bool = false, mode: LayoutMode = .single,
                gap: Double = 4 * Length.pointsPerMillimetre, maxPerPage: Int = 4) {
        self.pageSize = pageSize
        self.margin = margin
        self.dpi = dpi
        self.fit = fit
        self.keepOriginals = keepOriginals
        self.mode = mode
        self.gap = gap
        self.maxPerPage = maxPerPage
    }

    /// The smallest side, in points, of the area a photo can have inside the margins: as small as PDF lets a page
    /// be, so that no photo is drawn smaller than a page could be.
    public static let minimumContentSide = PageSize.sideRange.lowerBound

    /// The widest margin that still leaves `minimumContentSide` points inside it, on this page.
    public var largestMargin: Double {
        max(0, (min(pageSize.width, pageSize.height) - Self.minimumContentSide) / 2)
    }

    /// The area inside the margins, or nil when the margins (or a page or margin that is not a finite size)
    /// leave no room for a photo.
    public var contentArea: Rect? {
        guard pageSize.width.isFinite, pageSize.height.isFinite, margin.isFinite, margin >= 0, bleed.isFinite,
              bleed >= 0 else { return nil }
        guard binding.isFinite, binding >= 0 else { return nil }
        let width = pageSize.width - 2 * margin - binding
        let height = pageSize.height - 2 * margin
        guard width >= Self.minimumContentSide, height >= Self.minimumContentSide else { return nil }
        // A left-hand page's area: the binding is on its right. Right-hand pages move it over (`area(onPage:)`).
        return Rect(x: trimOffset + margin, y: trimOffset + margin, width: width, height: height)
    }

    /// The area inside the margins on page `number` (1-based): on a right-hand (odd) page the binding is on the left.
    public func area(onPage number: Int) -> Rect? {
        guard var area = contentArea else { return nil }
        if number % 2 == 1 { area.x += binding }
        return area
    }

    /// What makes these options impossible to print, or nil when a book can be made with them. The command line
    /// checks this before any photo is read, so a bad value never costs a decode.
    public var problem: LayoutProblem? {
        if !pageSize.isWithinPDFLimits || !mediaSize.isWithinPDFLimits { return .pageSizeOutOfRange }
        if let safety, !(safety >= 0 && safety.isFinite && 2 * safety < min(pageSize.width, pageSize.height)) {
            return .safetyLeavesNoRoom
        }
        if !(dpi.isFinite && dpi > 0) { return .dpiNotPositive }
        guard let area = contentArea else {
            var unbound = self
            unbound.binding = 0
            if binding != 0, unbound.contentArea != nil {
                return .bindingLeavesNoRoom(largest: max(0, pageSize.width - 2 * margin - Self.minimumContentSide))
            }
            return .marginLeavesNoRoom(largest: largestMargin)
        }
        guard gap.isFinite, gap >= 0 else { return .gapLeavesNoRoom(largest: 0) }
        if case .grid(let columns, let rows) = mode {
            guard columns >= 1, rows >= 1 else { return .gridEmpty }
            if PageLayouts.gridCells(columns: columns, rows: rows, area: area, gap: gap) == nil {
                let side = LayoutOptions.minimumContentSide
                let largest = min(columns > 1 ? (area.width - side * Double(columns)) / Double(columns - 1) : .infinity,
                                  rows > 1 ? (area.height - side * Double(rows)) / Double(rows - 1) : .infinity)
                return largest >= 0 ? .gapLeavesNoRoom(largest: largest) : .gridTooFine
            }
        }
        if !(1...AutoLayout.maxPerPageLimit).contains(maxPerPage) { return .maxPerPageOutOfRange }
        if !(1...LayoutLimits.padTo).contains(padTo) { return .padToOutOfRange }
        return nil
    }
}

/// Why a set of layout options cannot make a book.
public enum LayoutProblem: Sendable, Equatable {
    /// A side of the page is outside `PageSize.sideRange`.
    case pageSizeOutOfRange
    /// The target density is zero, negative or not a number.
    case dpiNotPositive
    /// The margins leave less than `LayoutOptions.minimumContentSide` for the photo; `largest` is the widest
    /// margin that would leave enough.
    case marginLeavesNoRoom(largest: Double)
    /// The gaps between a grid's cells leave less than `LayoutOptions.minimumContentSide` for a cell; `largest`
    /// is the widest gap that would leave enough.
    case gapLeavesNoRoom(largest: Double)
    /// A grid of no columns or no rows.
    case gridEmpty
    /// More columns or rows than the area inside the margins can hold at `LayoutOptions.minimumContentSide` each,
    /// even with no gap.
    case gridTooFine
    /// `maxPerPage` outside 1 to `AutoLayout.maxPerPageLimit`.
    case maxPerPageOutOfRange
    /// A safety margin of half the page or more.
    case safetyLeavesNoRoom
    /// `padTo` outside 1 to `LayoutLimits.padTo`.
    case padToOutOfRange
    /// The binding leaves less than `LayoutOptions.minimumContentSide` across the page; `largest` would not.
    case bindingLeavesNoRoom(largest: Double)
}

/// Where one photo goes and what pixels it needs.
public struct PlacedPhoto: Sendable, Equatable {
    /// Index of the photo in the planner's input.
    public var photoIndex: Int
    /// The cell the photo belongs to.
    public var cell: Rect
    /// Where the image is drawn: the cell itself for `.fill`, the fitted rectangle for `.fit`.
    public var placement: Rect
    /// The part of the upright photo that is shown, in its full-resolution pixels.
    public var crop: SourceRect
    /// Pixel size of the image embedded in the PDF: the target density, never more than the crop holds.
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// The share of the photo's area that the crop leaves out, 0 to 1.
    public var cropShare: Double

    /// Pixels per inch the photo is printed at; below the target when the photo is small.
    public var effectiveDPI: Double { Double(pixelWidth) / (placement.width / 72) }

    /// True when the embedded pixels are exactly the photo's own: nothing cropped, nothing resampled.
    public func usesWholePhoto(uprightWidth: Int, uprightHeight: Int) -> Bool {
        crop == SourceRect(x: 0, y: 0, width: Double(uprightWidth), height: Double(uprightHeight))
            && pixelWidth == uprightWidth && pixelHeight == uprightHeight
    }

    /// Where the whole upright photo lands on the page when it is drawn at the plan's scale, its crop exactly on
    /// `placement`; parts outside `placement` are to be clipped.
    public func wholePhotoRect(uprightWidth: Int, uprightHeight: Int) -> Rect {
        let scaleX = placement.width / crop.width, scaleY = placement.height / crop.height
        let top = placement.y + placement.height + crop.y * scaleY
        return Rect(x: placement.x - crop.x * scaleX, y: top - Double(uprightHeight) * scaleY,
                    width: Double(uprightWidth) * scaleX, height: Double(uprightHeight) * scaleY)
    }
}

/// One page of the book: its size, the photos on it in reading order, and its text.
public struct PlannedPage: Sendable, Equatable {
    public var size: PageSize
    public var photos: [PlacedPhoto]
    /// How the photos share the page (`single`, `grid 2x2`, `[1 / [2 | 3]]`, `title`), for listings and reports.
    public var arrangement: String
    /// Captions, titles, the page number: real text, set in the book's font.
    public var texts: [PlacedText] = []
    /// The number a printer gives the page (the title page counts, unprinted), and whether it is printed.
    public var number: Int = 0
    /// The heading of the section this page starts, when it starts one.
    public var heading: String?
    /// Where the sheet is cut and what must survive the cut, on this page (`size` is the whole PDF page).
    public var trimBox = Rect(x: 0, y: 0, width: 0, height: 0)
    public var artBox = Rect(x: 0, y: 0, width: 0, height: 0)
    /// How far printing may run: the trim plus the bleed. With crop marks it is smaller than the PDF page.
    public var bleedBox = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The trim marks drawn outside the bleed (`--crop-marks`), none without.
    public var cropMarks: [MarkLine] = []
    /// Which half of a spread this page holds, for a page that holds one; its geometry is final when planned.
    public var spread: SpreadSide?
}

/// Pages in print order, each with its photos.
public struct BookPlan: Sendable, Equatable {
    public var pages: [PlannedPage]
    /// How many blank pages were added at the end to make the count a multiple of `LayoutOptions.padTo`.
    public var blankPages = 0
    /// Blank pages left inside the book so that a spread starts on a left-hand page: the blank page's number and
    /// the photo (planner index) whose spread follows it.
    public var spreadBlanks: [SpreadBlank] = []

    public init(pages: [PlannedPage]) { self.pages = pages }
}

/// Turns photo facts and layout options into pages. Pure: no I/O, no state.
public enum Planner {
    /// Pages in the options' layout mode, photos in their order, each placed in its cell; with `text`, a title
    /// page first, captions under their photos and page numbers in the footer.
    /// - Parameter uprightSizes: each photo's pixel size as it is seen (EXIF orientation applied).
    /// - Returns: nil when the options cannot make a book (`LayoutOptions.problem`).
    public static func plan(uprightSizes: [(width: Int, height: Int)], options: LayoutOptions,
                            text: BookText? = nil) -> BookPlan? {
        plan(uprightSizes: uprightSizes, options: options, text: text, given: nil)
    }

    /// `plan`, with the pages of a description file in place of the options' layout when `given` is not nil.
    static func plan(uprightSizes: [(width: Int, height: Int)], options: LayoutOptions, text: BookText?,
                     given: [GivenPage]?) -> BookPlan? {
        guard options.problem == nil, var area = options.contentArea else { return nil }
        var pages: [PlannedPage] = []
        if let title = text?.title, let text {
            pages.append(titlePage(title, sizes: uprightSizes, area: area, options: options, text: text))
        }
        if let text, text.pageNumbers {
            // The footer is inside the margins, so the number stays within the area a printer keeps safe.
            area.y += text.footerHeight
            area.height -= text.footerHeight
            guard area.height >= LayoutOptions.minimumContentSide else { return nil }
        }
        let cover = text?.title?.coverPhoto
        let sequence = uprightSizes.indices.filter { $0 != cover }
        // Sections: a run of photos with the same heading starts on a new page under that heading.
        var sections: [(heading: String?, photos: ArraySlice<Int>)] = []
        for (position, index) in sequence.enumerated() {
            let heading = text?.heading(of: index)
            if let last = sections.last, last.heading == heading {
                sections[sections.count - 1].photos = sequence[last.photos.startIndex...position]
            } else {
                sections.append((heading, sequence[position...position]))
            }
        }
        if let given {
            // A description file says which photos share each page (GivenPages.swift).
            guard let givenPages = planGiven(given, sizes: uprightSizes, area: area, options: options, text: text)
            else { return nil }
            pages += givenPages
            sections = []
        }
        var headed: [(photos: [Int], firstArea: Rect?, headingText: PlacedText?)] = []
        for section in sections {
            var firstArea: Rect?
            var headingText: PlacedText?
            if let text, let heading = section.heading {
                let placed = text.heading(heading, area: area)
                headingText = placed
                let taken = placed.box.height + text.headingGap
                firstArea = Rect(x: area.x, y: area.y, width: area.width, height: area.height - taken)
                guard firstArea!.height >= LayoutOptions.minimumContentSide else { return nil }
            }
            headed.append((Array(section.photos), firstArea, headingText))
        }
        // With spreads, each section's pagination depends on where the one before it ends: planned together.
        let spreadSections = options.spreads
            ? planSectionsWithSpreads(headed.map { ($0.photos, $0.firstArea) }, sizes: uprightSizes, area: area,
                                      options: options, text: text, firstPage: pages.count + 1)
            : nil
        if options.spreads && spreadSections == nil { return nil }
        for (number, section) in headed.enumerated() {
            let headingText = section.headingText
            let sectionPages = spreadSections?[number]
                ?? planPhotos(section.photos, sizes: uprightSizes, area: area, firstArea: section.firstArea,
                              options: options, text: text)
            guard let sectionPages else { return nil }
            var first = true
            for var page in sectionPages {
                // A blank page before a spread is not where the section starts: its heading goes on the spread.
                if page.arrangement == "blank" { pages.append(page); continue }
                if first, let headingText {
                    page.texts.insert(headingText, at: 0)
                    page.heading = headingText.lines.joined(separator: " ")
                }
                first = false
                pages.append(page)
            }
        }
        // A print shop binds in fixed steps: blank pages at the end make up the count.
        var blank = 0
        var spreadBlanks: [SpreadBlank] = []
        while pages.count % max(1, options.padTo) != 0 {
            pages.append(PlannedPage(size: options.mediaSize, photos: [], arrangement: "blank"))
            blank += 1
        }
        for number in pages.indices {
            pages[number].number = number + 1
            pages[number].trimBox = options.trimBox
            pages[number].artBox = options.artBox
            pages[number].bleedBox = options.bleedBox
            pages[number].cropMarks = options.cropMarkLines
            // A spread's halves were planned on their own pages, bleed and all, and carry no number.
            if pages[number].spread != nil { continue }
            if options.spreads, pages[number].arrangement == "blank", number + 1 < pages.count,
               pages[number + 1].spread == .left, let photo = pages[number + 1].photos.first {
                spreadBlanks.append(SpreadBlank(page: number + 1, photoIndex: photo.photoIndex))
            }
            // Everything was planned on a left-hand page; a right-hand one moves over by the binding. Then cells
            // on the trim edge run on over the bleed.
            if options.binding > 0 && (number + 1) % 2 == 1 { shift(&pages[number], by: options.binding) }
            if options.bleed > 0 { bleed(&pages[number], sizes: uprightSizes, options: options) }
            guard let text, text.pageNumbers, !(number == 0 && text.title != nil),
                  pages[number].arrangement != "blank", let area = options.area(onPage: number + 1) else { continue }
            pages[number].texts.append(text.pageNumber(number + 1, area: area))
        }
        var plan = BookPlan(pages: pages)
        plan.blankPages = blank
        plan.spreadBlanks = spreadBlanks
        return plan
    }

    /// The pages of a run of photos (indices into `sizes`), their captions under them.
    static func planPhotos(_ sequence: [Int], sizes uprightSizes: [(width: Int, height: Int)], area: Rect,
                           firstArea: Rect?, options: LayoutOptions, text: BookText?,
                           layouts given: [PageLayouts.Page]? = nil) -> [PlannedPage]? {
        let aspects = sequence.map { Double(max(uprightSizes[$0].width, 1)) / Double(max(uprightSizes[$0].height, 1)) }
        let bands: ((Int, Double) -> Double)? = text.map { text in
            { slot, width in text.captionBand(text.caption(of: sequence[slot]), width: width) }
        }
        guard let layouts = given ?? PageLayouts.pages(aspects: aspects, mode: options.mode, area: area, gap: options.gap,
                                              maxPerPage: options.maxPerPage, bands: bands, firstArea: firstArea)
        else { return nil }
        var pages: [PlannedPage] = []
        var next = 0
        for layout in layouts {
            pages.append(photoPage(layout, photos: Array(sequence[next..<next + layout.count]), sizes: uprightSizes,
                                   options: options, text: text))
            next += layout.count
        }
        return pages
    }

    /// A page of photos (indices into `sizes`) in the layout's cells, their captions under them.
    static func photoPage(_ layout: PageLayouts.Page, photos: [Int], sizes uprightSizes: [(width: Int, height: Int)],
                          options: LayoutOptions, text: BookText?) -> PlannedPage {
        var page = PlannedPage(size: options.mediaSize, photos: [], arrangement: layout.name)
        for slot in 0..<layout.count {
            let index = photos[slot]
            var cell = layout.cells[slot]
            if let text, let caption = text.caption(of: index) {
                let (lines, _) = TextLines.wrap(caption, width: cell.width, size: text.captionSize,
                                                maxLines: text.captionLines, measure: text.measure)
                let band = text.captionBand(lines: lines.count)
                if !lines.isEmpty && cell.height - band >= LayoutOptions.minimumContentSide {
                    page.texts.append(PlacedText(role: .caption, lines: lines, size: text.captionSize,
                                                 leading: text.captionLeading,
                                                 box: Rect(x: cell.x, y: cell.y, width: cell.width,
                                                           height: band - text.captionGap),
                                                 alignment: .center))
                    cell.y += band
                    cell.height -= band
                }
            }
            page.photos.append(place(photoIndex: index, width: uprightSizes[index].width,
                                     height: uprightSizes[index].height, in: cell, options: options))
        }
        return page
    }

    static func shift(_ page: inout PlannedPage, by dx: Double) {
        for i in page.photos.indices {
            page.photos[i].cell.x += dx
            page.photos[i].placement.x += dx
        }
        for i in page.texts.indices { page.texts[i].box.x += dx }
    }

    /// Photos whose cells touch the trim edge, placed again in cells that run on over the bleed (not under their
    /// caption, which sits at the bottom of the cell).
    static func bleed(_ page: inout PlannedPage, sizes: [(width: Int, height: Int)], options: LayoutOptions) {
        let captions = page.texts.filter { $0.role == .caption }
        for i in page.photos.indices {
            let photo = page.photos[i]
            let captioned = captions.contains { abs($0.box.x - photo.cell.x) < 1e-6 && $0.box.y < photo.cell.y }
            let cell = extendedIntoBleed(photo.cell, keepingBottom: captioned, options: options)
            guard cell != photo.cell else { continue }
            page.photos[i] = place(photoIndex: photo.photoIndex, width: sizes[photo.photoIndex].width,
                                   height: sizes[photo.photoIndex].height, in: cell, options: options)
        }
    }

    /// A cell that touches the trim edge runs on over the bleed there, so that the cut never shows a white
    /// sliver; the photo fills the larger cell with more of itself (the crop follows the new shape).
    static func extendedIntoBleed(_ cell: Rect, keepingBottom: Bool, options: LayoutOptions) -> Rect {
        let bleed = options.bleed
        guard bleed > 0 else { return cell }
        let trim = options.trimBox
        var extended = cell
        let epsilon = 1e-6
        if abs(cell.x - trim.x) < epsilon { extended.x -= bleed; extended.width += bleed }
        if abs(cell.x + cell.width - (trim.x + trim.width)) < epsilon { extended.width += bleed }
        if !keepingBottom && abs(cell.y - trim.y) < epsilon { extended.y -= bleed; extended.height += bleed }
        if abs(cell.y + cell.height - (trim.y + trim.height)) < epsilon { extended.height += bleed }
        return extended
    }

    /// The title page: the title, subtitle and author at the top of the area inside the margins, and the cover
    /// photo, when there is one, filling the rest.
    static func titlePage(_ title: BookText.Title, sizes: [(width: Int, height: Int)], area: Rect,
                          options: LayoutOptions, text: BookText) -> PlannedPage {
        var page = PlannedPage(size: options.mediaSize, photos: [], arrangement: "title")
        var top = area.y + area.height
        if title.coverPhoto == nil { top -= area.height / 4 }
        for (role, content, size, maxLines) in [(PlacedText.Role.title, Optional(title.title), 28.0, 3),
                                                (.subtitle, title.subtitle, 16, 2), (.author, title.author, 12, 2)] {
            guard let content, !content.isEmpty else { continue }
            let (lines, _) = TextLines.wrap(content, width: area.width, size: size, maxLines: maxLines,
                                            measure: text.measure)
            guard !lines.isEmpty else { continue }
            let leading = size * 1.25
            let height = Double(lines.count) * leading
            page.texts.append(PlacedText(role: role, lines: lines, size: size, leading: leading,
                                         box: Rect(x: area.x, y: top - height, width: area.width, height: height),
                                         alignment: .center))
            top -= height + size * 0.5
        }
        if let cover = title.coverPhoto {
            let gap = 8 * Length.pointsPerMillimetre
            let cell = Rect(x: area.x, y: area.y, width: area.width, height: top - gap - area.y)
            if cell.height >= LayoutOptions.minimumContentSide {
                page.photos.append(place(photoIndex: cover, width: sizes[cover].width, height: sizes[cover].height,
                                         in: cell, options: options))
            }
        }
        return page
    }

    /// Places one photo of `width` x `height` pixels into `cell`.
    static func place(photoIndex: Int, width: Int, height: Int, in cell: Rect, options: LayoutOptions) -> PlacedPhoto {
        let photoWidth = Double(max(width, 1)), photoHeight = Double(max(height, 1))
        let photoAspect = photoWidth / photoHeight
        let cellAspect = cell.width / cell.height

        let placement: Rect
        var crop: SourceRect
        switch options.fit {
        case .fill:
            placement = cell
            crop = Planner.centredCrop(width: photoWidth, height: photoHeight, aspect: cellAspect)
        case .fit:
            let size = photoAspect > cellAspect
                ? (width: cell.width, height: cell.width / photoAspect)
                : (width: cell.height * photoAspect, height: cell.height)
            placement = Rect(x: cell.x + (cell.width - size.width) / 2, y: cell.y + (cell.height - size.height) / 2,
                             width: size.width, height: size.height)
            crop = SourceRect(x: 0, y: 0, width: photoWidth, height: photoHeight)
        }

        // Never upsample: a photo with fewer pixels than the target density asks for keeps its own.
        let targetWidth = placement.width / 72 * options.dpi
        let scale = options.keepOriginals ? 1 : min(1, targetWidth / crop.width)
        let pixelWidth = max(1, Int((crop.width * scale).rounded()))
        let pixelHeight = max(1, Int((crop.height * scale).rounded()))
        if scale == 1 {
            // The photo's own pixels: snap the crop to whole pixels (at most half a pixel off centre), so that the
            // page is a plain copy, sharp and cheap, rather than an interpolation half a pixel over.
            func snap(_ start: Double, _ length: Double, _ count: Int, _ limit: Double) -> Double {
                max(0, min(limit - Double(count), (start + length / 2 - Double(count) / 2).rounded()))
            }
            crop = SourceRect(x: snap(crop.x, crop.width, pixelWidth, photoWidth),
                              y: snap(crop.y, crop.height, pixelHeight, photoHeight),
                              width: Double(pixelWidth), height: Double(pixelHeight))
        } else if options.fit == .fill {
            // Rounding to whole pixels changes the aspect a little; trim the crop so the pixels are not stretched.
            let exactAspect = Double(pixelWidth) / Double(pixelHeight)
            if crop.width / crop.height > exactAspect {
                let trimmed = crop.height * exactAspect
                crop.x += (crop.width - trimmed) / 2
                crop.width = trimmed
            } else {
                let trimmed = crop.width / exactAspect
                crop.y += (crop.height - trimmed) / 2
                crop.height = trimmed
            }
        }
        return PlacedPhoto(photoIndex: photoIndex, cell: cell, placement: placement, crop: crop,
                           pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                           cropShare: max(0, 1 - crop.width * crop.height / (photoWidth * photoHeight)))
    }
}

extension Planner {
    /// The largest part of a `width` x `height` photo with the given aspect ratio (width over height), centred:
    /// what aspect-fill shows of it.
    static func centredCrop(width: Double, height: Double, aspect: Double) -> SourceRect {
        if width / height > aspect {
            let cropWidth = height * aspect
            return SourceRect(x: (width - cropWidth) / 2, y: 0, width: cropWidth, height: height)
        }
        let cropHeight = width / aspect
        return SourceRect(x: 0, y: (height - cropHeight) / 2, width: width, height: cropHeight)
    }
}
