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

    /// Discovery that counts the pages does so by the probe's own read, which its pages carry to the probe
    /// (`Probe.EarlyRead`): the probe takes it, once, and finds what a read of its own would.
    @Test func theProbeTakesTheReadDiscoveryCountedThePagesBy() throws {
        let counted = Discovery.discover([Self.tiff], recursive: false).photos
        let read = try #require(counted.first?.earlyRead)
        #expect(counted.count == 3 && counted.allSatisfy { $0.earlyRead === read }, "the pages share one read")
        let probed = Probe.probeAll(counted, maxPixels: 100_000_000, jobs: 2, isCancelled: { false })
        #expect(read.take() == nil, "taken by the probe")
        #expect(probed.map { $0?.count } == [1, 1, 1])
        #expect(probed.map { $0?[0] } == counted.map { Probe.probe($0, maxPixels: 100_000_000) }, "as each page probed alone")
        #expect(Discovery.discover([Self.tiff], recursive: false, countsPages: false).photos[0].earlyRead == nil,
                "nothing read when the probe counts the pages")
    }
}
