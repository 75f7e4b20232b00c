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
}

/// The pages of a description file, in place of a layout mode: each page laid out on its own under its heading,
/// in its pinned layout when that holds its photos, else in the arrangement that crops least. A page whose
/// photos have all failed is left out.
struct DescribedLayout: BookLayout {
    let pages: [GivenPage]

    /// Each page a run of its own. `photos` are every photo still in the book, the title page's too: a page may
    /// list that one as well.
    func runs(of photos: [BookPhoto], in frame: LayoutFrame) -> [LayoutRun]? {
        let byID = Dictionary(photos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var runs: [LayoutRun] = []
        for page in pages {
            let pagePhotos = page.photos.compactMap { byID[$0] }
            guard !pagePhotos.isEmpty else { continue }
            guard let section = frame.section(pagePhotos, heading: page.heading),
                  let cells = cells(of: section, pinned: page.layout, in: frame) else { return nil }
            runs.append(LayoutRun(section: section, steps: [.page(cells, positions: Array(pagePhotos.indices))]))
        }
        return runs
    }

    /// One page's cells. A pinned layout that no longer holds the page's photos (one failed when it was decoded)
    /// gives way to the best arrangement.
    private func cells(of section: Section, pinned: PageArrangement?, in frame: LayoutFrame) -> PageCells? {
        let count = section.photos.count
        let aspects = section.photos.map(\.aspect)
        let area = section.firstArea ?? frame.area
        switch pinned.flatMap({ $0.holds(count) ? $0 : nil }) {
        case .single?:
            return PageCells(count: 1, cells: [area], arrangement: .single)
        case .grid(let columns, let rows)?:
            guard let cells = PageCells.grid(columns: columns, rows: rows, area: area, gap: frame.options.gap)
            else { return nil }
            return PageCells(count: count, cells: cells, arrangement: .grid(columns: columns, rows: rows))
        case .arranged(let arrangement)?:
            // `1` is the automatic layout's page of one photo: whole, white around it, when filling cuts too much.
            var pricing = frame.pricing(for: section)
            if arrangement == .photo { pricing.aloneCropLimit = PagePricing.affordableAloneCrop }
            return pricing.bestPage(aspects, arrangements: [arrangement])?.page
        case nil:
            guard count <= LayoutLimits.maxPerPage else { return nil }
            return frame.pricing(for: section).bestPage(aspects, arrangements: Arrangement.all(of: count))?.page
        }
    }
}
