import ImageCodec

/// The image items of a HEIF file's `meta` box as libheif 1.15 reads them: the primary item, each item's type,
/// the properties `ipma` associates with it and the tiles (`dimg`) a grid is made of. Read by this small parser
/// of its own, because libheif 1.15 answers none of it before it decodes (what it applies at decode, which tiles
/// it decodes); nil when a box on the way cannot be followed.
struct HEIFItems {
    let primary: Int
    private let types: [Int: String]
    /// `ipco`'s properties (1-based in `ipma`): type and body.
    private let container: [(type: String, body: [UInt8])]
    private let associations: [Int: [Int]]
    private let tileReferences: [Int: [Int]]
    private let iloc: [UInt8]
    private let idat: [UInt8]?
    private let source: any ByteSource

    init?(_ source: any ByteSource) {
        guard let meta = HEIFBoxes.topLevelBox("meta", in: source) else { return nil }
        var reader = BoxReader(bytes: meta, start: 4, end: meta.count)  // meta is a full box
        var children: [String: ArraySlice<UInt8>] = [:]
        while let (type, body) = reader.nextBox() {
            if children[type] == nil { children[type] = body }
        }
        guard let pitm = children["pitm"], let iinf = children["iinf"], let iprp = children["iprp"],
              let iloc = children["iloc"] else { return nil }
        var p = BoxReader(bytes: Array(pitm))
        guard let version = p.u8(), p.skip(3), let primary = version == 0 ? p.u16() : p.u32() else { return nil }
        var container: [(type: String, body: [UInt8])]?
        var associations: [Int: [Int]] = [:]
        var boxes = BoxReader(bytes: Array(iprp))
        while let (boxType, body) = boxes.nextBox() {
            if boxType == "ipco", container == nil {
                var c = BoxReader(bytes: Array(body))
                var properties: [(type: String, body: [UInt8])] = []
                while let (propertyType, propertyBody) = c.nextBox() { properties.append((propertyType, Array(propertyBody))) }
                guard c.position == c.end else { return nil }  // a property this reader cannot step over
                container = properties
            } else if boxType == "ipma" {
                var m = BoxReader(bytes: Array(body))
                guard let version = m.u8(), m.skip(2), let flags = m.u8(), let count = m.u32() else { return nil }
                let wide = flags & 1 == 1
                for _ in 0..<count {
                    guard let item = version < 1 ? m.u16() : m.u32(), let n = m.u8() else { return nil }
                    for _ in 0..<n {
                        guard let association = wide ? m.u16() : m.u8().map(Int.init) else { return nil }
                        associations[item, default: []].append(association & (wide ? 0x7FFF : 0x7F))
                    }
                }
            }
        }
        guard let container else { return nil }
        var tileReferences: [Int: [Int]] = [:]
        if let iref = children["iref"] {
            var r = BoxReader(bytes: Array(iref))
            guard let version = r.u8(), r.skip(3) else { return nil }
            while let (referenceType, body) = r.nextBox() {
                guard referenceType == "dimg" else { continue }
                var d = BoxReader(bytes: Array(body))
                guard let from = version == 0 ? d.u16() : d.u32(), let count = d.u16() else { return nil }
                var to: [Int] = []
                for _ in 0..<count {
                    guard let id = version == 0 ? d.u16() : d.u32() else { return nil }
                    to.append(id)
                }
                tileReferences[from, default: []] += to
            }
        }
        self.primary = primary
        types = Dictionary(HEIFBoxes.itemTypes(iinf: Array(iinf)), uniquingKeysWith: { first, _ in first })
        self.container = container
        self.associations = associations
        self.tileReferences = tileReferences
        self.iloc = Array(iloc)
        idat = children["idat"].map(Array.init)
        self.source = source
    }

    func type(of item: Int) -> String? { types[item] }

    /// The properties associated with `item`, in `ipma` order; nil when one of them is not in `ipco`.
    func properties(of item: Int) -> [(type: String, body: [UInt8])]? {
        var properties: [(type: String, body: [UInt8])] = []
        for index in associations[item] ?? [] where index != 0 {  // 0: no property
            guard index <= container.count else { return nil }
            properties.append(container[index - 1])
        }
        return properties
    }

    /// Whether `item` has a property libheif 1.15 applies to its pixels at decode (irot, imir, clap); true when
    /// its properties cannot be read.
    func isTransformed(_ item: Int) -> Bool {
        guard let properties = properties(of: item) else { return true }
        return properties.contains { ["irot", "imir", "clap"].contains($0.type) }
    }

    /// How many quarter turns anticlockwise `item`'s `irot` asks for (0 without one), when that is all libheif 1.15
    /// applies to its pixels at decode; nil when it has an imir or clap too, or properties that cannot be read.
    func quarterTurns(of item: Int) -> Int? {
        guard let properties = properties(of: item), !properties.contains(where: { ["imir", "clap"].contains($0.type) })
        else { return nil }
        guard let irot = properties.first(where: { $0.type == "irot" }) else { return 0 }
        return irot.body.first.map { Int($0 & 3) }
    }

    /// The size in `item`'s `ispe` property.
    func spatialExtent(of item: Int) -> (width: Int, height: Int)? {
        guard let ispe = properties(of: item)?.first(where: { $0.type == "ispe" }) else { return nil }
        var r = BoxReader(bytes: ispe.body)
        guard r.skip(4), let width = r.u32(), let height = r.u32() else { return nil }
        return (width, height)
    }

    /// The images a grid item is made of (`dimg`), in their order.
    func tiles(of item: Int) -> [Int] { tileReferences[item] ?? [] }

    /// The first 64 bytes of `item`'s data.
    func data(of item: Int) -> [UInt8]? { HEIFBoxes.itemData(item, iloc: iloc, idat: idat, source: source) }
}
