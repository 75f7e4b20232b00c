import Testing
import TestSupport
@testable import PhotoBook

/// A file several decodes of a round read is opened once for them all (`SharedFiles`), and a multi-page TIFF's
/// pages come from one probe of it when discovery left them uncounted.
struct SharedFilesTests {
    static let tiff = Fixtures.path("tiff/multipage.tif")

    @Test func theDecodesOfOneFileShareOneOpen() throws {
        let files = SharedFiles()
        for _ in 0..<3 { files.expect(Self.tiff) }
        let first = try files.open(Self.tiff)
        files.done(Self.tiff)
        #expect(try files.open(Self.tiff) === first)
        files.done(Self.tiff)
        // The last to come counts itself alone, but the others' file is still open.
        #expect(try files.open(Self.tiff) === first)
        files.done(Self.tiff)
        #expect(try files.open(Self.tiff) !== first, "gone once every decode is done")
    }

    @Test func aFileReadOnceIsNotKept() throws {
        let files = SharedFiles()
        files.expect(Self.tiff)
        let one = try files.open(Self.tiff)
        #expect(try files.open(Self.tiff) !== one)
    }

    @Test func theProbeCountsTheTIFFsPagesDiscoveryLeftToIt() throws {
        let counted = Discovery.discover([Self.tiff], recursive: false).photos
        let left = Discovery.discover([Self.tiff], recursive: false, countsPages: false).photos
        #expect(counted.count == 3 && left.count == 1 && left[0].countsPagesWhenProbed)
        let probed = try #require(Probe.probeAll(left, maxPixels: 100_000_000, jobs: 2, isCancelled: { false })[0])
        #expect(probed.map { try? $0.get().file } == counted.map(Optional.some))
        #expect(probed == counted.map { Probe.probe($0, maxPixels: 100_000_000) }, "as each page probed alone")
    }
}
