import Testing
import EXIF

/// An XMP packet as Adobe's XMP toolkit writes one, around `properties` (the children of rdf:Description).
func xmpPacket(_ properties: String, dc: String = "dc", rdf: String = "rdf") -> [UInt8] {
    Array("""
    <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
    <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 6.0.0">
     <\(rdf):RDF xmlns:\(rdf)="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <\(rdf):Description \(rdf):about=""
        xmlns:xmp="http://ns.adobe.com/xap/1.0/"
        xmlns:\(dc)="http://purl.org/dc/elements/1.1/">
       \(properties)
      </\(rdf):Description>
     </\(rdf):RDF>
    </x:xmpmeta>
    <?xpacket end="w"?>
    """.utf8)
}

private func alt(_ items: String, prefix dc: String = "dc", rdf: String = "rdf") -> String {
    "<\(dc):description><\(rdf):Alt>\(items)</\(rdf):Alt></\(dc):description>"
}

@Suite("XMP dc:description")
struct XMPDescriptionTests {
    @Test("the x-default entry wins wherever it is", arguments: [
        #"<rdf:li xml:lang="x-default">Sunset at Cefalù</rdf:li>"#,
        #"<rdf:li xml:lang="de-DE">Sonnenuntergang</rdf:li><rdf:li xml:lang="x-default">Sunset at Cefalù</rdf:li>"#,
        #"<rdf:li xml:lang='x-default' >Sunset at Cefalù</rdf:li><rdf:li xml:lang="it">Tramonto</rdf:li>"#,
    ])
    func xDefault(items: String) {
        #expect(XMP.description(inPacket: xmpPacket(alt(items))) == "Sunset at Cefalù")
    }

    @Test("without x-default, the first language")
    func firstLanguage() {
        let items = #"<rdf:li xml:lang="fr">Coucher de soleil</rdf:li><rdf:li xml:lang="it">Tramonto</rdf:li>"#
        #expect(XMP.description(inPacket: xmpPacket(alt(items))) == "Coucher de soleil")
    }

    @Test("entities, character references, CDATA and surrounding space", arguments: [
        ("<rdf:li xml:lang=\"x-default\">\n   Fish &amp; chips &lt;3 &#233;&#x1F600; &quot;ok&apos;  \n</rdf:li>",
         "Fish & chips <3 é😀 \"ok'"),
        ("<rdf:li xml:lang=\"x-default\"><![CDATA[a < b & c]]></rdf:li>", "a < b & c"),
        ("<rdf:li xml:lang=\"x-default\">two\nlines</rdf:li>", "two\nlines"),
        ("<rdf:li xml:lang=\"x-default\">&bogus; &#0; &#xZZ; &</rdf:li>", "&bogus; &#0; &#xZZ; &"),
    ])
    func text(items: String, expected: String) {
        #expect(XMP.description(inPacket: xmpPacket(alt(items))) == expected)
    }

    @Test("other prefixes bound to the same namespaces")
    func otherPrefixes() {
        let items = #"<RDF:li xml:lang="x-default">Renamed</RDF:li>"#
        let packet = xmpPacket(alt(items, prefix: "dcx", rdf: "RDF"), dc: "dcx", rdf: "RDF")
        #expect(XMP.description(inPacket: packet) == "Renamed")
    }

    @Test("a plain element without rdf:Alt, as some writers do it")
    func plainElement() {
        #expect(XMP.description(inPacket: xmpPacket("<dc:description>Just text</dc:description>")) == "Just text")
    }

