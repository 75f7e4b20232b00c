import Geometry

/// One thing a print shop's preflight would flag in the book: what kind, on which page, in words for the user.
public struct PreflightFinding: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, Codable {
        /// A photo prints below `Preflight.printShopDPI` after its crop.
        case lowResolution
        /// A text's drawn lines reach outside the page's safety area (the ArtBox).
        case textOutsideSafety
        /// On facing pages, a text lies within the gutter: the binding plus the safety margin from the fold.
        case textInGutter
        /// On facing pages, a photo that is not a spread crosses the fold or lies in the binding.
        case photoInGutter
        /// The written file is larger than the print service takes.
        case fileSize
    }

    public var kind: Kind
    /// The page (1-based), when it is about one.
    public var page: Int?
    public var message: String
    /// The photo it is about, when it is about one.
    public var path: String?

    public init(kind: Kind, page: Int?, path: String? = nil, message: String) {
        self.kind = kind
        self.page = page
        self.message = message
        self.path = path
    }

    /// Whether `--strict` refuses the book for it: what is cut off or lost in the binding, or too large to upload.
    /// A low density is for `--min-dpi` to refuse.
    public var refusedWhenStrict: Bool { kind != .lowResolution }
}

/// The checks a print shop makes before it takes a book, made on every plan (the dry run's too), on the same
/// placed lines the PDF draws (`PlacedText.drawnLines`).
public enum Preflight {
    /// Below this density online print shops warn or refuse (docs/research/print-shops.md).
    public static let printShopDPI = 200.0

    /// The findings on `plan`: photos below 200 dpi, words outside the safety area or in the gutter, photos across
    /// the gutter. `measure` sets the words as the PDF will; `path` names a photo.
    static func check(_ plan: BookPlan, options: LayoutOptions, measure: (any TextMeasure)?,
                      path: (PhotoID) -> String) -> [PreflightFinding] {
        var findings: [PreflightFinding] = []
        let facing = options.binding > 0 || options.spreads
        let inset = options.safety ?? options.margin
        for page in plan.pages {
            for photo in page.photos where photo.printedDPI(options) < printShopDPI {
                findings.append(PreflightFinding(
                    kind: .lowResolution, page: page.number, path: path(photo.photo),
                    message: "page \(page.number): \(path(photo.photo)) prints at \(Int(photo.printedDPI(options).rounded())) "
                        + "dpi after its crop, below the \(Int(printShopDPI)) dpi print shops ask for"))
            }
            let trim = page.trimBox
            // Page 1 is a right-hand page: its fold is on the left.
            let foldOnLeft = page.number % 2 == 1
            let fold = foldOnLeft ? trim.x : trim.x + trim.width
            let gutter = options.binding + inset
            if let measure {
                for text in page.texts {
                    let what = text.role == .pageNumber ? "page number" : text.role.rawValue
                    let words = "the \(what) \"\(text.lines.joined(separator: " "))\""
                    let lines = text.drawnLines(measure: measure)
                    if let out = lines.first(where: { !contains(page.artBox, $0.rect) }) {
                        findings.append(PreflightFinding(
                            kind: .textOutsideSafety, page: page.number,
                            message: "page \(page.number): \(words) reaches outside the safe area (ArtBox) by "
                                + "\(millimetres(overhang(out.rect, page.artBox))), which keeps \(millimetres(inset)) inside "
                                + "the trim; widen the margin or narrow --safety"))
                    }
                    if facing, let near = lines.first(where: { distance(of: $0.rect, from: fold, left: foldOnLeft) < gutter - 1e-6 }) {
                        findings.append(PreflightFinding(
                            kind: .textInGutter, page: page.number,
                            message: "page \(page.number): \(words) lies in the gutter, "
                                + "\(millimetres(max(0, distance(of: near.rect, from: fold, left: foldOnLeft)))) from the "
                                + "fold (keep \(millimetres(gutter)): the binding and the safety margin)"))
                    }
                }
            }
            guard facing, page.spread == nil else { continue }
            // A photo may reach the binding's edge, never into it, and with no binding never to the fold itself.
            for photo in page.photos where distance(of: photo.cell, from: fold, left: foldOnLeft) < max(options.binding, 0.01) - 1e-6 {
                findings.append(PreflightFinding(
                    kind: .photoInGutter, page: page.number, path: path(photo.photo),
                    message: "page \(page.number): \(path(photo.photo)) runs into the gutter but is not a spread "
                        + "(the fold would cut it)"))
            }
        }
        return findings
    }

