import EXIF
import Testing

/// `XMP.marks`: the stars and labels photo managers write, as darktable, digiKam, Lightroom and Bridge write them.
struct OwnerMarksTests {
    static func packet(_ body: String) -> [UInt8] {
        Array(("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            \(body)
            </rdf:RDF></x:xmpmeta>
            """).utf8)
    }

    @Test(arguments: [
        // darktable and Lightroom: an attribute; Bridge: an element; a reject is -1.
        (#"<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="5"/>"#, OwnerMarks(rating: 5)),
        (#"<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:Rating>4</xmp:Rating></rdf:Description>"#,
         OwnerMarks(rating: 4)),
        (#"<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="-1"/>"#, OwnerMarks(rating: -1)),
        // Another prefix for the same namespace, a real number, and one out of range.
        (#"<rdf:Description xmlns:ap="http://ns.adobe.com/xap/1.0/" ap:Rating="3.4"/>"#, OwnerMarks(rating: 3)),
        (#"<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="9"/>"#, OwnerMarks(rating: 5)),
        // digiKam's pick label beside its rating.
        (#"<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:digiKam="http://www.digikam.org/ns/1.0/" xmp:Rating="2" digiKam:PickLabel="3"/>"#,
         OwnerMarks(rating: 2, pickLabel: 3)),
        (#"<rdf:Description xmlns:digiKam="http://www.digikam.org/ns/1.0/" digiKam:PickLabel="1"/>"#,
         OwnerMarks(pickLabel: 1)),
    ])
    func readsTheMarks(body: String, marks: OwnerMarks) {
        #expect(XMP.marks(inPacket: Self.packet(body)) == marks)
    }

    @Test func rejectsAndPicksAreNamed() {
        #expect(OwnerMarks(rating: -1).isRejected)
        #expect(OwnerMarks(pickLabel: 1).isRejected)
        #expect(!OwnerMarks(rating: 0).isRejected)
        #expect(OwnerMarks(pickLabel: 3).isPicked)
    }

    @Test func aPacketWithoutMarksOrBrokenHasNone() {
        #expect(XMP.marks(inPacket: Self.packet(#"<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"/>"#)) == nil)
        #expect(XMP.marks(inPacket: Array("<x:xmpmeta><rdf:RDF".utf8)) == nil)
        #expect(XMP.marks(inPacket: Array("not xml".utf8)) == nil)
    }
}