    @Test("nothing to read", arguments: [
        alt(#"<rdf:li xml:lang="x-default">   </rdf:li>"#), alt(#"<rdf:li xml:lang="x-default"/>"#), alt(""),
        "<dc:description/>", "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">Title</rdf:li></rdf:Alt></dc:title>",
        "<dc:descriptionary>not it</dc:descriptionary>", "<dc:description><rdf:Alt><rdf:li>unterminated",
        "",
    ])
    func nothing(properties: String) {
        #expect(XMP.description(inPacket: xmpPacket(properties)) == nil)
    }

    @Test("an empty x-default entry after a filled one is chosen: the writer said the default is empty")
    func emptyDefault() {
        let items = #"<rdf:li xml:lang="fr">Texte</rdf:li><rdf:li xml:lang="x-default"></rdf:li>"#
        #expect(XMP.description(inPacket: xmpPacket(alt(items))) == nil)
    }

    @Test("invalid UTF-8 is repaired, not refused")
    func invalidUTF8() {
        var packet = xmpPacket(alt(#"<rdf:li xml:lang="x-default">caf_</rdf:li>"#))
        let index = packet.firstIndex(of: UInt8(ascii: "_"))!
        packet[index] = 0xE9
        #expect(XMP.description(inPacket: packet) == "caf\u{FFFD}")
    }

    @Test("a long description is cut at a character boundary")
    func longDescription() throws {
        let long = String(repeating: "é", count: XMP.descriptionLimit)  // two bytes each
        let text = try #require(XMP.description(inPacket: xmpPacket(alt("<rdf:li xml:lang=\"x-default\">\(long)</rdf:li>"))))
        #expect(text.utf8.count <= XMP.descriptionLimit && text.utf8.count >= XMP.descriptionLimit - 1)
        #expect(text.unicodeScalars.allSatisfy { $0 == "é" })
    }

    @Test("hostile packets end quickly: over the limit, or built to make a scanner go back and forth")
    func hostile() {
        #expect(XMP.description(inPacket: xmpPacket(alt(#"<rdf:li xml:lang="x-default">x</rdf:li>"#))
                                + [UInt8](repeating: 0x20, count: XMP.packetLimit)) == nil)
        let repeated = { (piece: String) in Array(String(repeating: piece, count: XMP.packetLimit / piece.utf8.count).utf8) }
        for packet in [repeated("<dc:description"), repeated("<dc:description><rdf:li "), repeated("&#"),
                       repeated("xmlns:dc=\"http://purl.org/dc/elements/1.1/"), repeated(" xml:lang="),
                       Array("<dc:description>".utf8) + repeated("<rdf:li>")] {
            // A hang guard, not a speed figure: a scan that went back over the megabyte for each match would take
            // hours; the linear one takes 6 s under AddressSanitizer on a loaded two-core machine (it failed a 5 s bound).
            let clock = ContinuousClock()
            let elapsed = clock.measure { _ = XMP.description(inPacket: packet) }
            #expect(elapsed < .seconds(120), "\(String(decoding: packet.prefix(30), as: UTF8.self))")
        }
    }
}

@Suite("XMP in a JPEG")
struct JPEGXMPTests {
    private func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
    private let signature = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    @Test("the APP1 segment with the XMP signature, after EXIF and others")
    func found() {
        let packet = xmpPacket(alt(#"<rdf:li xml:lang="x-default">In a JPEG</rdf:li>"#))
        let jpeg: [UInt8] = [0xFF, 0xD8] + segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
            + segment(0xE1, Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0, 42, 0, 0, 0, 8])
            + [0xFF] + segment(0xE1, signature + packet) + segment(0xDA, [0, 0]) + [1, 2, 3, 0xFF, 0xD9]
        #expect(JPEGSegments.xmpPacket(inJPEG: jpeg) == packet)
        #expect(XMP.description(inPacket: JPEGSegments.xmpPacket(inJPEG: jpeg)!) == "In a JPEG")
    }

    @Test("no XMP: none before the scan, a broken marker, a segment running past the end")
    func notFound() {
        let xmp = segment(0xE1, signature + Array("<x/>".utf8))
        for jpeg: [UInt8] in [[0xFF, 0xD8] + segment(0xDA, [0]) + xmp, [0xFF, 0xD8, 0x00] + xmp,
                              [0xFF, 0xD8] + Array(xmp.dropLast()), [0xFF, 0xD8, 0xFF, 0xE1, 0, 1] + xmp,
                              [0xFF, 0xD8] + segment(0xE1, Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]),
                              Array(xmp), []] {
            #expect(JPEGSegments.xmpPacket(inJPEG: jpeg) == nil)
        }
    }
}
