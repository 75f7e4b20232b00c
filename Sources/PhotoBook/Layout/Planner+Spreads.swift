import Geometry

/// Planning with `--spreads` (the rule is in `Spreads`).
extension Planner {
    /// The pages of each section (its photos, and the area of its first page when a heading
    /// takes part of it), the book's photos starting on page `firstPage`: panoramas as spreads on a left-hand page
    /// and the right-hand page after it, the other photos as without spreads. The sections' paginations are
    /// chosen together, so that a section can end on the side that lets the next one start its spread without a
    /// blank page.
    static func planSectionsWithSpreads(_ sections: [(photos: [BookPhoto], firstArea: Rect?)], area: Rect,
                                        options: LayoutOptions,
                                        text: BookText?, firstPage: Int) -> [[PlannedPage]]? {
        // best[side]: the fewest blanks and least cost for the sections so far, the next page on `side`, and the
        // steps of each section on that way.
        var best: [Int: (blanks: Int, cost: Double, steps: [[Spreads.Step]])] = [firstPage % 2: (0, 0, [])]
        for section in sections {
            let sequence = section.photos
            let aspects = sequence.map(\.aspect)
            let panoramic = sequence.map { Spreads.isPanorama(width: $0.width, height: $0.height) }
            let bands: ((Int, Double) -> Double)? = text.map { text in
                { slot, width in text.captionBand(text.caption(of: sequence[slot]), width: width) }
            }
            var next: [Int: (blanks: Int, cost: Double, steps: [[Spreads.Step]])] = [:]
            for (side, sofar) in best.sorted(by: { $0.key < $1.key }) {
                guard let endings = Spreads.paginate(aspects: aspects, panoramic: panoramic, mode: options.mode,
                                                     area: area, firstArea: section.firstArea, gap: options.gap,
                                                     maxPerPage: options.maxPerPage, bands: bands,
                                                     startPage: side == 0 ? 2 : 1) else { return nil }
                for ending in endings {
                    let blanks = sofar.blanks + ending.blanks, cost = sofar.cost + ending.cost
                    if let known = next[ending.nextSide],
                       !(blanks < known.blanks || (blanks == known.blanks && cost < known.cost)) { continue }
                    next[ending.nextSide] = (blanks, cost, sofar.steps + [ending.steps])
                }
            }
            best = next
        }
        guard let chosen = best.values.min(by: { ($0.blanks, $0.cost) < ($1.blanks, $1.cost) }) else { return nil }
        var result: [[PlannedPage]] = []
        for (section, steps) in zip(sections, chosen.steps) {
            guard let pages = pages(of: steps, sequence: section.photos, firstArea: section.firstArea,
                                    options: options, text: text) else { return nil }
            result.append(pages)
        }
        return result
    }

    /// A section's steps made into pages.
    static func pages(of steps: [Spreads.Step], sequence: [BookPhoto], firstArea: Rect?,
                      options: LayoutOptions, text: BookText?) -> [PlannedPage]? {
        var pages: [PlannedPage] = []
        var first = true
        for step in steps {
            switch step {
            case .page(let layout, let positions):
                pages.append(photoPage(layout, photos: positions.map { sequence[$0] }, options: options,
                                       text: text))
                first = false
            case .blank:
                pages.append(PlannedPage(kind: .blank, size: options.mediaSize))
            case .spread(let position):
                guard let spread = spreadPages(sequence[position], headingArea: first ? firstArea : nil,
                                               options: options, text: text) else { return nil }
                pages += spread
                first = false
            }
        }
        return pages
    }

    /// The two pages of a panorama's spread, in their final place on the PDF page: the caption on the right-hand
    /// page under the picture, the picture under the section's heading when it starts one (`headingArea`).
    static func spreadPages(_ photo: BookPhoto, headingArea: Rect?,
                            options: LayoutOptions, text: BookText?) -> [PlannedPage]? {
        guard let content = options.area(onPage: 2), let right = options.area(onPage: 1) else { return nil }
        var caption: PlacedText?
        var band = 0.0
        if let text, let words = text.caption(of: photo) {
            let (lines, _) = TextLines.wrap(words, width: right.width, size: text.captionSize,
                                            maxLines: text.captionLines, measure: text.measure)
            if !lines.isEmpty {
                band = text.captionBand(lines: lines.count)
                caption = PlacedText(role: .caption, lines: lines, size: text.captionSize, leading: text.captionLeading,
                                     box: Rect(x: right.x, y: right.y, width: right.width, height: band - text.captionGap),
                                     alignment: .center)
            }
        }
        let fill = options.fit == .fill
        // Full bleed reaches the BleedBox, which with crop marks is smaller than the PDF page.
        let bleedBox = options.bleedBox
        let bottom = band > 0 ? content.y + band : fill ? bleedBox.y : content.y
        let top = headingArea.map { $0.y + $0.height } ?? (fill ? bleedBox.y + bleedBox.height : content.y + content.height)
        guard top - bottom >= LayoutOptions.minimumContentSide else { return nil }
        var halves = Spreads.halves(photo.id, width: photo.width, height: photo.height,
                                    vertical: (bottom, top), options: options)
        // The caption is the photo's, set on the right-hand page.
        halves[1].caption = caption
        return [PlannedPage(kind: .spreadHalf(.left), size: options.mediaSize, photos: [halves[0]]),
                PlannedPage(kind: .spreadHalf(.right), size: options.mediaSize, photos: [halves[1]])]
    }
}
