import Words
/// A photo as the planner takes it: which it is, its size as seen, and the words that go with it.
public struct BookPhoto: Sendable, Equatable {
    public var id: PhotoID
    /// Its pixel size as it is seen (EXIF orientation applied).
    public var width: Int
    public var height: Int
    /// The caption under it, as given: the page shows it wrapped, cut with an ellipsis when it is too long.
    public var caption: String?
    /// The caption's own language (a description's `lang`), when it says one.
    public var captionLanguage: Language?
    /// The heading of its section, whole; a photo whose heading differs from the one before it starts a section.
    public var heading: String?
    /// Where its crop keeps its centre (a description file's `focus`); nil for the middle.
    public var focus: FocusPoint?
    /// The faces, pets and focus points its metadata marks, in the upright photo; its crop keeps them whole
    /// when it can (`CropRule`).
    public var regions: [PhotoRegion]
    /// Where the eye goes in it, when it marks no region: its crop keeps the most of it (`CropRule`).
    public var attention: AttentionMap?

    public init(id: PhotoID, width: Int, height: Int, caption: String? = nil, heading: String? = nil,
                focus: FocusPoint? = nil, regions: [PhotoRegion] = [], attention: AttentionMap? = nil) {
        self.id = id
        self.width = width
        self.height = height
        self.caption = caption
        self.heading = heading
        self.focus = focus
        self.regions = regions
        self.attention = attention
    }

    /// Photos of these sizes, numbered from 0 in order, without words.
    public static func numbered(_ sizes: [(width: Int, height: Int)]) -> [BookPhoto] {
        sizes.enumerated().map { BookPhoto(id: PhotoID($0.offset), width: $0.element.width, height: $0.element.height) }
    }

    /// The shares of its width and height that its faces and pets take together; nil when it marks none.
    var facesExtent: (width: Double, height: Double)? {
        let boxes = regions.filter(\.isSubject).map(\.box)
        guard let first = boxes.first else { return nil }
        let all = boxes.dropFirst().reduce(first) { $0.union($1) }
        return (all.width, all.height)
    }

    /// Width over height; a side of 0 counts as 1.
    var aspect: Double { Double(max(width, 1)) / Double(max(height, 1)) }
}
