/// Reads a photo's words from an XMP packet, `dc:description` and `dc:title`, without an XML parser (its regions
/// and dates, which take RDF's other shapes, are read through `XMPTree`).
///
/// A small scanner is enough because the properties have one shape in every writer that matters (an `rdf:Alt`
/// of `rdf:li` elements, one per language), and it keeps hostile input harmless: every search moves forward
/// through at most `packetLimit` bytes, so the work is linear in the packet and nothing is allocated beyond
/// the text returned.
public enum XMP {
    /// Packets larger than this are not read: a real one with a caption is a few kilobytes, and a JPEG's
    /// main packet is at most 65,502 bytes. A PNG iTXt chunk could claim megabytes.
    public static let packetLimit = 1 << 20
    /// Descriptions longer than this (in bytes) are cut there, at a character boundary: a caption, not a book.
    public static let descriptionLimit = 16 << 10

    static let dublinCore = Array("http://purl.org/dc/elements/1.1/".utf8)
    static let rdfSyntax = Array("http://www.w3.org/1999/02/22-rdf-syntax-ns#".utf8)

    /// The packet's `dc:description`: the `x-default` entry of its `rdf:Alt`, else its first entry, else the
    /// element's own text (some writers leave out the `rdf:Alt`); trimmed, entities decoded; nil when blank,
    /// absent, or the packet is over `packetLimit`.
    ///
    /// The prefixes are the ones the packet binds to the Dublin Core and RDF namespaces (`dc` and `rdf` when
    /// it binds none), so a writer that picked other prefixes is read too.
    public static func description(inPacket packet: [UInt8]) -> String? {
        dublinCoreText("description", inPacket: packet)
    }

    /// The packet's `dc:title`, read as `description(inPacket:)` reads `dc:description`.
    public static func title(inPacket packet: [UInt8]) -> String? {
        dublinCoreText("title", inPacket: packet)
    }

    static func dublinCoreText(_ name: String, inPacket packet: [UInt8]) -> String? {
        guard packet.count <= packetLimit else { return nil }
        let scanner = Scanner(bytes: packet)
        let dc = scanner.prefix(boundTo: dublinCore) ?? Array("dc".utf8)
        let rdf = scanner.prefix(boundTo: rdfSyntax) ?? Array("rdf".utf8)
        guard let property = scanner.element(named: dc + Array(":\(name)".utf8), from: 0) else { return nil }
        guard let body = property.body else { return nil }
        var chosen: Range<Int>?
        var cursor = body.lowerBound
        let li = rdf + Array(":li".utf8)
        while let item = scanner.element(named: li, from: cursor, before: body.upperBound) {
            let isDefault = scanner.attribute(Array("xml:lang".utf8), in: item.tag)
                .map { scanner.bytes[$0].elementsEqual("x-default".utf8) } ?? false
            let text = item.body ?? item.tag.upperBound..<item.tag.upperBound
            if chosen == nil || isDefault { chosen = text }
            if isDefault { break }
            cursor = item.end
        }
        if chosen == nil, !scanner.contains(Array("<".utf8) + rdf + Array(":Alt".utf8), in: body) { chosen = body }
        guard let range = chosen else { return nil }
        return scanner.text(range)
    }

    /// A forward-only view of the packet's bytes.
    struct Scanner {
        let bytes: [UInt8]

