import Dispatch
import Synchronization
import Geometry
import Testing
@testable import Imaging

/// The pool that keeps large buffers for the next photo (BufferPool.swift). Each test has a pool of its own, with a
/// small minimum so that the buffers stay small.
@Suite struct BufferPoolTests {
    static let minimum = 4096

    static func pool(maxBuffers: Int = 4, maxBytes: Int = 1 << 20) -> BufferPool {
        BufferPool(minimumBytes: minimum, maxBuffers: maxBuffers, maxBytes: maxBytes)
    }

    static func address(_ buffer: [UInt8]) -> UInt {
        buffer.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    @Test func aBufferGivenBackIsTheNextTakersAndKeepsItsBytes() {
        let pool = Self.pool()
        var first = pool.take(10_000)
        #expect(first.count == 10_000)
        for i in first.indices { first[i] = UInt8(truncatingIfNeeded: i) }
        let address = Self.address(first)
        pool.giveBack(first)
        #expect(pool.statistics.kept == 1)
        let again = pool.take(10_000)
        #expect(Self.address(again) == address, "the kept buffer, not a new one")
        // Not zero-filled: what the last holder wrote is still there (callers overwrite every byte).
        #expect(again[9_999] == UInt8(truncatingIfNeeded: 9_999))
        #expect(pool.statistics.reused == 1)
        #expect(pool.statistics.kept == 0)
    }

    @Test func aTakerGetsExactlyTheBytesItAskedFor() {
        let pool = Self.pool()
        let big = pool.take(12_000)
        let address = Self.address(big)
        // `consume`: no copy of it lives on here (one would make the taker's change copy it, as it must).
        pool.giveBack(consume big)
        // Shorter: the same storage, fewer bytes.
        let shorter = pool.take(9_000)
        #expect(shorter.count == 9_000)
        #expect(Self.address(shorter) == address)
        pool.giveBack(consume shorter)
        // Longer again, within the capacity: the same storage, every byte asked for.
        let longer = pool.take(12_000)
        #expect(longer.count == 12_000)
        #expect(Self.address(longer) == address)
        #expect(pool.statistics.reused == 2)
    }

    @Test func aBufferTooSmallOrFarTooLargeIsNotHandedOut() {
        let pool = Self.pool()
        pool.giveBack(pool.take(8_000))
        let larger = pool.take(8_001 + 4096)
        #expect(larger.count == 8_001 + 4096)
        #expect(pool.statistics.reused == 0, "8,000 bytes cannot hold more")
        // Twice the size asked for wastes too much.
        pool.giveBack(pool.take(8_000))
        let smaller = pool.take(4_000 + 96)
        #expect(smaller.count == 4_096)
        #expect(pool.statistics.reused == 0)
    }

    /// The pool never keeps more than the takers held at once: a kept buffer that does not fit goes when a new
    /// one is made, so a book of small pages does not keep a large page's buffer for ever.
    @Test func theKeptAndHandedOutNeverPassTheMostHandedOutAtOnce() {
        let pool = Self.pool()
        pool.giveBack(pool.take(10_000))
        #expect(pool.statistics.kept == 1)
        let small = pool.take(5_000)
        #expect(pool.statistics.reused == 0)
        #expect(pool.statistics.kept == 0, "10,000 kept and 5,000 handed out is more than the 10,000 ever held")
        pool.giveBack(small)
        #expect(pool.statistics.kept == 1)
    }

    @Test func theBestFitIsTaken() {
        let pool = Self.pool()
        let sizes = [20_000, 11_000, 15_000]
        let buffers = sizes.map { pool.take($0) }
        let addresses = buffers.map(Self.address)
        for buffer in consume buffers { pool.giveBack(buffer) }
        #expect(Self.address(pool.take(10_000)) == addresses[1])
        #expect(Self.address(pool.take(14_000)) == addresses[2])
        #expect(Self.address(pool.take(14_000)) == addresses[0])
    }

    @Test func smallBuffersAreNotKept() {
        let pool = Self.pool()
        pool.giveBack(pool.take(100))
        pool.giveBack([UInt8](repeating: 1, count: 4000))
        #expect(pool.statistics.kept == 0)
        #expect(pool.statistics.allocated == 0, "small takes are plain arrays")
    }

    @Test func atMostMaxBuffersAreKeptTheOldestGoFirst() {
        let pool = Self.pool(maxBuffers: 2)
        let buffers = (0..<3).map { _ in pool.take(5_000) }
        let addresses = buffers.map(Self.address)
        for buffer in buffers { pool.giveBack(buffer) }
        #expect(pool.statistics.kept == 2)
        let taken = [pool.take(5_000), pool.take(5_000)].map(Self.address)
        #expect(Set(taken) == Set(addresses[1...]), "the oldest was dropped")
    }

    /// A buffer no taker wanted through four times `maxBuffers` takes and gives goes (a PNG's among JPEGs).
    @Test func aBufferNobodyTakesGoes() {
        let pool = Self.pool(maxBuffers: 2)
        let large = pool.take(30_000)
        let small = pool.take(5_000)
        pool.giveBack(consume large)
        pool.giveBack(consume small)
        for _ in 0..<3 { pool.giveBack(pool.take(5_000)) }
        #expect(pool.statistics.kept == 2, "10 events: the large one is not stale yet")
        for _ in 0..<2 { pool.giveBack(pool.take(5_000)) }
        #expect(pool.statistics.kept == 1)
        #expect(pool.statistics.keptBytes < 30_000)
        #expect(pool.statistics.reused == 5)
    }

    @Test func buffersHandedOutCountAgainstTheByteBound() {
        let pool = Self.pool(maxBytes: 40_000)
        let held = pool.take(30_000)
        let other = pool.take(8_000)
        #expect(pool.statistics.outstandingBytes >= 38_000)
        pool.giveBack(other)
        // 30,000 + 8,000 fit in 40,000.
        #expect(pool.statistics.kept == 1)
        let more = pool.take(20_000)
        // A new buffer: kept ones go first, so that the bound holds before its pages are touched.
        #expect(pool.statistics.kept == 0)
        pool.giveBack(more)
        // 30,000 still handed out: 20,000 more would pass the bound.
        #expect(pool.statistics.kept == 0)
        pool.giveBack(held)
        #expect(pool.statistics.kept == 1)
        #expect(pool.statistics.keptBytes <= 40_000)
        pool.setLimits(maxBuffers: 4, maxBytes: 10_000)
        #expect(pool.statistics.kept == 0, "tighter limits drop what no longer fits")
    }

    @Test func removeAllFreesTheKeptAndForgetsTheHandedOut() {
        let pool = Self.pool(maxBytes: 20_000)
        let lost = pool.take(15_000)  // dies without being given back
        _ = consume lost
        pool.giveBack(pool.take(15_000))
        #expect(pool.statistics.kept == 0, "15,000 still count as handed out")
        pool.removeAll()
        #expect(pool.statistics.outstandingBytes == 0)
        pool.giveBack(pool.take(15_000))
        #expect(pool.statistics.kept == 1)
    }

    /// Arrays are values: a buffer given back while a copy of it is still held is copied by its next writer.
    @Test func aBufferStillHeldElsewhereIsNeverChangedUnderItsHolder() {
        let pool = Self.pool()
        var buffer = pool.take(6_000)
        for i in buffer.indices { buffer[i] = 7 }
        let holder = buffer
        pool.giveBack(buffer)
        var taken = pool.take(6_000)
        taken.withUnsafeMutableBufferPointer { $0.update(repeating: 9) }
        #expect(holder.allSatisfy { $0 == 7 })
        #expect(taken.allSatisfy { $0 == 9 })
    }

    @Test func theInitializingFormGivesBackWhatWasNotFilled() {
        let pool = Self.pool()
        let empty = pool.array(count: 5_000) { _, initialized in initialized = 0 }
        #expect(empty.isEmpty)
        #expect(pool.statistics.kept == 1)
        let full = pool.array(count: 5_000) { buffer, initialized in
            buffer.update(repeating: 3)
            initialized = 5_000
        }
        #expect(full.count == 5_000 && full.allSatisfy { $0 == 3 })
        #expect(pool.statistics.reused == 1)
    }

    /// Many workers take, fill with their own mark, check and give back at once: a buffer held by one is never
    /// another's, and the bound holds throughout.
    @Test func oneBufferIsNeverHandedToTwoTakers() {
        let pool = Self.pool(maxBuffers: 3, maxBytes: 200_000)
        let clashes = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<200 {
                let count = 5_000 + (worker * 7 + round) % 4 * 1_000
                var buffer = pool.take(count)
                let mark = UInt8(truncatingIfNeeded: worker * 31 + round)
                buffer.withUnsafeMutableBufferPointer { $0.update(repeating: mark) }
                if buffer.count != count || !buffer.allSatisfy({ $0 == mark }) { clashes.withLock { $0 += 1 } }
                pool.giveBack(buffer)
            }
        }
        #expect(clashes.withLock { $0 } == 0)
        let statistics = pool.statistics
        #expect(statistics.kept <= 3)
        #expect(statistics.outstandingBytes == 0)
        #expect(statistics.reused > 0)
    }

