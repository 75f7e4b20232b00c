import Geometry

/// The pages a layout's steps make: photos placed in their cells with their captions, the halves of a spread,
/// blank pages, and the title page.
extension Planner {
    /// A run's steps made into pages.
    static func pages(of run: LayoutRun, in frame: LayoutFrame) -> [PlannedPage]? {
        let photos = run.section.photos, options = frame.options
        var pages: [PlannedPage] = []
        var first = true
        for step in run.steps {
            switch step {
            case .page(let cells, let positions):
                pages.append(photoPage(cells, photos: positions.map { photos[$0] }, options: options, text: frame.text))
                first = false
            case .blank:
                pages.append(PlannedPage(kind: .blank, size: options.mediaSize))
            case .spread(let position):
                guard let spread = spreadPages(photos[position], headingArea: first ? run.section.firstArea : nil,
                                               options: options, text: frame.text) else { return nil }
                pages += spread
                first = false
            }
        }
        return pages
    }

    /// A page of photos in the layout's cells, their captions under them.
    static func photoPage(_ layout: PageCells, photos: [BookPhoto], options: LayoutOptions,
                          text: BookText?) -> PlannedPage {
        var page = PlannedPage(kind: .photos(layout.arrangement), size: options.mediaSize)
        for slot in 0..<layout.count {
            let photo = photos[slot]
            var cell = layout.cells[slot]
            var placedCaption: PlacedText?
            if let text, let caption = text.caption(of: photo) {
                let (lines, _) = TextLines.wrap(caption, width: cell.width, size: text.captionSize,
                                                maxLines: text.captionLines,
                                                measure: text.measure.speaking(photo.captionLanguage))
                let band = text.captionBand(lines: lines.count)
                if !lines.isEmpty && cell.height - band >= LayoutOptions.minimumContentSide {
                    placedCaption = PlacedText(role: .caption, lines: lines, size: text.captionSize,
                                               leading: text.captionLeading,
                                               box: Rect(x: cell.x, y: cell.y, width: cell.width,
                                                         height: band - text.captionGap),
                                               alignment: .center, language: photo.captionLanguage)
                    cell.y += band
                    cell.height -= band
                }
            }
            var placed = place(photo.id, width: photo.width, height: photo.height, in: cell, options: options)
            placed.caption = placedCaption
            page.photos.append(placed)
        }
        return page
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
                                            maxLines: text.captionLines,
                                            measure: text.measure.speaking(photo.captionLanguage))
            if !lines.isEmpty {
                band = text.captionBand(lines: lines.count)
                caption = PlacedText(role: .caption, lines: lines, size: text.captionSize, leading: text.captionLeading,
                                     box: Rect(x: right.x, y: right.y, width: right.width, height: band - text.captionGap),
                                     alignment: .center, language: photo.captionLanguage)
            }
        }
        let fill = options.fit == .fill
        // Full bleed reaches the BleedBox, which with crop marks is smaller than the PDF page.
        let bleedBox = options.bleedBox
        let bottom = band > 0 ? content.y + band : fill ? bleedBox.y : content.y
        let top = headingArea.map { $0.y + $0.height } ?? (fill ? bleedBox.y + bleedBox.height : content.y + content.height)
        guard top - bottom >= LayoutOptions.minimumContentSide else { return nil }
        var halves = Spreads.halves(photo, vertical: (bottom, top), options: options)
        // The caption is the photo's, set on the right-hand page.
        halves[1].caption = caption
        return [PlannedPage(kind: .spreadHalf(.left), size: options.mediaSize, photos: [halves[0]]),
                PlannedPage(kind: .spreadHalf(.right), size: options.mediaSize, photos: [halves[1]])]
    }

    /// The title page: the title, subtitle and author at the top of the area inside the margins, and its photo,
    /// when there is one, filling the rest.
    static func titlePage(_ title: BookText.Title, photos: [BookPhoto], area: Rect,
                          options: LayoutOptions, text: BookText) -> PlannedPage {
        var page = PlannedPage(kind: .title, size: options.mediaSize)
        var top = area.y + area.height
        if title.photo == nil { top -= area.height / 4 }
        for (role, content, size, maxLines) in [(PlacedText.Role.title, Optional(title.title), 28.0, 3),
                                                (.subtitle, title.subtitle, 16, 2), (.author, title.author, 12, 2)] {
            guard let content, !content.isEmpty else { continue }
            let (lines, _) = TextLines.wrap(content, width: area.width, size: size, maxLines: maxLines,
                                            measure: text.measure)
            guard !lines.isEmpty else { continue }
            let leading = size * text.measure.lineHeight
            let height = Double(lines.count) * leading
            page.words.append(PlacedText(role: role, lines: lines, size: size, leading: leading,
                                         box: Rect(x: area.x, y: top - height, width: area.width, height: height),
                                         alignment: .center))
            top -= height + size * 0.5
        }
        if let photo = title.photo.flatMap({ id in photos.first { $0.id == id } }) {
            let gap = 8 * Length.pointsPerMillimetre
            let cell = Rect(x: area.x, y: area.y, width: area.width, height: top - gap - area.y)
            if cell.height >= LayoutOptions.minimumContentSide {
                page.photos.append(place(photo.id, width: photo.width, height: photo.height, in: cell, options: options))
            }
        }
        return page
    }
}
