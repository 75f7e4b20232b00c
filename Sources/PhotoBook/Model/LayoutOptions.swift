import Geometry

/// How a photo meets its cell.
public enum FitMode: String, Sendable, CaseIterable {
    /// Cover the whole cell and crop the overflow equally from both sides (aspect-fill, centre crop).
    case fill
    /// Show the whole photo, as large as the cell allows, centred.
    case fit
}

/// The page geometry the planner needs.
public struct LayoutOptions: Sendable, Equatable {
    public var pageSize: PageSize
    /// Blank border on every side, in points.
    public var margin: Double
    /// Target density of the printed photos, in pixels per inch.
    public var dpi: Double
    /// In a proof's plan (`--proof`), the `dpi` of the book it stands for: `dpi` is then the proof's own, for the
    /// screen, and the density checks (the print shops' 200 dpi, `--min-dpi`) are made for that book. Nil for a
    /// book for print.
    public var printDPI: Double? = nil
    public var fit: FitMode
    /// How a crop is placed when the cell cuts part of the photo away: around its marked regions, or centred.
    public var crop: CropMode = .auto
    /// Never resample: every photo keeps its own pixels, whatever density that gives.
    public var keepOriginals: Bool
    /// How photos are shared out over pages.
    public var mode: LayoutMode
    /// The space between two cells, in points.
    public var gap: Double
    /// The most photos an automatic layout puts on one page.
    public var maxPerPage: Int
    /// How far photos that touch the trim edge run past it, in points; the PDF page grows by this on every side.
    public var bleed: Double = 0
    /// How far inside the trim edge text must stay, in points; nil for the margin.
    public var safety: Double?
    /// An inside margin on the spine side of each page, in points: page 1 is a right-hand page, so odd pages have
    /// it on the left and even pages on the right. Books with a binding have facing pages.
    public var binding: Double = 0
    /// Blank pages are added at the end to make the page count a multiple of this.
    public var padTo: Int = 1
    /// Trim marks outside the bleed: the PDF page grows by `CropMarks.room` on every side (see CropMarks.swift).
    public var cropMarks = false
    /// A panorama (upright, at least twice as wide as tall) crosses the gutter of a left-hand (even) page and the
    /// right-hand page after it (`Spreads`). Pages face (page 1 on the right) even without a binding.
    public var spreads = false

    /// The PDF page: the trim size plus, on every side, the trim's offset on it (bleed and room for marks).
    public var mediaSize: PageSize {
        PageSize(width: pageSize.width + 2 * trimOffset, height: pageSize.height + 2 * trimOffset)
    }
    /// Where the sheet is cut, on the PDF page.
    public var trimBox: Rect { Rect(x: trimOffset, y: trimOffset, width: pageSize.width, height: pageSize.height) }
    /// What must survive the cut: the trim less the safety margin.
    public var artBox: Rect {
        let inset = safety ?? margin
        return Rect(x: trimOffset + inset, y: trimOffset + inset, width: pageSize.width - 2 * inset,
                    height: pageSize.height - 2 * inset)
    }

    public init(pageSize: PageSize = .a4, margin: Double = 10 * Length.pointsPerMillimetre,
                dpi: Double = 300, fit: FitMode = .fill, keepOriginals: Bool = false, mode: LayoutMode = .single,
                gap: Double = 4 * Length.pointsPerMillimetre, maxPerPage: Int = 4) {
        self.pageSize = pageSize
        self.margin = margin
        self.dpi = dpi
        self.fit = fit
        self.keepOriginals = keepOriginals
        self.mode = mode
        self.gap = gap
        self.maxPerPage = maxPerPage
    }

    /// The smallest side, in points, of the area a photo can have inside the margins: as small as PDF lets a page
    /// be, so that no photo is drawn smaller than a page could be.
    public static let minimumContentSide = PageSize.sideRange.lowerBound

    /// The widest margin that still leaves `minimumContentSide` points inside it, on this page.
    public var largestMargin: Double {
        max(0, (min(pageSize.width, pageSize.height) - Self.minimumContentSide) / 2)
    }

