import CJPEGShim
import Imaging
import Synchronization

/// libjpeg's large blocks (a whole photo's DCT coefficients: a lossless crop's, a progressive file's) come from
/// the buffer pool that the decoded photos and pages share, and go back to it (CJPEGShim/large_blocks.c): one
/// bounded set of buffers for every kind of page instead of fresh mappings for each photo.
enum LargeBlocks {
    /// The arrays lent to libjpeg, by the address it was given, until it gives them back.
    private static let lent = Mutex<[UInt: [UInt8]]>([:])

    private static let installed: Void = {
        pb_jpeg_use_large_block_pool(BufferPool.shared.minimumBytes, { size, reused in
            var wasKept = false
            var buffer = BufferPool.shared.take(size, reused: &wasKept)
            // Trap: an array's elements stay where they are while it lives unchanged, so the address outlives
            // withUnsafeMutableBufferPointer here (the array waits in `lent`, untouched, until given back).
            let address = buffer.withUnsafeMutableBufferPointer { $0.baseAddress! }
            lent.withLock { $0[UInt(bitPattern: address)] = buffer }
            reused?.pointee = wasKept ? 1 : 0
            return UnsafeMutableRawPointer(address)
        }, { block, _ in
            guard let block else { return }
            // Only blocks from `take` come here (large_blocks.c installs the pool before any libjpeg object).
            if let buffer = lent.withLock({ $0.removeValue(forKey: UInt(bitPattern: block)) }) {
                BufferPool.shared.giveBack(buffer)
            }
        })
    }()

    /// Installs the pool, once; every libjpeg object is made after this.
    static func install() { installed }
}
