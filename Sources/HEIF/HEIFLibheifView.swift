import ImageCodec

/// The file as libheif 1.15 is shown it: the file itself, or, when its `meta` box holds something libheif 1.15
/// refuses although the primary image does not need it, the file with that `meta` box renamed `free` and a
/// rewritten copy of it after the file's last byte.
///
/// Every item's data stays where it is (iloc's offsets are absolute file offsets; an `idat` moves along with its
/// `meta`), so nothing of the file is copied: the view holds two 4-byte patches and the new `meta` box (a few KB).
/// What libheif 1.15 refuses and the view mends:
/// - an `auxl`, `thmb` or `cdsc` reference with several targets ("Too many auxiliary image references"): iOS 18
///   names the primary image and the `tmap` item (an ISO 21496-1 gain map, unknown to 1.15) as the targets of the
///   HDR gain map, depth and semantic mattes; one to a non-image item fails as "Non-existing ... referenced". Each
///   is cut to one target, the primary image when it is one of them, else the first image; dropped when none is.
/// - an `iden` item (a derived image: another item turned, mirrored or cropped by its properties) without an
///   `iloc` entry, which it needs none of: libheif 1.15 reads every item's data while it reads the file ("Item
///   has no data"). The view gives it an entry with no extents.
struct HEIFLibheifView: ByteSource {
    let base: any ByteSource
    /// Bytes replaced in place: (offset, bytes).
    private let patches: [(offset: Int, bytes: [UInt8])]
    /// The rewritten `meta` box, read after the base's last byte.
    private let tail: [UInt8]
    /// What was mended, one phrase each ("auxl of item 53 cut to item 49"): for tests and the fuzzer.
    let mended: [String]

    var count: Int { base.count + tail.count }

    func read(from offset: Int, count wanted: Int) throws(CodecError) -> [UInt8] {
        guard offset >= 0, wanted > 0, offset < count else { return [] }
        let end = offset + min(wanted, count - offset)
        var bytes: [UInt8] = []
        if offset < base.count {
            bytes = try base.read(from: offset, count: min(end, base.count) - offset)
            guard bytes.count == min(end, base.count) - offset else { return bytes }  // the file shrank
            for patch in patches where patch.offset < end && patch.offset + patch.bytes.count > offset {
                for (i, byte) in patch.bytes.enumerated() where (offset..<end).contains(patch.offset + i) {
                    bytes[patch.offset + i - offset] = byte
                }
            }
        }
        if end > base.count {
            let start = max(offset, base.count) - base.count
            bytes += tail[start..<(end - base.count)]
        }
        return bytes
    }

    /// The view of `source` libheif 1.15 is to read; `source` itself when nothing needs mending or the boxes
    /// cannot be followed (libheif then says what is wrong with them).
    static func of(_ source: any ByteSource) -> any ByteSource {
        guard let layout = TopLevel(source), let meta = HEIFBoxes.topLevelBox("meta", in: source),
              let rewrite = MetaRewrite(meta) else { return source }
        var patches = [(offset: layout.metaOffset + 4, bytes: Array("free".utf8))]
        if let open = layout.openEnded {
            // Trap: a last box of size 0 runs to the end of the file, and would swallow the new meta box.
            guard source.count - open <= Int(UInt32.max) else { return source }
            patches.append((open, bigEndian(source.count - open, 4)))
        }
        return HEIFLibheifView(base: source, patches: patches, tail: rewrite.box, mended: rewrite.mended)
    }

    /// Where the top-level `meta` box starts, and the box that runs to the end of the file (size 0), if any; nil
    /// when the boxes do not lead from the start to the end of the file.
    private struct TopLevel {
        var metaOffset = -1
        var openEnded: Int?

