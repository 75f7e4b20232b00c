import Testing
import EXIF
import TestSupport

/// The boxes of the two Curies' faces in the stored picture of `Fixtures/face-regions` for each orientation
/// (left, top, width, height), as make_fixtures.sh turns them from the upright photo.
private let marie: [Int: (Double, Double, Double, Double)] = [
    1: (0.315, 0.21, 0.11, 0.20), 3: (0.575, 0.59, 0.11, 0.20), 6: (0.21, 0.575, 0.20, 0.11), 8: (0.59, 0.315, 0.20, 0.11),
]
private let pierre: [Int: (Double, Double, Double, Double)] = [
    1: (0.64, 0.12, 0.10, 0.24), 3: (0.26, 0.64, 0.10, 0.24), 6: (0.12, 0.26, 0.24, 0.10), 8: (0.64, 0.64, 0.24, 0.10),
]

private func close(_ region: XMPRegion, _ box: (Double, Double, Double, Double)) -> Bool {
    abs(region.x - box.0) < 1e-4 && abs(region.y - box.1) < 1e-4
        && abs(region.width - box.2) < 1e-4 && abs(region.height - box.3) < 1e-4
}

/// The XMP packet of a fixture: a sidecar's whole file, a JPEG's APP1 packet.
private func packet(_ name: String) throws -> [UInt8] {
    let bytes = try Fixtures.bytes("face-regions/" + name)
    return name.hasSuffix(".xmp") ? bytes : try #require(JPEGSegments.xmpPacket(inJPEG: bytes))
}

@Suite("XMP regions: MWG, Microsoft People and IPTC, as real writers put them")
struct XMPRegionsTests {
    @Test("exiftool's MWG regions, child elements and the attribute shorthand, embedded and in a sidecar", arguments: [
        ("curie.1.mwg.jpg", 1, 840.0, 700.0), ("curie.6.mwg.jpg", 6, 700, 840), ("curie.8.mwg.jpg", 8, 700, 840),
        ("curie.6.sidecar.jpg.xmp", 6, 700, 840),
    ])
    func mwg(file: String, orientation: Int, appliedWidth: Double, appliedHeight: Double) throws {
        let (w, h) = orientation >= 5 ? (700, 840) : (840, 700)
        let found = try #require(XMPRegions.read(inPacket: try packet(file), storedWidth: w, storedHeight: h))
        #expect(found.schema == .mwg)
        #expect(found.problems.isEmpty)
        #expect(found.appliedWidth == appliedWidth && found.appliedHeight == appliedHeight)
        #expect(found.regions.map(\.name) == ["Marie Curie", "Pierre Curie"])
        #expect(found.regions.allSatisfy { $0.kind == .face })
        #expect(close(found.regions[0], marie[orientation]!))
        #expect(close(found.regions[1], pierre[orientation]!))
    }

    @Test("boxes measured on the picture as shown are read as written, with the shown size", arguments: [
        "curie.6.shown.jpg", "curie.8.shown.jpg",
    ])
    func shown(file: String) throws {
        // The stored picture is 700x840; AppliedToDimensions says 840x700: the same shape turned, so not refused.
        let found = try #require(XMPRegions.read(inPacket: try packet(file), storedWidth: 700, storedHeight: 840))
        #expect(found.problems.isEmpty && found.appliedWidth == 840 && found.appliedHeight == 700)
        #expect(close(found.regions[0], marie[1]!) && close(found.regions[1], pierre[1]!))
    }

    @Test("no AppliedToDimensions is no reason to doubt the boxes")
    func withoutDimensions() throws {
        let found = try #require(XMPRegions.read(inPacket: try packet("curie.3.mwg.jpg"), storedWidth: 840, storedHeight: 700))
        #expect(found.appliedWidth == nil && found.problems.isEmpty)
        #expect(close(found.regions[0], marie[3]!) && close(found.regions[1], pierre[3]!))
    }

