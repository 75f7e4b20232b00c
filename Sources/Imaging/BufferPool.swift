import Synchronization

/// Large byte buffers (decoded photos, pages) kept for the next photo, so that a build does not ask the kernel
/// for fresh pages, and pay for their faults and zeroing, for every photo.
///
/// photobook maps every block of 16 MB or more on its own and unmaps it when it is freed
/// (Platform/ProcessMemory.swift), which keeps memory flat but made every photo's buffers fresh pages: about
/// 200,000 page faults and a quarter of all CPU cycles in the kernel for 24 photos. The pool keeps what a worker
/// just let go of for its next photo, bounded (a few buffers and a byte cap), so the peak stays what is live.
///
/// The byte bound counts the buffers handed out and not yet given back as well as the kept ones, and it is never
/// more than the most the takers have held at once lately: while the workers hold much, the pool keeps little, so
/// the peak of a build is what its workers hold at once, as without a pool, and the pool only fills the gaps
/// between photos (a book of small pages keeps small buffers, not the bound's worth).
///
/// `take` hands out an array of exactly `count` bytes whose contents are unspecified: the caller overwrites every
/// one. `giveBack` takes a buffer whose holder is done with it. Arrays are values, so the pool is safe even when a
/// copy of a given-back buffer is still held somewhere: the taker's first write copies it (and the reuse is lost).
///
/// A build makes one pool (RenderPipeline) and hands it to the work that takes and gives buffers: the decodes,
/// the kernels, libjpeg's large blocks (JPEG/LargeBlockLender.swift). Pools are independent: a buffer given back
/// to one is never taken from another. A caller with no pool of its own passes a new one, which keeps nothing past
/// its own life.
public final class BufferPool: Sendable {
    /// Buffers smaller than this are left to malloc's heaps, which are fast for them.
    public let minimumBytes: Int

    /// What the pool holds and has done.
    public struct Statistics: Sendable, Equatable {
        /// Buffers waiting for a taker, and their capacity in bytes.
        public var kept = 0, keptBytes = 0
        /// Takes of at least `minimumBytes` served from the pool, and those that needed a new buffer.
        public var reused = 0, allocated = 0
        /// The capacity of the buffers taken and not given back yet, and the most it has been lately.
        public var outstandingBytes = 0, mostOutstandingBytes = 0
        /// What the work under way reserved (`reserve`).
        public var reservedBytes = 0
    }

    private struct Kept {
        var buffer: [UInt8]
        var age: UInt64
    }

    private struct State {
        var kept: [Kept] = []
        var maxBuffers: Int
        var maxBytes: Int
        let budget: Int
        /// What the work under way holds by its own estimate (`reserve`).
        var reserved = 0
        var clock: UInt64 = 0
        var statistics = Statistics()

        /// Drops the oldest buffers until the pool is within its bounds; returns them, to be freed unlocked.
        /// When `mostOutstandingBytes` was last set: it starts again from what is handed out after a while, so that
        /// one large photo (a PNG's 36 + 48 MB) does not let the pool keep that much among small pages for ever.
        var mostSince: UInt64 = 0

        mutating func handOut(_ bytes: Int) {
            statistics.outstandingBytes += bytes
            if statistics.outstandingBytes >= statistics.mostOutstandingBytes
                || clock - mostSince > UInt64(8 * maxBuffers) {
                statistics.mostOutstandingBytes = statistics.outstandingBytes
                mostSince = clock
            }
        }

        /// Drops the oldest buffers until the pool is within its bounds, and any that waited through four times
        /// `maxBuffers` takes and gives without a taker (a size the book no longer asks for, like a PNG's among
        /// JPEGs); returns them, to be freed unlocked.
        mutating func evictOverflow() -> [[UInt8]] {
            var evicted: [[UInt8]] = []
            let bound = min(maxBytes, statistics.mostOutstandingBytes, budget - reserved + statistics.outstandingBytes)
            let staleBefore = clock - min(clock, UInt64(4 * maxBuffers))
            while let oldest = kept.indices.min(by: { kept[$0].age < kept[$1].age }),
                  kept.count > maxBuffers || statistics.keptBytes > bound - statistics.outstandingBytes
                    || kept[oldest].age < staleBefore {
                let gone = kept.remove(at: oldest)
                statistics.kept -= 1
                statistics.keptBytes -= gone.buffer.capacity
                evicted.append(gone.buffer)
            }
            return evicted
        }
    }

    private let state: Mutex<State>

    /// A pool that keeps at most `maxBuffers` buffers of at least `minimumBytes`, and only while they and the ones
    /// handed out come to at most `maxBytes`, and to no more than the most handed out at once; and while they and
    /// what the work under way reserved come to at most `budget`.
    public init(minimumBytes: Int = 4 << 20, maxBuffers: Int = 4, maxBytes: Int = 128 << 20, budget: Int = .max / 2) {
        self.minimumBytes = minimumBytes
        state = Mutex(State(maxBuffers: max(0, maxBuffers), maxBytes: max(0, maxBytes), budget: budget))
    }

    /// What a piece of work under way holds, by its own estimate, until the reservation is dropped: its pooled
    /// buffers and what its library holds beside them (libheif's planes, LibRaw's sensor data, libjxl's state),
    /// which the pool cannot see. Kept buffers make room for it at once: the pool never keeps more than is left
    /// of its budget beside the reservations (a 20-megapixel AVIF's 78 MB of planes beside 46 MB of pages kept
    /// for the next photo made a mixed folder's book 264 MB where the budget said 190).
    public final class Reservation: Sendable {
        private let pool: BufferPool
        public let bytes: Int

