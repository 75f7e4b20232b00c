import Foundation
import Synchronization
import Testing
@testable import PhotoBook

/// The memory window of the render graph (issue 34, "the workers that run such decodes at once are limited by the
/// memory budget, not only by --jobs"): which renders a decode waits for.
@Suite struct MemoryWindowTests {
    static let mb = 1 << 20

    @Test func smallPhotosNeverWait() {
        // 24 JPEG renders of about 30 MB each: four fit in 140 MB, the fifth waits for the first.
        let waits = MemoryWindow.waits(Array(repeating: 30 * Self.mb, count: 24), budget: 140 * Self.mb)
        #expect(waits.prefix(4).allSatisfy { $0.isEmpty })
        #expect(waits[4] == [0] && waits[5] == [1] && waits[23] == [19])
    }

    @Test func bigPicturesGoOneAtATime() {
        // 20-megapixel 10-bit AVIFs (about 96 MB each): never two at once in 140 MB.
        let waits = MemoryWindow.waits(Array(repeating: 96 * Self.mb, count: 5), budget: 140 * Self.mb)
        #expect(waits == [[], [0], [1], [2], [3]])
    }

    @Test func aPictureOverTheBudgetRunsAlone() {
        // 300 MB alone over a 140 MB budget counts as the budget: it waits for all before it, all after it for it.
        let waits = MemoryWindow.waits([40 * Self.mb, 40 * Self.mb, 300 * Self.mb, 10 * Self.mb], budget: 140 * Self.mb)
        #expect(waits == [[], [], [0, 1], [2]])
    }

    /// The photos certainly ended when each decode starts, by the graph alone: those whose renders it waits for
    /// and what had ended when they started, and, with `inOrder`, what had ended when the decode queued before it
    /// started (RenderPipeline.run starts decodes in order, each through a gate that waits for the gate before).
    static func endedAtStart(_ waits: [[Int]], inOrder: Bool) -> [Set<Int>] {
        var ended: [Set<Int>] = []
        for (index, waited) in waits.enumerated() {
            var mine = inOrder && index > 0 ? ended[index - 1] : []
            for earlier in waited { mine.insert(earlier); mine.formUnion(ended[earlier]) }
            ended.append(mine)
        }
        return ended
    }

    static func held(_ memories: [Int], _ ended: [Set<Int>], at index: Int, budget: Int) -> Int {
        (0...index).filter { !ended[index].contains($0) }.reduce(0) { $0 + min(memories[$1], budget) }
    }

    /// Whatever the sizes, the photos between a decode's start and a render's end never hold more than the budget
    /// (or one photo alone over it), and every wait is for a photo queued before.
    @Test func theWindowNeverHoldsMoreThanTheBudget() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let memories = (0..<Int.random(in: 1...40, using: &random)).map { _ in Int.random(in: 0...(200 * Self.mb), using: &random) }
            let budget = 140 * Self.mb
            let waits = MemoryWindow.waits(memories, budget: budget)
            let ended = Self.endedAtStart(waits, inOrder: true)
            for (index, waited) in waits.enumerated() {
                #expect(waited.allSatisfy { $0 < index } == true)
                #expect(Self.held(memories, ended, at: index, budget: budget) <= budget, "\(memories) \(waits)")
            }
        }
    }

    /// The mixed folder that showed the trap (MiB, in the queue's order: raws, AVIFs, HEICs): the fifth HEIC waits
    /// for nobody, and only the decodes' order keeps it from starting beside a raw.
    @Test func decodesInOrderKeepThePhotosThatLeftTheWindowEnded() {
        let memories = [134, 134, 134, 134, 99, 99, 99, 99, 64, 58, 58, 58].map { $0 * Self.mb }
        let budget = 140 * Self.mb
        let waits = MemoryWindow.waits(memories, budget: budget)
        #expect(waits[9].isEmpty)
        let unordered = Self.endedAtStart(waits, inOrder: false)
        #expect(Self.held(memories, unordered, at: 9, budget: budget) > budget)
        let ordered = Self.endedAtStart(waits, inOrder: true)
        #expect(memories.indices.allSatisfy { Self.held(memories, ordered, at: $0, budget: budget) <= budget })
    }
}

/// The probe's gate: workers that would together hold more than the budget take turns, others hold at once.
@Suite struct MemoryGateTests {
    /// Runs `body` on a thread of its own (not libdispatch's pool, which may not start another while one blocks).
    static func onThread(_ body: @escaping @Sendable () -> Void) {
        Thread.detachNewThread(body)
    }

    @Test func aWorkerThatDoesNotFitWaitsForTheOneInside() {
        let gate = MemoryGate(budget: 100)
        let firstInside = DispatchSemaphore(value: 0), leave = DispatchSemaphore(value: 0)
        let secondInside = DispatchSemaphore(value: 0)
        Self.onThread { gate.holding(60) { firstInside.signal(); leave.wait() } }
        #expect(firstInside.wait(timeout: .now() + 10) == .success)
        Self.onThread { gate.holding(60) { _ = secondInside.signal() } }
        // 60 beside 60 is over the budget: the second is not let in while the first holds its room.
        #expect(secondInside.wait(timeout: .now() + 0.3) == .timedOut)
        leave.signal()
        #expect(secondInside.wait(timeout: .now() + 10) == .success)
    }

    @Test func workersThatFitHoldAtOnce() {
        let gate = MemoryGate(budget: 100)
        let inside = DispatchSemaphore(value: 0), leave = DispatchSemaphore(value: 0)
        // Four of 25: each stays inside until all four are, which only a gate that lets them share allows.
        for _ in 0..<4 { Self.onThread { gate.holding(25) { inside.signal(); leave.wait() } } }
        let allIn = (0..<4).allSatisfy { _ in inside.wait(timeout: .now() + 10) == .success }
        for _ in 0..<4 { leave.signal() }
        #expect(allIn)
    }

    @Test func aWorkerOverTheBudgetStillRuns() {
        // More than the budget waits for all of it, and runs.
        #expect(MemoryGate(budget: 100).holding(1000) { 7 } == 7)
    }
}
