import Geometry

/// Spreads (`--spreads`): a panorama crosses the gutter of a left-hand (even) page and the right-hand page after
/// it, never from a right-hand page to the next left-hand page, which is the other side of the sheet.
///
/// The rule, as the help and docs/design.md state it:
/// - A panorama is a photo at least twice as wide as tall, upright. Other photos are laid out as without spreads.
/// - With `--fit fill` the picture covers both trims and their outer, top and bottom bleeds; each page also shows
///   the strip that continues over the spine in its spine-side bleed, so the cut book shows one picture. With
///   `--fit fit` the whole panorama is shown, centred on the spine, within the outer margins of both pages.
/// - A caption goes on the right-hand page, in a band at the bottom of its margins; the picture stops above the
///   band on both pages, so its halves still meet. A section heading goes on the left-hand page and the picture
///   starts under it on both pages. Spread pages carry no printed page number (they still count).
/// - Parity: `auto` chooses its pagination so that every spread starts on a left-hand page, with as few blank
///   pages as possible (none when any grouping avoids them) and then as little crop as possible; the photos keep
///   their order; the sections of a book are paginated together. In `single` and `grid` a panorama that would start on a right-hand page waits: the photos after
///   it fill pages until a left-hand page comes. A blank page is left only when no photo of the section is left
///   to fill in, and the build warns about it.
enum Spreads {
    /// Whether a photo of this upright size becomes a spread.
    static func isPanorama(width: Int, height: Int) -> Bool { height > 0 && width >= 2 * height }

    /// A section's pagination and what it leads to: the side of the page after it (0 for a left-hand page,
    /// 1 for a right-hand one), its blank pages and its cost (auto's crop and page price; 0 otherwise).
    struct Ending {
        var nextSide: Int
        var blanks: Int
        var cost: Double
        var steps: [LayoutStep]

        /// Fewer blank pages first, then less cost.
        func isBetter(blanks: Int, cost: Double) -> Bool {
            self.blanks < blanks || (self.blanks == blanks && self.cost < cost)
        }
    }

    /// Per photo, whether it is a panorama.
    static func panoramic(_ photos: [BookPhoto]) -> [Bool] { photos.map { isPanorama(width: $0.width, height: $0.height) } }

    /// The one way single and grid lay out a section that starts on page `startPage` (1-based): the section's
    /// steps (`waiting`), the side of the page after them and their blank pages; they cost nothing.
    static func ending(of steps: [LayoutStep], startPage: Int) -> Ending {
        let pages = steps.reduce(0) { count, step in
            if case .spread = step { return count + 2 } else { return count + 1 }
        }
        let blanks = steps.filter { $0 == .blank }.count
        return Ending(nextSide: (startPage + pages) % 2, blanks: blanks, cost: 0, steps: steps)
    }

    /// Every section's steps, the book's photos starting on page `firstPage`, chosen together: the fewest blank
    /// pages, then the least cost, over the ways each section can end (`endings` of a section and the page it
    /// starts on), so that a section can end on the side that lets the next one start its spread without a blank.
    static func choose(_ sections: [Section], firstPage: Int,
                       endings: (Section, Int) -> [Ending]?) -> [[LayoutStep]]? {
        // best[side]: the fewest blanks and least cost for the sections so far, the next page on `side`, and the
        // steps of each section on that way.
        var best: [Int: (blanks: Int, cost: Double, steps: [[LayoutStep]])] = [firstPage % 2: (0, 0, [])]
        for section in sections {
            var next: [Int: (blanks: Int, cost: Double, steps: [[LayoutStep]])] = [:]
            for (side, sofar) in best.sorted(by: { $0.key < $1.key }) {
                guard let found = endings(section, side == 0 ? 2 : 1) else { return nil }
                for ending in found {
                    let blanks = sofar.blanks + ending.blanks, cost = sofar.cost + ending.cost
                    if let known = next[ending.nextSide],
                       !(blanks < known.blanks || (blanks == known.blanks && cost < known.cost)) { continue }
                    next[ending.nextSide] = (blanks, cost, sofar.steps + [ending.steps])
                }
            }
            best = next
        }
        // In the sides' order: a Dictionary's own order changes from process to process (its hashing is seeded
        // at random), and on a tie `min` keeps the first, so the book would depend on the run.
        return best.sorted(by: { $0.key < $1.key }).map(\.value)
            .min(by: { ($0.blanks, $0.cost) < ($1.blanks, $1.cost) })?.steps
    }

