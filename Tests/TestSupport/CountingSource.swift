import ImageCodec
import Imaging
import Synchronization

/// A byte source that counts the bytes read from it: what a probe or a decode costs in reads.
package final class CountingSource: ByteSource {
    private let inner: any ByteSource
    private let total = Mutex(0)

    package init(_ inner: any ByteSource) { self.inner = inner }
    package convenience init(_ bytes: [UInt8]) { self.init(MemorySource(bytes)) }

    package var count: Int { inner.count }
    package var bytesRead: Int { total.withLock { $0 } }

    package func read(from offset: Int, count: Int) throws(CodecError) -> [UInt8] {
        let bytes = try inner.read(from: offset, count: count)
        total.withLock { $0 += bytes.count }
        return bytes
    }
}

extension RGBImage {
    /// Mean absolute difference per sample against an image of the same size.
    package func meanDifference(to other: RGBImage) -> Double {
        precondition(width == other.width && height == other.height, "\(width)x\(height) vs \(other.width)x\(other.height)")
        return meanAbsoluteDifference(pixels, other.pixels)
    }

    /// The largest difference of one sample against an image of the same size.
    package func maxDifference(to other: RGBImage) -> Int {
        precondition(width == other.width && height == other.height, "\(width)x\(height) vs \(other.width)x\(other.height)")
        return TestSupport.maxDifference(pixels, other.pixels)
    }
}