    @Test("Microsoft People rectangles are their top left corner and size", arguments: [
        ("curie.8.mp.jpg", 8), ("curie.3.mp.xmp", 3),
    ])
    func microsoft(file: String, orientation: Int) throws {
        let found = try #require(XMPRegions.read(inPacket: try packet(file), storedWidth: 840, storedHeight: 700))
        #expect(found.schema == .microsoft)
        #expect(found.regions.map(\.name) == ["Marie Curie", "Pierre Curie"])
        #expect(close(found.regions[0], marie[orientation]!) && close(found.regions[1], pierre[orientation]!))
    }

    @Test("IPTC: a rectangle as it is, a circle by its bounding box (the radius a share of the width)")
    func iptc() throws {
        let found = try #require(XMPRegions.read(inPacket: try packet("curie.6.iptc.jpg"), storedWidth: 700, storedHeight: 840))
        #expect(found.schema == .iptc)
        #expect(found.regions.map(\.kind) == [.face, .face])
        #expect(close(found.regions[0], marie[6]!))
        // Radius 0.12 of 700 pixels: 84 pixels, 0.1 of the 840-pixel height.
        #expect(close(found.regions[1], (0.12, 0.21, 0.24, 0.20)))
    }

    @Test("boxes outside the picture or empty are refused by number and name; the good one stays")
    func badBoxes() throws {
        let found = try #require(XMPRegions.read(inPacket: try packet("curie.1.bad.jpg"), storedWidth: 840, storedHeight: 700))
        #expect(found.regions.map(\.name) == ["Marie Curie"])
        #expect(found.problems == ["face region 2 (Outside) lies outside the picture, ignored",
                                   "face region 3 (Empty) is empty (0 x 0), ignored"])
    }

    /// Adobe's toolkit style: structs as nested rdf:Description, fields as attributes, other writers' extensions.
    static let adobe = """
    <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
     <rdf:Description rdf:about="" xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/"
       xmlns:stDim="http://ns.adobe.com/xap/1.0/sType/Dimensions#" xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#"
       xmlns:apple-fi="http://ns.apple.com/faceinfo/1.0/" xmlns:MP="http://ns.microsoft.com/photo/1.2/"
       xmlns:MPRI="http://ns.microsoft.com/photo/1.2/t/RegionInfo#" xmlns:MPReg="http://ns.microsoft.com/photo/1.2/t/Region#">
      <mwg-rs:Regions><rdf:Description>
       <mwg-rs:AppliedToDimensions stDim:w="4032" stDim:h="3024" stDim:unit="pixel"/>
       <mwg-rs:RegionList><rdf:Seq>
        <rdf:li><rdf:Description mwg-rs:Type="Face">
         <mwg-rs:Area stArea:x="0.5" stArea:y="0.4" stArea:w="0.2" stArea:h="0.3" stArea:unit="normalized"/>
         <mwg-rs:Extensions rdf:parseType="Resource"><apple-fi:FaceID>7</apple-fi:FaceID>
          <apple-fi:AngleInfoRoll>270</apple-fi:AngleInfoRoll></mwg-rs:Extensions>
        </rdf:Description></rdf:li>
        <rdf:li><rdf:Description mwg-rs:Type="Focus" mwg-rs:FocusUsage="EvaluatedUsed">
         <mwg-rs:Area stArea:x="0.25" stArea:y="0.75" stArea:unit="normalized"/></rdf:Description></rdf:li>
        <rdf:li><rdf:Description mwg-rs:Type="Focus" mwg-rs:FocusUsage="EvaluatedNotUsed">
         <mwg-rs:Area stArea:x="0.9" stArea:y="0.9" stArea:unit="normalized"/></rdf:Description></rdf:li>
        <rdf:li><rdf:Description mwg-rs:Type="BarCode" mwg-rs:BarCodeValue="123">
         <mwg-rs:Area stArea:x="0.1" stArea:y="0.1" stArea:w="0.1" stArea:h="0.1"/></rdf:Description></rdf:li>
        <rdf:li><rdf:Description mwg-rs:Type="Pet" mwg-rs:Name="Rex">
         <mwg-rs:Area stArea:x="0.95" stArea:y="0.5" stArea:w="0.2" stArea:h="0.2"/></rdf:Description></rdf:li>
       </rdf:Seq></mwg-rs:RegionList>
      </rdf:Description></mwg-rs:Regions>
      <MP:RegionInfo><rdf:Description><MPRI:Regions><rdf:Bag><rdf:li>
       <rdf:Description MPReg:Rectangle="0.1, 0.1, 0.1, 0.1"/></rdf:li></rdf:Bag></MPRI:Regions></rdf:Description>
      </MP:RegionInfo>
     </rdf:Description></rdf:RDF></x:xmpmeta>
    """

    @Test("nested descriptions, a focus point, a pet past the edge; focus points not used and bar codes left out")
    func adobeShape() throws {
        let found = try #require(XMPRegions.read(inPacket: Array(Self.adobe.utf8), storedWidth: 4032, storedHeight: 3024))
        // MWG before Microsoft: a writer of both gives the same faces twice.
        #expect(found.schema == .mwg)
        #expect(found.regions.map(\.kind) == [.face, .focus, .pet])
        #expect(close(found.regions[0], (0.4, 0.25, 0.2, 0.3)))
        #expect(close(found.regions[1], (0.25, 0.75, 0, 0)))
        // The pet runs past the right edge: the part inside is kept.
        #expect(close(found.regions[2], (0.85, 0.4, 0.15, 0.2)))
        #expect(found.problems.isEmpty)
    }

    @Test("boxes measured on a picture of another shape are all refused")
    func otherShape() throws {
        let found = try #require(XMPRegions.read(inPacket: Array(Self.adobe.utf8), storedWidth: 3000, storedHeight: 3000))
        #expect(found.regions.isEmpty)
        #expect(found.problems.count == 1 && found.problems[0].contains("4032 x 3024"))
    }

    @Test("packets that are no XML, or hostile, mark nothing", arguments: [
        "", "<x:xmpmeta", "<a><b></a></b>", "<!DOCTYPE x [<!ENTITY e 'boom'>]><x/>", "<undeclared:x/>",
        String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100),
    ])
    func hostile(text: String) {
        #expect(XMPRegions.read(inPacket: Array(text.utf8), storedWidth: 10, storedHeight: 10) == nil)
    }

    @Test("a crowd past the limit: the first regions are read, and the rest said once")
    func crowd() throws {
        let item = #"<rdf:li MPReg:Rectangle="0.1, 0.1, 0.01, 0.01"/>"#
        let text = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmlns:MP="http://ns.microsoft.com/photo/1.2/" xmlns:MPRI="http://ns.microsoft.com/photo/1.2/t/RegionInfo#"
          xmlns:MPReg="http://ns.microsoft.com/photo/1.2/t/Region#"><MP:RegionInfo rdf:parseType="Resource"><MPRI:Regions>
        <rdf:Bag>\(String(repeating: item, count: 300))</rdf:Bag></MPRI:Regions></MP:RegionInfo></rdf:Description></rdf:RDF>
        </x:xmpmeta>
        """
        let found = try #require(XMPRegions.read(inPacket: Array(text.utf8), storedWidth: 10, storedHeight: 10))
        #expect(found.regions.count == XMPRegions.regionLimit)
        #expect(found.problems == ["more than 256 regions; the rest are ignored"])
    }

    @Test("a packet with no regions has none")
    func none() throws {
        #expect(XMPRegions.read(inPacket: xmpPacket("<dc:title>x</dc:title>"), storedWidth: 10, storedHeight: 10) == nil)
    }
}

@Suite("XMP capture dates and titles, as sidecars hold them")
struct XMPDateTests {
    @Test("ISO 8601 as XMP writes it, and EXIF's form as darktable does", arguments: [
        ("2024-05-01T14:03:07", "2024-05-01 14:03:07", nil as Int?, 0),
        ("2024-05-01T14:03:07.25+02:00", "2024-05-01 14:03:07", 120, 250_000_000),
        ("2024-05-01T14:03Z", "2024-05-01 14:03:00", 0, 0),
        ("2024:05:01 14:03:07", "2024-05-01 14:03:07", nil, 0),
        (" 1904-06-02T09:15:00-05:30 ", "1904-06-02 09:15:00", -330, 0),
    ])
    func dates(text: String, local: String, offset: Int?, nanosecond: Int) throws {
        let date = try #require(CaptureDate(xmpDate: text))
        #expect(date.localText == local && date.utcOffsetMinutes == offset && date.nanosecond == nanosecond)
    }

    @Test("no time of day, or no date, is no capture time", arguments: [
        "2024-05-01", "2024-05", "2024", "2024-13-01T10:00:00", "2024-05-01T25:00", "2024-05-01T10:00:00Zoo", "soon",
    ])
    func notDates(text: String) {
        #expect(CaptureDate(xmpDate: text) == nil)
    }

    @Test("exif:DateTimeOriginal, else photoshop:DateCreated; dc:title")
    func sidecars() throws {
        let darktable = try packet("curie.6.sidecar.jpg.xmp")
        #expect(XMP.captureDate(inPacket: darktable)?.localText == "1904-06-01 10:30:00")
        #expect(XMP.description(inPacket: darktable) == "Pierre and Marie Curie in their laboratory")
        let lightroom = try packet("curie.3.mp.xmp")
        let created = try #require(XMP.captureDate(inPacket: lightroom))
        #expect(created.localText == "1904-06-02 09:15:00" && created.utcOffsetMinutes == 60)
        #expect(XMP.title(inPacket: lightroom) == "The Curies")
    }

    @Test("a name is shown on one line: control characters, line breaks and length are not the packet's to choose")
    func namesAreOneLine() throws {
        let long = String(repeating: "Tom", count: 400)
        let packet = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
         <rdf:Description xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/"
           xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#"><mwg-rs:Regions><rdf:Description><mwg-rs:RegionList>
          <rdf:Seq>
           <rdf:li><rdf:Description mwg-rs:Type="Face" mwg-rs:Name="Ann&#x1b;[2J&#10;photobook: error: forged">
            <mwg-rs:Area stArea:x="2" stArea:y="0.5" stArea:w="0.1" stArea:h="0.1"/></rdf:Description></rdf:li>
           <rdf:li><rdf:Description mwg-rs:Type="Face" mwg-rs:Name="  Bob	Jones&#x85; ">
            <mwg-rs:Area stArea:x="0.5" stArea:y="0.5" stArea:w="0.1" stArea:h="0.1"/></rdf:Description></rdf:li>
           <rdf:li><rdf:Description mwg-rs:Type="Face" mwg-rs:Name="\(long)">
            <mwg-rs:Area stArea:x="0.3" stArea:y="0.5" stArea:w="0.1" stArea:h="0.1"/></rdf:Description></rdf:li>
           <rdf:li><rdf:Description mwg-rs:Type="Face" mwg-rs:Name="&#x7;">
            <mwg-rs:Area stArea:x="0.7" stArea:y="0.5" stArea:w="0.1" stArea:h="0.1"/></rdf:Description></rdf:li>
          </rdf:Seq></mwg-rs:RegionList></rdf:Description></mwg-rs:Regions></rdf:Description></rdf:RDF></x:xmpmeta>
        """
        let found = try #require(XMPRegions.read(inPacket: Array(packet.utf8), storedWidth: 400, storedHeight: 300))
        #expect(found.problems == ["face region 1 (Ann[2J photobook: error: forged) lies outside the picture, ignored"])
        #expect(found.regions.count == 3)
        #expect(found.regions.first?.name == "Bob Jones")
        let cut = try #require(found.regions.dropFirst().first?.name)
        #expect(cut.count == XMPRegions.nameLimit && cut.hasPrefix("TomTom") && cut.hasSuffix("..."), "\(cut)")
        #expect(found.regions.last?.name == nil)
    }
}
