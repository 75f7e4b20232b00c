import PDF

/// The book's TrueType font as the planner measures it: the widths, extent and coverage of the very font file the
/// PDF embeds, through the PDF module's metrics (a private document of its own, used under a lock).
public final class BookFont: TextMeasure, Sendable {
    /// DejaVu Sans, from Debian's fonts-dejavu-core, which `make deps` installs.
    public static let defaultPath = PDFFont.defaultPath

    private let metrics: PDFFontMetrics

    /// Loads the font at `path`; the error names the file and what is wrong with it.
    public init(path: String) throws(PDFError) {
        metrics = try PDFFontMetrics(path: path)
    }

    public var path: String { metrics.path }
    public var fontName: String { metrics.name }
    public var ascent: Double { metrics.ascent }
    /// Positive below the baseline (the PDF module gives it negative, as the font does).
    public var descent: Double { abs(metrics.descent) }
    public func width(of text: String, size: Double) -> Double { metrics.width(of: text, size: size) }
    public func covers(_ scalar: Unicode.Scalar) -> Bool { metrics.covers(scalar) }
}
