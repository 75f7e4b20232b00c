import Geometry

/// One way of sharing a book's photos out over its pages: `single`, `grid`, `auto` (each with or without
/// `--spreads`), or the pages of a description file. The planner chooses one per book, once (`Planner.layout`),
/// and hands it the photos; the layout says which photos share which page and in what cells, and the planner
/// makes the pages (photos placed, captions set, headings, blank pages, numbers, boxes, bleed).
///
/// The layouts depend on the model and on what all of them share (`LayoutFrame`, `PageCells`, `PagePricing`,
/// `Spreads`), never on one another.
protocol BookLayout: Sendable {
    /// The book's photos, in runs that each start on a new page, under their heading when they have one; nil when
    /// they cannot be laid out in the frame. `photos` holds the title page's photo too, which a layout mode leaves
    /// out and a description's page may list.
    func runs(of photos: [BookPhoto], in frame: LayoutFrame) -> [LayoutRun]?
}

/// A layout that lays out each section (a run of photos under one heading) on its own; with spreads, the
/// sections' paginations are chosen together (`Spreads.choose`), since where one ends decides whether the next
/// can start its spread without a blank page.
protocol SectionLayout: BookLayout {
    /// A section's pages.
    func steps(for section: Section, in frame: LayoutFrame) -> [LayoutStep]?
    /// With spreads: the ways to lay out a section that starts on page `startPage`, every panorama a spread on
    /// a left-hand page, the best for each side the page after it can be on.
    func endings(for section: Section, startPage: Int, in frame: LayoutFrame) -> [Spreads.Ending]?
}

extension SectionLayout {
    func runs(of photos: [BookPhoto], in frame: LayoutFrame) -> [LayoutRun]? {
        let titlePhoto = frame.text?.title?.photo
        guard let sections = frame.sections(of: photos.filter { $0.id != titlePhoto }) else { return nil }
        let steps: [[LayoutStep]]
        if frame.options.spreads {
            guard let chosen = Spreads.choose(sections, firstPage: frame.firstPage, endings: { section, start in
                endings(for: section, startPage: start, in: frame)
            }) else { return nil }
            steps = chosen
        } else {
            var each: [[LayoutStep]] = []
            for section in sections {
                guard let sectionSteps = self.steps(for: section, in: frame) else { return nil }
                each.append(sectionSteps)
            }
            steps = each
        }
        return zip(sections, steps).map { LayoutRun(section: $0, steps: $1) }
    }
}

/// A run of photos that starts on a new page: a section, or a description's page.
struct Section {
    var photos: [BookPhoto]
    /// The heading, set at the top of the run's first page.
    var heading: PlacedText?
    /// The area of the run's first page when the heading takes its top; nil when it is the frame's.
    var firstArea: Rect?
}

/// One step of a run's pagination, its photos by their position in the run.
enum LayoutStep: Equatable {
    /// A page of photos: the cells and the positions of its photos, in cell order.
    case page(PageCells, positions: [Int])
    /// The two pages of the panorama at this position.
    case spread(Int)
    /// A blank page, so that the spread after it starts on a left-hand page.
    case blank
}

/// A run and its steps, as a layout hands them to the planner.
struct LayoutRun {
    var section: Section
    var steps: [LayoutStep]
}

/// What every layout lays out in: the area inside the margins (less the footer of page numbers), the options,
/// the words, and the page the photos start on.
struct LayoutFrame {
    var area: Rect
    var options: LayoutOptions
    var text: BookText?
    var firstPage: Int

    /// The photos as sections: each run of photos with the same heading starts on a new page under it. Nil when a
    /// heading leaves no room for a photo under it.
    func sections(of photos: [BookPhoto]) -> [Section]? {
        var runs: [(heading: String?, photos: [BookPhoto])] = []
        for photo in photos {
            let heading = text?.heading(of: photo)
            if let last = runs.last, last.heading == heading {
                runs[runs.count - 1].photos.append(photo)
            } else {
                runs.append((heading, [photo]))
            }
        }
        var sections: [Section] = []
        for run in runs {
            guard let section = section(run.photos, heading: run.heading) else { return nil }
            sections.append(section)
        }
        return sections
    }

    /// A run of photos under `heading` (none for nil or empty): the heading at the top of the area, the first
    /// page's photos under it. Nil when it leaves no room for them.
    func section(_ photos: [BookPhoto], heading: String?) -> Section? {
        guard let text, let heading, !heading.isEmpty else { return Section(photos: photos) }
        let placed = text.heading(heading, area: area)
        let first = Rect(x: area.x, y: area.y, width: area.width, height: area.height - (placed.box.height + text.headingGap))
        guard first.height >= LayoutOptions.minimumContentSide else { return nil }
        return Section(photos: photos, heading: placed, firstArea: first)
    }

    /// The height each photo's caption takes from a cell of a given width (position in `photos`, width), for a
    /// layout that makes room for captions; nil for a book without words.
    func bands(for photos: [BookPhoto]) -> ((Int, Double) -> Double)? {
        text.map { text in { slot, width in text.captionBand(text.caption(of: photos[slot]), width: width,
                                                         language: photos[slot].captionLanguage) } }
    }

    /// Pages of the photos of `section` priced as the automatic layout prices them.
    func pricing(for section: Section) -> PagePricing {
        let photos = section.photos
        return PagePricing(area: area, gap: options.gap, bands: bands(for: photos), firstArea: section.firstArea,
                           faces: { photos[$0].facesExtent })
    }
}

extension Planner {
    /// The book's layout, chosen once: a description's pages, or the options' layout mode (`--spreads` is for
    /// each mode to honour: it changes how a mode paginates, not which one it is).
    static func layout(_ options: LayoutOptions, given: [GivenPage]?) -> any BookLayout {
        if let given { return DescribedLayout(pages: given) }
        switch options.mode {
        case .single: return SingleLayout()
        case .grid(let columns, let rows): return GridLayout(columns: columns, rows: rows)
        case .auto: return AutoLayout(maxPerPage: options.maxPerPage)
        }
    }
}
