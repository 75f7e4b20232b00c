import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import JXL

/// Truncated, damaged and lying files: refused with a reason, never a crash, a hang or a big allocation.
struct JXLHostileInputTests {
    /// A bare codestream whose size header claims `width` x `height` (ISO/IEC 18181-1 SizeHeader: not div8,
    /// U32 selector 2 = 1 + 18 bits, ratio 0), with default metadata and nothing after it.
    static func claimingSize(width: Int, height: Int) -> [UInt8] {
        var bits: [Bool] = []
        func put(_ value: Int, _ count: Int) { for i in 0..<count { bits.append((value >> i) & 1 == 1) } }
        put(0, 1)                // div8: no
        put(2, 2); put(height - 1, 18)
        put(0, 3)                // ratio: the width follows
        put(2, 2); put(width - 1, 18)
        put(1, 1)                // ImageMetadata all_default
        var bytes: [UInt8] = [0xFF, 0x0A]
        for start in stride(from: 0, to: bits.count, by: 8) {
            var byte: UInt8 = 0
            for i in 0..<8 where start + i < bits.count && bits[start + i] { byte |= 1 << i }
            bytes.append(byte)
        }
        return bytes + [UInt8](repeating: 0, count: 64)
    }

    @Test func aHugeHeaderIsRefusedBeforeAnyPixelBuffer() throws {
        let bytes = Self.claimingSize(width: 100_000, height: 100_000)
        let header = try JXLTestSupport.probe(bytes)
        #expect(header.width == 100_000 && header.height == 100_000)
        let pool = BufferPool(minimumBytes: 1)
        #expect(throws: CodecError.tooLarge("image is 100000x100000 pixels, more than the limit of 100000000")) {
            _ = try JXLTestSupport.codec.decode(MemorySource(bytes), .whole(width: 100_000, height: 100_000,
                                                                              maxPixels: 100_000_000),
                                                pool: pool, shouldCancel: { false })
        }
        #expect(pool.statistics.allocated == 0 && pool.statistics.outstandingBytes == 0)
    }

    @Test func maxPixelsIsCheckedBeforeDecoding() throws {
        let bytes = try JXLTestSupport.bytes("bicycles.jxl")
        let pool = BufferPool(minimumBytes: 1)
        #expect(throws: CodecError.tooLarge("image is 1024x631 pixels, more than the limit of 600000")) {
            _ = try JXLTestSupport.decodeWhole(bytes, maxPixels: 600_000, pool: pool)
        }
        #expect(pool.statistics.allocated == 0)
    }

    @Test(arguments: ["bicycles.jxl", "bench_oriented_brg.jxl", "alpha_premultiplied.jxl"])
    func truncatedFilesAreRefused(_ name: String) throws {
        let bytes = try JXLTestSupport.bytes(name)
        let header = try JXLTestSupport.probe(bytes)
        for cut in [1, 2, 11, 13, 40, 200, bytes.count / 3, bytes.count / 2, bytes.count - 1] {
            let short = Array(bytes.prefix(cut))
            let pool = BufferPool(minimumBytes: 1)
            do {
                _ = try JXLTestSupport.codec.decode(MemorySource(short), .whole(width: header.width, height: header.height,
                                                                                   maxPixels: 100_000_000),
                                                    pool: pool, shouldCancel: { false })
                Issue.record("\(name) cut at \(cut) decoded")
            } catch {
                guard case .failed(let failure) = error else { Issue.record("\(error)"); continue }
                #expect(failure.kind == .corrupt, "\(name) cut at \(cut): \(failure.kind) \(failure.message)")
            }
            #expect(pool.statistics.outstandingBytes == 0)
        }
    }

    /// Bytes flipped past the headers: a decode either succeeds or fails by name.
    @Test func flippedBytes() throws {
        let bytes = try JXLTestSupport.bytes("bicycles.jxl")
        var random = SplitMix64(seed: 34)
        for _ in 0..<24 {
            var damaged = bytes
            for _ in 0..<8 {
                let at = 32 + Int(random.next() % UInt64(bytes.count - 32))
                damaged[at] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            let pool = BufferPool(minimumBytes: 1)
            do {
                let decoded = try JXLTestSupport.decodeWhole(damaged, pool: pool)
                pool.giveBack(decoded.image.pixels)
            } catch {
                guard case .failed(let failure) = error else { Issue.record("\(error)"); continue }
                #expect(failure.message.contains("JPEG XL"), "\(failure.message)")
            }
            #expect(pool.statistics.outstandingBytes == 0)
        }
    }

    /// A cancel asked at any of the decode's safe points ends it with `.cancelled` and every buffer back.
    @Test(arguments: [1, 2, 3, 4, 5])
    func cancellation(_ after: Int) throws {
        let bytes = try JXLTestSupport.bytes("bench_oriented_brg.jxl")
        let pool = BufferPool(minimumBytes: 1)
        var asked = 0
        #expect(throws: CodecError.cancelled) {
            _ = try JXLTestSupport.codec.decode(MemorySource(bytes), .whole(width: 500, height: 606, maxPixels: 100_000_000),
                                                pool: pool, shouldCancel: { asked += 1; return asked >= after })
        }
        #expect(pool.statistics.outstandingBytes == 0)
    }
}
