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
            let applied = found.appliedWidth.flatMap { w in found.appliedHeight.map { (width: w, height: $0) } }
            let alreadyUpright = measuredUpright(applied: applied, storedWidth: storedWidth, storedHeight: storedHeight,
                                                 orientation: orientation)
            return found.regions.map { alreadyUpright ? unturned($0) : upright($0, orientation: orientation) }
        }
        return []
    }

    /// True when boxes were measured on the upright picture rather than the stored one: `applied`, MWG's
    /// AppliedToDimensions, has the upright picture's shape, which is not the stored one's (a photo that is not
    /// square, turned a quarter by EXIF orientation 5-8).
    ///
    /// Two conventions are met. The MWG guidelines (2.0, 5.9) and IPTC's user guide measure regions on the stored
    /// picture, with AppliedToDimensions its size; some photo managers measure them on the picture as shown, and
    /// give its size (issue 31: 4 of 15 held-out pages cut a face when those boxes were turned a second time).
    /// AppliedToDimensions tells them apart except on a square photo, which keeps MWG's stored convention, as do
    /// boxes without it (Microsoft People, IPTC, an MWG list that gives none). The cost: exiftool's
    /// rotate_regions.config turns boxes and keeps the old dimensions, so boxes it turned to the stored picture of
    /// a photo that an orientation tag then turns back are read as upright (docs/research/face-regions.md (a)).
    static func measuredUpright(applied: (width: Double, height: Double)?, storedWidth: Int, storedHeight: Int,
                                orientation: Orientation) -> Bool {
        guard orientation.swapsDimensions, storedWidth > 0, storedHeight > 0,
              let applied, applied.width > 0, applied.height > 0 else { return false }
        // Normalised boxes fit any scaled copy, so the shape is compared, with XMPRegions' 2%.
        let tolerance = 0.02
        let stored = Double(storedWidth) / Double(storedHeight), shape = applied.width / applied.height
        let square = abs(stored - 1) < tolerance
        // Trap: rotate_regions.config's output under an orientation tag looks like this too and is misread here.
        return !square && abs(shape * stored - 1) < tolerance
    }

    /// A region's box measured on the upright picture, as it is.
    static func unturned(_ region: XMPRegion) -> PhotoRegion {
        PhotoRegion(kind: region.kind, box: Rect(x: region.x, y: region.y, width: region.width, height: region.height),
                    name: region.name)
    }

    /// A region's box measured on the stored picture, turned with the photo into its upright picture.
    static func upright(_ region: XMPRegion, orientation: Orientation) -> PhotoRegion {
        let stored = Rect(x: region.x, y: region.y, width: region.width, height: region.height)
        // Fractions of a 1 x 1 picture turn as pixels do: the turn only mirrors and swaps the axes.
        let box = orientation.uprightRect(ofStored: stored, storedWidth: 1, storedHeight: 1)
        return PhotoRegion(kind: region.kind, box: box, name: region.name)
    }
}
