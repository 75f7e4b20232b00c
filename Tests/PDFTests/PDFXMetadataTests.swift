import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@testable import PDF

/// The XMP packet of a PDF/X document says what the Info dictionary says, in XMP's own forms.
@Suite struct PDFXMetadataTests {
    static let id: [UInt8] = Array(0..<16)

    static func metadata(title: String, date: PDFDate) -> PDFXMetadata {
        PDFXMetadata(title: title, author: "A & B", subject: nil, producer: "photobook", creator: "photobook",
                     date: date, documentID: id, version: "PDF/X-4")
    }

    /// The same moment as Info's `D:` date, with the zone's offset as XMP writes it.
    @Test func datesKeepTheirZone() {
        let moment = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(PDFDate(moment, timeZone: .gmt).xmpDescription == "2023-11-14T22:13:20Z")
        let paris = PDFDate(moment, timeZone: TimeZone(identifier: "Europe/Paris")!)
        #expect(paris.description == "D:20231114231320+01'00'")
        #expect(paris.xmpDescription == "2023-11-14T23:13:20+01:00")
        let newYork = PDFDate(moment, timeZone: TimeZone(identifier: "America/New_York")!)
        #expect(newYork.xmpDescription == "2023-11-14T17:13:20-05:00")
    }

    /// Markup characters are escaped, characters libharu cannot write become what it writes instead, and the
    /// packet parses as XML with the title and ID where a reader looks for them.
    @Test func textIsEscapedAndThePacketParses() throws {
        #expect(PDFXMetadata.escaped("a<b>&\"c\"'") == "a&lt;b&gt;&amp;&quot;c&quot;&apos;")
        #expect(PDFXMetadata.escaped("x\u{1}y\u{1F600}") == "x y\u{FFFD}")
        #expect(PDFXMetadata.uuidURN(Self.id) == "uuid:00010203-0405-0607-0809-0a0b0c0d0e0f")
        let packet = Self.metadata(title: "Été <2025>", date: PDFDate(Date(timeIntervalSince1970: 0), timeZone: .gmt)).packet
        #expect(packet.hasPrefix("<?xpacket begin=\"\u{FEFF}\"") && packet.hasSuffix("<?xpacket end=\"w\"?>"))
        let start = try #require(packet.range(of: "<x:xmpmeta")), end = try #require(packet.range(of: "</x:xmpmeta>"))
        let xml = try XMLDocument(xmlString: String(packet[start.lowerBound..<end.upperBound]))
        let texts = try xml.nodes(forXPath: "//*[local-name()='title']//*[local-name()='li']").map { $0.stringValue }
        #expect(texts == ["Été <2025>"])
        let ids = try xml.nodes(forXPath: "//*[local-name()='DocumentID']").map { $0.stringValue }
        #expect(ids == ["uuid:00010203-0405-0607-0809-0a0b0c0d0e0f"])
        #expect(try xml.nodes(forXPath: "//*[local-name()='creator']//*[local-name()='li']").map(\.stringValue) == ["A & B"])
    }
}
