/// A stretch of a paragraph at one bidi embedding level: drawn as one piece, its characters in `direction`.
public struct BidiRun: Sendable, Equatable {
    /// The run's scalars: offsets in Unicode scalars of the paragraph text, logical order, half-open.
    public let range: Range<Int>
    public let direction: ParagraphDirection
    /// The embedding level (even: LTR, odd: RTL).
    public let level: Int

    /// A run at `level`, its direction the level's parity.
    public init(range: Range<Int>, level: Int) {
        self.range = range
        self.level = level
        self.direction = level % 2 == 0 ? .leftToRight : .rightToLeft
    }
}
