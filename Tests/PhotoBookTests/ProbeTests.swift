import Foundation
import Imaging
import JPEG
import Testing
import TestSupport
@testable import PhotoBook
import ImageCodec
import Platform

/// The one probe path: the first 512 KB of a file, and a second, longer read only for a header that goes on past them.
struct ProbeTests {
    /// A scratch folder of files written by the tests.
    final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)").path
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// Writes `bytes` as `name` and returns the photo discovery finds there.
        func photo(_ name: String, _ bytes: [UInt8]) throws -> PhotoFile {
            try Data(bytes).write(to: URL(fileURLWithPath: path + "/" + name))
            return try #require(Discovery.discover([path + "/" + name], recursive: false).photos.first)
        }
    }

    /// A file's bytes, each read's length recorded.
    final class RecordingSource: ByteSource, @unchecked Sendable {
        let base: FileSource
        var reads: [Int] = []
        init(_ base: FileSource) { self.base = base }
        var count: Int { base.count }
        func read(from offset: Int, count: Int) throws(CodecError) -> [UInt8] {
            reads.append(count)
            return try base.read(from: offset, count: count)
        }
    }

    /// Probes `file` through the real file system, recording the length of every read.
    static func probe(_ file: PhotoFile) -> (result: Result<PhotoInfo, PhotoError>, reads: [Int]) {
        var source: RecordingSource?
        let result = Probe.probe(file, maxPixels: 100_000_000) { path in
            Result { () throws(FileSystem.Failure) in
                let opened = RecordingSource(try FileSource(path: path))
                source = opened
                return opened
            }
        }
        return (result, source?.reads ?? [])
    }

    static let prefix = 512 * 1024, longer = 64 << 20

    static func jpeg(width: Int = 40, height: Int = 30) throws -> [UInt8] {
        let pixels = (0..<width * height * 3).map { UInt8(truncatingIfNeeded: $0 * 7) }
        return try JPEGEncoder.encode(RGBImage(width: width, height: height, pixels: pixels), quality: 80)
    }

    @Test func aJPEGWhoseHeaderGoesOnPastThePrefixIsReadAgain() throws {
        let folder = try Folder()
        let file = try folder.photo("big-profile.jpg", JPEGStructure.withLargeAPP2(try Self.jpeg(), total: 700_000))
        let (result, reads) = Self.probe(file)
        let info = try result.get()
        #expect(info.storedWidth == 40 && info.storedHeight == 30)
        #expect(reads == [Self.prefix, Self.longer])
    }

    @Test func aJPEGCutInsideItsLongHeaderIsReadAgainAndFailsAsTruncated() throws {
        let folder = try Folder()
        let whole = JPEGStructure.withLargeAPP2(try Self.jpeg(), total: 700_000)
        let (result, reads) = Self.probe(try folder.photo("cut.jpg", Array(whole.prefix(600_000))))
        #expect(result == .failure(PhotoError.corrupt("corrupt JPEG (truncated file: premature end of data)")))
        #expect(reads == [Self.prefix, Self.longer])
    }

    @Test func aShortFileCutInsideItsHeaderIsNotReadAgain() throws {
        let folder = try Folder()
        let whole = JPEGStructure.withLargeAPP2(try Self.jpeg(), total: 300_000)
        let (result, reads) = Self.probe(try folder.photo("cut.jpg", Array(whole.prefix(200_000))))
        #expect(result == .failure(PhotoError.corrupt("corrupt JPEG (truncated file: premature end of data)")))
        #expect(reads == [Self.prefix], "the first read had the whole file")
    }

    @Test func anOrdinaryJPEGIsReadOnce() throws {
        let folder = try Folder()
        let (result, reads) = Self.probe(try folder.photo("small.jpg", try Self.jpeg()))
        #expect(try result.get().storedWidth == 40)
        #expect(reads == [Self.prefix])
    }

    @Test func aLargeFileThatIsNoPhotoIsNotReadAgain() throws {
        let folder = try Folder()
        let text = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        let (result, reads) = Self.probe(try folder.photo("notes.jpg", text))
        #expect(result == .failure(PhotoError.unsupported("not an image photobook reads (\(ImageFormat.names))")))
        #expect(reads == [Self.prefix])
    }

    @Test func aLargeJPEGWithADamagedHeaderIsNotReadAgain() throws {
        let folder = try Folder()
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD8] + [UInt8](repeating: 0x55, count: 1 << 20)
        let (result, reads) = Self.probe(try folder.photo("damaged.jpg", bytes))
        #expect(result == .failure(PhotoError.corrupt("corrupt JPEG (invalid JPEG file structure: two SOI markers)")))
        #expect(reads == [Self.prefix])
    }

    @Test func aFileThatCannotBeReadSaysSo() throws {
        let folder = try Folder()
        let file = try folder.photo("gone.jpg", try Self.jpeg())
        try FileManager.default.removeItem(atPath: file.path)
        let (result, reads) = Self.probe(file)
        #expect(result == .failure(Failure(.unreadable, "cannot read: no such file or directory", errno: ENOENT)))
        #expect(reads == [], "nothing is read from a file that cannot be opened")
    }
}

