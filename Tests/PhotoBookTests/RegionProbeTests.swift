import Foundation
import Geometry
import Imaging
import Testing
import TestSupport
@testable import PhotoBook

/// Regions, captions and dates as the probe finds them: in the photo's XMP or its sidecar, turned upright.
struct RegionProbeTests {
    /// The Curies' faces in the upright picture: left, top, width, height as fractions (Fixtures/face-regions).
    static let marie = Rect(x: 0.315, y: 0.21, width: 0.11, height: 0.20)
    static let pierre = Rect(x: 0.64, y: 0.12, width: 0.10, height: 0.24)

    static func probe(_ path: String) throws -> PhotoInfo {
        let file = try #require(Discovery.discover([path], recursive: false).photos.first)
        return try Probe.probe(file, maxPixels: 100_000_000).get()
    }

    static func near(_ a: Rect, _ b: Rect, within: Double = 1e-4) -> Bool {
        abs(a.x - b.x) < within && abs(a.y - b.y) < within && abs(a.width - b.width) < within
            && abs(a.height - b.height) < within
    }

    @Test("every schema, orientation and place of the fixtures gives the same upright faces", arguments: [
        "curie.1.mwg.jpg", "curie.3.mwg.jpg", "curie.6.mwg.jpg", "curie.8.mwg.jpg", "curie.8.mp.jpg",
        "curie.6.sidecar.jpg", "curie.3.mp.jpg", "curie.6.shown.jpg", "curie.8.shown.jpg",
    ])
    func upright(name: String) throws {
        let info = try Self.probe(Fixtures.path("face-regions/" + name))
        #expect(info.regions.map(\.name) == ["Marie Curie", "Pierre Curie"])
        #expect(Self.near(info.regions[0].box, Self.marie) && Self.near(info.regions[1].box, Self.pierre))
        #expect(info.warnings.isEmpty)
    }

    @Test("a square photo's AppliedToDimensions tells nothing: its boxes are measured on the stored picture, as MWG says")
    func square() throws {
        let info = try Self.probe(Fixtures.path("face-regions/curie.6.square.jpg"))
        #expect(info.orientation == .rightTop && info.storedWidth == 700 && info.storedHeight == 700)
        // make_fixtures.sh: the faces of curie.jpg's columns 70...769, upright.
        #expect(Self.near(info.regions[0].box, Rect(x: 0.278, y: 0.21, width: 0.132, height: 0.20)))
        #expect(Self.near(info.regions[1].box, Rect(x: 0.668, y: 0.12, width: 0.12, height: 0.24)))
        #expect(info.warnings.isEmpty)
    }

    /// An MWG sidecar marking Marie Curie's face, measured on a picture of `width` x `height` pixels.
    static func mwgSidecar(width: Int, height: Int, box: Rect) -> String {
        let (x, y) = (box.x + box.width / 2, box.y + box.height / 2)
        return """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/"
          xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#" xmlns:stDim="http://ns.adobe.com/xap/1.0/sType/Dimensions#">
        <mwg-rs:Regions rdf:parseType="Resource">
        <mwg-rs:AppliedToDimensions stDim:w="\(width)" stDim:h="\(height)" stDim:unit="pixel"/>
        <mwg-rs:RegionList><rdf:Bag><rdf:li rdf:parseType="Resource"><mwg-rs:Type>Face</mwg-rs:Type>
        <mwg-rs:Name>Marie Curie</mwg-rs:Name>
        <mwg-rs:Area stArea:x="\(x)" stArea:y="\(y)" stArea:w="\(box.width)" stArea:h="\(box.height)" stArea:unit="normalized"/>
        </rdf:li></rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions></rdf:Description></rdf:RDF></x:xmpmeta>
        """
    }

    /// Marie Curie's face in the stored 700x840 picture of an orientation-6 photo (XMPRegionsTests' table).
    static let marieStored6 = Rect(x: 0.21, y: 0.575, width: 0.20, height: 0.11)