    /// Fixed pages of `perPage` photos: a panorama that would start on a right-hand page, or that comes while a
    /// page is partly filled, waits until the photos after it have filled pages up to a left-hand page.
    /// - Parameter layout: the page for photos at these positions; `first` for the section's first step.
    static func waiting(panoramic: [Bool], perPage: Int, startPage: Int,
                        layout: (_ positions: [Int], _ first: Bool) -> PageCells) -> [LayoutStep] {
        var steps: [LayoutStep] = []
        var page = startPage
        var filling: [Int] = []
        var waiting: [Int] = []
        func flush() {
            while let next = waiting.first, filling.isEmpty, page % 2 == 0 {
                steps.append(.spread(next))
                waiting.removeFirst()
                page += 2
            }
        }
        func close() {
            steps.append(.page(layout(filling, steps.isEmpty), positions: filling))
            filling = []
            page += 1
        }
        for position in panoramic.indices {
            if panoramic[position] {
                waiting.append(position)
                flush()
                continue
            }
            filling.append(position)
            if filling.count == perPage { close(); flush() }
        }
        if !filling.isEmpty { close(); flush() }
        if !waiting.isEmpty && page % 2 == 1 {
            // Nothing is left to fill the right-hand page: a blank one, which the build reports.
            steps.append(.blank)
            page += 1
            flush()
        }
        return steps
    }

    /// The two halves of a spread of one photo, left page first, each in its own page's coordinates (the PDF
    /// page, bleed included).
    /// - Parameter vertical: the picture's bottom and top on both pages (full bleed, or above a caption band and
    ///   under a heading).
    static func halves(_ photo: BookPhoto, vertical: (bottom: Double, top: Double),
                       options: LayoutOptions) -> [PlacedPhoto] {
        let (width, height) = (photo.width, photo.height)
        let trim = options.pageSize.width, bleed = options.bleed
        let media = trim + 2 * bleed
        // The canvas spans the bleed boxes; on the PDF page they start after the room for crop marks, if any.
        let room = options.trimOffset - bleed
        // One canvas for both pages: the left page's PDF page is [0, media], the right one's starts at `trim`, so
        // that the two trims meet at the spine (canvas x = bleed + trim).
        let photoWidth = Double(max(width, 1)), photoHeight = Double(max(height, 1))
        var frame: Rect
        switch options.fit {
        case .fill:
            frame = Rect(x: 0, y: vertical.bottom, width: 2 * trim + 2 * bleed, height: vertical.top - vertical.bottom)
        case .fit:
            let margin = options.margin
            frame = Rect(x: bleed + margin, y: vertical.bottom, width: 2 * trim - 2 * margin,
                         height: vertical.top - vertical.bottom)
        }
        let placement: Rect
        var crop: Rect
        let photoAspect = photoWidth / photoHeight, frameAspect = frame.width / frame.height
        switch options.fit {
        case .fill:
            placement = frame
            crop = Planner.centredCrop(width: photoWidth, height: photoHeight, aspect: frameAspect)
        case .fit:
            let size = Planner.fitted(aspect: photoAspect, in: frame)
            // Centred on the spine, whatever the margins: the gutter is the middle of the picture.
            let spine = bleed + trim
            placement = Rect(x: spine - size.width / 2, y: frame.y + (frame.height - size.height) / 2,
                             width: size.width, height: size.height)
            frame = placement
            crop = Rect(x: 0, y: 0, width: photoWidth, height: photoHeight)
        }
        // The crop rule places the whole picture's crop; the halves are cut from it.
        var whole = PlacedPhoto(photo: photo.id, cell: frame, placement: placement, crop: crop, pixelWidth: 0,
                                pixelHeight: 0, cropShare: 0)
        whole.aim(at: photo, mode: options.crop)
        crop = whole.crop
        // Source pixels per point, the same on both pages, so the halves are one picture cut in two.
        let perPoint = crop.width / placement.width
        let scale = options.keepOriginals ? 1 : min(1, placement.width / 72 * options.dpi / crop.width)
        let cropShare = max(0, 1 - crop.width * crop.height / (photoWidth * photoHeight))
        return [0.0, trim].map { origin in
            let start = max(placement.x, origin), end = min(placement.x + placement.width, origin + media)
            let x = crop.x + (start - placement.x) * perPoint
            let halfCrop = Rect(x: x, y: crop.y, width: min((end - start) * perPoint, photoWidth - x),
                                height: crop.height)
            let onPage = Rect(x: start - origin + room, y: placement.y, width: end - start, height: placement.height)
            let frameStart = max(frame.x, origin), frameEnd = min(frame.x + frame.width, origin + media)
            // The crop is kept exact rather than trimmed to whole output pixels (as a single page's is): the halves
            // must meet to the point; the pixels' aspect is off by less than one pixel across the page.
            return PlacedPhoto(photo: photo.id,
                               cell: Rect(x: frameStart - origin + room, y: frame.y, width: frameEnd - frameStart,
                                          height: frame.height),
                               placement: onPage, crop: halfCrop,
                               pixelWidth: max(1, Int((halfCrop.width * scale).rounded())),
                               pixelHeight: max(1, Int((halfCrop.height * scale).rounded())),
                               cropShare: cropShare, cropSource: whole.cropSource, cutsRegion: whole.cutsRegion)
        }
    }
}
