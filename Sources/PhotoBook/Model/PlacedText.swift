import Words
import Geometry

/// Where a line of text sits in its box.
public enum TextAlignment: String, Sendable, Equatable, Codable {
    case left, center, right
}

/// Text on a page, already broken into lines: what it is, where, how large.
public struct PlacedText: Sendable, Equatable {
    public enum Role: String, Sendable, Equatable, Codable {
        case caption, title, subtitle, author, heading, pageNumber
    }

    public var role: Role
    public var lines: [String]
    /// The font size in points.
    public var size: Double
    /// The distance from one baseline to the next, in points.
    public var leading: Double
    /// The box the lines are set in: the first baseline is one ascent below its top.
    public var box: Rect
    public var alignment: TextAlignment
    /// The language of the words when they say their own (a description's caption `lang`), else the book's.
    public var language: Language?

    /// The baseline of line `index`, in points from the bottom of the page.
    public func baseline(of index: Int, ascent: Double) -> Double {
        box.y + box.height - ascent * size - Double(index) * leading
    }
}