        /// The first position at or after `start` and before `end` where `needle` begins.
        func find(_ needle: [UInt8], from start: Int, before end: Int? = nil) -> Int? {
            let end = end ?? bytes.count
            guard !needle.isEmpty, start >= 0, end - start >= needle.count else { return nil }
            let first = needle[0]
            var index = start
            while index <= end - needle.count {
                if bytes[index] == first && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }

        func contains(_ needle: [UInt8], in range: Range<Int>) -> Bool {
            find(needle, from: range.lowerBound, before: range.upperBound) != nil
        }

        /// The prefix of the first `xmlns:PREFIX="uri"` (or single-quoted) declaration of `uri`.
        func prefix(boundTo uri: [UInt8]) -> [UInt8]? {
            var start = 0
            while let at = find(uri, from: start) {
                start = at + 1
                // Back over the quote and the "=" to the name before it: xmlns:dc="http://...
                var cursor = at - 1
                guard cursor >= 0, bytes[cursor] == 0x22 || bytes[cursor] == 0x27,
                      at + uri.count < bytes.count, bytes[at + uri.count] == bytes[cursor] else { continue }
                cursor -= 1
                while cursor >= 0 && isSpace(bytes[cursor]) { cursor -= 1 }
                guard cursor >= 0, bytes[cursor] == 0x3D else { continue }
                cursor -= 1
                while cursor >= 0 && isSpace(bytes[cursor]) { cursor -= 1 }
                let nameEnd = cursor + 1
                while cursor >= 0 && isNameByte(bytes[cursor]) { cursor -= 1 }
                let name = bytes[(cursor + 1)..<nameEnd]
                let xmlns = Array("xmlns:".utf8)
                guard name.starts(with: xmlns), name.count > xmlns.count else { continue }
                return Array(name.dropFirst(xmlns.count))
            }
            return nil
        }

        /// An element found by name: its start tag (from "<" to ">"), its content (nil when it is empty,
        /// `<x/>`), and where it ends.
        struct Element {
            var tag: Range<Int>
            var body: Range<Int>?
            var end: Int
        }

        /// The first element named `name` starting at or after `start`, ending before `limit`.
        ///
        /// Its content runs to the first matching end tag: a property's own element does not nest inside
        /// itself, so no depth is counted (and none can be made to grow).
        func element(named name: [UInt8], from start: Int, before limit: Int? = nil) -> Element? {
            let limit = limit ?? bytes.count
            let open = [0x3C] + name  // "<name"
            var search = start
            while let at = find(open, from: search, before: limit) {
                search = at + 1
                let after = at + open.count
                // "<dc:descriptionX" is another element.
                guard after < limit, isSpace(bytes[after]) || bytes[after] == 0x3E || bytes[after] == 0x2F else { continue }
                guard let close = find([0x3E], from: after, before: limit) else { return nil }
                let tag = at..<(close + 1)
                if bytes[close - 1] == 0x2F { return Element(tag: tag, body: nil, end: close + 1) }
                let endTag = Array("</".utf8) + name
                guard let end = find(endTag, from: close + 1, before: limit),
                      let endClose = find([0x3E], from: end + endTag.count, before: limit) else { return nil }
                return Element(tag: tag, body: (close + 1)..<end, end: endClose + 1)
            }
            return nil
        }

        /// The value of attribute `name` inside a start tag (without its quotes).
        func attribute(_ name: [UInt8], in tag: Range<Int>) -> Range<Int>? {
            var search = tag.lowerBound
            while let at = find(name, from: search, before: tag.upperBound) {
                search = at + 1
                guard isSpace(bytes[at - 1]) else { continue }
                var cursor = at + name.count
                while cursor < tag.upperBound && isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < tag.upperBound, bytes[cursor] == 0x3D else { continue }
                cursor += 1
                while cursor < tag.upperBound && isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < tag.upperBound, bytes[cursor] == 0x22 || bytes[cursor] == 0x27,
                      let end = find([bytes[cursor]], from: cursor + 1, before: tag.upperBound) else { continue }
                return (cursor + 1)..<end
            }
            return nil
        }

        /// The character data in `range` as text: CDATA kept as is, entities decoded, markup inside dropped,
        /// cleaned as `CaptionText.clean` says; nil when blank. Invalid UTF-8 is repaired (U+FFFD), never refused:
        /// a caption with one bad byte is still the caption.
        func text(_ range: Range<Int>) -> String? {
            var out: [UInt8] = []
            var index = range.lowerBound
            let cdataOpen = Array("<![CDATA[".utf8), cdataClose = Array("]]>".utf8)
            while index < range.upperBound && out.count < XMP.descriptionLimit {
                let byte = bytes[index]
                if byte == 0x3C {
                    if bytes[index..<range.upperBound].starts(with: cdataOpen) {
                        let start = index + cdataOpen.count
                        let end = find(cdataClose, from: start, before: range.upperBound) ?? range.upperBound
                        out += bytes[start..<end]
                        index = end + cdataClose.count
                    } else {
                        index = (find([0x3E], from: index, before: range.upperBound) ?? range.upperBound) + 1
                    }
                } else if byte == 0x26, let (decoded, length) = entity(at: index, before: range.upperBound) {
                    out += decoded
                    index += length
                } else {
                    out.append(byte)
                    index += 1
                }
            }
            if out.count > XMP.descriptionLimit {
                out.removeLast(out.count - XMP.descriptionLimit)
                // Never end inside a character: drop continuation bytes and the lead byte they follow.
                while let last = out.last, last & 0xC0 == 0x80 { out.removeLast() }
                if let last = out.last, last >= 0xC0 { out.removeLast() }
            }
            return CaptionText.clean(String(decoding: out, as: UTF8.self))
        }

        /// The UTF-8 bytes of the entity or character reference at `index` and its length in the source.
        func entity(at index: Int, before limit: Int) -> ([UInt8], Int)? {
            // The longest reference is "&#x10FFFF;" (10 bytes); a ";" further away is not this one's.
            guard let semicolon = find([0x3B], from: index + 1, before: min(limit, index + 12)) else { return nil }
            let name = Array(bytes[(index + 1)..<semicolon])
            let length = semicolon - index + 1
            switch String(decoding: name, as: UTF8.self) {
            case "amp": return ([0x26], length)
            case "lt": return ([0x3C], length)
            case "gt": return ([0x3E], length)
            case "quot": return ([0x22], length)
            case "apos": return ([0x27], length)
            default: break
            }
            guard name.first == 0x23 else { return nil }  // "#"
            let hex = name.count > 1 && (name[1] == 0x78 || name[1] == 0x58)
            let digits = name.dropFirst(hex ? 2 : 1)
            guard !digits.isEmpty, let value = UInt32(String(decoding: digits, as: UTF8.self), radix: hex ? 16 : 10),
                  let scalar = Unicode.Scalar(value), value != 0 else { return nil }
            return (Array(String(Character(scalar)).utf8), length)
        }

        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

        func isNameByte(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x3A || byte == 0x5F || byte == 0x2D || byte == 0x2E || byte >= 0x80
        }
    }
}
