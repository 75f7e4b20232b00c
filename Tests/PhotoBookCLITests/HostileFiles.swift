import Foundation
import Imaging
import JPEG
import Testing

/// Broken photos made by the tests from good ones: JPEG and PNG structure walkers, and the patches that break them.
enum HostileFiles {
    static let landscape = Run.fixture("exif-orientation/Landscape_1.jpg")

    static func read(_ path: String) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
    }

    /// A textured landscape photo, so that every part of the entropy-coded data carries detail.
    static let picture: RGBImage = {
        let width = 600, height = 400
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var state: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_103_515_245 &+ 12345
                let noise = Int(state >> 27)
                let i = (y * width + x) * 3
                pixels[i] = UInt8((x * 255 / width + noise) & 0xFF)
                pixels[i + 1] = UInt8((y * 255 / height + noise * 2) & 0xFF)
                pixels[i + 2] = UInt8(((x ^ y) & 0xFF))
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }()

    /// `picture` through our own encoder.
    static func jpeg(progressive: Bool = false, arithmetic: Bool = false) -> [UInt8] {
        try! JPEGEncoder.encode(picture, options: .init(quality: 85, progressive: progressive,
                                                        arithmeticCoding: arithmetic))
    }

    // MARK: JPEG structure

    struct Segment {
        var marker: UInt8
        /// Offset of the 0xFF that starts the marker.
        var offset: Int
        /// The segment length field (it counts itself, not the marker).
        var length: Int
        /// First byte after the segment header; for SOS, the entropy-coded data starts here.
        var end: Int { offset + 2 + length }
    }

    /// Every marker segment up to EOI, scans included (their entropy-coded data is skipped).
    static func segments(_ jpeg: [UInt8]) -> [Segment] {
        var result: [Segment] = []
        var i = 2
        while i + 3 < jpeg.count {
            guard jpeg[i] == 0xFF else { i += 1; continue }
            let marker = jpeg[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xD9 { break }
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            let segment = Segment(marker: marker, offset: i, length: length)
            result.append(segment)
            i = segment.end
            if marker == 0xDA {
                // Entropy-coded data ends at the first marker that is neither a stuffed 0x00 nor a restart.
                while i + 1 < jpeg.count, !(jpeg[i] == 0xFF && jpeg[i + 1] != 0 && !(0xD0...0xD7).contains(jpeg[i + 1])) {
                    i += 1
                }
            }
        }
        return result
    }

    static func first(_ marker: UInt8, in jpeg: [UInt8]) -> Segment {
        segments(jpeg).first { $0.marker == marker }!
    }

    static func frame(_ jpeg: [UInt8]) -> Segment {
        segments(jpeg).first { [0xC0, 0xC1, 0xC2, 0xC3, 0xC9, 0xCA].contains($0.marker) }!
    }

    static func scans(_ jpeg: [UInt8]) -> [Segment] { segments(jpeg).filter { $0.marker == 0xDA } }

    /// The frame header rewritten: its marker (SOFn), sample precision and size.
    static func withFrame(_ jpeg: [UInt8], marker: UInt8? = nil, precision: UInt8? = nil,
                          width: Int? = nil, height: Int? = nil) -> [UInt8] {
        var bytes = jpeg
        let sof = frame(jpeg).offset
        if let marker { bytes[sof + 1] = marker }
        if let precision { bytes[sof + 4] = precision }
        if let height { bytes[sof + 5] = UInt8(height >> 8); bytes[sof + 6] = UInt8(height & 0xFF) }
        if let width { bytes[sof + 7] = UInt8(width >> 8); bytes[sof + 8] = UInt8(width & 0xFF) }
        return bytes
    }

    /// Scan `index`'s spectral selection and successive approximation (Ss, Se, Ah/Al) rewritten.
    static func withScanParameters(_ jpeg: [UInt8], scan index: Int, ss: UInt8? = nil, se: UInt8? = nil,
                                   ahal: UInt8? = nil) -> [UInt8] {
        var bytes = jpeg
        let scan = scans(jpeg)[index]
        let components = Int(jpeg[scan.offset + 4])
        let p = scan.offset + 5 + 2 * components
        if let ss { bytes[p] = ss }
        if let se { bytes[p + 1] = se }
        if let ahal { bytes[p + 2] = ahal }
        return bytes
    }

    /// `count` bits flipped at seeded places of the entropy-coded data (after the first scan header).
    static func withFlippedBits(_ jpeg: [UInt8], count: Int, seed: UInt64) -> [UInt8] {
        var bytes = jpeg
        let start = scans(jpeg)[0].end, end = jpeg.count - 2
        var generator = SeededGenerator(state: seed)
        for _ in 0..<count {
            let at = Int.random(in: start..<end, using: &generator)
            bytes[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
        }
        return bytes
    }

    /// A JPEG with `tiff` (a TIFF structure) as its EXIF block, right after SOI.
    static func withEXIF(_ jpeg: [UInt8], tiff: [UInt8]) -> [UInt8] {
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }

    // MARK: PNG structure

    struct Chunk {
        var type: String
        /// Offset of the length field.
        var offset: Int
        var length: Int
        var end: Int { offset + 12 + length }
    }

    static func chunks(_ png: [UInt8]) -> [Chunk] {
        var result: [Chunk] = []
        var i = 8
        while i + 8 <= png.count {
            let length = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
            let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
            result.append(Chunk(type: type, offset: i, length: length))
            i += 12 + length
        }
        return result
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A PNG whose header declares `width`x`height` RGB pixels, followed by `idat` (a tiny body by default).
    static func png(width: UInt32, height: UInt32, interlaced: Bool = false, idat: [UInt8] = [0x78, 0x9C, 0x03, 0]) -> [UInt8] {
        pngSignature
            + chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, interlaced ? 1 : 0])
            + chunk("IDAT", idat) + chunk("IEND", [])
    }

    /// The PNG without its chunks of `type`.
    static func removingChunks(_ png: [UInt8], _ type: String) -> [UInt8] {
        var bytes = Array(png.prefix(8))
        for c in chunks(png) where c.type != type { bytes += png[c.offset..<min(c.end, png.count)] }
        return bytes
    }

    /// The PNG with one byte of the first `type` chunk's stored CRC flipped.
    static func withBadCRC(_ png: [UInt8], in type: String) -> [UInt8] {
        var bytes = png
        let c = chunks(png).first { $0.type == type }!
        bytes[c.end - 1] ^= 0xFF
        return bytes
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// A small deterministic generator (SplitMix64), so that every run flips the same bits.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A little-endian TIFF structure written entry by entry, for hostile EXIF blocks.
struct TIFFWriter {
    var bytes: [UInt8] = [0x49, 0x49, 42, 0]  // "II", 42

    mutating func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    mutating func u32(_ v: UInt32) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
    /// One directory entry: tag, type, count, value-or-offset.
    mutating func entry(_ tag: UInt16, type: UInt16, count: UInt32, value: UInt32) {
        u16(tag); u16(type); u32(count); u32(value)
    }
}

extension Run {
    /// Runs `photobook` through `/usr/bin/time`, which reports the child's peak resident memory.
    /// - Returns: the run and the peak in MiB (nil when it could not be read).
    static func photobookMeasured(_ arguments: [String], tmpdir: String? = nil, timeout: Double = 20,
                                  scratch: Scratch) throws -> (run: Run, peakMiB: Int?) {
        let report = scratch.file("time-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(atPath: report) }
        let run = try command("/usr/bin/time", ["-f", "%M", "-o", report, binary] + arguments,
                              environment: tmpdir.map { ["TMPDIR": $0] } ?? [:], timeout: timeout)
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        let kib = text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return (run, kib.map { $0 / 1024 })
    }

    /// Killed by a signal (`/usr/bin/time` and shells report those as 128 + the signal number).
    var diedFromSignal: Bool { status > 128 || status < 0 }
}

/// Mounts a tmpfs for a test, when the system lets us (tests run as root in CI; elsewhere they skip).
final class TemporaryMount {
    let path: String
    private var mounted = false

    /// Mounts a tmpfs of `size` (e.g. "2m") at `path`; nil when `mount` is refused.
    init?(at path: String, size: String, readOnly: Bool = false) {
        self.path = path
        guard let run = try? Run.command("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0777" + (readOnly ? ",ro" : ""),
                                                             "tmpfs", path], timeout: 20),
              run.status == 0 else { return nil }
        mounted = true
    }

    func unmount() {
        guard mounted else { return }
        if let run = try? Run.command("/usr/bin/umount", [path], timeout: 20), run.status == 0 { mounted = false }
        #expect(!mounted, "could not unmount \(path)")
    }

    deinit { unmount() }

    /// Whether this machine lets the tests mount a tmpfs (asked once).
    static let isAvailable: Bool = {
        guard geteuid() == 0, let scratch = try? Scratch(), let probe = try? scratch.sub("probe") else { return false }
        guard let mount = TemporaryMount(at: probe, size: "64k") else { return false }
        mount.unmount()
        return true
    }()
}

/// SHA-256 of a file, for "untouched" checks (nil when it cannot be read).
func fileDigest(_ path: String) -> String? {
    guard let run = try? Run.command("/usr/bin/sha256sum", [path]), run.status == 0 else { return nil }
    return run.stdout.split(separator: " ").first.map(String.init)
}
