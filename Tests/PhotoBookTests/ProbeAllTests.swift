import Foundation
import Synchronization
import Testing
import TestSupport
@testable import PhotoBook
import Platform

/// Probing many files at once (issue 13): each file's result in its place, as if probed alone, and no probe
/// started once the build is cancelled.
struct ProbeAllTests {
    /// Real JPEGs of different sizes, with broken files among them, in one folder.
    static func files(in folder: ProbeTests.Folder) throws -> [PhotoFile] {
        var files: [PhotoFile] = []
        for index in 0..<13 {
            let name = String(format: "photo-%02d.jpg", index)
            switch index % 4 {
            case 1: files.append(try folder.photo(name, Array(try ProbeTests.jpeg(width: 20 + index).prefix(40))))
            case 3: files.append(try folder.photo(name, Array("not a photo \(index)".utf8)))
            default: files.append(try folder.photo(name, try ProbeTests.jpeg(width: 20 + index, height: 10 + index)))
            }
        }
        return files
    }

    /// A file's one photo, as these files have (none is a multi-page TIFF whose pages discovery left uncounted).
    static func one(_ photos: [Result<PhotoInfo, PhotoError>]?) -> Result<PhotoInfo, PhotoError>? {
        photos.map { #expect($0.count == 1); return $0[0] }
    }

    @Test(arguments: [1, 2, 5, 64])
    func everyResultIsInItsFilesPlace(jobs: Int) throws {
        let folder = try ProbeTests.Folder()
        let files = try Self.files(in: folder)
        let alone = files.map { Probe.probe($0, maxPixels: 100_000_000) }
        let together = Probe.probeAll(files, maxPixels: 100_000_000, jobs: jobs, isCancelled: { false }).map(Self.one)
        #expect(together.count == files.count)
        for (index, result) in together.enumerated() {
            #expect(result == alone[index], "\(files[index].path)")
        }
        // The mix is what the test means it to be: sizes read from the files, and the reasons of the broken ones.
        #expect(try together[4]?.get().storedWidth == 24 && together[4]?.map(\.storedHeight) == .success(14))
        #expect(together[3] == .failure(PhotoError.unsupported("not an image photobook reads (\(ImageFormat.names))")))
        guard case .failure(let cut)? = together[1] else { Issue.record("a file cut short was read"); return }
        #expect(cut.kind == .corrupt, "\(cut)")
    }

    @Test func aCancelledBuildStartsNoProbe() throws {
        let folder = try ProbeTests.Folder()
        let files = try Self.files(in: folder)
        let together = Probe.probeAll(files, maxPixels: 100_000_000, jobs: 3, isCancelled: { true }).map(Self.one)
        #expect(together.count == files.count && together.allSatisfy { $0 == nil })
    }

    @Test func noProbeStartsAfterTheCancellation() throws {
        let folder = try ProbeTests.Folder()
        let files = try Self.files(in: folder)
        // The flag is read before each file is taken: after the fourth question every answer is "cancelled".
        let asked = Atomic<Int>(0)
        let together = Probe.probeAll(files, maxPixels: 100_000_000, jobs: 2, isCancelled: {
            asked.wrappingAdd(1, ordering: .relaxed).newValue > 4
        }).map(Self.one)
        let probed = together.compactMap { $0 }.count
        #expect(probed >= 1 && probed <= 4, "\(probed) probed")
        #expect(together.filter { $0 == nil }.count == files.count - probed)
    }

    @Test func noFilesNoResults() {
        #expect(Probe.probeAll([], maxPixels: 100, jobs: 4, isCancelled: { false }).isEmpty)
    }
}
