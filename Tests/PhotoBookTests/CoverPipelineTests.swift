import Foundation
import Synchronization
import Testing
@testable import PhotoBook

/// A wrap cover is a plan handed to the book's pipeline: the same outcomes, commit and clean-up, with the cover's
/// own rule that a photo that cannot be used fails it (a book would be planned again without that photo).
@Suite(.serialized) struct CoverPipelineTests {
    /// A cover of the fixture's photos: `front.jpg`, then `back.jpg` when it is there.
    static func cover(_ fixture: ContractTests.Fixture, spine: Double = 30, title: String? = nil,
                      hooks: BuildHooks = BuildHooks()) throws -> RenderPipeline {
        var hooks = hooks
        let counter = fixture.completions
        let inner = hooks.finished
        hooks.finished = { report in counter.increment(); inner?(report) }
        var options = CoverOptions(geometry: CoverGeometry(panel: .a5, spine: spine, bleed: 9, safety: 28))
        options.dpi = 150
        options.temporaryDirectory = fixture.tmp
        if let title { options.text = CoverText(font: try BookFont(path: BookFont.defaultPath), title: title) }
        let files = ["front.jpg", "back.jpg"].compactMap { Discovery.discover([fixture.folder + "/in/" + $0], recursive: false).photos.first }
        return RenderPipeline(front: files[0], back: files.count > 1 ? files[1] : nil, outputPath: fixture.output,
                              options: options, hooks: hooks)
    }

    @Test func aCoverIsOnePageOfItsPhotosCommittedOnce() throws {
        let good = try ContractTests.good()
        let fixture = try ContractTests.Fixture(photos: [("front.jpg", good), ("back.jpg", good)])
        let report = try Self.cover(fixture, title: "Title").run()
        #expect(report.book == .succeeded)
        #expect(report.pagesWritten == 1)
        #expect(report.pages == [PageReport(kind: .wrapCover, photos: [0, 1])])
        #expect(report.photos.map(\.outcome) == [.succeeded, .succeeded])
        #expect(fixture.outputExists)
        #expect(fixture.leftovers.isEmpty, "\(fixture.leftovers)")
        #expect(fixture.completionCount == 1)
    }

    /// The back photo's header is whole, its pixels are not: the book of the same photos leaves it out, the cover
    /// is not made. Its words' warnings (a spine too narrow for the title) are reported all the same.
    @Test func aPhotoThatFailsWhenDecodedFailsTheCoverWhereABookLeavesItOut() throws {
        let good = try ContractTests.good()
        let truncated = ReplanTests.truncated(try ReplanTests.photo(width: 900, height: 600, seed: 1))
        let fixture = try ContractTests.Fixture(photos: [("front.jpg", good), ("back.jpg", truncated)])
        let report = try Self.cover(fixture, spine: 2, title: "Title").run()
        #expect(report.book == .skipped(because: .refused("the cover needs every photo it names")))
        #expect(report.photos[0].outcome == .succeeded)
        guard case .failed = report.photos[1].outcome else {
            Issue.record("the back photo: \(report.photos[1].outcome)")
            return
        }
        #expect(report.pagesWritten == 0)
        #expect(report.warnings.contains { $0.message.hasPrefix("the spine is ") }, "\(report.warnings)")
        #expect(!fixture.outputExists)
        #expect(fixture.leftovers.isEmpty, "\(fixture.leftovers)")
        #expect(fixture.completionCount == 1)

        let book = fixture.builder(hooks: BuildHooks()).run()
        #expect(book.book == .succeeded)
        #expect(book.leftOut.map { ($0.path as NSString).lastPathComponent } == ["back.jpg"])
    }

    /// Cancelled once its graph is in the queue and before any operation started: nothing ran, every photo and
    /// the cover are cancelled, nothing is written.
    @Test func cancelledBeforeRunningLeavesNothing() throws {
        let good = try ContractTests.good()
        let fixture = try ContractTests.Fixture(photos: [("front.jpg", good), ("back.jpg", good)])
        let box = Mutex<RenderPipeline?>(nil)
        let decodes = Mutex(0)
        let pipeline = try Self.cover(fixture, hooks: BuildHooks(decodeStarted: { _ in decodes.withLock { $0 += 1 } },
                                                                  graphReady: { box.withLock { $0 }?.cancel() }))
        box.withLock { $0 = pipeline }
        let report = pipeline.run()
        #expect(report.book == .cancelled)
        #expect(report.photos.map(\.outcome) == [.cancelled, .cancelled])
        #expect(decodes.withLock { $0 } == 0)
        #expect(!fixture.outputExists)
        #expect(fixture.leftovers.isEmpty, "\(fixture.leftovers)")
        #expect(fixture.completionCount == 1)
    }
}