        init?(_ source: any ByteSource) {
            var offset = 0
            for _ in 0..<4096 {
                guard offset < source.count else { break }
                guard let header = try? source.read(from: offset, count: 16), header.count >= 8 else { return nil }
                var size = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
                if size == 1 {
                    guard header.count == 16 else { return nil }
                    let large = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    guard large >= 16, large <= UInt64(Int.max) else { return nil }
                    size = Int(large)
                } else if size == 0 {
                    openEnded = offset
                    size = source.count - offset
                }
                guard size >= 8 else { return nil }
                if header[4..<8].elementsEqual("meta".utf8) {
                    guard metaOffset < 0 else { return nil }  // a second one: libheif 1.15 reads the last
                    metaOffset = offset
                }
                let (end, overflow) = offset.addingReportingOverflow(size)
                // A file cut short is told as such by HEIFFile, from the file itself.
                guard !overflow, end <= source.count else { return nil }
                offset = end
            }
            guard offset == source.count, metaOffset >= 0 else { return nil }
        }
    }

    static func bigEndian(_ value: Int, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - $0))) }
    }
}

/// A `meta` box's body rewritten so that libheif 1.15 accepts it (HEIFLibheifView), as a whole `meta` box; nil
/// when nothing needs mending or a box on the way cannot be read exactly as libheif 1.15 reads it.
private struct MetaRewrite {
    let box: [UInt8]
    let mended: [String]

    /// The item types libheif 1.15 makes images of (`item_type_is_image`).
    static let imageTypes: Set<String> = ["hvc1", "grid", "iden", "iovl", "av01", "vvc1"]

    init?(_ meta: [UInt8]) {
        guard meta.count >= 4 else { return nil }
        var reader = BoxReader(bytes: meta, start: 4, end: meta.count)  // meta is a full box
        var children: [(type: String, body: ArraySlice<UInt8>)] = []
        while let (type, body) = reader.nextBox() { children.append((type, body)) }
        guard reader.position == meta.count,
              let iinf = children.first(where: { $0.type == "iinf" }),
              let pitm = children.first(where: { $0.type == "pitm" }) else { return nil }
        var p = BoxReader(bytes: Array(pitm.body))
        guard let pitmVersion = p.u8(), p.skip(3), let primary = pitmVersion == 0 ? p.u16() : p.u32() else { return nil }
        let types = Dictionary(HEIFBoxes.itemTypes(iinf: Array(iinf.body)), uniquingKeysWith: { first, _ in first })
        var mended: [String] = []

        var newIref: [UInt8]?
        if let iref = children.first(where: { $0.type == "iref" }),
           let references = Self.references(Array(iref.body)) {
            var kept: [UInt8] = Array(iref.body.prefix(4))
            let wide = iref.body.first != 0
            var changed = false
            for reference in references {
                let checked = ["auxl", "thmb", "cdsc"].contains(reference.type)
                    && (reference.type == "cdsc" || types[reference.from].map(Self.imageTypes.contains) == true)
                let isImage = { (id: Int) in types[id].map(Self.imageTypes.contains) == true }
                guard checked, reference.to.count != 1 || !isImage(reference.to[0]) else {
                    kept += reference.bytes
                    continue
                }
                changed = true
                let target = reference.to.contains(primary) && isImage(primary) ? primary : reference.to.first(where: isImage)
                guard let target else {
                    mended.append("\(reference.type) of item \(reference.from) dropped (no image among its targets)")
                    continue
                }
                mended.append("\(reference.type) of item \(reference.from) cut to item \(target)")
                let idSize = wide ? 4 : 2
                kept += HEIFLibheifView.bigEndian(8 + idSize * 2 + 2, 4) + Array(reference.type.utf8)
                kept += HEIFLibheifView.bigEndian(reference.from, idSize) + [0, 1] + HEIFLibheifView.bigEndian(target, idSize)
            }
            if changed { newIref = kept }
        }

        var newIloc: [UInt8]?
        let dataless = types.filter { $0.value == "iden" }.map(\.key).sorted()
        if !dataless.isEmpty, let iloc = children.first(where: { $0.type == "iloc" }),
           let located = Self.locatedItems(Array(iloc.body)) {
            let missing = dataless.filter { !located.items.contains($0) }
            if !missing.isEmpty {
                var body = Array(iloc.body)
                let version = Int(body[0])
                let countSize = version < 2 ? 2 : 4
                let total = located.items.count + missing.count
                guard total < 1 << (8 * countSize), version >= 2 || missing.allSatisfy({ $0 <= 0xFFFF }) else { return nil }
                body.replaceSubrange(6..<(6 + countSize), with: HEIFLibheifView.bigEndian(total, countSize))
                for id in missing {
                    body += HEIFLibheifView.bigEndian(id, version < 2 ? 2 : 4)
                    if version >= 1 { body += [0, 0] }  // construction method 0
                    body += [0, 0] + [UInt8](repeating: 0, count: located.baseOffsetSize) + [0, 0]  // no extents
                    mended.append("iden item \(id) given an empty iloc entry")
                }
                newIloc = body
            }
        }

        guard newIref != nil || newIloc != nil else { return nil }
        var body = Array(meta[0..<4])
        for child in children {
            let replaced = child.type == "iref" ? newIref : child.type == "iloc" ? newIloc : nil
            let childBody = replaced ?? Array(child.body)
            body += HEIFLibheifView.bigEndian(8 + childBody.count, 4) + Array(child.type.utf8) + childBody
        }
        guard 8 + body.count <= Int(UInt32.max) else { return nil }
        box = HEIFLibheifView.bigEndian(8 + body.count, 4) + Array("meta".utf8) + body
        self.mended = mended
    }

