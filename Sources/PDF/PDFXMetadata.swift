/// The XMP packet of a PDF/X-4 document (ISO 15930-7 asks for one in the catalog's /Metadata), from the values
/// the Info dictionary holds, so that the two agree (docs/research/pdfx.md).
struct PDFXMetadata {
    var title: String
    var author: String?
    var subject: String?
    var producer: String
    var creator: String
    /// CreateDate, ModifyDate and MetadataDate: the Info dictionary's CreationDate and ModDate, one moment.
    var date: PDFDate
    /// The trailer /ID's 16 bytes: DocumentID and InstanceID are this digest as a UUID URN.
    var documentID: [UInt8]
    /// `pdfxid:GTS_PDFXVersion`, `PDF/X-4`.
    var version: String

    /// The packet as UTF-8 text, in an `xpacket` wrapper with room to grow (XMP part 1, 7.3.2: a writer leaves
    /// padding so that an editor can change it in place).
    var packet: String {
        var lines = [
            "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>",
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">",
            "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">",
            "<rdf:Description rdf:about=\"\"",
            "  xmlns:dc=\"http://purl.org/dc/elements/1.1/\"",
            "  xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\"",
            "  xmlns:xmpMM=\"http://ns.adobe.com/xap/1.0/mm/\"",
            "  xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\"",
            "  xmlns:pdfxid=\"http://www.npes.org/pdfx/ns/id/\">",
            "<dc:format>application/pdf</dc:format>",
            "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\(Self.escaped(title))</rdf:li></rdf:Alt></dc:title>",
        ]
        if let author {
            lines.append("<dc:creator><rdf:Seq><rdf:li>\(Self.escaped(author))</rdf:li></rdf:Seq></dc:creator>")
        }
        if let subject {
            lines.append("<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">\(Self.escaped(subject))"
                         + "</rdf:li></rdf:Alt></dc:description>")
        }
        let when = date.xmpDescription
        let uuid = Self.uuidURN(documentID)
        lines += [
            "<xmp:CreateDate>\(when)</xmp:CreateDate>",
            "<xmp:ModifyDate>\(when)</xmp:ModifyDate>",
            "<xmp:MetadataDate>\(when)</xmp:MetadataDate>",
            "<xmp:CreatorTool>\(Self.escaped(creator))</xmp:CreatorTool>",
            "<pdf:Producer>\(Self.escaped(producer))</pdf:Producer>",
            "<pdf:Trapped>False</pdf:Trapped>",
            "<xmpMM:DocumentID>\(uuid)</xmpMM:DocumentID>",
            "<xmpMM:InstanceID>\(uuid)</xmpMM:InstanceID>",
            "<xmpMM:VersionID>1</xmpMM:VersionID>",
            "<xmpMM:RenditionClass>default</xmpMM:RenditionClass>",
            "<pdfxid:GTS_PDFXVersion>\(version)</pdfxid:GTS_PDFXVersion>",
            "</rdf:Description>",
            "</rdf:RDF>",
            "</x:xmpmeta>",
        ]
        let padding = String(repeating: String(repeating: " ", count: 99) + "\n", count: 20)
        return lines.joined(separator: "\n") + "\n" + padding + "<?xpacket end=\"w\"?>"
    }

    /// Text as XML character data: the five markup characters escaped, and the characters libharu cannot put in
    /// the Info dictionary (NUL, beyond U+FFFF) replaced as `PDFTextString` replaces them, so that both say the same.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            // XML 1.0 has no other control characters; a tab, a newline and a return stand as they are.
            case _ where scalar.value < 0x20 && !["\t", "\n", "\r"].contains(scalar): out += " "
            case _ where scalar.value > 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `uuid:xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` from 16 bytes.
    static func uuidURN(_ bytes: [UInt8]) -> String {
        precondition(bytes.count == 16, "PDFXMetadata: a document ID has 16 bytes, got \(bytes.count)")
        let hex = bytes.map { byte in String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }
        let groups = [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }
        return "uuid:" + groups.joined(separator: "-")
    }
}