    /// The finding for a written file of `size` bytes against a service's `limit`, or nil within it.
    public static func fileSize(_ size: Int, limit: FileSizeLimit) -> PreflightFinding? {
        guard size > limit.bytes else { return nil }
        return PreflightFinding(kind: .fileSize, page: nil,
                                message: "the PDF is \(megabytes(size)), over the \(limit.described)")
    }

    /// How far `rect` keeps from a fold at x `fold` on the page's left (or right) edge; negative past it.
    static func distance(of rect: Rect, from fold: Double, left: Bool) -> Double {
        left ? rect.x - fold : fold - (rect.x + rect.width)
    }

    static func contains(_ outer: Rect, _ inner: Rect) -> Bool {
        inner.x >= outer.x - 1e-6 && inner.y >= outer.y - 1e-6 && inner.x + inner.width <= outer.x + outer.width + 1e-6
            && inner.y + inner.height <= outer.y + outer.height + 1e-6
    }

    /// How far `inner` reaches past `outer` on its worst side.
    static func overhang(_ inner: Rect, _ outer: Rect) -> Double {
        max(outer.x - inner.x, inner.x + inner.width - outer.x - outer.width, outer.y - inner.y,
            inner.y + inner.height - outer.y - outer.height, 0)
    }

    static func millimetres(_ points: Double) -> String {
        Length.format(points / Length.pointsPerMillimetre) + " mm"
    }

    /// `12.3 MB` (10^6 bytes, as the services quote their limits); below 0.1 MB, in bytes.
    public static func megabytes(_ bytes: Int) -> String {
        bytes < 100_000 ? "\(bytes) bytes" : Length.format(Double(bytes) / 1e6) + " MB"
    }
}

/// A print service's largest upload: the file must not be larger than `bytes`.
public struct FileSizeLimit: Sendable, Equatable {
    public var bytes: Int
    /// Whose limit it is, for the message: `Amazon KDP`.
    public var owner: String

    /// `650 MB Amazon KDP takes`, as a message says it.
    public var described: String { "\(Preflight.megabytes(bytes)) \(owner) takes" }

    public init(bytes: Int, owner: String) {
        (self.bytes, self.owner) = (bytes, owner)
    }
}

extension PlacedText {
    /// One line as the PDF draws it: where its baseline starts and the rectangle its letters cover (one ascent
    /// above the baseline to one descent below, the advance width across).
    public struct DrawnLine: Sendable, Equatable {
        public var text: String
        public var x: Double
        public var baseline: Double
        public var rect: Rect
    }

    /// The lines placed in their box as aligned: what `BuildPDFOperation` draws and the preflight checks.
    public func drawnLines(width: (String, Double) -> Double, ascent: Double, descent: Double) -> [DrawnLine] {
        lines.enumerated().map { index, line in
            let advance = width(line, size)
            let x: Double
            switch alignment {
            case .left: x = box.x
            case .center: x = box.x + (box.width - advance) / 2
            case .right: x = box.x + box.width - advance
            }
            let base = baseline(of: index, ascent: ascent)
            return DrawnLine(text: line, x: x, baseline: base,
                             rect: Rect(x: x, y: base - descent * size, width: advance, height: (ascent + descent) * size))
        }
    }

    func drawnLines(measure: any TextMeasure) -> [DrawnLine] {
        let measure = measure.speaking(language)
        return drawnLines(width: { measure.width(of: $0, size: $1) }, ascent: measure.ascent, descent: measure.descent)
    }
}
