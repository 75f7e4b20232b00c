/// A photo of the book: its place, from 0, in the list the book is made from (a build's files, in the order its
/// report lists them). The probe, the plan, the renders, the description file and the report all name a photo
/// by it, so that nothing translates one list's positions into another's.
public struct PhotoID: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// Its place in that list.
    public let index: Int

    public init(_ index: Int) { self.index = index }
    public init(integerLiteral index: Int) { self.index = index }

    public static func < (a: PhotoID, b: PhotoID) -> Bool { a.index < b.index }
    public var description: String { "photo \(index)" }
}
