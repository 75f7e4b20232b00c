import Geometry

/// Turns photo facts and layout options into pages. Pure: no I/O, no state.
public enum Planner {
    /// Pages in the options' layout mode, photos in their order, each placed in its cell; with `text`, a title
    /// page first, captions under their photos, section headings and page numbers in the footer.
    /// - Returns: nil when the options cannot make a book (`LayoutOptions.problem`).
    public static func plan(photos: [BookPhoto], options: LayoutOptions, text: BookText? = nil) -> BookPlan? {
        plan(photos: photos, options: options, text: text, given: nil)
    }

    /// `plan` of photos numbered from 0 and without words of their own.
    /// - Parameter uprightSizes: each photo's pixel size as it is seen (EXIF orientation applied).
    public static func plan(uprightSizes: [(width: Int, height: Int)], options: LayoutOptions,
                            text: BookText? = nil) -> BookPlan? {
        plan(photos: BookPhoto.numbered(uprightSizes), options: options, text: text, given: nil)
    }

    /// `plan`, with the pages of a description file in place of the options' layout when `given` is not nil.
    static func plan(photos: [BookPhoto], options: LayoutOptions, text: BookText?, given: [GivenPage]?) -> BookPlan? {
        guard options.problem == nil, var area = options.contentArea else { return nil }
        let byID = Dictionary(photos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var pages: [PlannedPage] = []
        if let title = text?.title, let text {
            pages.append(titlePage(title, photos: photos, area: area, options: options, text: text))
        }
        if let text, text.pageNumbers {
            // The footer is inside the margins, so the number stays within the area a printer keeps safe.
            area.y += text.footerHeight
            area.height -= text.footerHeight
            guard area.height >= LayoutOptions.minimumContentSide else { return nil }
        }
        // The book's layout, chosen once, says which photos share each page; the pages are made here.
        let frame = LayoutFrame(area: area, options: options, text: text, firstPage: pages.count + 1)
        guard let runs = layout(options, given: given).runs(of: photos, in: frame) else { return nil }
        for run in runs {
            guard let runPages = self.pages(of: run, in: frame) else { return nil }
            var first = true
            for var page in runPages {
                // A blank page before a spread is not where the run starts: its heading goes on the spread.
                if page.kind == .blank { pages.append(page); continue }
                if first, let heading = run.section.heading {
                    page.words.insert(heading, at: 0)
                    page.heading = heading.lines.joined(separator: " ")
                }
                first = false
                pages.append(page)
            }
        }
        // A print shop binds in fixed steps: blank pages at the end make up the count.
        var blank = 0
        var spreadBlanks: [SpreadBlank] = []
        while pages.count % max(1, options.padTo) != 0 {
            pages.append(PlannedPage(kind: .blank, size: options.mediaSize))
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
            if options.spreads, pages[number].kind == .blank, number + 1 < pages.count,
               pages[number + 1].spread == .left, let photo = pages[number + 1].photos.first {
                spreadBlanks.append(SpreadBlank(page: number + 1, photo: photo.photo))
            }
            // Everything was planned on a left-hand page; a right-hand one moves over by the binding. Then cells
            // on the trim edge run on over the bleed.
            if options.binding > 0 && (number + 1) % 2 == 1 { shift(&pages[number], by: options.binding) }
            if options.bleed > 0 { bleed(&pages[number], photos: byID, options: options) }
            guard let text, text.pageNumbers, !(number == 0 && text.title != nil),
                  pages[number].kind != .blank, let area = options.area(onPage: number + 1) else { continue }
            pages[number].pageNumber = text.pageNumber(number + 1, area: area)
        }
        // Each crop goes where the crop rule says, on every page the photo is on, once its cell is final (a cell
        // that grew into the bleed has a crop of another shape). A spread's halves were placed as one picture.
        for page in pages.indices where pages[page].spread == nil {
            for slot in pages[page].photos.indices {
                guard let photo = byID[pages[page].photos[slot].photo] else { continue }
                pages[page].photos[slot].aim(at: photo, mode: options.crop)
            }
        }
        var plan = BookPlan(pages: pages)
        plan.blankPages = blank
        plan.spreadBlanks = spreadBlanks
        return plan
    }

    static func shift(_ page: inout PlannedPage, by dx: Double) {
        for i in page.photos.indices {
            page.photos[i].cell.x += dx
            page.photos[i].placement.x += dx
            page.photos[i].caption?.box.x += dx
        }
        for i in page.words.indices { page.words[i].box.x += dx }
        page.pageNumber?.box.x += dx
    }

    /// Photos whose cells touch the trim edge, placed again in cells that run on over the bleed (not under their
    /// caption, which sits at the bottom of the cell).
    static func bleed(_ page: inout PlannedPage, photos: [PhotoID: BookPhoto], options: LayoutOptions) {
        for i in page.photos.indices {
            let placed = page.photos[i]
            let cell = extendedIntoBleed(placed.cell, keepingBottom: placed.caption != nil, options: options)
            guard cell != placed.cell, let photo = photos[placed.photo] else { continue }
            page.photos[i] = place(photo.id, width: photo.width, height: photo.height, in: cell, options: options)
            page.photos[i].caption = placed.caption
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

    /// Places one photo of `width` x `height` pixels into `cell`.
    /// The largest size of this aspect ratio (width over height) that fits in `frame`: `--fit fit`'s picture.
    static func fitted(aspect: Double, in frame: Rect) -> (width: Double, height: Double) {
        aspect > frame.width / frame.height
            ? (width: frame.width, height: frame.width / aspect)
            : (width: frame.height * aspect, height: frame.height)
    }

    static func place(_ photo: PhotoID, width: Int, height: Int, in cell: Rect, options: LayoutOptions) -> PlacedPhoto {
        let photoWidth = Double(max(width, 1)), photoHeight = Double(max(height, 1))
        let photoAspect = photoWidth / photoHeight
        let cellAspect = cell.width / cell.height

        let placement: Rect
        var crop: Rect
        switch options.fit {
        case .fill:
            placement = cell
            crop = Planner.centredCrop(width: photoWidth, height: photoHeight, aspect: cellAspect)
        case .fit:
            let size = fitted(aspect: photoAspect, in: cell)
            placement = Rect(x: cell.x + (cell.width - size.width) / 2, y: cell.y + (cell.height - size.height) / 2,
                             width: size.width, height: size.height)
            crop = Rect(x: 0, y: 0, width: photoWidth, height: photoHeight)
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
            crop = Rect(x: snap(crop.x, crop.width, pixelWidth, photoWidth),
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
        return PlacedPhoto(photo: photo, cell: cell, placement: placement, crop: crop,
                           pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                           cropShare: max(0, 1 - crop.width * crop.height / (photoWidth * photoHeight)))
    }
}

extension Planner {
    /// The largest part of a `width` x `height` photo with the given aspect ratio (width over height), centred:
    /// what aspect-fill shows of it.
    static func centredCrop(width: Double, height: Double, aspect: Double) -> Rect {
        if width / height > aspect {
            let cropWidth = height * aspect
            return Rect(x: (width - cropWidth) / 2, y: 0, width: cropWidth, height: height)
        }
        let cropHeight = width / aspect
        return Rect(x: 0, y: (height - cropHeight) / 2, width: width, height: cropHeight)
    }
}
