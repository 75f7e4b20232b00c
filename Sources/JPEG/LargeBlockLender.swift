import CJPEGShim
import Imaging
import Synchronization

/// Lends one pool's buffers to one libjpeg handle as its large blocks (a whole photo's DCT coefficients: a lossless
/// crop's, a progressive file's) and takes them back (CJPEGShim/large_blocks.c), so that the decoded photos, the
/// pages and libjpeg's blocks share one bounded set of buffers instead of fresh mappings for each photo.
///
/// Each handle has a lender of its own, which C reaches through the context pointer it was created with: the
/// handle keeps it alive until libjpeg has given every block back (the handle's deinit destroys the libjpeg structs
/// first), and handles with different pools never share a buffer.
final class LargeBlockLender: Sendable {
    let pool: BufferPool
    /// The arrays lent to libjpeg, by the address it was given, until it gives them back.
    private let lent = Mutex<[UInt: [UInt8]]>([:])

    init(pool: BufferPool) { self.pool = pool }

    /// What the handle's C side is created with (it keeps a copy); valid while the lender lives.
    var blocks: pb_large_blocks {
        pb_large_blocks(minimum: pool.minimumBytes, take: lenderTake, give: lenderGive,
                        context: Unmanaged.passUnretained(self).toOpaque())
    }

    fileprivate func take(_ size: Int) -> UnsafeMutableRawPointer {
        var buffer = pool.take(size)
        // Trap: an array's elements stay where they are while it lives unchanged, so the address outlives
        // withUnsafeMutableBufferPointer here (the array waits in `lent`, untouched, until given back).
        let address = buffer.withUnsafeMutableBufferPointer { $0.baseAddress! }
        lent.withLock { $0[UInt(bitPattern: address)] = buffer }
        return UnsafeMutableRawPointer(address)
    }

    /// False for a block this lender did not hand out (one under the pool's minimum, malloc's).
    fileprivate func give(_ block: UnsafeMutableRawPointer) -> Bool {
        guard let buffer = lent.withLock({ $0.removeValue(forKey: UInt(bitPattern: block)) }) else { return false }
        pool.giveBack(buffer)
        return true
    }
}

private let lenderTake: @convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer? = { context, size in
    guard let context else { return nil }
    return Unmanaged<LargeBlockLender>.fromOpaque(context).takeUnretainedValue().take(size)
}

private let lenderGive: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = {
    context, block in
    guard let context, let block else { return 0 }
    return Unmanaged<LargeBlockLender>.fromOpaque(context).takeUnretainedValue().give(block) ? 1 : 0
}
