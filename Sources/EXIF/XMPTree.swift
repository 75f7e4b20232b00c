/// An XMP packet read as a tree of elements, names resolved to their namespaces: enough XML for RDF's nested
/// structures (region lists inside structs inside bags), which a forward scan cannot follow.
///
/// Hostile packets stay harmless: the packet is at most `XMP.packetLimit` bytes, elements nest at most
/// `depthLimit` deep and number at most `elementLimit`, no DTD is read (so no entity expands), and a malformed
/// packet gives nil rather than a guess.
struct XMPTree {
    /// An element: its namespace and local name, its attributes (namespace declarations left out), the
    /// elements inside it and its own character data, entities decoded.
    struct Node {
        var namespace: String
        var name: String
        var attributes: [Attribute] = []
        var children: [Node] = []
        var text: String = ""

        func `is`(_ namespace: String, _ name: String) -> Bool { self.namespace == namespace && self.name == name }

        func attribute(_ namespace: String, _ name: String) -> String? {
            attributes.first { $0.namespace == namespace && $0.name == name }?.value
        }
    }

    struct Attribute {
        var namespace: String
        var name: String
        var value: String
    }

    static let depthLimit = 64
    static let elementLimit = 100_000
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let xml = "http://www.w3.org/XML/1998/namespace"

    /// The top-level elements of the packet (`x:xmpmeta`, or `rdf:RDF` for a packet without it).
    var roots: [Node]

    /// The packet's tree; nil when it is not well-formed XML (as far as this reader checks) or over a limit.
    init?(packet bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        guard bytes.count <= XMP.packetLimit, let roots = reader.read() else { return nil }
        self.roots = roots
    }

    /// Every `rdf:Description` under `rdf:RDF`: XMP spreads a packet's top-level properties over several.
    var descriptions: [Node] {
        func find(_ nodes: [Node]) -> [Node] {
            for node in nodes {
                if node.is(Self.rdf, "RDF") { return node.children.filter { $0.is(Self.rdf, "Description") } }
                let found = find(node.children)
                if !found.isEmpty { return found }
            }
            return []
        }
        return find(roots)
    }

