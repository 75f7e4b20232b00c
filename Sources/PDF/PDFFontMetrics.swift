import Typeface

/// A TrueType font loaded for measuring only, before the book's document exists: the planner lays out text
/// with it, the render draws with `PDFDocument.loadFont(path:)` of the same file, and both agree to the point.
///
/// Safe to share between threads: the face is immutable.
@dynamicMemberLookup
public final class PDFFontMetrics: Sendable {
    /// Its file, names and vertical metrics: the drawing font's, read the same way.
    public let face: PDFFontFace

    let program: any PDFFontProgram

    /// Loads the font at `path`; throws `.font` naming the file and the reason, as `PDFDocument.loadFont` would.
    public init(path: String) throws(PDFError) {
        do {
            program = try FontFace(path: path)
        } catch {
            throw .font(path: path, reason: error.reason)
        }
        face = PDFFontFace(program)
    }

    /// The metrics of a face already read, measured exactly as `PDFDocument.loadFont(face:)` draws it.
    public init(face: FontFace) {
        program = face
        self.face = PDFFontFace(face)
    }

    /// A property of the face read on the font itself: `ascent` is `face.ascent`.
    public subscript<Value>(dynamicMember member: KeyPath<PDFFontFace, Value>) -> Value { face[keyPath: member] }

    /// The advance width of `text` at `size` points, in points; exactly what `PDFPage.drawText` advances (no
    /// kerning). See `PDFFont.width(of:size:)`.
    public func width(of text: String, size: Double) -> Double { program.width(of: text, size: size) }

    /// True when the font has a glyph for `scalar` (not the empty .notdef box). See `PDFFont.covers(_:)`.
    public func covers(_ scalar: Unicode.Scalar) -> Bool { program.covers(scalar) }
}
