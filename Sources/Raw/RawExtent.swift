import ImageCodec

/// How far into the file the data blocks a TIFF-structured raw's directories point at go: the end of its
/// furthest strip, tile or JPEG (IFD0, its chain, and their SubIFDs). A file shorter than that was cut.
///
/// Trap: LibRaw does not notice a raw cut short in most of its decoders (a DNG's lossy or lossless tiles, an
/// uncompressed NEF): it decodes what is there and leaves the rest grey or black, without a word to its data
/// callback. The directories say where the data ends; that is checked here instead.
enum RawExtent {
    /// Directories followed at most: a camera writes a handful (IFD0, its thumbnails, the raw, the preview).
    static let maximumDirectories = 64
    /// Offsets of one tag read at most: a 100-megapixel DNG of 256x256 tiles has about 1,600.
    static let maximumBlocks = 1 << 16

    /// The furthest byte a data block of the TIFF structure in `source` ends at; nil when the bytes are no TIFF
    /// structure this reader follows (the file is then left to LibRaw).
    static func end(of source: any ByteSource) throws(CodecError) -> Int? {
        let head = try source.prefix(8)
        guard head.count == 8 else { return nil }
        let little: Bool
        switch (head[0], head[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func number(_ bytes: [UInt8], _ at: Int, _ size: Int) -> Int {
            var value = 0
            for i in 0..<size {
                let byte = Int(bytes[at + (little ? size - 1 - i : i)])
                value = value << 8 | byte
            }
            return value
        }
        var pending = [number(head, 4, 4)]
        var visited: Set<Int> = []
        var furthest = 0
        while let offset = pending.popLast() {
            guard offset >= 8, offset < source.count, visited.count < maximumDirectories,
                  visited.insert(offset).inserted else { continue }
            let countBytes = try source.read(from: offset, count: 2)
            guard countBytes.count == 2 else { continue }
            let entries = min(number(countBytes, 0, 2), 1000)
            let directory = try source.read(from: offset + 2, count: entries * 12 + 4)
            // A directory past the end (a cut file, or a next-directory pointer to nowhere): what it would say
            // is unknown, and the blocks already found decide.
            guard directory.count == entries * 12 + 4 else { continue }
            var values: [Int: [Int]] = [:]
            for entry in 0..<entries {
                let at = entry * 12
                let tag = number(directory, at, 2), type = number(directory, at + 2, 2)
                let count = number(directory, at + 4, 4)
                guard [273, 279, 324, 325, 330, 513, 514].contains(tag), count > 0, count <= maximumBlocks,
                      type == 3 || type == 4 || type == 13 else { continue }
                let size = type == 3 ? 2 : 4
                let bytes: [UInt8]
                if count * size <= 4 {
                    bytes = Array(directory[(at + 8)..<(at + 8 + count * size)])
                } else {
                    bytes = try source.read(from: number(directory, at + 8, 4), count: count * size)
                    guard bytes.count == count * size else { continue }
                }
                values[tag] = (0..<count).map { number(bytes, $0 * size, size) }
            }
            for (offsets, lengths) in [(273, 279), (324, 325), (513, 514)] {
                guard let starts = values[offsets], let counts = values[lengths], starts.count == counts.count else {
                    continue
                }
                for (start, length) in zip(starts, counts) where length > 0 {
                    furthest = max(furthest, start + length)
                }
            }
            pending += values[330] ?? []
            pending.append(number(directory, entries * 12, 4))
        }
        return furthest
    }
}