    /// The reader proper: one pass over the bytes with a stack of open elements and of namespace scopes.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var count = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func read() -> [Node]? {
            var stack: [Node] = [Node(namespace: "", name: "")]
            var scopes: [[String: String]] = [["xml": XMPTree.xml]]
            let scanner = XMP.Scanner(bytes: bytes)
            while index < bytes.count {
                guard bytes[index] == 0x3C else {
                    let end = scanner.find([0x3C], from: index) ?? bytes.count
                    stack[stack.count - 1].text += decode(index..<end, scanner: scanner)
                    index = end
                    continue
                }
                if starts("<?") {
                    guard let end = scanner.find(Array("?>".utf8), from: index) else { return nil }
                    index = end + 2
                } else if starts("<!--") {
                    guard let end = scanner.find(Array("-->".utf8), from: index) else { return nil }
                    index = end + 3
                } else if starts("<![CDATA[") {
                    let start = index + 9
                    guard let end = scanner.find(Array("]]>".utf8), from: start) else { return nil }
                    stack[stack.count - 1].text += String(decoding: bytes[start..<end], as: UTF8.self)
                    index = end + 3
                } else if starts("<!") {
                    return nil  // A DTD could declare entities: XMP has none, and none is expanded here.
                } else if starts("</") {
                    guard stack.count > 1, let end = scanner.find([0x3E], from: index) else { return nil }
                    let name = String(decoding: bytes[(index + 2)..<end], as: UTF8.self).trimmingSpaces
                    let node = stack.removeLast()
                    let scope = scopes.removeLast()
                    guard let resolved = Self.resolve(name, in: scopes + [scope], isElement: true),
                          resolved == (node.namespace, node.name) else { return nil }
                    stack[stack.count - 1].children.append(node)
                    index = end + 1
                } else {
                    guard let (node, scope, empty) = startTag(scopes: scopes, scanner: scanner) else { return nil }
                    count += 1
                    guard count <= XMPTree.elementLimit else { return nil }
                    if empty {
                        stack[stack.count - 1].children.append(node)
                    } else {
                        guard stack.count <= XMPTree.depthLimit else { return nil }
                        stack.append(node)
                        scopes.append(scope)
                    }
                }
            }
            guard stack.count == 1 else { return nil }
            return stack[0].children
        }

        func starts(_ text: String) -> Bool { bytes[index...].starts(with: text.utf8) }

        /// The start tag at `index`: the element, the namespaces it declares, and whether it is empty (`<x/>`).
        mutating func startTag(scopes: [[String: String]], scanner: XMP.Scanner)
            -> (Node, [String: String], Bool)? {
            var cursor = index + 1
            func skipSpace() { while cursor < bytes.count && scanner.isSpace(bytes[cursor]) { cursor += 1 } }
            func name() -> String? {
                let start = cursor
                while cursor < bytes.count && scanner.isNameByte(bytes[cursor]) { cursor += 1 }
                return cursor > start ? String(decoding: bytes[start..<cursor], as: UTF8.self) : nil
            }
            guard let element = name() else { return nil }
            var raw: [(String, String)] = []
            var scope: [String: String] = [:]
            while true {
                skipSpace()
                guard cursor < bytes.count else { return nil }
                if bytes[cursor] == 0x3E || bytes[cursor] == 0x2F { break }
                guard let attribute = name() else { return nil }
                skipSpace()
                guard cursor < bytes.count, bytes[cursor] == 0x3D else { return nil }
                cursor += 1
                skipSpace()
                guard cursor < bytes.count, bytes[cursor] == 0x22 || bytes[cursor] == 0x27,
                      let close = scanner.find([bytes[cursor]], from: cursor + 1) else { return nil }
                let value = decode((cursor + 1)..<close, scanner: scanner)
                cursor = close + 1
                if attribute == "xmlns" {
                    scope[""] = value
                } else if attribute.hasPrefix("xmlns:") {
                    scope[String(attribute.dropFirst(6))] = value
                } else {
                    raw.append((attribute, value))
                }
            }
            let empty = bytes[cursor] == 0x2F
            if empty { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == 0x3E else { return nil }
            index = cursor + 1
            let visible = scopes + [scope]
            guard let (namespace, local) = Self.resolve(element, in: visible, isElement: true) else { return nil }
            var node = Node(namespace: namespace, name: local)
            for (attribute, value) in raw {
                // An unprefixed attribute is in no namespace (RDF's deprecated bare `about` and the like).
                guard let (namespace, local) = Self.resolve(attribute, in: visible, isElement: false) else { continue }
                node.attributes.append(Attribute(namespace: namespace, name: local, value: value))
            }
            return (node, scope, empty)
        }

        /// `prefix:local` as (namespace, local), the innermost declaration of the prefix winning; nil when the
        /// prefix is declared nowhere (or, for an attribute, when it has none).
        static func resolve(_ qualified: String, in scopes: [[String: String]], isElement: Bool)
            -> (String, String)? {
            let parts = qualified.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let (prefix, local) = parts.count == 2 ? (String(parts[0]), String(parts[1])) : ("", qualified)
            if prefix.isEmpty && !isElement { return nil }
            for scope in scopes.reversed() {
                if let namespace = scope[prefix] { return (namespace, local) }
            }
            return prefix.isEmpty ? ("", local) : nil
        }

        /// Character data with its entity and character references decoded; a stray "&" stays as it is.
        func decode(_ range: Range<Int>, scanner: XMP.Scanner) -> String {
            var out: [UInt8] = []
            var cursor = range.lowerBound
            while cursor < range.upperBound {
                if bytes[cursor] == 0x26, let (decoded, length) = scanner.entity(at: cursor, before: range.upperBound) {
                    out += decoded
                    cursor += length
                } else {
                    out.append(bytes[cursor])
                    cursor += 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}

extension XMPTree.Node {
    /// The value of property `namespace:name` of this node taken as an RDF resource: an attribute (the
    /// shorthand form), else a child element; a child `rdf:Description` counts as the node itself.
    func field(_ namespace: String, _ name: String) -> XMPTree.Node? {
        for node in resource {
            if let value = node.attribute(namespace, name) {
                return XMPTree.Node(namespace: namespace, name: name, text: value)
            }
            if let child = node.children.first(where: { $0.is(namespace, name) }) { return child }
        }
        return nil
    }

    /// The node and, when it holds its struct in an `rdf:Description` (rather than `rdf:parseType="Resource"`
    /// or attributes), that description too.
    private var resource: [XMPTree.Node] {
        [self] + children.filter { $0.is(XMPTree.rdf, "Description") }
    }

    /// The items of an array property (`rdf:Bag`, `rdf:Seq` or `rdf:Alt`), in order; empty when it is none.
    var items: [XMPTree.Node] {
        guard let array = children.first(where: {
            $0.namespace == XMPTree.rdf && ["Bag", "Seq", "Alt"].contains($0.name)
        }) else { return [] }
        return array.children.filter { $0.is(XMPTree.rdf, "li") }
    }

    /// The property's text: a language alternative's `x-default` entry (else its first), or the element's
    /// own text; trimmed, nil when blank.
    var value: String? {
        let entries = items
        let chosen = entries.first { $0.attribute(XMPTree.xml, "lang") == "x-default" } ?? entries.first
        let text = (chosen ?? self).text.trimmingSpaces
        return text.isEmpty ? nil : text
    }

    /// The property's text as a number (XMP writes reals with a "." and no grouping); nil when it is none or
    /// not finite.
    var number: Double? {
        guard let text = value, let number = Double(text), number.isFinite else { return nil }
        return number
    }
}

extension String {
    /// Without the XML white space (space, tab, CR, LF) at either end.
    var trimmingSpaces: String {
        let bytes = Array(utf8)
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
