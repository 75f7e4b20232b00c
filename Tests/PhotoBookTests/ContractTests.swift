import Dispatch
import Foundation
import Synchronization
import Testing
@testable import PhotoBook
import Platform

/// The cancellation and commit contract of docs/design.md §3, in-process. Events are ordered by hooks and
/// semaphores, never by sleeping; every wait has a timeout that fails the test.
@Suite(.serialized) struct ContractTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let goodPhoto = root.appendingPathComponent("Fixtures/exif-orientation/Landscape_1.jpg").path

    /// A build of the given photos into a scratch folder, with a private temporary directory.
    final class Fixture {
        let folder: String
        let tmp: String
        let output: String
        let completions = Counter()

        init(photos: [(name: String, bytes: [UInt8])]) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)").path
            tmp = folder + "/tmp"
            output = folder + "/out/book.pdf"
            try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
            for photo in photos {
                try Data(photo.bytes).write(to: URL(fileURLWithPath: folder + "/in/" + photo.name))
            }
        }
        deinit { try? FileManager.default.removeItem(atPath: folder) }

        func builder(strict: Bool = false, hooks: BuildHooks) -> RenderPipeline {
            var hooks = hooks
            let counter = completions
            let inner = hooks.finished
            hooks.finished = { report in counter.increment(); inner?(report) }
            var options = BuildOptions()
            options.jobs = 2
            options.strict = strict
            options.temporaryDirectory = tmp
            // The fixtures' photos are often the same bytes: here each is a photo of its own, with its own outcome.
            options.keepDuplicates = true
            let discovery = Discovery.discover([folder + "/in"], recursive: false)
            return RenderPipeline(files: discovery.photos, outputPath: output, options: options, hooks: hooks)
        }

        var outputExists: Bool { FileManager.default.fileExists(atPath: output) }
        var leftovers: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? [])
                + ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/out")) ?? []).filter { $0 != "book.pdf" }
        }
        var completionCount: Int { completions.value }
    }

    static func good() throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: goodPhoto))) }

    /// Runs `builder.run()` on another thread and waits for it with a timeout.
    static func runInBackground(_ builder: RenderPipeline) -> (wait: () -> BuildReport?, done: DispatchSemaphore) {
        let result = Mutex<BuildReport?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let report = builder.run()
            result.withLock { $0 = report }
            done.signal()
        }
        return ({
            guard done.wait(timeout: .now() + 120) == .success else { return nil }
            return result.withLock { $0 }
        }, done)
    }

    @Test func predecessorSucceeds() throws {
        let fixture = try Fixture(photos: [("a.jpg", try Self.good()), ("b.jpg", try Self.good())])
        let report = fixture.builder(hooks: BuildHooks()).run()
        #expect(report.book == .succeeded)
        #expect(report.photos.map(\.outcome) == [.succeeded, .succeeded])
        #expect(report.pagesWritten == 2)
        #expect(fixture.outputExists)
        #expect(fixture.leftovers.isEmpty)
        #expect(fixture.completionCount == 1)
    }

    @Test func predecessorFailsSoTheDependentIsSkippedAndDoesNoWork() throws {
        // The header is intact (the probe passes) but the scan is cut: decoding fails.
        let good = try Self.good()
        let fixture = try Fixture(photos: [("a.jpg", Array(good.prefix(good.count / 2)))])
        let builder = fixture.builder(hooks: BuildHooks())
        let report = builder.run()
        guard case .failed(let reason) = report.photos[0].outcome else {
            Issue.record("expected failed, got \(report.photos[0].outcome)"); return
        }
        #expect(reason.kind == .corrupt && !reason.message.isEmpty)
        #expect(report.book == .skipped(because: .refused("no photo could be used")))
        #expect(!fixture.outputExists)
        #expect(fixture.leftovers.isEmpty)
        #expect(fixture.completionCount == 1)
    }

    @Test func aFailedPhotoIsLeftOutAndTheRestIsBuilt() throws {
        let good = try Self.good()
        let fixture = try Fixture(photos: [("a.jpg", good), ("b.jpg", Array(good.prefix(good.count / 2)))])
        let report = fixture.builder(hooks: BuildHooks()).run()
        #expect(report.book == .succeeded)
        #expect(report.pagesWritten == 1)
        #expect(report.leftOut.map(\.path) == [fixture.folder + "/in/b.jpg"])
        #expect(fixture.outputExists)
        #expect(fixture.completionCount == 1)

        let strict = try Fixture(photos: [("a.jpg", good), ("b.jpg", Array(good.prefix(good.count / 2)))])
        let strictReport = strict.builder(strict: true, hooks: BuildHooks()).run()
        guard case .skipped = strictReport.book else { Issue.record("strict: \(strictReport.book)"); return }
        #expect(!strict.outputExists)
        #expect(strict.leftovers.isEmpty)
    }

    /// docs/design.md §2: the PDF is an operation that depends on the renders of the pages it draws. A photo that
    /// fails when decoded makes its render, then that PDF, end skipped; the book is planned again without it, and
    /// the next round's PDF draws the render the first round made of the other photo.
    @Test func thePDFDependsOnItsRendersAndASkippedOneIsPlannedAgain() throws {
        let good = try Self.good()
        let fixture = try Fixture(photos: [("a.jpg", good), ("b.jpg", Array(good.prefix(good.count / 2)))])
        let builder = fixture.builder(hooks: BuildHooks())
        let report = builder.run()
        #expect(report.book == .succeeded)
        let rounds = builder.pdfOperations.withLock { $0 }
        #expect(rounds.count == 2)
        guard rounds.count == 2 else { return }
        let renders = rounds[0].dependencies.compactMap { $0 as? ResizeCropOperation }
        #expect(renders.count == 2 && rounds[0].dependencies.count == 2)
        #expect(Set(renders.map(\.job.info.file.path)) == [fixture.folder + "/in/a.jpg", fixture.folder + "/in/b.jpg"])
        let failed = renders.first { $0.job.info.file.path.hasSuffix("b.jpg") }
        #expect(failed?.outcome == .skipped(because: .inputFailed("decoding failed")))
        #expect(rounds[0].outcome == .skipped(because: .inputFailed("rendering \(fixture.folder)/in/b.jpg was skipped")))
        #expect(!rounds[0].hasStarted)
        // a.jpg keeps its render: the second round renders nothing and its PDF has nothing to wait for.
        #expect(rounds[1].dependencies.isEmpty)
        #expect(rounds[1].outcome == .succeeded && rounds[1].pagesWritten == 1)
    }

    @Test func pagesWrittenIsThePageCountOfTheCommittedBook() throws {
        let good = try Self.good()
        let fixture = try Fixture(photos: [("a.jpg", good), ("b.jpg", Array(good.prefix(good.count / 2))), ("c.jpg", good)])
        let report = fixture.builder(hooks: BuildHooks()).run()
        #expect(report.book == .succeeded)
        #expect(report.pagesWritten == 2)
        // libharu writes one uncompressed page tree: its /Count is the number of pages a reader shows.
        let pdf = String(decoding: try Data(contentsOf: URL(fileURLWithPath: fixture.output)), as: UTF8.self)
        #expect(pdf.contains("/Count 2\n") || pdf.contains("/Count 2\r"), "the page tree holds 2 pages")

        let cancelled = try Fixture(photos: [("a.jpg", good)])
        let box = Mutex<RenderPipeline?>(nil)
        let builder = cancelled.builder(hooks: BuildHooks(beforeCommit: { _ = box.withLock { $0 }?.cancel() }))
        box.withLock { $0 = builder }
        let cancelledReport = builder.run()
        #expect(cancelledReport.book == .cancelled)
        #expect(cancelledReport.pagesWritten == 0, "no book, no pages")
    }

    @Test func cancelledBeforeRunningNoBodyRuns() throws {
        let fixture = try Fixture(photos: [("a.jpg", try Self.good()), ("b.jpg", try Self.good())])
        let bodies = Mutex(0)
        let box = Mutex<RenderPipeline?>(nil)
        // The queue is still suspended when graphReady is called: cancelling here means nothing ever starts.
        let builder = fixture.builder(hooks: BuildHooks(
            decodeStarted: { _ in bodies.withLock { $0 += 1 } },
            graphReady: { _ = box.withLock { $0 }?.cancel() }))
        box.withLock { $0 = builder }
        let report = builder.run()
        #expect(bodies.withLock { $0 } == 0, "no decode body ran")
        #expect(report.photos.map(\.outcome) == [.cancelled, .cancelled])
        #expect(report.book == .cancelled)
        #expect(!fixture.outputExists)
        #expect(fixture.leftovers.isEmpty)
        #expect(fixture.completionCount == 1)
    }

    @Test func cancelledWhileRunningStopsAtTheNextSafePoint() throws {
        let fixture = try Fixture(photos: [("a.jpg", try Self.good())])
        let started = DispatchSemaphore(value: 0), proceed = DispatchSemaphore(value: 0)
        let timedOut = Mutex(false)
        let builder = fixture.builder(hooks: BuildHooks(decodeStarted: { _ in
            started.signal()
            if proceed.wait(timeout: .now() + 60) == .timedOut { timedOut.withLock { $0 = true } }
        }))
        let run = Self.runInBackground(builder)
        #expect(started.wait(timeout: .now() + 60) == .success, "decode started")
        #expect(builder.cancel(), "cancellation wins before the commit")
        proceed.signal()
        let report = try #require(run.wait(), "the build ended")
        #expect(!timedOut.withLock { $0 })
        #expect(report.photos[0].outcome == .cancelled)
        #expect(report.book == .cancelled)
        #expect(!fixture.outputExists)
        #expect(fixture.leftovers.isEmpty, "\(fixture.leftovers)")
        #expect(fixture.completionCount == 1)
    }

    @Test func cancelledJustBeforeTheCommitWritesNothing() throws {
        let fixture = try Fixture(photos: [("a.jpg", try Self.good())])
        let box = Mutex<RenderPipeline?>(nil)
        let builder = fixture.builder(hooks: BuildHooks(beforeCommit: { _ = box.withLock { $0 }?.cancel() }))
        box.withLock { $0 = builder }
        let report = builder.run()
        #expect(report.book == .cancelled)
        #expect(!fixture.outputExists)
        #expect(fixture.leftovers.isEmpty, "the temporary PDF beside the output is gone: \(fixture.leftovers)")
        #expect(fixture.completionCount == 1)
    }

    @Test func cancelledAfterTheCommitTheBookStays() throws {
        let fixture = try Fixture(photos: [("a.jpg", try Self.good())])
        let box = Mutex<RenderPipeline?>(nil)
        let refused = Mutex<Bool?>(nil)
        let builder = fixture.builder(hooks: BuildHooks(afterCommit: {
            let accepted = box.withLock { $0 }?.cancel()
            refused.withLock { $0 = accepted.map { !$0 } }
        }))
        box.withLock { $0 = builder }
        let report = builder.run()
        #expect(refused.withLock { $0 } == true, "cancel() after the commit reports that it is too late")
        #expect(report.book == .succeeded)
        #expect(report.photos[0].outcome == .succeeded)
        #expect(fixture.outputExists)
        #expect(fixture.leftovers.isEmpty)
        #expect(fixture.completionCount == 1)
    }
}

final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// The commit state machine on its own.
struct BuildSessionTests {
    @Test func cancellationAndCommitExcludeEachOther() {
        let cancelledFirst = BuildSession()
        #expect(cancelledFirst.cancel())
        var renamed = false
        let result: Result<Void, FileSystem.Failure>? = cancelledFirst.commit(temporaryFile: "x") { renamed = true; return .success(()) }
        #expect(result == nil && !renamed, "no rename after cancellation")
        #expect(cancelledFirst.state == .cancelled)

        let committedFirst = BuildSession()
        let committed: Result<Void, FileSystem.Failure>? = committedFirst.commit(temporaryFile: "x") { .success(()) }
        #expect(committed != nil)
        #expect(!committedFirst.cancel(), "too late to cancel")
        #expect(committedFirst.state == .committed)
    }

    @Test func aFailedRenameLeavesTheBuildRunning() {
        let session = BuildSession()
        let failed: Result<Void, FileSystem.Failure>? = session.commit(temporaryFile: "x") { .failure(FileSystem.Failure(code: 28)) }
        if case .failure? = failed {} else { Issue.record("expected failure") }
        #expect(session.state == .running)
    }
}
