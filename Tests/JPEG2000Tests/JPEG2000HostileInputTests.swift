import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import JPEG2000

/// Truncated, damaged and lying files: refused with OpenJPEG's reason, never a crash, a hang or a big allocation.
struct JPEG2000HostileInputTests {
    /// A codestream whose SIZ marker claims one grey `width` x `height` tile, with a COD, a QCD and an empty
    /// tile: what OpenJPEG needs to read a main header.
    static func claimingSize(width: Int, height: Int, tile: Int? = nil, components: Int = 1) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v >> 16) + u16(v & 0xFFFF) }
        var bytes: [UInt8] = [0xFF, 0x4F, 0xFF, 0x51] + u16(38 + 3 * components) + u16(0) + u32(width) + u32(height)
            + u32(0) + u32(0) + u32(tile ?? width) + u32(tile ?? height) + u32(0) + u32(0) + u16(components)
        for _ in 0..<components { bytes += [7, 1, 1] }
        // COD: no precincts, LRCP, 1 layer, no MCT; 5 levels, 64x64 code-blocks, 5/3 reversible.
        bytes += [0xFF, 0x52] + u16(12) + [0, 0] + u16(1) + [0, 5, 4, 4, 0, 1]
        // QCD: no quantisation, 2 guard bits, an exponent per sub-band.
        bytes += [0xFF, 0x5C] + u16(19) + [0x40] + [UInt8](repeating: 8 << 3, count: 16)
        bytes += [0xFF, 0x90] + u16(10) + u16(0) + u32(0) + [0, 1] + [0xFF, 0x93, 0xFF, 0xD9]
        return bytes
    }

    @Test func aHugeHeaderIsRefusedBeforeAnyPixelBuffer() throws {
        let bytes = Self.claimingSize(width: 100_000, height: 100_000)
        let header = try JPEG2000TestSupport.probe(bytes)
        #expect(header.width == 100_000 && header.height == 100_000)
        let pool = BufferPool(minimumBytes: 1)
        #expect(throws: CodecError.tooLarge("image is 100000x100000 pixels, more than the limit of 100000000")) {
            _ = try JPEG2000TestSupport.decodeWhole(bytes, pool: pool)
        }
        #expect(pool.statistics.allocated == 0)
    }

    /// 255x255 tiles of 40 components in a 700-byte header: OpenJPEG would allocate 13 GB reading it; refused
    /// first, in the probe too, in no time.
    @Test func aHeaderOfTooManyTilesIsRefusedBeforeOpenJPEGReadsIt() throws {
        let bytes = Self.claimingSize(width: 4080, height: 4080, tile: 16, components: 40)
        #expect(bytes.count < 1000)
        let refusal = CodecError.tooLarge("JPEG 2000 of 255x255 tiles of 40 components: OpenJPEG's records of them "
                                          + "alone would take more than 128 MB")
        #expect(throws: refusal) { _ = try JPEG2000TestSupport.probe(bytes) }
        #expect(throws: refusal) {
            _ = try JPEG2000TestSupport.codec.decode(MemorySource(bytes), .whole(width: 4080, height: 4080, maxPixels: 100_000_000),
                                                     pool: BufferPool(), shouldCancel: { false })
        }
        // The same tiles in a .jp2: the codestream is found in its jp2c box.
        let jp2 = JPEG2000TestSupport.inJP2(bytes)
        #expect(throws: refusal) { _ = try JPEG2000TestSupport.probe(jp2) }
        // A real tiled scan is not refused: p1_04 has 8x8 tiles.
        _ = try JPEG2000TestSupport.probe(JPEG2000TestSupport.bytes("p1_04.j2k"))
    }

    @Test func maxPixelsIsCheckedBeforeDecoding() throws {
        let pool = BufferPool(minimumBytes: 1)
        #expect(throws: CodecError.tooLarge("image is 1024x1024 pixels, more than the limit of 1000000")) {
            _ = try JPEG2000TestSupport.decodeWhole(JPEG2000TestSupport.bytes("p1_04.j2k"), maxPixels: 1_000_000, pool: pool)
        }
        #expect(pool.statistics.allocated == 0)
    }

    @Test(arguments: ["file3.jp2", "p1_04.j2k", "p0_14.j2k"])
    func truncatedFilesAreRefused(_ name: String) throws {
        let bytes = try JPEG2000TestSupport.bytes(name)
        let header = try JPEG2000TestSupport.probe(bytes)
        for cut in [1, 4, 12, 30, 60, 100, bytes.count / 3, bytes.count / 2, bytes.count - 3] {
            let short = Array(bytes.prefix(cut))
            let pool = BufferPool(minimumBytes: 1)
            do {
                _ = try JPEG2000TestSupport.codec.decode(MemorySource(short), .whole(width: header.width, height: header.height,
                                                                                        maxPixels: 100_000_000),
                                                         pool: pool, shouldCancel: { false })
                Issue.record("\(name) cut at \(cut) decoded")
            } catch {
                guard case .failed(let failure) = error else { Issue.record("\(error)"); continue }
                // Cut before the codec can tell it is one, no JPEG 2000 (unsupported); later, a damaged one.
                #expect(failure.kind == .corrupt || failure.kind == .unsupported,
                        "\(name) cut at \(cut): \(failure.kind) \(failure.message)")
            }
            #expect(pool.statistics.outstandingBytes == 0)
        }
    }

    @Test func flippedBytes() throws {
        let bytes = try JPEG2000TestSupport.bytes("file3.jp2")
        var random = SplitMix64(seed: 2000)
        for _ in 0..<24 {
            var damaged = bytes
            for _ in 0..<8 {
                let at = 12 + Int(random.next() % UInt64(bytes.count - 12))
                damaged[at] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            let pool = BufferPool(minimumBytes: 1)
            do {
                let decoded = try JPEG2000TestSupport.decodeWhole(damaged, pool: pool)
                pool.giveBack(decoded.image.pixels)
            } catch {
                guard case .failed(let failure) = error else { Issue.record("\(error)"); continue }
                #expect(failure.message.contains("JPEG 2000"), "\(failure.message)")
            }
            #expect(pool.statistics.outstandingBytes == 0)
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func cancellation(_ after: Int) throws {
        let bytes = try JPEG2000TestSupport.bytes("p1_04.j2k")
        let pool = BufferPool(minimumBytes: 1)
        var asked = 0
        #expect(throws: CodecError.cancelled) {
            _ = try JPEG2000TestSupport.codec.decode(MemorySource(bytes), .whole(width: 1024, height: 1024, maxPixels: 100_000_000),
                                                     pool: pool, shouldCancel: { asked += 1; return asked >= after })
        }
        #expect(pool.statistics.outstandingBytes == 0)
    }
}
