import Imaging
import Synchronization

/// One photo's way through the graph: what the planner decided for it and what its stages hand on.
final class PhotoJob: Sendable {
    let info: PhotoInfo
    let placement: PlacedPhoto
    /// The decoded photo, as stored (not yet oriented), from decode to resize; released as soon as it is used.
    let decoded = Mutex<DecodedPhoto?>(nil)
    /// The JPEG rendered for the page, in the build's private directory.
    let rendered = Mutex<String?>(nil)

    init(info: PhotoInfo, placement: PlacedPhoto) {
        self.info = info
        self.placement = placement
    }
}

struct DecodedPhoto: Sendable {
    var image: RGBImage
}
