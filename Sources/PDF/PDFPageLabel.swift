/// How the pages from `firstPage` on are labelled in a viewer, until the next label's range starts.
///
/// A label is `prefix` followed by the page's number in `style`, counting from `firstNumber` at `firstPage`:
/// e.g. `.none` with prefix "Title" for page 0, then `.decimal` from page 1 numbers the pages "Title", "1", "2"...
public struct PDFPageLabel: Sendable, Equatable {
    public enum Style: Sendable, Equatable {
        /// No number: the label is the prefix alone.
        case none
        /// 1, 2, 3
        case decimal
        /// I, II, III
        case upperRoman
        /// i, ii, iii
        case lowerRoman
        /// A, B, ... Z, AA
        case upperLetters
        /// a, b, ... z, aa
        case lowerLetters
    }

    /// Index of the range's first page, from 0.
    public var firstPage: Int
    public var style: Style
    public var prefix: String
    /// The number of the range's first page, 1 or more.
    public var firstNumber: Int

    public init(firstPage: Int, style: Style, prefix: String = "", firstNumber: Int = 1) {
        self.firstPage = firstPage
        self.style = style
        self.prefix = prefix
        self.firstNumber = firstNumber
    }
}