    /// Each kernel's result comes from the pool it is handed, the one buffer the pool kept for it when it has one,
    /// and never from another pool.
    @Test func theKernelsTakeFromThePoolTheyAreHanded() throws {
        let source = RGBImage(width: 120, height: 80, red: 10, green: 20, blue: 30)
        let region = Geometry.Rect(x: 0, y: 0, width: 120, height: 80)
        let kernels: [(String, (BufferPool) throws -> RGBImage)] = [
            ("fill", { RGBImage(width: 100, height: 60, red: 1, pool: $0) }),
            ("crop", { source.cropped(x: 10, y: 10, width: 100, height: 60, pool: $0) }),
            ("turn", { source.cropped(x: 10, y: 10, width: 100, height: 60, applying: .rightTop, pool: $0) }),
            ("resample", { try Resampler.resample(source, region: region, width: 100, height: 60, pool: $0) }),
        ]
        for (name, kernel) in kernels {
            let pool = Self.pool(), other = Self.pool()
            other.giveBack(try kernel(other).pixels)
            let kept = other.statistics
            let first = try kernel(pool)
            #expect(pool.statistics.allocated == 1, "\(name)")
            #expect(pool.statistics.outstandingBytes == first.pixels.capacity, "\(name)")
            pool.giveBack(first.pixels)
            _ = try kernel(pool)
            #expect(pool.statistics.reused == 1, "\(name)")
            #expect(other.statistics == kept, "\(name): the other pool was not touched")
        }
    }
}
