import Geometry

/// The choice of photos for a book (`--photos N`, `--pages N`): between the order and the plan, a pure function of
/// what the probe read (`Choice`), with the planner asked how many pages a choice fills.
extension BookRenderPlan {
    func choose(_ prepared: PreparedBook) -> ChosenPhotos? {
        // A description's pages are the person's own choice; without a request, only the owner's rejects go.
        guard options.given == nil else { return nil }
        guard options.choice != nil || options.describesChoice
                || prepared.photos.contains(where: { $0.info.marks.isRejected }) else { return nil }
        // The title page's photo is the person's choice too: it goes in whatever the others.
        let titlePhoto = options.text?.titlePhoto
        let pool = prepared.photos.filter { $0.id != titlePhoto }
        let moments = PhotoOrder.moments(pool.map(\.info))
        let candidates = zip(pool, moments).map { candidate($0.0, moment: $0.1) }
        let analysis = Choice.analyse(candidates, byEvent: options.order.sort == .date)
        let offered = analysis.keepers.count
        var warnings: [BuildWarning] = []
        let chosen: [Bool]
        switch options.choice {
        case nil:
            chosen = Choice.pick(analysis, count: nil)
        case .photos(let count)?:
            chosen = Choice.pick(analysis, count: count)
            if offered < count {
                warnings.append(BuildWarning(path: nil, message: "--photos \(count): only \(offered) photo"
                    + "\(offered == 1 ? "" : "s") can be chosen" + Self.shortfall(analysis) + "; all of them are in the book"))
            }
        case .pages(let count)?:
            let filled = fill(pages: count, analysis: analysis, pool: pool, prepared: prepared)
            chosen = filled.chosen
            if filled.pages != count {
                let used = filled.chosen.filter { $0 }.count
                warnings.append(BuildWarning(path: nil, message: "--pages \(count): the \(used) photo"
                    + "\(used == 1 ? "" : "s") that can be chosen" + Self.shortfall(analysis)
                    + " fill \(filled.pages) page\(filled.pages == 1 ? "" : "s")"
                    + (filled.pages < count ? "; all of them are in the book" : "")))
            }
        }
        let decisions = Choice.decisions(analysis, chosen: chosen)
        var byID: [PhotoID: PhotoChoice] = [:]
        for (photo, decision) in zip(pool, decisions) { byID[photo.id] = decision }
        let kept = Set(zip(pool, chosen).filter { $0.1 }.map { $0.0.id })
        return ChosenPhotos(photos: prepared.photos.filter { $0.id == titlePhoto || kept.contains($0.id) },
                            decisions: byID, warnings: warnings)
    }

    /// " (12 more are the same moment as one chosen, 2 rejected)": what the choice could not count as photos.
    static func shortfall(_ analysis: Choice.Analysis) -> String {
        let candidates = analysis.candidates
        let rejected = candidates.filter { $0.marks.isRejected }.count
        let frames = candidates.indices.filter { analysis.keeper[$0] != $0 && !candidates[$0].marks.isRejected }.count
        let parts = (frames > 0 ? ["\(frames) more \(frames == 1 ? "is" : "are") the same moment as another"] : [])
            + (rejected > 0 ? ["\(rejected) rejected by their owner"] : [])
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }

    /// What the choice knows of `photo`.
    func candidate(_ photo: PreparedPhoto, moment: Double?) -> ChoiceCandidate {
        let info = photo.info
        var candidate = ChoiceCandidate(id: photo.id, moment: moment, camera: info.camera, traits: info.traits)
        candidate.marks = info.marks
        candidate.isFavourite = info.isFavourite
        candidate.faces = info.regions.filter { $0.kind == .face }.count
        candidate.printDPI = typicalDPI(width: info.uprightWidth, height: info.uprightHeight)
        candidate.isScreenSized = ScreenSizes.contains(width: info.storedWidth, height: info.storedHeight)
        return candidate
    }

