import Foundation
import Synchronization
import Testing
@testable import PhotoBook

/// A spread through the whole build: each half rendered once, the photo counted and reported once (on its first
/// page), and a panorama that fails to decode taking both halves with it.
@Suite(.serialized) struct SpreadBuildTests {
    func build(_ photos: [(name: String, bytes: [UInt8])])
        throws -> (report: BuildReport, decodes: [String: Int], finished: [String: Int]) {
        let fixture = try ContractTests.Fixture(photos: photos)
        let decodes = Mutex<[String: Int]>([:]), finished = Mutex<[String: Int]>([:])
        let hooks = BuildHooks(
            decodeStarted: { path in decodes.withLock { $0[(path as NSString).lastPathComponent, default: 0] += 1 } },
            photoFinished: { path in finished.withLock { $0[(path as NSString).lastPathComponent, default: 0] += 1 } })
        var options = BuildOptions()
        options.jobs = 2
        options.temporaryDirectory = fixture.tmp
        options.layout.spreads = true
        options.layout.bleed = 3 * Length.pointsPerMillimetre
        let discovery = Discovery.discover([fixture.folder + "/in"], recursive: false)
        let report = RenderPipeline(files: discovery.photos, outputPath: fixture.output, options: options, hooks: hooks).run()
        #expect(fixture.leftovers.isEmpty, "temporary files left: \(fixture.leftovers)")
        #expect(report.book == .succeeded ? fixture.outputExists : !fixture.outputExists)
        return (report, decodes.withLock { $0 }, finished.withLock { $0 })
    }

    @Test func aSpreadIsRenderedOncePerHalfAndReportedOnce() throws {
        let (report, decodes, finished) = try build([
            ("p01.jpg", try ReplanTests.photo(width: 300, height: 200, seed: 1)),
            ("p02.jpg", try ReplanTests.photo(width: 900, height: 300, seed: 2)),
            ("p03.jpg", try ReplanTests.photo(width: 300, height: 200, seed: 3)),
        ])
        #expect(report.book == .succeeded && report.pagesWritten == 4)
        #expect(report.pages.map(\.arrangement) == ["single", "spread, left half", "spread, right half", "single"])
        #expect(report.pages.map(\.photos) == [[0], [1], [1], [2]])
        #expect(report.photos[1].page == 2, "reported where the spread starts")
        #expect(report.photos.allSatisfy { $0.outcome == .succeeded })
        #expect(decodes == ["p01.jpg": 1, "p02.jpg": 2, "p03.jpg": 1], "each half rendered once")
        #expect(finished == ["p01.jpg": 1, "p02.jpg": 1, "p03.jpg": 1], "each photo counted once")
        #expect(report.warnings.isEmpty)
    }

    @Test func aPanoramaThatFailsToDecodeTakesBothHalves() throws {
        let (report, _, finished) = try build([
            ("p01.jpg", try ReplanTests.photo(width: 300, height: 200, seed: 1)),
            ("p02.jpg", ReplanTests.truncated(try ReplanTests.photo(width: 900, height: 300, seed: 2))),
            ("p03.jpg", try ReplanTests.photo(width: 300, height: 200, seed: 3)),
        ])
        #expect(report.book == .succeeded && report.pagesWritten == 2)
        #expect(report.pages.map(\.photos) == [[0], [2]])
        if case .failed = report.photos[1].outcome {} else { Issue.record("p02: \(report.photos[1].outcome)") }
        #expect(report.photos[1].page == nil)
        #expect(finished == ["p01.jpg": 1, "p02.jpg": 1, "p03.jpg": 1], "the failed panorama counted once")
    }
}
