/// What a `CFF ` table says about its glyphs that a PDF needs: whether it is CID-keyed (its Top DICT has ROS)
/// and, if so, the CID of every glyph (its charset, formats 0, 1 and 2).
///
/// A CID-keyed font is embedded as a subset that does not keep glyph ids (it would pad the CharStrings to the
/// highest id: 257 KB for 20 Japanese glyphs), so the page shows each glyph's CID and the reader finds the glyph
/// through the subset's charset, which keeps the original CIDs (docs/research/words.md §3.1). Read bounds-checked:
/// a damaged table is a reason, never a trap.
struct CFFTable {
    typealias Problem = FontFileProblem

    /// True when the Top DICT has ROS (operator 12 30).
    let isCIDKeyed: Bool
    /// The CID of each glyph id, nil when every glyph's CID is its id (Noto Sans CJK) or the font is name-keyed.
    let cids: [UInt32]?

    init(_ bytes: [UInt8]) throws(Problem) {
        let file = TrueTypeFile.Bytes(bytes)
        func damaged(_ what: String) -> Problem { Problem(reason: "damaged: its 'CFF ' table \(what)") }
        guard bytes.count >= 4, bytes[0] == 1 else { throw damaged("has no version 1 header") }
        let names = try Self.index(file, at: Int(bytes[2]))
        let topDicts = try Self.index(file, at: names.end)
        guard let top = topDicts.items.first else { throw damaged("has no Top DICT") }
        let dict = try Self.dict(file, top)
        isCIDKeyed = dict[1230] != nil
        guard isCIDKeyed else { cids = nil; return }
        guard let charStrings = dict[17]?.first, charStrings > 0 else { throw damaged("names no CharStrings") }
        let glyphCount = try Self.index(file, at: charStrings).items.count
        guard let charset = dict[15]?.first, charset > 2 else {
            // 0 (ISOAdobe) is the default; for a CID-keyed font it can only be read as the identity.
            cids = nil
            return
        }
        var map: [UInt32] = [0]
        map.reserveCapacity(glyphCount)
        var at = charset + 1
        switch bytes.indices.contains(charset) ? bytes[charset] : 255 {
        case 0:
            while map.count < glyphCount {
                map.append(UInt32(try file.u16(at)))
                at += 2
            }
        case let format where format == 1 || format == 2:
            while map.count < glyphCount {
                let first = UInt32(try file.u16(at))
                let left = format == 1 ? UInt32(try file.u8(at + 2)) : UInt32(try file.u16(at + 2))
                at += format == 1 ? 3 : 4
                for cid in first...(first + left) where map.count < glyphCount { map.append(cid) }
            }
        default:
            throw damaged("has a charset of an unknown format")
        }
        cids = map.enumerated().allSatisfy { UInt32($0.offset) == $0.element } ? nil : map
    }

    /// An INDEX: its items' byte ranges and where it ends.
    private static func index(_ file: TrueTypeFile.Bytes, at start: Int) throws(Problem) -> (items: [Range<Int>], end: Int) {
        let count = Int(try file.u16(start))
        guard count > 0 else { return ([], start + 2) }
        let size = Int(try file.u8(start + 2))
        guard (1...4).contains(size) else { throw Problem(reason: "damaged: its 'CFF ' table has an INDEX with offsets of \(size) bytes") }
        func offset(_ item: Int) throws(Problem) -> Int {
            var value = 0
            for byte in 0..<size { value = value << 8 | Int(try file.u8(start + 3 + item * size + byte)) }
            return value
        }
        let base = start + 2 + (count + 1) * size
        var items: [Range<Int>] = []
        var previous = try offset(0)
        for item in 1...count {
            let next = try offset(item)
            guard previous >= 1, next >= previous, base + next <= file.bytes.count else {
                throw Problem(reason: "damaged: its 'CFF ' table has an INDEX past the end of the file")
            }
            items.append((base + previous)..<(base + next))
            previous = next
        }
        return (items, base + previous)
    }

    /// A DICT's operands by operator (12 x is 1200 + x); numbers only as whole numbers, reals skipped.
    private static func dict(_ file: TrueTypeFile.Bytes, _ range: Range<Int>) throws(Problem) -> [Int: [Int]] {
        var result: [Int: [Int]] = [:]
        var operands: [Int] = []
        var at = range.lowerBound
        while at < range.upperBound {
            let b0 = Int(try file.u8(at))
            switch b0 {
            case 12:
                result[1200 + Int(try file.u8(at + 1))] = operands
                operands = []
                at += 2
            case 0...21:
                result[b0] = operands
                operands = []
                at += 1
            case 28:
                operands.append(Int(Int16(bitPattern: try file.u16(at + 1))))
                at += 3
            case 29:
                operands.append(Int(Int32(bitPattern: try file.u32(at + 1))))
                at += 5
            case 30:
                at += 1
                while at < range.upperBound, try file.u8(at) & 0x0F != 0x0F, try file.u8(at) & 0xF0 != 0xF0 { at += 1 }
                at += 1
                operands.append(0)
            case 32...246:
                operands.append(b0 - 139)
                at += 1
            case 247...250:
                operands.append((b0 - 247) * 256 + Int(try file.u8(at + 1)) + 108)
                at += 2
            case 251...254:
                operands.append(-(b0 - 251) * 256 - Int(try file.u8(at + 1)) - 108)
                at += 2
            default:
                throw Problem(reason: "damaged: its 'CFF ' table has a Top DICT byte \(b0)")
            }
        }
        return result
    }
}
