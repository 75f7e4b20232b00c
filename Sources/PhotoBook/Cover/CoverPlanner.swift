import Typeface
import Geometry

/// The words of a wrap cover and the font's measure to set them with.
/// How the title goes along a wrap cover's spine (`--spine-text`).
public enum SpineTextMode: String, Sendable, CaseIterable {
    /// A column of upright characters, as Japanese and Chinese books set their spines.
    case vertical
    /// One line turned a quarter clockwise, reading top to bottom, as English-language books do.
    case rotated
    /// Vertical when most of the title is Chinese characters, kana or Hangul and the font sets columns.
    case auto
}

public struct CoverWords: Sendable {
    public var measure: any TextMeasure
    public var title: String
    public var subtitle: String?
    public var author: String?
    public var spineText: SpineTextMode = .auto

    public init(measure: any TextMeasure, title: String, subtitle: String? = nil, author: String? = nil) {
        self.measure = measure
        self.title = title
        self.subtitle = subtitle
        self.author = author
    }
}

/// Everything a wrap cover is made of, placed: the page's parts, the photos' cells and crops, the words.
public struct CoverPlan: Sendable, Equatable {
    public var geometry: CoverGeometry
    /// The front photo (photo 0), covering the front panel to its bleed edges.
    public var front: PlacedPhoto
    /// The back photo (photo 1), covering the back panel to its bleed edges; nil for a plain back.
    public var back: PlacedPhoto?
    /// The title, subtitle and author at the top of the front, inside its safe area, over the photo.
    public var frontTexts: [PlacedText] = []
    /// The title, and the author when there is room, along the spine.
    public var spineTexts: [SpineText] = []
    /// What did not fit, in words for the user.
    public var warnings: [String] = []

    /// The cover as the render pipeline takes a page: the front photo, then the back one, the front's words shaded
    /// by the front photo, the spine's lines; cut at the TrimBox, printed to the edge of the page.
    public var page: PlannedPage {
        var page = PlannedPage(kind: .wrapCover, size: geometry.mediaSize, photos: [front] + (back.map { [$0] } ?? []))
        page.words = frontTexts
        page.wordsTakeShadeFromPhoto = true
        page.spineTexts = spineTexts
        page.number = 1
        let media = geometry.mediaSize
        page.trimBox = geometry.trimBox
        page.bleedBox = Rect(x: 0, y: 0, width: media.width, height: media.height)
        page.artBox = geometry.artBox
        page.cropMarks = geometry.caseMarks
        return page
    }
}

/// Plans a wrap cover. Pure: no I/O.
public enum CoverPlanner {
    /// The smallest type set on the spine; a spine too narrow for it stays blank.
    public static let minimumSpineSize = 6.0
    /// The largest type set on the spine, however wide it is.
    public static let maximumSpineSize = 18.0
    /// How far spine text keeps from each fold (1/16 in): the fold never falls exactly where the printer meant it.
    public static let spineFoldClearance = 72.0 / 16
    /// Sizes of the front's title, subtitle and author, and the most lines each may take.
    static let frontStyles: [(role: PlacedText.Role, size: Double, maxLines: Int)] =
        [(.title, 28, 3), (.subtitle, 16, 2), (.author, 12, 2)]

    /// The cover for a front photo of `front` upright pixels (and a back photo of `back`, if any), at `dpi`.
    /// - Returns: nil when the geometry cannot make a cover (`CoverGeometry.problem`).
    public static func plan(geometry: CoverGeometry, front: (width: Int, height: Int), back: (width: Int, height: Int)?,
                            dpi: Double, words: CoverWords?) -> CoverPlan? {
        plan(geometry: geometry, front: BookPhoto(id: 0, width: front.width, height: front.height),
             back: back.map { BookPhoto(id: 1, width: $0.width, height: $0.height) }, dpi: dpi, words: words)
    }

    /// The cover for these photos (their sizes upright, their regions), each crop placed by the crop rule.
    public static func plan(geometry: CoverGeometry, front: BookPhoto, back: BookPhoto?, dpi: Double,
                            crop: CropMode = .auto, words: CoverWords?) -> CoverPlan? {
        guard geometry.problem == nil, dpi.isFinite, dpi > 0 else { return nil }
        var layout = LayoutOptions(pageSize: geometry.mediaSize, margin: 0, dpi: dpi, fit: .fill)
        layout.bleed = 0
        func placed(_ photo: BookPhoto, in cell: Rect) -> PlacedPhoto {
            var placed = Planner.place(photo.id, width: photo.width, height: photo.height, in: cell, options: layout)
            placed.aim(at: photo, mode: crop)
            return placed
        }
        let frontPhoto = placed(front, in: geometry.frontPhotoCell)
        let backPhoto = back.map { placed($0, in: geometry.backPhotoCell) }
        var plan = CoverPlan(geometry: geometry, front: frontPhoto, back: backPhoto)
        if let words {
            plan.frontTexts = frontTexts(words, area: geometry.frontSafeArea, warnings: &plan.warnings)
            plan.spineTexts = spineTexts(words, geometry: geometry, warnings: &plan.warnings)
        }
        return plan
    }

