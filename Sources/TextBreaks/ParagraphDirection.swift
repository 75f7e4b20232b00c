/// Which way a paragraph, or a run of it, reads.
public enum ParagraphDirection: Sendable, Equatable {
    case leftToRight, rightToLeft
}
