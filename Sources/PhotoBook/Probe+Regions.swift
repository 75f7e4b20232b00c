import EXIF
import Geometry
import Imaging
import Platform

/// What an XMP sidecar beside a photo says (`PhotoFile.sidecar`): darktable, digiKam and Lightroom keep a photo's
/// words and face tags there, and its values go ahead of the photo's own, as those programs read them.
struct Sidecar {
    /// The sidecar's name, for warnings.
    var name: String
    var packet: [UInt8]

    /// The sidecar at `path`; nil, with a warning, when it cannot be read or is too large to be a sidecar.
    static func read(_ path: String, warnings: inout [String]) -> Sidecar? {
        let name = FileSystem.baseName(path)
        switch FileSystem.readFile(path, limit: XMP.packetLimit + 1) {
        case .failure(let failure):
            warnings.append("its XMP sidecar \(name) cannot be read (\(failure)); the photo's own metadata is used")
            return nil
        case .success(let bytes) where bytes.count > XMP.packetLimit:
            warnings.append("its XMP sidecar \(name) is larger than \(XMP.packetLimit >> 20) MB and was not read")
            return nil
        case .success(let bytes):
            return Sidecar(name: name, packet: bytes)
        }
    }

    /// The caption: `dc:description`, else `dc:title`.
    var caption: String? { XMP.description(inPacket: packet) ?? XMP.title(inPacket: packet) }
    var captureDate: CaptureDate? { XMP.captureDate(inPacket: packet) }
    var marks: OwnerMarks? { XMP.marks(inPacket: packet) }
}

extension Probe {
    /// The regions a photo marks, in its upright picture: the sidecar's when it marks any, else its own XMP's;
    /// each box that cannot be used said in `warnings`, naming where it was read.
    static func regions(sidecar: Sidecar?, ownXMP: [UInt8]?, storedWidth: Int, storedHeight: Int,
                        orientation: Orientation, warnings: inout [String]) -> [PhotoRegion] {
        let sources = [sidecar.map { ($0.packet, "its XMP sidecar \($0.name)") }, ownXMP.map { ($0, "its XMP") }]
        for case let (packet, place)? in sources {
            guard let found = XMPRegions.read(inPacket: packet, storedWidth: storedWidth, storedHeight: storedHeight)
            else { continue }
            warnings += found.problems.map { "\(place): \($0)" }
            guard !found.regions.isEmpty else { continue }
            return found.regions.map { upright($0, orientation: orientation) }
        }
        return []
    }

    /// A region's box turned with the photo into its upright picture.
    ///
    /// Boxes are always taken as measured on the stored picture and turned by its EXIF orientation, whatever
    /// AppliedToDimensions says. The MWG guidelines (2.0, 5.9) and IPTC's user guide measure regions on the stored
    /// picture, Lightroom refuses face regions turned otherwise and digiKam was fixed to write them so (KDE bugs
    /// 372340, 395243). AppliedToDimensions cannot tell the two apart: exiftool's rotate_regions.config turns the
    /// boxes of a photo it turns but leaves the dimensions as they were, so an orientation-6 photo stored 700x840
    /// says 840x700 over boxes measured on its stored 700x840 (docs/research/face-regions.md (a); curie.8.mwg.jpg);
    /// a square photo's say nothing either way. It only tells a photo cropped since (`XMPRegions` refuses those).
    static func upright(_ region: XMPRegion, orientation: Orientation) -> PhotoRegion {
        let stored = Rect(x: region.x, y: region.y, width: region.width, height: region.height)
        // Fractions of a 1 x 1 picture turn as pixels do: the turn only mirrors and swaps the axes.
        let box = orientation.uprightRect(ofStored: stored, storedWidth: 1, storedHeight: 1)
        return PhotoRegion(kind: region.kind, box: box, name: region.name)
    }
}