/// What the probe reads for dates and captions, from EXIF and XMP in real JPEG and PNG bytes.
struct ProbeMetadataTests {
    /// A 32x32 grey PngSuite image, with no chunk of its own between IHDR and the image data.
    static func png() throws -> [UInt8] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return Array(try Data(contentsOf: root.appendingPathComponent("Fixtures/pngsuite/basn0g08.png")))
    }

    static func probe(_ name: String, _ bytes: [UInt8]) throws -> PhotoInfo {
        let folder = try ProbeTests.Folder()
        return try ProbeTests.probe(try folder.photo(name, bytes)).result.get()
    }

    @Test func aJPEGsDateOffsetFractionAndDescription() throws {
        let metadata = PhotoMetadata(date: "2024:05:01 14:03:07", subSeconds: "25", offset: "+02:00",
                                     imageDescription: Array("Caf".utf8) + [0xE9], xmpDescription: "from XMP")
        let info = try Self.probe("a.jpg", metadata.inserted(intoJPEG: try ProbeTests.jpeg()))
        let date = try #require(info.captureDate)
        #expect(date.localText == "2024-05-01 14:03:07" && date.nanosecond == 250_000_000 && date.utcOffsetMinutes == 120)
        // EXIF wins over XMP; its Latin-1 byte is read as Latin-1.
        #expect(info.description == "Caf\u{e9}")
        #expect(info.storedWidth == 40)
    }

    @Test func xmpStandsInForAMissingOrStockEXIFDescription() throws {
        for exif: [UInt8]? in [nil, Array("OLYMPUS DIGITAL CAMERA".utf8), Array("     ".utf8)] {
            let metadata = PhotoMetadata(date: "2024:05:01 14:03:07", imageDescription: exif,
                                         xmpDescription: "Fish &amp; chips, Whitby")
            let info = try Self.probe("b.jpg", metadata.inserted(intoJPEG: try ProbeTests.jpeg()))
            #expect(info.description == "Fish & chips, Whitby")
            #expect(info.captureDate?.utcOffsetMinutes == nil)
        }
    }

    @Test func aPNGsEXIfAndITXtChunks() throws {
        let metadata = PhotoMetadata(date: "2023:12:31 23:59:58", offset: "-05:00", xmpDescription: "Ünïcode in PNG")
        let info = try Self.probe("c.png", metadata.inserted(intoPNG: try Self.png()))
        #expect(info.captureDate?.localText == "2023-12-31 23:59:58" && info.captureDate?.utcOffsetMinutes == -300)
        #expect(info.description == "Ünïcode in PNG")
        #expect(info.storedWidth == 32 && info.storedHeight == 32)
    }

    @Test(arguments: ["0000:00:00 00:00:00", "2024:13:01 10:00:00", "                   ", "2023:02:29 12:00:00"])
    func invalidDatesAreNoDate(date: String) throws {
        let info = try Self.probe("d.jpg", PhotoMetadata(date: date).inserted(intoJPEG: try ProbeTests.jpeg()))
        #expect(info.captureDate == nil)
        #expect(info.description == nil)
    }

    @Test func noMetadataAtAll() throws {
        let info = try Self.probe("e.jpg", try ProbeTests.jpeg())
        #expect(info.captureDate == nil && info.description == nil)
    }
}
