import Foundation
import Imaging
import JPEG
import Synchronization
import Testing
@testable import PhotoBook

/// Photos that fail only when decoded leave no hole: the pages are planned again from the photos that rendered,
/// renders that still fit are kept, and every photo is counted once.
@Suite(.serialized) struct ReplanTests {
    /// A photo of `width` x `height`, and the same cut short: its header is whole, its pixels are not.
    static func photo(width: Int, height: Int, seed: Int) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) {
            let p = i / 3
            pixels[i] = UInt8((p % width) * 255 / width)
            pixels[i + 1] = UInt8((p / width) * 255 / height)
            pixels[i + 2] = UInt8(seed * 40 % 256)
        }
        return try JPEGEncoder.encode(RGBImage(width: width, height: height, pixels: pixels), options: .init(quality: 80))
    }

    static func truncated(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.prefix(bytes.count * 6 / 10)) }

    /// Builds with `layout` and counts, per file name, the decodes that started and the photos announced finished.
    func build(_ photos: [(name: String, bytes: [UInt8])], layout: LayoutMode)
        throws -> (report: BuildReport, decodes: [String: Int], finished: [String: Int], names: [String]) {
        let fixture = try ContractTests.Fixture(photos: photos)
        let decodes = Mutex<[String: Int]>([:]), finished = Mutex<[String: Int]>([:])
        let hooks = BuildHooks(
            decodeStarted: { path in decodes.withLock { $0[(path as NSString).lastPathComponent, default: 0] += 1 } },
            photoFinished: { path in finished.withLock { $0[(path as NSString).lastPathComponent, default: 0] += 1 } })
        var options = BuildOptions()
        options.jobs = 2
        options.temporaryDirectory = fixture.tmp
        options.layout.mode = layout
        let discovery = Discovery.discover([fixture.folder + "/in"], recursive: false)
        let report = RenderPipeline(files: discovery.photos, outputPath: fixture.output, options: options, hooks: hooks).run()
        #expect(fixture.leftovers.isEmpty, "temporary files left: \(fixture.leftovers)")
        #expect(report.book == .succeeded ? fixture.outputExists : !fixture.outputExists)
        let names = discovery.photos.map { ($0.path as NSString).lastPathComponent }
        return (report, decodes.withLock { $0 }, finished.withLock { $0 }, names)
    }

    @Test func inAGridThePhotosAfterABadOneMoveUpWithoutBeingRenderedAgain() throws {
        var photos: [(String, [UInt8])] = []
        for n in 1...7 { photos.append((String(format: "p%02d.jpg", n), try Self.photo(width: 120, height: 90, seed: n))) }
        photos[1].1 = Self.truncated(photos[1].1)
        let (report, decodes, finished, names) = try build(photos, layout: .grid(columns: 2, rows: 2))
        #expect(report.book == .succeeded)
        #expect(report.pagesWritten == 2)
        // p02 is gone and the rest close up: 1 3 4 5 on the first page, 6 7 on the second.
        #expect(report.pages.map(\.photos) == [[0, 2, 3, 4], [5, 6]])
        #expect(report.photos[1].outcome != .succeeded && report.photos[1].page == nil)
        #expect(report.photos.enumerated().filter { $0.offset != 1 }.allSatisfy { $0.element.outcome == .succeeded })
        // Equal cells: a photo that moves up keeps its render; every photo decoded once and counted once.
        #expect(names.allSatisfy { decodes[$0] == 1 }, "\(decodes)")
        #expect(names.allSatisfy { finished[$0] == 1 }, "\(finished)")
    }

    @Test func anAutoBookIsLaidOutAgainFromThePhotosThatRendered() throws {
        let shapes = [(300, 200), (200, 300), (300, 200), (300, 300), (450, 150), (300, 200), (200, 300),
                      (200, 300), (300, 200), (300, 225)]
        var photos: [(String, [UInt8])] = try shapes.enumerated().map { index, shape in
            (String(format: "p%02d.jpg", index + 1), try Self.photo(width: shape.0, height: shape.1, seed: index))
        }
        for bad in [2, 6] { photos[bad].1 = Self.truncated(photos[bad].1) }
        let (report, decodes, finished, names) = try build(photos, layout: .auto)
        #expect(report.book == .succeeded)
        let good = Array(0..<shapes.count).filter { $0 != 2 && $0 != 6 }
        #expect(report.pages.flatMap(\.photos).map(\.index) == good, "every good photo once, in order, no hole")
        #expect(report.pagesWritten == report.pages.count)
        // The pages are the plan of the good photos alone, as if the bad ones had never been there.
        let alone = try #require(Planner.plan(uprightSizes: good.map { shapes[$0] }, options: {
            var layout = LayoutOptions(); layout.mode = .auto; return layout }()))
        #expect(report.pages.map(\.arrangement) == alone.pages.map(\.arrangement))
        #expect(names.allSatisfy { finished[$0] == 1 }, "each photo counted once: \(finished)")
        // A photo is decoded again only when its cell changed; the bad ones are tried once.
        #expect(decodes[names[2]] == 1 && decodes[names[6]] == 1)
        #expect(names.allSatisfy { (decodes[$0] ?? 0) <= 2 }, "\(decodes)")
    }

    @Test func withStrictABadPhotoFoundAtDecodeFailsTheBookWithNothingWritten() throws {
        var photos: [(String, [UInt8])] = []
        for n in 1...4 { photos.append((String(format: "p%02d.jpg", n), try Self.photo(width: 120, height: 90, seed: n))) }
        photos[2].1 = Self.truncated(photos[2].1)
        let fixture = try ContractTests.Fixture(photos: photos)
        let report = fixture.builder(strict: true, hooks: BuildHooks()).run()
        guard case .skipped(let why) = report.book else { Issue.record("\(report.book)"); return }
        #expect(why.kind == .refused && why.message.contains("--strict"))
        #expect(!fixture.outputExists && fixture.leftovers.isEmpty)
    }
}
