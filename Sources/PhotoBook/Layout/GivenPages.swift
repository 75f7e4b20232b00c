import Foundation
import Geometry

/// A page whose photos the user chose (a book description file), and optionally how they share it.
public struct GivenPage: Sendable, Equatable {
    /// Its photos, in reading order.
    public var photos: [PhotoID]
    /// The arrangement pinned for the page (`PageArrangement`), or nil for the one that crops least.
    public var layout: PageArrangement?
    /// The heading the page starts a section with.
    public var heading: String?

    public init(photos: [PhotoID], layout: PageArrangement? = nil, heading: String? = nil) {
        self.photos = photos
        self.layout = layout
        self.heading = heading
    }
}

extension Planner {
    /// Pages exactly as given (a title page first, blank pages at the end, numbers and boxes as `plan` makes them),
    /// each photo's crop moved towards its focus point (`BookPhoto.focus`).
    /// - Returns: nil when the options cannot make a book, or a page cannot be laid out.
    public static func plan(photos: [BookPhoto], pages: [GivenPage], options: LayoutOptions,
                            text: BookText? = nil) -> BookPlan? {
        plan(photos: photos, options: options, text: text, given: pages)
    }

    /// The pages of `given`, each laid out on its own in `area` (less its heading): its pinned layout when that
    /// holds its photos, else the arrangement that crops least. Nil when a page cannot be laid out.
    static func planGiven(_ given: [GivenPage], photos: [PhotoID: BookPhoto], area: Rect,
                          options: LayoutOptions, text: BookText?) -> [PlannedPage]? {
        var pages: [PlannedPage] = []
        for page in given {
            let pagePhotos = page.photos.compactMap { photos[$0] }
            guard !pagePhotos.isEmpty else { continue }
            var pageArea = area
            var headingText: PlacedText?
            if let text, let heading = page.heading, !heading.isEmpty {
                let placed = text.heading(heading, area: area)
                headingText = placed
                pageArea.height -= placed.box.height + text.headingGap
                guard pageArea.height >= LayoutOptions.minimumContentSide else { return nil }
            }
            guard let layout = layoutPage(pagePhotos, pinned: page.layout, area: pageArea, options: options, text: text),
                  var planned = planPhotos(pagePhotos, area: pageArea, firstArea: nil, options: options, text: text,
                                           layouts: [layout])?.first else { return nil }
            if let headingText {
                planned.words.insert(headingText, at: 0)
                planned.heading = headingText.lines.joined(separator: " ")
            }
            pages.append(planned)
        }
        return pages
    }

    /// One given page's cells. A pinned layout that no longer holds the page's photos (one failed when it was
    /// decoded) gives way to the best arrangement.
    static func layoutPage(_ photos: [BookPhoto], pinned: PageArrangement?, area: Rect, options: LayoutOptions,
                           text: BookText?) -> PageLayouts.Page? {
        let count = photos.count
        let aspects = photos.map(\.aspect)
        switch pinned.flatMap({ $0.holds(count) ? $0 : nil }) {
        case .single?:
            return PageLayouts.Page(count: 1, cells: [area], arrangement: .single)
        case .grid(let columns, let rows)?:
            guard let cells = PageLayouts.gridCells(columns: columns, rows: rows, area: area, gap: options.gap)
            else { return nil }
            return PageLayouts.Page(count: count, cells: cells, arrangement: .grid(columns: columns, rows: rows))
        case .arranged(let arrangement)?:
            return autoLayout(photos, area: area, options: options, text: text)
                .bestPage(aspects, arrangements: [arrangement])?.page
        case nil:
            guard count <= LayoutLimits.maxPerPage else { return nil }
            return autoLayout(photos, area: area, options: options, text: text)
                .bestPage(aspects, arrangements: Arrangement.all(of: count))?.page
        }
    }

    private static func autoLayout(_ photos: [BookPhoto], area: Rect, options: LayoutOptions, text: BookText?) -> AutoLayout {
        let bands: ((Int, Double) -> Double)? = text.map { text in
            { slot, width in text.captionBand(text.caption(of: photos[slot]), width: width) }
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
