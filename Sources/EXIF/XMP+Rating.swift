/// The marks a person gives a photo in a photo manager, read from an XMP packet.
public struct OwnerMarks: Sendable, Equatable {
    /// `xmp:Rating`: 1 to 5 stars, 0 unrated, -1 rejected (darktable, digiKam, Lightroom and Bridge write it so).
    public var rating: Int?
    /// digiKam's pick label (`digiKam:PickLabel`): 1 rejected, 2 pending, 3 accepted.
    public var pickLabel: Int?

    public init(rating: Int? = nil, pickLabel: Int? = nil) {
        self.rating = rating
        self.pickLabel = pickLabel
    }

    /// Rejected by its owner: rated -1, or labelled "rejected".
    public var isRejected: Bool { rating.map { $0 < 0 } ?? false || pickLabel == 1 }
    /// Marked as a keeper: digiKam's "accepted" label.
    public var isPicked: Bool { pickLabel == 3 }
}

extension XMP {
    static let basicNamespace = "http://ns.adobe.com/xap/1.0/"
    static let digiKamNamespace = "http://www.digikam.org/ns/1.0/"

    /// The packet's rating and pick label; nil when it has neither (or cannot be read). A rating is rounded to
    /// a whole number of stars and kept within -1...5 (XMP allows reals; some writers put 0.5 steps).
    public static func marks(inPacket packet: [UInt8]) -> OwnerMarks? {
        guard let tree = XMPTree(packet: packet) else { return nil }
        var marks = OwnerMarks()
        for description in tree.descriptions {
            if marks.rating == nil, let number = description.field(basicNamespace, "Rating")?.number {
                marks.rating = number < 0 ? -1 : min(5, Int(number.rounded()))
            }
            if marks.pickLabel == nil, let number = description.field(digiKamNamespace, "PickLabel")?.number,
               (0...3).contains(number) {
                marks.pickLabel = Int(number)
            }
        }
        return marks.rating == nil && marks.pickLabel == nil ? nil : marks
    }
}