    struct Reference {
        var type: String, from: Int, to: [Int]
        var bytes: ArraySlice<UInt8>
    }

    /// The references of an `iref` body, read as libheif 1.15 reads them; nil when a reference's size disagrees
    /// with what it holds, or the body ends inside one.
    /// Trap: libheif 1.15 reads each reference's fields one after the other and ignores its box size, so a
    /// reference cannot be shortened in place (padding after it would be read as another reference).
    static func references(_ iref: [UInt8]) -> [Reference]? {
        var r = BoxReader(bytes: iref)
        guard let version = r.u8(), version <= 1, r.skip(3) else { return nil }
        var references: [Reference] = []
        while r.position < r.end {
            let start = r.position
            guard let size = r.u32(), size >= 8, let type = r.bytes(4),
                  let from = version == 0 ? r.u16() : r.u32(), let count = r.u16() else { return nil }
            var to: [Int] = []
            for _ in 0..<count {
                guard let id = version == 0 ? r.u16() : r.u32() else { return nil }
                to.append(id)
            }
            guard r.position - start == size else { return nil }
            references.append(Reference(type: String(decoding: type, as: UTF8.self), from: from, to: to,
                                        bytes: iref[start..<r.position]))
        }
        return references
    }

    /// The item IDs an `iloc` body locates, and its base_offset_size; nil when it cannot be read to its end.
    static func locatedItems(_ iloc: [UInt8]) -> (items: Set<Int>, baseOffsetSize: Int)? {
        var r = BoxReader(bytes: iloc)
        guard let version = r.u8(), version <= 2, r.skip(3), let sizes = r.u8(), let sizes2 = r.u8() else { return nil }
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 15), baseSize = Int(sizes2 >> 4)
        let indexSize = version == 0 ? 0 : Int(sizes2 & 15)
        guard [0, 4, 8].contains(baseSize), let count = version < 2 ? r.u16() : r.u32() else { return nil }
        var items = Set<Int>()
        for _ in 0..<count {
            guard let id = version < 2 ? r.u16() : r.u32() else { return nil }
            if version >= 1 { guard r.skip(2) else { return nil } }
            guard r.skip(2), r.uint(baseSize) != nil, let extents = r.u16() else { return nil }
            for _ in 0..<extents {
                guard r.skip(indexSize), r.uint(offsetSize) != nil, r.uint(lengthSize) != nil else { return nil }
            }
            items.insert(id)
        }
        guard r.position == r.end else { return nil }
        return (items, baseSize)
    }
}