    /// The title, subtitle and author from the top of the front's safe area down, centred, each wrapped.
    static func frontTexts(_ words: CoverWords, area: Rect, warnings: inout [String]) -> [PlacedText] {
        var texts: [PlacedText] = []
        var top = area.y + area.height
        let contents: [PlacedText.Role: String?] = [.title: words.title, .subtitle: words.subtitle, .author: words.author]
        for style in frontStyles {
            guard let content = contents[style.role] ?? nil, !content.isEmpty else { continue }
            let (lines, cut) = TextLines.wrap(content, width: area.width, size: style.size, maxLines: style.maxLines,
                                              measure: words.measure)
            if cut {
                warnings.append("the \(style.role.rawValue) is too long for the front: cut to \(lines.count) "
                                + "line\(lines.count == 1 ? "" : "s") with an ellipsis")
            }
            guard !lines.isEmpty else { continue }
            let leading = style.size * words.measure.lineHeight
            let height = Double(lines.count) * leading
            if top - height < area.y - 1e-6 {
                warnings.append("the \(style.role.rawValue) does not fit inside the front's safe area; left out")
                continue
            }
            texts.append(PlacedText(role: style.role, lines: lines, size: style.size, leading: leading,
                                    box: Rect(x: area.x, y: top - height, width: area.width, height: height),
                                    alignment: .center))
            top -= height + style.size * 0.5
        }
        return texts
    }

    /// The title along the spine, centred across it and along it; with an author, the title from the top of the
    /// spine's safe length and the author ending at its bottom. Smaller type before leaving anything out. A
    /// vertical spine (`SpineTextMode`) sets them as columns of upright characters, the column as wide as the
    /// font's ideographs; a rotated one as a line turned a quarter clockwise.
    static func spineTexts(_ words: CoverWords, geometry: CoverGeometry, warnings: inout [String]) -> [SpineText] {
        let measure = words.measure
        let vertical = Self.setsVertically(words)
        let strip = geometry.spineStrip
        let across = strip.width - 2 * spineFoldClearance
        let extent = vertical ? measure.columnWidth : measure.ascent + measure.descent
        let fitsAcross = extent > 0 ? across / extent : 0
        guard fitsAcross >= minimumSpineSize else {
            let needed = minimumSpineSize * extent + 2 * spineFoldClearance
            warnings.append("the spine is \(millimetres(strip.width)) wide, too narrow for a line of text "
                            + "(\(millimetres(needed)) at least): it is left blank")
            return []
        }
        var size = min(maximumSpineSize, fitsAcross)
        let top = strip.y + strip.height - geometry.safety
        let length = strip.height - 2 * geometry.safety
        guard length > 0 else { return [] }
        // The space between title and author: two ems, so the two read as two.
        var author = words.author.flatMap { $0.isEmpty ? nil : $0 }
        let width = { (text: String, size: Double) in
            vertical ? measure.columnLength(of: text, size: size) : measure.width(of: text, size: size)
        }
        func needed(_ size: Double) -> Double {
            width(words.title, size) + (author.map { width($0, size) + 2 * size } ?? 0)
        }
        if needed(size) > length {
            // Every width is proportional to the size: the size that fits exactly, if it is not too small.
            let smaller = size * length / needed(size)
            if smaller >= minimumSpineSize {
                size = smaller
            } else if author != nil {
                author = nil
                warnings.append("the author does not fit on the spine beside the title; only the title is there")
                size = min(size, max(minimumSpineSize, size * length / needed(size)))
            }
        }
        var title = words.title
        if width(title, size) > length {
            size = minimumSpineSize
            title = vertical ? Self.columnEllipsized(title, length: length, size: size, measure: measure)
                : TextLines.ellipsized(title, width: length, size: size, measure: measure)
            warnings.append("the title is too long for the spine: cut to \"\(title)\"")
        }
        // Centred across the spine: a column on its middle; a turned line's letters run from one descent left of
        // the baseline to one ascent right.
        let baselineX = vertical ? strip.x + strip.width / 2
            : strip.x + strip.width / 2 - (measure.ascent - measure.descent) * size / 2
        let titleLength = width(title, size)
        guard let author else {
            return [SpineText(role: .title, text: title, size: size, baselineX: baselineX,
                              top: strip.y + strip.height / 2 + titleLength / 2, length: titleLength, vertical: vertical)]
        }
        let authorLength = width(author, size)
        return [SpineText(role: .title, text: title, size: size, baselineX: baselineX, top: top, length: titleLength,
                          vertical: vertical),
                SpineText(role: .author, text: author, size: size, baselineX: baselineX,
                          top: top - length + authorLength, length: authorLength, vertical: vertical)]
    }

    /// Whether the spine's words are set as columns: asked for, or (`auto`) when most of the title's letters are
    /// Chinese characters, kana or Hangul; never when the font cannot set a column.
    static func setsVertically(_ words: CoverWords) -> Bool {
        guard words.measure.columnWidth > 0 else { return false }
        switch words.spineText {
        case .vertical: return true
        case .rotated: return false
        case .auto:
            let letters = words.title.unicodeScalars.filter { $0.properties.isAlphabetic }
            let eastAsian = letters.filter { scalar in
                [Script.han, .hiragana, .katakana, .hangul, .bopomofo].contains(Script(of: scalar))
            }
            return !letters.isEmpty && eastAsian.count * 2 > letters.count
        }
    }

    /// `title` shortened until it fits a column of `length` points with an ellipsis after it (set upright in the
    /// column, its vertical form).
    static func columnEllipsized(_ title: String, length: Double, size: Double, measure: any TextMeasure) -> String {
        TextLines.ellipsized(title) { measure.columnLength(of: $0, size: size) <= length }
    }

    static func millimetres(_ points: Double) -> String {
        Length.format(points / Length.pointsPerMillimetre) + " mm"
    }
}
