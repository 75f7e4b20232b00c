import Foundation
import ImageCodec
import Imaging

/// Where libjxl's image-out callback puts the pixels: runs of rows, cut to the region, composited over white,
/// gathered in a band until each row of the region is whole, then shrunk on the way (`BoxShrink`), so that a
/// decode never holds the picture's full-size RGBA.
///
/// libjxl 0.7 hands out runs of a row in the order it renders them: for a small picture whole rows top to
/// bottom, for a big one a group (256 x 256) at a time, so the runs of one row come from several groups and
/// a band of rows is kept until its last run is in. The band grows only if runs come further below than it
/// reaches (never seen: it would then hold up to the region).
final class JXLRowSink {
    let region: PixelRegion
    let factor: Int
    let channels: Int
    private let pool: BufferPool
    private var shrink: BoxShrink?
    /// Rows `bandTop ..< bandTop + bandRows` of the region (0 is its first row), RGB.
    private var band: [UInt8]
    private var bandRows: Int
    private var bandTop = 0
    /// Pixels written to each row of the band.
    private var counts: [Int]
    /// The region's next row to go to the shrink.
    private var nextRow = 0
    /// Pixels that fell twice on the same place (a damaged stream or a progressive flush): counted, not fatal.
    private(set) var overlaps = 0
    /// Pixels of the region received so far.
    private(set) var received = 0

    init(region: PixelRegion, factor: Int, channels: Int, pool: BufferPool) {
        self.region = region
        self.factor = factor
        self.channels = channels
        self.pool = pool
        bandRows = min(region.height, 64)
        band = pool.take(bandRows * region.width * 3)
        counts = [Int](repeating: 0, count: bandRows)
        shrink = BoxShrink(region: region, factor: factor, pool: pool)
    }

    var isComplete: Bool { nextRow == region.height }

    /// Held by each run: libjxl's thread runner calls the callback from several threads at once.
    private let lock = NSLock()

    /// A run of `count` pixels of stored row `y` from column `x`, as libjxl's callback gives it (on any thread).
    func add(x: Int, y: Int, count: Int, pixels: UnsafePointer<UInt8>) {
        lock.lock()
        defer { lock.unlock() }
        let row = y - region.y
        guard row >= nextRow, row < region.height else { return }
        let from = max(x, region.x), to = min(x + count, region.x + region.width)
        guard to > from else { return }
        if row >= bandTop + bandRows { makeRoom(for: row) }
        let bandRow = row - bandTop
        let column = from - region.x
        band.withUnsafeMutableBufferPointer { out in
            let target = out.baseAddress! + (bandRow * region.width + column) * 3
            let source = pixels + (from - x) * channels
            if channels == 4 {
                AlphaComposite.overWhite(source, into: target, count: to - from)
            } else {
                target.update(from: source, count: (to - from) * 3)
            }
        }
        counts[bandRow] += to - from
        received += to - from
        if counts[bandRow] > region.width { overlaps += 1 }
        if row == nextRow { drain() }
    }

    /// Gives every whole row at the band's top to the shrink.
    private func drain() {
        while nextRow < region.height, counts[nextRow - bandTop] >= region.width {
            let offset = (nextRow - bandTop) * region.width * 3
            band.withUnsafeBufferPointer { rows in
                shrink!.add(row: UnsafeBufferPointer(rebasing: rows[offset..<(offset + region.width * 3)]))
            }
            nextRow += 1
            if nextRow - bandTop == bandRows {
                bandTop = nextRow
                for i in counts.indices { counts[i] = 0 }
            }
        }
    }

    /// Moves the rows not yet drained to the band's top, and grows it if `row` is still below it.
    private func makeRoom(for row: Int) {
        let kept = bandTop + bandRows - nextRow
        let shift = nextRow - bandTop
        if shift > 0 {
            let width = region.width * 3
            band.withUnsafeMutableBufferPointer { rows in
                let base = rows.baseAddress!
                base.update(from: base + shift * width, count: kept * width)
            }
            for i in 0..<kept { counts[i] = counts[i + shift] }
            for i in kept..<bandRows { counts[i] = 0 }
            bandTop = nextRow
        }
        if row >= bandTop + bandRows {
            let needed = min(region.height - bandTop, max(bandRows * 2, row - bandTop + 1))
            var bigger = pool.take(needed * region.width * 3)
            bigger.withUnsafeMutableBufferPointer { out in
                band.withUnsafeBufferPointer { out.baseAddress!.update(from: $0.baseAddress!, count: bandRows * region.width * 3) }
            }
            swap(&band, &bigger)
            pool.giveBack(bigger)
            counts += [Int](repeating: 0, count: needed - bandRows)
            bandRows = needed
        }
    }

    /// The shrunk region, once every row is in; the band goes back to the pool.
    func finish(storedWidth: Int, storedHeight: Int) -> DecodedImage {
        precondition(isComplete, "JPEG XL rows finished before the last one")
        pool.giveBack(band)
        band = []
        let image = shrink.take()!.finish(storedWidth: storedWidth, storedHeight: storedHeight)
        return image
    }

    /// Gives every buffer back when the decode stops short.
    func abandon() {
        pool.giveBack(band)
        band = []
        shrink.take()?.abandon()
    }

    deinit {
        // A sink dropped without `finish` or `abandon` (an early throw) still returns its buffers.
        if !band.isEmpty { pool.giveBack(band) }
        shrink.take()?.abandon()
    }
}
