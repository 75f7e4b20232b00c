import Dispatch
import Imaging
import Synchronization
import Testing
@testable import JPEG

/// libjpeg's large blocks (CJPEGShim/large_blocks.c) come from the pool the work is handed and go back to it, for
/// the next photo instead of being unmapped: a photo cropped in memory another photo used gives the very same file
/// as before, and a pool lends nothing to, and takes nothing from, work handed another pool. Every test counts its
/// own pools' reuse, so the suite runs beside any other.
@Suite struct LargeBlockTests {
    /// A grey photo big enough that its coefficients take one block of over 16 MB (375 x 363 blocks of 128 bytes).
    static func photo(width: Int = 3000, height: Int = 2900, progressive: Bool = false,
                      _ value: (Int, Int) -> UInt8) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let v = value(x, y)
                let i = (y * width + x) * 3
                pixels[i] = v; pixels[i + 1] = v; pixels[i + 2] = v
            }
        }
        return try JPEGEncoder.encode(RGBImage(width: width, height: height, pixels: pixels),
                                      options: .init(quality: 80, progressive: progressive, colorModel: .grayscale))
    }

    static func crop(_ jpeg: [UInt8], _ orientation: Orientation, pool: BufferPool) throws -> [UInt8] {
        guard case .cropped(let output) = try JPEGLosslessCrop.crop(
            jpeg, region: JPEGRegion(x: 200, y: 100, width: 2000, height: 2700), orientation: orientation,
            maxPixels: 1 << 24, pool: pool) else { throw Refused() }
        return output.bytes
    }

    struct Refused: Error {}

    /// A block of another size kept earlier does not stop reuse.
    @Test func aBlockOfAnotherSizeDoesNotStopReuse() throws {
        let odd = try Self.photo(width: 3600, height: 3000) { _, _ in 90 }
        let flat = try Self.photo { _, _ in 128 }
        let pool = BufferPool()
        _ = try Self.crop(odd, .topLeft, pool: pool)
        let before = pool.statistics.reused
        _ = try Self.crop(flat, .topLeft, pool: pool)
        _ = try Self.crop(flat, .topLeft, pool: pool)
        #expect(pool.statistics.reused >= before + 1, "the second crop took the block the first gave back")
        #expect(pool.statistics.outstandingBytes == 0, "every block went back")
    }

    @Test func aReusedBlockLeavesNothingOfTheLastPhoto() throws {
        let flat = try Self.photo { _, _ in 128 }
        let busy = try Self.photo { x, y in UInt8(truncatingIfNeeded: x * 7 ^ y * 13 + (x * y) >> 5) }
        let pool = BufferPool()
        let first = try Self.crop(flat, .rightTop, pool: pool)
        let other = try Self.crop(busy, .topLeft, pool: pool)
        let again = try Self.crop(flat, .rightTop, pool: pool)
        #expect(pool.statistics.reused >= 2, "the later crops took the blocks the earlier ones gave back")
        #expect(first == again)
        #expect(first != other)
        // Every block of the flat photo's crop is the source's, after the busy photo's coefficients were there.
        let read = try JPEGCoefficients.read(again)
        let source = try JPEGCoefficients.read(flat)
        #expect(read.components[0].block(column: 5, row: 7).elementsEqual(source.components[0].block(column: 0, row: 0)))
    }

    /// A crop and a progressive decode (its whole-image coefficients, its pixels) with pool A take nothing from
    /// pool B, though B keeps buffers of just the sizes they ask for, and give nothing to it.
    @Test func aPoolLendsNothingToWorkHandedAnother() throws {
        let flat = try Self.photo { _, _ in 128 }
        let progressive = try Self.photo(progressive: true) { x, _ in UInt8(truncatingIfNeeded: x) }
        let a = BufferPool(), b = BufferPool()
        _ = try Self.crop(flat, .topLeft, pool: b)
        b.giveBack(try JPEGDecoder.decode(progressive, minimumWidth: 3000, minimumHeight: 2900, maxPixels: 1 << 24,
                                          pool: b).pixels)
        let kept = b.statistics
        #expect(kept.kept >= 2 && kept.outstandingBytes == 0)

        _ = try Self.crop(flat, .topLeft, pool: a)
        let image = try JPEGDecoder.decode(progressive, minimumWidth: 3000, minimumHeight: 2900, maxPixels: 1 << 24,
                                           pool: a)
        #expect(b.statistics == kept, "B lent nothing and was given nothing")
        #expect(a.statistics.allocated >= 2, "A made the blocks and the pixels itself")
        #expect(a.statistics.outstandingBytes == image.pixels.capacity, "A gave back all but the pixels")
        a.giveBack(image.pixels)
        _ = try Self.crop(flat, .topLeft, pool: a)
        #expect(a.statistics.reused >= 1, "A's own blocks serve A")
        #expect(b.statistics == kept)
    }

    /// Two threads cropping and decoding at once, each with a pool of its own, leave each pool as one thread alone
    /// leaves it: nothing of one pool's crosses to the other's work.
    @Test func poolsOnTwoThreadsAtOnceStayApart() throws {
        let flat = try Self.photo { _, _ in 128 }
        let progressive = try Self.photo(progressive: true) { _, y in UInt8(truncatingIfNeeded: y) }
        @Sendable func work(_ pool: BufferPool) throws -> BufferPool.Statistics {
            for _ in 0..<2 {
                _ = try Self.crop(flat, .rightTop, pool: pool)
                pool.giveBack(try JPEGDecoder.decode(progressive, minimumWidth: 3000, minimumHeight: 2900,
                                                     maxPixels: 1 << 24, pool: pool).pixels)
            }
            return pool.statistics
        }
        let alone = try work(BufferPool())
        #expect(alone.reused >= 2)
        let results = Mutex<[Result<BufferPool.Statistics, any Error>?]>([nil, nil])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let result = Result { try work(BufferPool()) }
            results.withLock { $0[index] = result }
        }
        // Counts, not bytes: a buffer's capacity is what malloc rounded it to, which depends on whether glibc mapped
        // it or took it from a heap, and its mmap threshold moves with what other tests running beside this one free.
        for result in results.withLock({ $0 }) {
            let together = try #require(result).get()
            #expect(together.reused == alone.reused && together.allocated == alone.allocated
                    && together.kept == alone.kept && together.outstandingBytes == 0,
                    "alone \(alone), beside another thread \(together)")
            #expect(abs(together.keptBytes - alone.keptBytes) < 4096 * max(1, alone.kept))
        }
    }
}