    /// The area inside the margins, or nil when the margins (or a page or margin that is not a finite size)
    /// leave no room for a photo.
    public var contentArea: Rect? {
        guard pageSize.width.isFinite, pageSize.height.isFinite, margin.isFinite, margin >= 0, bleed.isFinite,
              bleed >= 0 else { return nil }
        guard binding.isFinite, binding >= 0 else { return nil }
        let width = pageSize.width - 2 * margin - binding
        let height = pageSize.height - 2 * margin
        guard width >= Self.minimumContentSide, height >= Self.minimumContentSide else { return nil }
        // A left-hand page's area: the binding is on its right. Right-hand pages move it over (`area(onPage:)`).
        return Rect(x: trimOffset + margin, y: trimOffset + margin, width: width, height: height)
    }

    /// The area inside the margins on page `number` (1-based): on a right-hand (odd) page the binding is on the left.
    public func area(onPage number: Int) -> Rect? {
        guard var area = contentArea else { return nil }
        if number % 2 == 1 { area.x += binding }
        return area
    }

    /// What makes these options impossible to print, or nil when a book can be made with them. The command line
    /// checks this before any photo is read, so a bad value never costs a decode.
    public var problem: LayoutProblem? {
        if !pageSize.isWithinPDFLimits || !mediaSize.isWithinPDFLimits { return .pageSizeOutOfRange }
        if let safety, !(safety >= 0 && safety.isFinite && 2 * safety < min(pageSize.width, pageSize.height)) {
            return .safetyLeavesNoRoom
        }
        if !(dpi.isFinite && dpi > 0) { return .dpiNotPositive }
        guard let area = contentArea else {
            var unbound = self
            unbound.binding = 0
            if binding != 0, unbound.contentArea != nil {
                return .bindingLeavesNoRoom(largest: max(0, pageSize.width - 2 * margin - Self.minimumContentSide))
            }
            return .marginLeavesNoRoom(largest: largestMargin)
        }
        guard gap.isFinite, gap >= 0 else { return .gapLeavesNoRoom(largest: 0) }
        if case .grid(let columns, let rows) = mode {
            guard columns >= 1, rows >= 1 else { return .gridEmpty }
            if PageCells.grid(columns: columns, rows: rows, area: area, gap: gap) == nil {
                let side = LayoutOptions.minimumContentSide
                let largest = min(columns > 1 ? (area.width - side * Double(columns)) / Double(columns - 1) : .infinity,
                                  rows > 1 ? (area.height - side * Double(rows)) / Double(rows - 1) : .infinity)
                return largest >= 0 ? .gapLeavesNoRoom(largest: largest) : .gridTooFine
            }
        }
        if !(1...LayoutLimits.maxPerPage).contains(maxPerPage) { return .maxPerPageOutOfRange }
        if !(1...LayoutLimits.padTo).contains(padTo) { return .padToOutOfRange }
        return nil
    }
}

/// Why a set of layout options cannot make a book.
public enum LayoutProblem: Sendable, Equatable {
    /// A side of the page is outside `PageSize.sideRange`.
    case pageSizeOutOfRange
    /// The target density is zero, negative or not a number.
    case dpiNotPositive
    /// The margins leave less than `LayoutOptions.minimumContentSide` for the photo; `largest` is the widest
    /// margin that would leave enough.
    case marginLeavesNoRoom(largest: Double)
    /// The gaps between a grid's cells leave less than `LayoutOptions.minimumContentSide` for a cell; `largest`
    /// is the widest gap that would leave enough.
    case gapLeavesNoRoom(largest: Double)
    /// A grid of no columns or no rows.
    case gridEmpty
    /// More columns or rows than the area inside the margins can hold at `LayoutOptions.minimumContentSide` each,
    /// even with no gap.
    case gridTooFine
    /// `maxPerPage` outside 1 to `LayoutLimits.maxPerPage`.
    case maxPerPageOutOfRange
    /// A safety margin of half the page or more.
    case safetyLeavesNoRoom
    /// `padTo` outside 1 to `LayoutLimits.padTo`.
    case padToOutOfRange
    /// The binding leaves less than `LayoutOptions.minimumContentSide` across the page; `largest` would not.
    case bindingLeavesNoRoom(largest: Double)
}