        fileprivate init(pool: BufferPool, bytes: Int) {
            self.pool = pool
            self.bytes = bytes
        }

        deinit { pool.unreserve(bytes) }
    }

    public func reserve(_ bytes: Int) -> Reservation {
        let evicted = state.withLock { state in
            state.reserved += max(0, bytes)
            return state.evictOverflow()
        }
        _ = consume evicted
        return Reservation(pool: self, bytes: max(0, bytes))
    }

    private func unreserve(_ bytes: Int) {
        state.withLock { $0.reserved -= bytes }
    }

    /// Changes the bounds (a build sets them from its number of workers); drops what no longer fits.
    public func setLimits(maxBuffers: Int, maxBytes: Int) {
        let evicted = state.withLock { state in
            state.maxBuffers = max(0, maxBuffers)
            state.maxBytes = max(0, maxBytes)
            return state.evictOverflow()
        }
        _ = consume evicted
    }

    /// Frees every kept buffer and forgets the ones handed out and the most there were (the start and end of a
    /// build, when every one of them is dead: one that died without being given back would otherwise count against
    /// the bound for ever).
    public func removeAll() {
        let evicted = state.withLock { state in
            defer { state.kept = []; state.statistics.kept = 0; state.statistics.keptBytes = 0 }
            state.statistics.outstandingBytes = 0
            state.statistics.mostOutstandingBytes = 0
            state.mostSince = state.clock
            return state.kept
        }
        _ = consume evicted
    }

    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.reservedBytes = state.reserved
            return statistics
        }
    }

    /// An array of exactly `count` bytes, contents unspecified: the smallest kept buffer that holds `count` bytes
    /// without wasting more than half as much again, or a new one, never zero-filled.
    public func take(_ count: Int) -> [UInt8] {
        var reused = false
        return take(count, reused: &reused)
    }

    /// As `take(_:)`; `reused` tells whether the buffer was a kept one.
    public func take(_ count: Int, reused: inout Bool) -> [UInt8] {
        guarantee(count >= 0, "cannot take \(count) bytes")
        if count < minimumBytes { return Self.uninitialized(count) }
        var evicted: [[UInt8]] = []
        var found: [UInt8]? = state.withLock { state in
            state.clock += 1
            var best: Int?
            for (index, kept) in state.kept.enumerated() {
                let capacity = kept.buffer.capacity
                guard capacity >= count, capacity - count <= count / 2 else { continue }
                if best.map({ capacity < state.kept[$0].buffer.capacity }) ?? true { best = index }
            }
            guard let best else {
                // A new buffer: kept ones that no longer fit the bound go first, before its pages are touched.
                state.statistics.allocated += 1
                state.handOut(count)
                evicted = state.evictOverflow()
                return nil
            }
            let taken = state.kept.remove(at: best).buffer
            state.statistics.kept -= 1
            state.statistics.keptBytes -= taken.capacity
            state.handOut(taken.capacity)
            state.statistics.reused += 1
            evicted = state.evictOverflow()
            return taken
        }
        // Evicted buffers are freed here, outside the lock. `take()`: no second reference to the buffer stays
        // here, or lengthening or shortening it would copy it.
        evicted.removeAll()
        guard var buffer = found.take() else {
            let fresh = Self.uninitialized(count)
            state.withLock { $0.handOut(fresh.capacity - count) }
            return fresh
        }
        reused = true
        if buffer.count > count {
            buffer.removeLast(buffer.count - count)
        } else if buffer.count < count {
            // Swift has no way to lengthen an array over its spare capacity without writing it; this part was
            // written by the buffer's last holder, so its pages are resident and writing them is cheap.
            buffer.append(contentsOf: repeatElement(0, count: count - buffer.count))
        }
        return buffer
    }

    /// Keeps `buffer` for a later `take`, within the pool's bounds (the oldest kept buffers make room, and
    /// `buffer` itself is dropped when the ones still handed out leave no room for it).
    public func giveBack(_ buffer: consuming [UInt8]) {
        let buffer = consume buffer
        guard buffer.capacity >= minimumBytes else { return }
        let evicted = state.withLock { state in
            // A buffer the pool never handed out (made elsewhere) counts as one that was.
            state.statistics.outstandingBytes = max(0, state.statistics.outstandingBytes - buffer.capacity)
            state.clock += 1
            state.kept.append(Kept(buffer: buffer, age: state.clock))
            state.statistics.kept += 1
            state.statistics.keptBytes += buffer.capacity
            return state.evictOverflow()
        }
        _ = consume evicted
    }

    /// `[UInt8](unsafeUninitializedCapacity:initializingWith:)` over a pooled buffer: `body` gets exactly `count`
    /// bytes and sets `initialized` to `count` when it wrote them all, or to 0, which gives the buffer back and
    /// returns an empty array.
    public func array(count: Int,
                      initializingWith body: (inout UnsafeMutableBufferPointer<UInt8>, inout Int) throws -> Void)
        rethrows -> [UInt8] {
        var buffer = take(count)
        var initialized = 0
        try buffer.withUnsafeMutableBufferPointer { try body(&$0, &initialized) }
        guarantee(initialized == count || initialized == 0, "initialized \(initialized) of \(count) bytes")
        if initialized == count { return buffer }
        giveBack(buffer)
        return []
    }

    /// A new array of `count` bytes that are not written: every caller of `take` overwrites them all.
    private static func uninitialized(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }
}
