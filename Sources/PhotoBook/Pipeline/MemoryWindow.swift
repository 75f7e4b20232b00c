import Foundation

/// How many photos may be between the start of their decode and the end of their render at once: as many as the
/// memory budget holds, by what each holds (`PhotoJob.estimatedMemory`), not only `--jobs` of them (issue 34, "big
/// pictures in little memory"). A whole-image decoder holds its picture until it is resampled (a 20-megapixel
/// 10-bit AVIF: 61 MB), so two workers decoding two such at once were a 232 MB build where one was 131 MB.
///
/// Made part of the graph: a photo's decode depends on the renders of the earliest photos still in the window
/// when it would not fit beside them, so the queue never starts it before their memory is free; and decodes start
/// in the queue's order (each through a gate that waits for the gate before it: RenderPipeline.run), so that every
/// photo that left the window has ended when one starts, not only those it waited for. (Trap: without that order a
/// photo that waited for nobody started beside photos that had left the window for a later one's sake: a mixed
/// folder's HEICs and PNGs ran beside a 22-megapixel raw, 232 MB.) The dependencies
/// point only to photos queued before it, whose renders depend only on their own decodes: no cycle, and no
/// worker sits blocked waiting for memory (a worker would, with a semaphore taken inside the decode, while the
/// render that frees the memory waits for a worker).
enum MemoryWindow {
    /// The bytes the photos under way may hold at once, beside what every build holds (46 MB of resident memory
    /// for a book of one tiny JPEG: the binary and its libraries): the whole build stays under 200 MB. Two
    /// 12-megapixel iPhone HEICs on A4 pages (about 68 MB each: libheif's 37 MB canvas, a 26 MB page) go at once;
    /// two 20-megapixel 10-bit AVIFs (96 MB each) one after the other.
    static let budget = 140 << 20

    /// For each photo of `memories` (its bytes, in the order the queue starts them), the earlier photos whose
    /// renders must end before its decode starts, so that the photos under way never hold more than `budget`.
    /// A photo alone over the budget counts as the budget: it runs by itself.
    static func waits(_ memories: [Int], budget: Int = budget) -> [[Int]] {
        var window: [(index: Int, bytes: Int)] = []
        var first = 0
        var held = 0
        var waits: [[Int]] = []
        for (index, bytes) in memories.enumerated() {
            let need = max(0, min(bytes, budget))
            var mine: [Int] = []
            while first < window.count && held + need > budget {
                held -= window[first].bytes
                mine.append(window[first].index)
                first += 1
            }
            window.append((index, need))
            held += need
            waits.append(mine)
        }
        return waits
    }
}

/// The same budget for work outside the graph that decodes whole pictures on several workers at once: the probe's
/// measures and attention maps (ProbeAll), which decode a photo with no thumbnail at a small scale, a whole-image
/// decoder's whole picture all the same (two 22-megapixel AVIFs at once were a 232 MB build). A worker waits for
/// room before such a decode and gives it back after; one that needs more than the budget waits for all the room.
/// Blocking is safe here, unlike in the graph: a holder never waits for another worker to finish.
final class MemoryGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var free: Int
    let budget: Int

    init(budget: Int = MemoryWindow.budget) {
        self.budget = budget
        free = budget
    }

    /// Runs `body` once `bytes` (at most the budget) are free, holding them until it returns.
    func holding<Result>(_ bytes: Int, _ body: () -> Result) -> Result {
        let need = max(0, min(bytes, budget))
        guard need > 0 else { return body() }
        condition.lock()
        while free < need { condition.wait() }
        free -= need
        condition.unlock()
        defer {
            condition.lock()
            free += need
            condition.broadcast()
            condition.unlock()
        }
        return body()
    }
}
