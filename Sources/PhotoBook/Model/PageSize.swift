/// A page size in PostScript points (1/72 inch), portrait or as given.
public struct PageSize: Sendable, Equatable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let a3 = PageSize(width: 297 * Length.pointsPerMillimetre, height: 420 * Length.pointsPerMillimetre)
    public static let a4 = PageSize(width: 210 * Length.pointsPerMillimetre, height: 297 * Length.pointsPerMillimetre)
    public static let a5 = PageSize(width: 148 * Length.pointsPerMillimetre, height: 210 * Length.pointsPerMillimetre)
    public static let letter = PageSize(width: 8.5 * 72, height: 11 * 72)
    public static let legal = PageSize(width: 8.5 * 72, height: 14 * 72)

    /// The sides a PDF page may have, in points: ISO 32000-1 Annex C.2 allows 3 to 14,400 units, and libharu
    /// refuses anything else (`HPDF_MIN_PAGE_SIZE`, `HPDF_MAX_PAGE_SIZE`, error 0x1054), but only when the page is
    /// added, after every photo has been decoded: check here first.
    public static let sideRange: ClosedRange<Double> = 3...14_400

    /// True when both sides are within `sideRange`, which PDF readers and libharu accept.
    public var isWithinPDFLimits: Bool { PageSize.sideRange.contains(width) && PageSize.sideRange.contains(height) }

    public static let named: [(name: String, size: PageSize)] = [
        ("a3", .a3), ("a4", .a4), ("a5", .a5), ("letter", .letter), ("legal", .legal),
    ]

    /// Parses `a4`, `Letter`, or `WxH` with a unit (`200x200mm`, `8.5x11in`, `20x30cm`, `600x800pt`).
    public init?(parsing text: String) {
        let lower = text.lowercased()
        if let match = PageSize.named.first(where: { $0.name == lower }) {
            self = match.size
            return
        }
        guard let unit = Length.Unit.allCases.first(where: { lower.hasSuffix($0.rawValue) }) else { return nil }
        let numbers = lower.dropLast(unit.rawValue.count).split(separator: "x", omittingEmptySubsequences: false)
        guard numbers.count == 2, let w = Double(numbers[0]), let h = Double(numbers[1]),
              w.isFinite, h.isFinite, w > 0, h > 0 else { return nil }
        self.init(width: w * unit.points, height: h * unit.points)
    }

    public var description: String {
        if let match = PageSize.named.first(where: { $0.size == self }) { return match.name.uppercased() }
        return "\(Length.format(width / Length.pointsPerMillimetre))x\(Length.format(height / Length.pointsPerMillimetre))mm"
    }
}

/// Lengths as a person types them: `10mm`, `1cm`, `0.5in`, `12pt`.
public enum Length {
    public static let pointsPerMillimetre = 72.0 / 25.4

    public enum Unit: String, CaseIterable, Sendable {
        case mm, cm, `in`, pt
        public var points: Double {
            switch self {
            case .mm: return Length.pointsPerMillimetre
            case .cm: return 10 * Length.pointsPerMillimetre
            case .`in`: return 72
            case .pt: return 1
            }
        }
    }

    /// Points for a length with a unit; a bare number is millimetres. Nil for anything else or a negative value.
    public static func points(parsing text: String) -> Double? {
        let lower = text.lowercased()
        let unit = Unit.allCases.first(where: { lower.hasSuffix($0.rawValue) })
        let number = unit.map { String(lower.dropLast($0.rawValue.count)) } ?? lower
        guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
        return value * (unit ?? .mm).points
    }

    /// A length to a tenth, without trailing zeros: `190`, `93.5`.
    public static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
