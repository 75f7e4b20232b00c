/// Damages a real TIFF the way a bad disk or a careless writer does, for tests of what libtiff says about it:
/// the last strip of the first directory is replaced by bytes made from it, appended at the end of the file, and
/// the directory's StripOffsets and StripByteCounts point there. Little-endian classic TIFFs only (tiffcp's).
package enum TIFFStripEdit {
    package enum Failure: Error, CustomStringConvertible {
        case unsupported(String)
        package var description: String {
            switch self { case .unsupported(let why): "TIFFStripEdit: \(why)" }
        }
    }

    /// `file` with its first directory's last strip replaced by `change(strip)`.
    package static func replacingLastStrip(of file: [UInt8], _ change: ([UInt8]) -> [UInt8]) throws -> [UInt8] {
        guard file.count >= 8, file[0] == 0x49, file[1] == 0x49, file[2] == 42 else {
            throw Failure.unsupported("not a little-endian classic TIFF")
        }
        var bytes = file
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        func put(_ value: Int, at: Int, width: Int) {
            for k in 0..<width { bytes[at + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
        }
        /// Where the last value of the array of tag `tag` is, and how wide each value is.
        func lastValue(_ tag: Int) throws -> (at: Int, width: Int) {
            let directory = u32(4)
            for entry in 0..<u16(directory) {
                let at = directory + 2 + 12 * entry
                guard u16(at) == tag else { continue }
                let type = u16(at + 2), count = u32(at + 4)
                guard type == 3 || type == 4, count > 0 else { throw Failure.unsupported("tag \(tag) has type \(type)") }
                let width = type == 3 ? 2 : 4
                let values = count * width <= 4 ? at + 8 : u32(at + 8)
                return (values + (count - 1) * width, width)
            }
            throw Failure.unsupported("no tag \(tag)")
        }
        let offset = try lastValue(273), count = try lastValue(279)
        let start = offset.width == 2 ? u16(offset.at) : u32(offset.at)
        let length = count.width == 2 ? u16(count.at) : u32(count.at)
        guard start + length <= bytes.count else { throw Failure.unsupported("the last strip lies past the end") }
        let strip = change(Array(bytes[start..<(start + length)]))
        guard bytes.count + strip.count < 1 << (8 * min(offset.width, 4)) - 1, strip.count < 1 << (8 * count.width) else {
            throw Failure.unsupported("the new strip does not fit the directory's fields")
        }
        put(bytes.count, at: offset.at, width: offset.width)
        put(strip.count, at: count.at, width: count.width)
        return bytes + strip
    }
}
