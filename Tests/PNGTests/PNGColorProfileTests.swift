import Testing
@testable import PNG
import TestSupport

/// The iCCP profile is read in the probe: inflated, bounded, and refused with a reason when broken.
@Suite struct PNGColorProfileTests {
    static let adobeRGB = "/usr/share/color/icc/ghostscript/a98.icc"

    /// A 4x4 RGB PNG with `iccp` (the chunk's data) between IHDR and IDAT.
    static func png(iccp: [UInt8]?) -> [UInt8] {
        let plain = TestPNGEncoder.encode(width: 4, height: 4, colorType: 2, pixels: [UInt8](repeating: 90, count: 48))
        guard let iccp else { return plain }
        let afterIHDR = 8 + 12 + 13
        return Array(plain[..<afterIHDR]) + TestPNGEncoder.chunk("iCCP", iccp) + plain[afterIHDR...]
    }

    static func iccp(name: String = "Adobe RGB", method: UInt8 = 0, _ compressed: [UInt8]) -> [UInt8] {
        Array(name.utf8) + [0, method] + compressed
    }

    @Test func noProfile() throws {
        #expect(try PNGDecoder.readInfo(Self.png(iccp: nil)).colorProfile == nil)
    }

    @Test func imageMagicksProfileIsTheFileItWasGiven() throws {
        let profile = try Fixtures.read(Self.adobeRGB)
        let png = try ExternalCommand.output("/usr/bin/convert", ["-size", "8x8", "xc:orange", "-profile", Self.adobeRGB, "png:-"])
        #expect(try PNGDecoder.readInfo(png).colorProfile == .profile(profile))
        #expect(try PNGDecoder.readInfo(prefix: png)?.colorProfile == .profile(profile))
    }

    @Test func storedBlocksInflate() throws {
        let profile = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let png = Self.png(iccp: Self.iccp(TestPNGEncoder.zlibStored(profile)))
        #expect(try PNGDecoder.readInfo(png).colorProfile == .profile(profile))
    }

    /// A broken chunk by name, and the reason it is refused: the chunk itself as the test's argument would print
    /// a 4 MB array into the test log.
    static func brokenChunk(_ name: String) -> (chunk: [UInt8], reason: String) {
        switch name {
        case "truncated zlib": (iccp(TestPNGEncoder.zlibStored([1, 2, 3]).dropLast(6) + []), "iCCP profile is not sound zlib data")
        case "bad deflate block": (iccp([0x78, 0x01, 0xFF, 0xFF, 0xFF]), "iCCP profile is not sound zlib data")
        case "method 1": (iccp(method: 1, TestPNGEncoder.zlibStored([1])), "iCCP chunk uses unknown compression method 1")
        case "no name": (iccp(name: "", TestPNGEncoder.zlibStored([1])), "iCCP chunk has no profile name")
        default: (iccp(TestPNGEncoder.zlibStored([UInt8](repeating: 7, count: (4 << 20) + 1))), "ICC profile is larger than 4 MB")
        }
    }

    @Test("broken iCCP chunks", arguments: ["truncated zlib", "bad deflate block", "method 1", "no name", "over 4 MB"])
    func broken(name: String) throws {
        let (chunk, reason) = Self.brokenChunk(name)
        #expect(try PNGDecoder.readInfo(Self.png(iccp: chunk)).colorProfile == .unusable(reason))
    }

    @Test func aProfileOfExactlyTheLimitIsRead() throws {
        let profile = [UInt8](repeating: 3, count: 4 << 20)
        #expect(try PNGDecoder.readInfo(Self.png(iccp: Self.iccp(TestPNGEncoder.zlibStored(profile)))).colorProfile
                == .profile(profile))
    }
}
