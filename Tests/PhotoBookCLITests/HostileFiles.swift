import Foundation
import Imaging
import JPEG
import TestSupport
import Testing

/// Broken photos made by the tests from good ones: the patches that break them (the structure walkers are
/// TestSupport's `JPEGStructure` and `TestPNGEncoder`).
enum HostileFiles {
    static let landscape = Run.fixture("exif-orientation/Landscape_1.jpg")

    static func read(_ path: String) -> [UInt8] {
        (try? Fixtures.read(path)) ?? []
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

    // MARK: JPEG patches

    /// Scan `index`'s spectral selection and successive approximation (Ss, Se, Ah/Al) rewritten.
    static func withScanParameters(_ jpeg: [UInt8], scan index: Int, ss: UInt8? = nil, se: UInt8? = nil,
                                   ahal: UInt8? = nil) -> [UInt8] {
        var bytes = jpeg
        let scan = JPEGStructure.scans(jpeg)[index]
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
        let start = JPEGStructure.scans(jpeg)[0].end, end = jpeg.count - 2
        var generator = SplitMix64(seed: seed)
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

    // MARK: PNG patches

    /// A PNG whose header declares `width`x`height` RGB pixels, followed by `idat` (a tiny body by default).
    static func png(width: UInt32, height: UInt32, interlaced: Bool = false, idat: [UInt8] = [0x78, 0x9C, 0x03, 0]) -> [UInt8] {
        TestPNGEncoder.signature
            + TestPNGEncoder.chunk("IHDR", TestPNGEncoder.ihdr(width: width, height: height, bitDepth: 8, colorType: 2,
                                                                 interlaced: interlaced))
            + TestPNGEncoder.chunk("IDAT", idat) + TestPNGEncoder.chunk("IEND", [])
    }

    /// The PNG without its chunks of `type`.
    static func removingChunks(_ png: [UInt8], _ type: String) -> [UInt8] {
        var bytes = Array(png.prefix(8))
        for c in TestPNGEncoder.chunks(of: png) where c.type != type { bytes += png[c.offset..<min(c.end, png.count)] }
        return bytes
    }

    /// The PNG with one byte of the first `type` chunk's stored CRC flipped.
    static func withBadCRC(_ png: [UInt8], in type: String) -> [UInt8] {
        var bytes = png
        let c = TestPNGEncoder.chunks(of: png).first { $0.type == type }!
        bytes[c.end - 1] ^= 0xFF
        return bytes
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
