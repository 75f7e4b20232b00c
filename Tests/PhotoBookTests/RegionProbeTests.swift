import Foundation
import Geometry
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
        "curie.6.sidecar.jpg", "curie.3.mp.jpg",
    ])
    func upright(name: String) throws {
        let info = try Self.probe(Fixtures.path("face-regions/" + name))
        #expect(info.regions.map(\.name) == ["Marie Curie", "Pierre Curie"])
        #expect(Self.near(info.regions[0].box, Self.marie) && Self.near(info.regions[1].box, Self.pierre))
        #expect(info.warnings.isEmpty)
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
