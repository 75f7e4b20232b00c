import Foundation
import Platform
import Testing
import TestSupport
@testable import PhotoBook

/// The same photo twice goes in once: byte-identical files, and the two files of one shot (the same camera and
/// capture time to the sub-second), read from headers and bytes without decoding a pixel.
struct DuplicatesTests {
    static func probed(_ inputs: [String], recursive: Bool = false) throws -> [PhotoInfo] {
        try Discovery.discover(inputs, recursive: recursive).photos.map { try Probe.probe($0, maxPixels: 100_000_000).get() }
    }

    @Test("a Takeout album's copy of a year folder's photo is left out; the photo found first stays")
    func takeoutAlbum() throws {
        let infos = try Self.probed([TakeoutTests.root], recursive: true)
        let found = Duplicates.find(infos)
        #expect(found.count == 1)
        let left = try #require(found.first)
        #expect(infos[left.photo].file.path == TakeoutTests.album + "IMG_0001.jpg")
        #expect(infos[left.keptPhoto].file.path == TakeoutTests.year + "IMG_0001.jpg")
        #expect(left.byteForByte)
        // A preferred photo (the title page's) stays, its copy goes.
        let preferred = Duplicates.find(infos, preferred: [left.photo])
        #expect(preferred.map(\.photo) == [left.keptPhoto] && preferred.map(\.keptPhoto) == [left.photo])
    }

    /// A scratch folder with the shots fixtures and the phone's HEIC they go with, named as the phone named it.
    static func shots() throws -> RegionProbeTests.Folder {
        let folder = try RegionProbeTests.Folder()
        try FileManager.default.copyItem(atPath: Fixtures.path("heif/metadata-extractor-images/iphone-xr.heic"),
                                         toPath: folder.path + "/IMG_1234.HEIC")
        for name in ["IMG_1234.JPG", "IMG_1235.JPG", "IMG_1236.JPG"] {
            try FileManager.default.copyItem(atPath: Fixtures.path("takeout/shots/" + name), toPath: folder.path + "/" + name)
        }
        return folder
    }

    /// A camera raw and a JPEG of one name in one folder are one shot, whatever their EXIF says: the JPEG stays
    /// (with fewer pixels than a raw would have), or the raw when it is preferred. A raw of another name, or in
    /// another folder, is a photo of its own.
    @Test func aRawAndItsJPEGAreOneShot() throws {
        let folder = try RegionProbeTests.Folder()
        let other = try RegionProbeTests.Folder()
        for (from, to) in [("raw/sample_1mp.dng", folder.path + "/IMG_1.DNG"),
                           ("exif-orientation/Landscape_1.jpg", folder.path + "/img_1.jpg"),
                           ("exif-orientation/Landscape_2.jpg", other.path + "/IMG_1.JPG")] {
            try FileManager.default.copyItem(atPath: Fixtures.path(from), toPath: to)
        }
        let infos = try Self.probed([folder.path, other.path])
        #expect(infos.map { FileSystem.baseName($0.file.path) } == ["IMG_1.DNG", "img_1.jpg", "IMG_1.JPG"])
        #expect(infos[0].format.codec.isCameraRaw && !infos[1].format.codec.isCameraRaw)
        #expect(Duplicates.find(infos) == [Duplicates.LeftOut(photo: 0, keptPhoto: 1, byteForByte: false, rawAndJPEG: true)])
        #expect(Duplicates.find(infos, prefersRaw: true)
                == [Duplicates.LeftOut(photo: 1, keptPhoto: 0, byteForByte: false, rawAndJPEG: true)])
        // The title page's photo stays whichever it is.
        #expect(Duplicates.find(infos, preferred: [0]).map(\.keptPhoto) == [0])
        #expect(Duplicates.stem("/a/b/IMG_1.NEF") == "/a/b/img_1" && Duplicates.stem("IMG_1") == "img_1")
    }

    @Test("a phone's HEIC and JPEG of one shot are one photo, the HEIC with more pixels kept; a burst is not")
    func oneShot() throws {
        let folder = try Self.shots()
        let infos = try Self.probed([folder.path])
        #expect(infos.map { FileSystem.baseName($0.file.path) } == ["IMG_1234.HEIC", "IMG_1234.JPG", "IMG_1235.JPG",
                                                                     "IMG_1236.JPG"])
        #expect(infos[0].shot == infos[1].shot && infos[0].shot?.camera == "Apple iPhone XR")
        // No fraction of a second: not a shot that can be told apart from a burst's.
        #expect(infos[3].shot == nil)
        let found = Duplicates.find(infos)
        #expect(found == [Duplicates.LeftOut(photo: 1, keptPhoto: 0, byteForByte: false)])
    }

    @Test("equal sizes alone are not the same photo; equal bytes are, however many copies")
    func sameBytes() throws {
        let folder = try RegionProbeTests.Folder()
        try folder.copy("curie.jpg", as: "a.jpg")
        try folder.copy("curie.jpg", as: "b.jpg")
        try folder.copy("curie.jpg", as: "c.jpg")
        // d.jpg: curie.jpg's size, one byte changed near its end (past the first 64 KB that every file is hashed on).
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path + "/a.jpg")))
        bytes[bytes.count - 100] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/d.jpg"))
        let infos = try Self.probed([folder.path])
        #expect(Duplicates.find(infos) == [Duplicates.LeftOut(photo: 1, keptPhoto: 0, byteForByte: true),
                                           Duplicates.LeftOut(photo: 2, keptPhoto: 0, byteForByte: true)])
    }
}