    /// About the density a photo of this size prints at in the cell the layout gives it: the content area for
    /// `single`, a grid's cell, half the area for `auto` (two photos a page on average); the photo filling it.
    func typicalDPI(width: Int, height: Int) -> Double? {
        let layout = options.layout
        guard let area = layout.contentArea else { return nil }
        var cell = (width: area.width, height: area.height)
        switch layout.mode {
        case .single: break
        case .grid(let columns, let rows):
            cell = ((area.width - Double(columns - 1) * layout.gap) / Double(columns),
                    (area.height - Double(rows - 1) * layout.gap) / Double(rows))
        case .auto:
            // Half the page, in the photo's own shape.
            let aspect = Double(width) / Double(height), half = area.width * area.height / 2
            cell = ((half * aspect).squareRoot(), (half / aspect).squareRoot())
        }
        guard cell.width > 0, cell.height > 0 else { return nil }
        // Filling the cell: the side that meets the cell's edge sets the density.
        return min(Double(width) / (cell.width / 72), Double(height) / (cell.height / 72))
    }

    /// The choice that fills exactly `count` pages (title page and blank pages as print shops count them, the
    /// `--pad-to` step aside: a count the step allows is met without blanks), or as near as the photos allow.
    func fill(pages count: Int, analysis: Choice.Analysis, pool: [PreparedPhoto],
              prepared: PreparedBook) -> (chosen: [Bool], pages: Int) {
        var layout = options.layout
        layout.padTo = 1
        let titlePhoto = options.text?.titlePhoto
        var memo: [Int: (chosen: [Bool], pages: Int)] = [:]
        func attempt(_ photos: Int) -> (chosen: [Bool], pages: Int) {
            if let known = memo[photos] { return known }
            let chosen = Choice.pick(analysis, count: photos)
            let kept = Set(zip(pool, chosen).filter { $0.1 }.map { $0.0.id })
            let alive = prepared.photos.map(\.id).filter { $0 == titlePhoto || kept.contains($0) }
            let pages = Planner.plan(photos: bookPhotos(prepared, alive: alive), options: layout,
                                     text: bookText(alive: alive))?.pages.count ?? 0
            memo[photos] = (chosen, pages)
            return (chosen, pages)
        }
        let most = analysis.keepers.count
        guard most > 0 else { return attempt(0) }
        let fixed = options.text?.title != nil ? 1 : 0
        let perPage: Int
        switch layout.mode {
        case .single: perPage = 1
        case .grid(let columns, let rows): perPage = columns * rows
        case .auto: perPage = 2
        }
        // From the count the layout suggests, step towards the pages asked; the page count grows with the photos.
        var photos = min(most, max(1, (count - fixed) * perPage))
        var found = attempt(photos)
        if found.pages < count {
            while found.pages < count && photos < most {
                photos += 1
                found = attempt(photos)
            }
            if found.pages > count { found = attempt(photos - 1) }
        } else {
            while found.pages > count && photos > 1 {
                photos -= 1
                found = attempt(photos)
            }
        }
        // With `auto`, more photos while they still fill exactly the pages asked, up to two a page on average:
        // the smallest count that reaches the pages may leave them emptier than they need be.
        if found.pages == count, layout.mode == .auto {
            while photos < min(most, (count - fixed) * perPage) {
                let more = attempt(photos + 1)
                guard more.pages == count else { break }
                photos += 1
                found = more
            }
        }
        return found
    }
}

/// The pixel sizes of phones', tablets' and computers' screens: a picture of one of them without a camera's
/// EXIF is most likely a screenshot.
enum ScreenSizes {
    static let sizes: Set<[Int]> = [
        [750, 1334], [828, 1792], [1125, 2436], [1170, 2532], [1179, 2556], [1242, 2688], [1284, 2778], [1290, 2796],
        [1242, 2208], [640, 1136], [1080, 1920], [1080, 2340], [1080, 2400], [1080, 2160], [1080, 2280], [1080, 2220],
        [1440, 3200], [1440, 3120], [1440, 3088], [1440, 2960], [1440, 2560], [720, 1600], [720, 1520], [720, 1280],
        [1536, 2048], [1668, 2388], [1668, 2224], [2048, 2732], [1620, 2160], [1640, 2360], [1488, 2266],
        [768, 1366], [900, 1440], [800, 1280], [1800, 2880], [2160, 3840], [1050, 1680],
        [1200, 1920], [1600, 2560], [1664, 2560], [1964, 3024], [1117, 1728], [1234, 1782],
    ]

    static func contains(width: Int, height: Int) -> Bool { sizes.contains([min(width, height), max(width, height)]) }
}
