import ImageCodec

/// The top-level boxes of an ISO-BMFF file, walked by their sizes alone: enough to tell a file cut short.
enum HEIFBoxes {
    /// Why the file is truncated ("the 'mdat' box needs 5230 bytes more"), or nil when every top-level box ends
    /// inside it. Reads 16 bytes per top-level box, and at most 4096 boxes.
    static func truncation(of source: any ByteSource) -> String? {
        let count = source.count
        var offset = 0
        var boxes = 0
        while offset < count, boxes < 4096 {
            guard let header = try? source.read(from: offset, count: 16) else { return nil }
            guard header.count >= 8 else { return "it ends inside a box header" }
            let type = String(decoding: header[4..<8].map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") },
                              as: UTF8.self)
            var size = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            if size == 0 { return nil }  // the last box, to the end of the file
            if size == 1 {
                guard header.count >= 16 else { return "it ends inside the '\(type)' box header" }
                let large = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard large <= UInt64(Int.max) else { return nil }
                size = Int(large)
            }
            guard size >= 8 else { return nil }  // damaged, not cut short
            let (end, overflow) = offset.addingReportingOverflow(size)
            if overflow || end > count {
                return "the '\(type)' box needs \(overflow ? "far more" : String(end - count)) bytes more than the file has"
            }
            offset = end
            boxes += 1
        }
        return nil
    }
}

extension HEIFBoxes {
    /// The largest `meta` box read: the boxes of a photo's image items are a few KB.
    static let maximumMetaSize = 16 << 20

    /// The canvases libheif will allocate for the file's derived images: every `grid` and `iovl` item (the
    /// primary image, a tile of it, its alpha plane), at the output size its item data says, which libheif
    /// 1.15 checks against nothing but its side limit (not the `ispe` the handle reports).
    enum DerivedCanvases: Equatable {
        case sizes([Size])
        /// The boxes could not be followed to those sizes.
        case unreadable(String)
    }

    struct Size: Equatable {
        var width: Int, height: Int
        /// The derived image item it is the canvas of.
        var item: Int

        func fits(_ maxPixels: Int) -> Bool {
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            return !overflow && pixels <= maxPixels
        }
    }

    /// The output sizes of every derived image item, read from the file's `meta` box (iinf, iloc, idat) by
    /// this small parser of its own: libheif 1.15 has no call that gives them before it allocates them.
    static func derivedCanvases(of source: any ByteSource) -> DerivedCanvases {
        guard let meta = topLevelBox("meta", in: source) else { return .unreadable("no 'meta' box") }
        var reader = BoxReader(bytes: meta, start: 4, end: meta.count)  // meta is a full box
        var children: [String: ArraySlice<UInt8>] = [:]
        while let (type, body) = reader.nextBox() {
            if children[type] == nil { children[type] = body }
        }
        guard let iinf = children["iinf"], let iloc = children["iloc"] else { return .unreadable("no iinf or iloc box") }
        let types = itemTypes(iinf: Array(iinf))
        if let fault = derivationFault(types: types, iref: children["iref"].map(Array.init)) { return .unreadable(fault) }
        var sizes: [Size] = []
        for (id, type) in types where type == "grid" || type == "iovl" {
            guard let data = itemData(id, iloc: Array(iloc), idat: children["idat"].map(Array.init), source: source)
            else { return .unreadable("the data of \(type) item \(id) cannot be read") }
            var d = BoxReader(bytes: data)
            guard d.skip(1), let flags = d.u8(), d.skip(type == "grid" ? 2 : 8) else {  // rows, columns; 4 fill values
                return .unreadable("damaged \(type) item \(id)")
            }
            let wide = flags & 1 == 1
            guard let width = wide ? d.u32() : d.u16(), let height = wide ? d.u32() : d.u16() else {
                return .unreadable("damaged \(type) item \(id)")
            }
            sizes.append(Size(width: width, height: height, item: id))
        }
        return .sizes(sizes)
    }

    /// Why libheif 1.15 must not decode the file's derived images (`grid`, `iovl`, `iden`): one that derives from
    /// an item that is not an image, or from itself through others; nil when each leads to coded images.
    /// Trap: libheif 1.15 decodes an `iden` item's `dimg` target without looking it up (an assertion, an abort,
    /// when it is missing) and follows `iden` items into each other without end (a stack overflow).
    static func derivationFault(types: [(Int, String)], iref: [UInt8]?) -> String? {
        let kinds = Dictionary(types, uniquingKeysWith: { first, _ in first })
        let derived: Set<String> = ["grid", "iovl", "iden"]
        guard kinds.values.contains(where: derived.contains) else { return nil }
        var sources: [Int: [Int]] = [:]
        if let iref {
            var r = BoxReader(bytes: iref)
            guard let version = r.u8(), r.skip(3) else { return "damaged iref box" }
            while let (type, body) = r.nextBox() {
                guard type == "dimg" else { continue }
                var d = BoxReader(bytes: Array(body))
                guard let from = version == 0 ? d.u16() : d.u32(), let count = d.u16() else { return "damaged dimg reference" }
                for _ in 0..<count {
                    guard let id = version == 0 ? d.u16() : d.u32() else { return "damaged dimg reference" }
                    sources[from, default: []].append(id)
                }
            }
        }
        let images: Set<String> = ["hvc1", "av01", "grid", "iovl", "iden"]
        for (id, kind) in kinds where derived.contains(kind) {
            // Depth-first along dimg, at most 64 derived items deep (photos have one or two).
            var stack = [(id, 0)]
            var visits = 0
            while let (item, depth) = stack.popLast() {
                visits += 1
                guard depth < 64, visits < 10_000 else { return "\(kind) item \(id) derives from itself" }
                for source in sources[item] ?? [] {
                    guard let sourceKind = kinds[source], images.contains(sourceKind) else {
                        return "\(kinds[item] ?? "?") item \(item) derives from item \(source), which is no image"
                    }
                    if source == id { return "\(kind) item \(id) derives from itself" }
                    if derived.contains(sourceKind) { stack.append((source, depth + 1)) }
                }
            }
            if kind == "iden", sources[id]?.count != 1 { return "iden item \(id) derives from \(sources[id]?.count ?? 0) items, not one" }
        }
        return nil
    }

