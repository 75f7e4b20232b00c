import Foundation
import Imaging

/// A page whose photos the user chose (a book description file), and optionally how they share it.
public struct GivenPage: Sendable, Equatable {
    /// Indices of the photos given to the planner, in reading order.
    public var photos: [Int]
    /// The arrangement pinned for the page (`PageArrangement`), or nil for the one that crops least.
    public var layout: PageArrangement?
    /// The heading the page starts a section with.
    public var heading: String?

    public init(photos: [Int], layout: PageArrangement? = nil, heading: String? = nil) {
        self.photos = photos
        self.layout = layout
        self.heading = heading
    }
}

extension Planner {
    /// Pages exactly as given (a title page first, blank pages at the end, numbers and boxes as `plan` makes them),
    /// each photo's crop moved towards its focus point.
    /// - Parameter focus: per photo given to the planner, where its crop keeps its centre; nil or missing for the
    ///   middle.
    /// - Returns: nil when the options cannot make a book, or a page cannot be laid out.
    public static func plan(uprightSizes: [(width: Int, height: Int)], pages: [GivenPage], focus: [FocusPoint?] = [],
                            options: LayoutOptions, text: BookText? = nil) -> BookPlan? {
        guard var plan = plan(uprightSizes: uprightSizes, options: options, text: text, given: pages) else { return nil }
        for page in plan.pages.indices {
            for slot in plan.pages[page].photos.indices {
                let index = plan.pages[page].photos[slot].photoIndex
                guard index < focus.count, let point = focus[index] else { continue }
                plan.pages[page].photos[slot].focus(on: point, width: uprightSizes[index].width,
                                                    height: uprightSizes[index].height)
            }
        }
        return plan
    }

    /// The pages of `given`, each laid out on its own in `area` (less its heading): its pinned layout when that
    /// holds its photos, else the arrangement that crops least. Nil when a page cannot be laid out.
    static func planGiven(_ given: [GivenPage], sizes: [(width: Int, height: Int)], area: Rect,
                          options: LayoutOptions, text: BookText?) -> [PlannedPage]? {
        var pages: [PlannedPage] = []
        for page in given where !page.photos.isEmpty {
            var pageArea = area
            var headingText: PlacedText?
            if let text, let heading = page.heading, !heading.isEmpty {
                let placed = text.heading(heading, area: area)
                headingText = placed
                pageArea.height -= placed.box.height + text.headingGap
                guard pageArea.height >= LayoutOptions.minimumContentSide else { return nil }
            }
            guard let layout = layoutPage(page, sizes: sizes, area: pageArea, options: options, text: text),
                  var planned = planPhotos(page.photos, sizes: sizes, area: pageArea, firstArea: nil, options: options,
                                           text: text, layouts: [layout])?.first else { return nil }
            if let headingText {
                planned.texts.insert(headingText, at: 0)
                planned.heading = headingText.lines.joined(separator: " ")
            }
            pages.append(planned)
        }
        return pages
    }

    /// One given page's cells. A pinned layout that no longer holds the page's photos (one failed when it was
    /// decoded) gives way to the best arrangement.
    static func layoutPage(_ page: GivenPage, sizes: [(width: Int, height: Int)], area: Rect, options: LayoutOptions,
                           text: BookText?) -> PageLayouts.Page? {
        let count = page.photos.count
        let aspects = page.photos.map { Double(max(sizes[$0].width, 1)) / Double(max(sizes[$0].height, 1)) }
        let pinned = page.layout.flatMap { $0.holds(count) ? $0 : nil }
        switch pinned {
        case .single?:
            return PageLayouts.Page(count: 1, cells: [area], arrangement: .single)
        case .grid(let columns, let rows)?:
            guard let cells = PageLayouts.gridCells(columns: columns, rows: rows, area: area, gap: options.gap)
            else { return nil }
            return PageLayouts.Page(count: count, cells: cells, arrangement: .grid(columns: columns, rows: rows))
        case .arranged(let arrangement)?:
            return autoLayout(page, area: area, options: options, text: text)
                .bestPage(aspects, arrangements: [arrangement])?.page
        case nil:
            guard count <= LayoutLimits.maxPerPage else { return nil }
            return autoLayout(page, area: area, options: options, text: text)
                .bestPage(aspects, arrangements: Arrangement.all(of: count))?.page
        }
    }

    private static func autoLayout(_ page: GivenPage, area: Rect, options: LayoutOptions, text: BookText?) -> AutoLayout {
        let bands: ((Int, Double) -> Double)? = text.map { text in
            { slot, width in text.captionBand(text.caption(of: page.photos[slot]), width: width) }
        }
        return AutoLayout(area: area, gap: options.gap, maxPerPage: LayoutLimits.maxPerPage, bands: bands)
    }
}

extension PlacedPhoto {
    /// Moves the crop so that its centre is as near `point` as the photo allows; its size stays. A crop of whole
    /// pixels (a photo kept at its own density) stays on whole pixels.
    mutating func focus(on point: FocusPoint, width: Int, height: Int) {
        let photoWidth = Double(max(width, 1)), photoHeight = Double(max(height, 1))
        let whole = crop.width == Double(pixelWidth) && crop.height == Double(pixelHeight)
        func start(_ centre: Double, _ length: Double, _ limit: Double) -> Double {
            let value = max(0, min(limit - length, centre - length / 2))
            return whole ? max(0, min(limit - length, value.rounded())) : value
        }
        crop.x = start(point.x * photoWidth, crop.width, photoWidth)
        crop.y = start(point.y * photoHeight, crop.height, photoHeight)
    }
}