    @Test("AppliedToDimensions says which picture an orientation-6 photo's boxes were measured on", arguments: [
        // The stored size, or a scaled copy of it: measured on the stored picture, turned.
        (700, 840, true), (1400, 1680, true),
        // The upright size, or a scaled copy of it: measured on the picture as shown, as they are.
        (840, 700, false), (1680, 1400, false),
    ])
    func dimensions(width: Int, height: Int, stored: Bool) throws {
        let folder = try Folder()
        try folder.copy("curie.6.sidecar.jpg", as: "IMG.jpg")
        try folder.write("IMG.jpg.xmp", Self.mwgSidecar(width: width, height: height,
                                                        box: stored ? Self.marieStored6 : Self.marie))
        let info = try Self.probe(folder.path + "/IMG.jpg")
        #expect(info.regions.count == 1 && Self.near(info.regions[0].box, Self.marie), "\(info.regions)")
        #expect(info.warnings.isEmpty)
    }

    @Test("AppliedToDimensions of neither shape refuses the boxes, turned photo or not")
    func neitherShape() throws {
        let folder = try Folder()
        try folder.copy("curie.6.sidecar.jpg", as: "IMG.jpg")
        try folder.write("IMG.jpg.xmp", Self.mwgSidecar(width: 1000, height: 1000, box: Self.marie))
        let info = try Self.probe(folder.path + "/IMG.jpg")
        #expect(info.regions.isEmpty)
        #expect(info.warnings == ["its XMP sidecar IMG.jpg.xmp: its regions were marked on a picture of 1000 x 1000 "
                                  + "pixels, another shape than this one (cropped since?); they are ignored"])
    }

    @Test("which picture boxes were measured on, by orientation, stored size and AppliedToDimensions", arguments: [
        // (orientation, stored width, height, applied width, height, measured upright)
        (6, 700, 840, 840.0, 700.0, true), (8, 700, 840, 840, 700, true), (5, 700, 840, 840, 700, true),
        (7, 700, 840, 840, 700, true), (6, 700, 840, 700, 840, false), (8, 700, 840, 700, 840, false),
        // A square photo's say nothing: MWG's stored picture.
        (6, 700, 700, 700, 700, false), (8, 700, 703, 703, 700, false),
        // Orientations that do not swap the sides: the stored picture is the upright one's shape.
        (1, 840, 700, 700, 840, false), (3, 840, 700, 840, 700, false),
        // Nothing to go by, or another shape (XMPRegions refuses those before this is asked).
        (6, 700, 840, 0, 0, false), (6, 700, 840, 1000, 1000, false),
    ])
    func measuredUpright(orientation: Int, storedWidth: Int, storedHeight: Int, appliedWidth: Double,
                         appliedHeight: Double, upright: Bool) throws {
        let applied = appliedWidth > 0 ? (width: appliedWidth, height: appliedHeight) : nil
        let turn = try #require(Orientation(rawValue: orientation))
        #expect(Probe.measuredUpright(applied: applied, storedWidth: storedWidth, storedHeight: storedHeight,
                                      orientation: turn) == upright)
    }

    @Test("an IPTC circle turns with the photo as its bounding box")
    func iptc() throws {
        let info = try Self.probe(Fixtures.path("face-regions/curie.6.iptc.jpg"))
        #expect(Self.near(info.regions[0].box, Self.marie))
        // The circle's box round Pierre's face, stored (0.12, 0.21, 0.24, 0.20), upright.
        #expect(Self.near(info.regions[1].box, Rect(x: 0.59, y: 0.12, width: 0.20, height: 0.24)))
    }

    @Test("a sidecar's caption and date go ahead of the photo's own")
    func sidecarWords() throws {
        let darktable = try Self.probe(Fixtures.path("face-regions/curie.6.sidecar.jpg"))
        #expect(darktable.file.sidecar == Fixtures.path("face-regions/curie.6.sidecar.jpg.xmp"))
        #expect(darktable.description == "Pierre and Marie Curie in their laboratory")
        #expect(darktable.captureDate?.localText == "1904-06-01 10:30:00")
        let lightroom = try Self.probe(Fixtures.path("face-regions/curie.3.mp.jpg"))
        #expect(lightroom.file.sidecar == Fixtures.path("face-regions/curie.3.mp.xmp"))
        #expect(lightroom.description == "The Curies")
        #expect(lightroom.captureDate?.localText == "1904-06-02 09:15:00" && lightroom.captureDate?.utcOffsetMinutes == 60)
        // Without a sidecar the photo's own values stand.
        let own = try Self.probe(Fixtures.path("face-regions/curie.6.mwg.jpg"))
        #expect(own.file.sidecar == nil && own.captureDate == nil)
    }

    @Test("boxes that cannot be used are warned of, naming where they were read")
    func badBoxes() throws {
        let info = try Self.probe(Fixtures.path("face-regions/curie.1.bad.jpg"))
        #expect(info.regions.count == 1 && Self.near(info.regions[0].box, Self.marie))
        #expect(info.warnings == ["its XMP: face region 2 (Outside) lies outside the picture, ignored",
                                  "its XMP: face region 3 (Empty) is empty (0 x 0), ignored"])
    }

    /// A scratch folder holding `photo` (a fixture) and sidecars beside it.
    final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("regions-\(UUID().uuidString)").path
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        func copy(_ fixture: String, as name: String) throws {
            try FileManager.default.copyItem(atPath: Fixtures.path("face-regions/" + fixture), toPath: path + "/" + name)
        }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
        }
    }

    static func sidecar(description: String, regionX: Double = 0.5) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:MP="http://ns.microsoft.com/photo/1.2/"
          xmlns:MPRI="http://ns.microsoft.com/photo/1.2/t/RegionInfo#" xmlns:MPReg="http://ns.microsoft.com/photo/1.2/t/Region#">
        <dc:description><rdf:Alt><rdf:li xml:lang="x-default">\(description)</rdf:li></rdf:Alt></dc:description>
        <MP:RegionInfo rdf:parseType="Resource"><MPRI:Regions><rdf:Bag><rdf:li MPReg:Rectangle="\(regionX), 0.1, 0.1, 0.1"/>
        </rdf:Bag></MPRI:Regions></MP:RegionInfo></rdf:Description></rdf:RDF></x:xmpmeta>
        """
    }

    @Test("IMG.jpg.xmp before IMG.xmp, either case; a sidecar's bad box is named by the sidecar")
    func precedence() throws {
        let folder = try Folder()
        try folder.copy("curie.jpg", as: "IMG_1.jpg")
        try folder.write("IMG_1.XMP", Self.sidecar(description: "Lightroom's"))
        #expect(try Self.probe(folder.path + "/IMG_1.jpg").description == "Lightroom's")
        try folder.write("IMG_1.jpg.xmp", Self.sidecar(description: "darktable's", regionX: 1.5))
        let info = try Self.probe(folder.path + "/IMG_1.jpg")
        #expect(info.description == "darktable's" && info.regions.isEmpty)
        #expect(info.warnings == ["its XMP sidecar IMG_1.jpg.xmp: face region 1 lies outside the picture, ignored"])
    }

    @Test("a sidecar too large to be one is not read, and said so")
    func tooLarge() throws {
        let folder = try Folder()
        try folder.copy("curie.1.mwg.jpg", as: "big.jpg")
        try folder.write("big.jpg.xmp", String(repeating: " ", count: (1 << 20) + 1))
        let info = try Self.probe(folder.path + "/big.jpg")
        #expect(info.warnings == ["its XMP sidecar big.jpg.xmp is larger than 1 MB and was not read"])
        // The photo's own regions still count.
        #expect(info.regions.count == 2)
    }

    @Test("a sidecar is never a photo, found in a folder or named on the command line")
    func discovery() throws {
        let folder = try Folder()
        try folder.copy("curie.jpg", as: "a.jpg")
        try folder.write("a.jpg.xmp", Self.sidecar(description: "a"))
        try folder.write("orphan.xmp", Self.sidecar(description: "none"))
        let found = Discovery.discover([folder.path], recursive: false)
        #expect(found.photos.map(\.path) == [folder.path + "/a.jpg"])
        #expect(found.photos[0].sidecar == folder.path + "/a.jpg.xmp")
        #expect(found.warnings.isEmpty && found.errors.isEmpty)
        #expect(found.notes.map(\.reason) == ["XMP sidecar, read with its photo",
                                              "XMP sidecar with no photo of that name beside it, skipped"])
        // As a shell's `folder/*` names them.
        let named = Discovery.discover(["a.jpg", "a.jpg.xmp", "orphan.xmp"].map { folder.path + "/" + $0 }, recursive: false)
        #expect(named.photos.map(\.path) == [folder.path + "/a.jpg"])
        #expect(named.warnings.isEmpty && named.errors.isEmpty && named.notes.count == 2)
    }
}