    /// The body of the first top-level box of `type`, when it is no larger than `maximumMetaSize`.
    static func topLevelBox(_ wanted: String, in source: any ByteSource) -> [UInt8]? {
        var offset = 0
        for _ in 0..<4096 {
            guard let header = try? source.read(from: offset, count: 16), header.count >= 8 else { return nil }
            var size = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            var headerSize = 8
            if size == 1 {
                guard header.count >= 16 else { return nil }
                let large = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard large <= UInt64(Int.max) else { return nil }
                size = Int(large)
                headerSize = 16
            } else if size == 0 {
                size = source.count - offset
            }
            guard size >= headerSize else { return nil }
            if header[4..<8].elementsEqual(wanted.utf8) {
                guard size - headerSize <= maximumMetaSize,
                      let body = try? source.read(from: offset + headerSize, count: size - headerSize),
                      body.count == size - headerSize else { return nil }
                return body
            }
            let (end, overflow) = offset.addingReportingOverflow(size)
            guard !overflow, end < source.count else { return nil }
            offset = end
        }
        return nil
    }

    /// The item types (infe version 2 or 3) by item ID, in file order.
    static func itemTypes(iinf: [UInt8]) -> [(Int, String)] {
        var r = BoxReader(bytes: iinf)
        guard let version = r.u8(), r.skip(3), (version == 0 ? r.u16() : r.u32()) != nil else { return [] }
        var types: [(Int, String)] = []
        while let (type, body) = r.nextBox() {
            guard type == "infe" else { continue }
            var e = BoxReader(bytes: Array(body))
            guard let infeVersion = e.u8(), infeVersion >= 2, e.skip(3),
                  let itemID = infeVersion == 2 ? e.u16() : e.u32(), e.skip(2), let fourCC = e.bytes(4) else { continue }
            types.append((itemID, String(decoding: fourCC, as: UTF8.self)))
        }
        return types
    }

    /// The first 64 bytes of item `id`'s data (a grid's or an overlay's descriptor is shorter), from the file
    /// (construction method 0) or the `idat` box (1).
    static func itemData(_ id: Int, iloc: [UInt8], idat: [UInt8]?, source: any ByteSource) -> [UInt8]? {
        var r = BoxReader(bytes: iloc)
        guard let version = r.u8(), version <= 2, r.skip(3), let sizes = r.u8(), let sizes2 = r.u8() else { return nil }
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 15), baseSize = Int(sizes2 >> 4)
        let indexSize = version == 0 ? 0 : Int(sizes2 & 15)
        guard let count = version < 2 ? r.u16() : r.u32() else { return nil }
        for _ in 0..<count {
            guard let itemID = version < 2 ? r.u16() : r.u32() else { return nil }
            var method = 0
            if version >= 1 { guard let m = r.u16() else { return nil }; method = m & 15 }
            guard r.skip(2), let base = r.uint(baseSize), let extents = r.u16() else { return nil }
            var data: [UInt8] = []
            for _ in 0..<extents {
                guard r.skip(indexSize), let offset = r.uint(offsetSize), let length = r.uint(lengthSize) else { return nil }
                guard itemID == id, data.count < 64 else { continue }
                let (start, overflow) = base.addingReportingOverflow(offset)
                guard !overflow else { return nil }
                let wanted = min(64 - data.count, length == 0 ? 64 : length)
                switch method {
                case 0: data += (try? source.read(from: start, count: wanted)) ?? []
                case 1:
                    guard let idat, start < idat.count else { return nil }
                    data += idat[start..<min(idat.count, start + wanted)]
                default: return nil
                }
            }
            if itemID == id { return data }
        }
        return nil
    }
}

/// Big-endian fields and child boxes out of a box's body; every read says nil past the end.
struct BoxReader {
    let bytes: [UInt8]
    var position: Int
    let end: Int

    init(bytes: [UInt8], start: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        position = start
        self.end = min(end ?? bytes.count, bytes.count)
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= end - position else { return false }
        position += count
        return true
    }

    mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= end - position else { return nil }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    /// An unsigned field of 0, 1, 2, 4 or 8 bytes (0 reads as 0, as iloc's absent fields do).
    mutating func uint(_ size: Int) -> Int? {
        guard [0, 1, 2, 4, 8].contains(size), let field = bytes(size) else { return nil }
        let value = field.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }

    mutating func u8() -> UInt8? { uint(1).map(UInt8.init) }
    mutating func u16() -> Int? { uint(2) }
    mutating func u32() -> Int? { uint(4) }

    /// The next child box: its type and body (32-bit sizes only, as inside `meta`).
    mutating func nextBox() -> (String, ArraySlice<UInt8>)? {
        let start = position
        guard let size = u32(), size >= 8, let type = bytes(4), size - 8 <= end - position else {
            position = start
            return nil
        }
        let body = bytes[position..<(position + size - 8)]
        position += size - 8
        return (String(decoding: type, as: UTF8.self), body)
    }
}
