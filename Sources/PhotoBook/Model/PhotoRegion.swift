import EXIF
import Geometry

/// A part of a photo its owner's software marked, which a crop should keep whole: a face, a pet, a focus point.
public struct PhotoRegion: Sendable, Equatable {
    public typealias Kind = XMPRegion.Kind

    public var kind: Kind
    /// Its box in the upright photo (EXIF orientation applied), as fractions of the upright width and height
    /// from the top left corner; a focus point has no size.
    public var box: Rect
    public var name: String?

    public init(kind: Kind, box: Rect, name: String? = nil) {
        self.kind = kind
        self.box = box
        self.name = name
    }

    /// A face or a pet: what "as many faces as fit" counts.
    var isSubject: Bool { kind == .face || kind == .pet }
}

/// How a photo's crop is placed in it when its cell cuts some of it away (`--crop`).
public enum CropMode: String, Sendable, CaseIterable {
    /// Around the photo's marked regions when it has some (`CropRule`), else from the centre.
    case auto
    /// From the centre, whatever the photo marks.
    case centre
}

/// Where a photo's crop was placed from, as the dry run, `--verbose` and the report say it.
public enum CropSource: String, Sendable {
    /// Around the regions its metadata marks (faces, pets, focus points).
    case regions
    /// Where its attention map says the eye goes (edges, skin tones, colour): a photo that marks no region.
    case attention
    /// On the focus point a book description gave it.
    case description
    /// From the centre: nothing marked nor clearly interesting off-centre, `--crop centre`, or nothing cropped.
    case centre
}
