import Foundation
import TestSupport
import Testing

/// Every file of a folder that is not put in the book is named, with what it is when its name or bytes say so:
/// a photo format photobook does not read in a warning, any other file with `--verbose`.
struct SkippedFileTests {
    /// A camera raw file is a TIFF structure whose first directory is a thumbnail or a preview (DNG, CR2, NEF):
    /// it is skipped as the raw file it is, never read as a TIFF (a baffling failure, or the camera's preview
    /// printed as the photo).
    @Test(arguments: ["IMG_0001.DNG", "IMG_0002.CR2", "DSC_0003.NEF", "DSC0004.ARW", "IMGP0005.PEF"])
    func aTIFFBasedRawFileIsSkippedAsARawFile(_ name: String) throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture("tiff/rgb8-lzw.tif"), to: "photos/" + name)
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/IMG_0001.JPG")
        let json = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf"), "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        let kind = String(name.split(separator: ".").last!)
        #expect(run.stderr.contains("photobook: warning: \(photos)/\(name): \(kind) camera raw files are not supported "
                                    + "(photobook reads JPEG, PNG, HEIF, WebP, TIFF, JPEG XL and JPEG 2000: export the photo as one of those), skipped"),
                "\(run.stderr)")
        let report = try ReadReport(path: json)
        #expect(report.photos.map { FileSystemName.base($0.path) } == ["IMG_0001.JPG"])
    }

    /// Named on the command line, a raw file is a photo its owner expects: it fails by name with the same reason
    /// (not a TIFF's reasons, not the camera's preview, not one failure per directory of a multi-page file), and
    /// `--strict` refuses the book.
    @Test func aRawFileNamedOnTheCommandLineFailsByNameAsARawFile() throws {
        let scratch = try Scratch()
        let raw = try scratch.copy(Run.fixture("tiff/multipage.tif"), to: "IMG_0009.DNG")
        let jpeg = Run.fixture("exif-orientation/Landscape_1.jpg")
        let json = scratch.file("report.json")
        let run = try Run.photobook(["build", raw, jpeg, "-o", scratch.file("book.pdf"), "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        let reason = "DNG camera raw files are not supported (photobook reads JPEG, PNG, HEIF, WebP, TIFF, JPEG XL and JPEG 2000: "
            + "export the photo as one of those)"
        #expect(run.stderr.contains("\(raw): \(reason)"), "\(run.stderr)")
        #expect(!run.stderr.contains("page 1 of"), "\(run.stderr)")
        let report = try ReadReport(path: json)
        #expect(report.photos.map(\.outcome) == ["failed", "succeeded"])
        #expect(report.photos.first?.reason == reason)
        let strict = try Run.photobook(["build", raw, jpeg, "-o", scratch.file("strict.pdf"), "--strict"])
        #expect(strict.status != 0 && strict.stderr.contains(reason), "\(strict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("strict.pdf")))
    }

    /// Files whose names promise nothing are named by their bytes with --verbose.
    @Test func otherFilesAreNamedByWhatTheirBytesSay() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/keep.jpg")
        let files: [(name: String, bytes: [UInt8], says: String)] = [
            ("layers", Array("8BPS".utf8) + [0, 1, 0, 0, 0, 0, 0, 0, 0, 3], "a Photoshop document (PSD)"),
            ("anim", Array("GIF89a".utf8) + [1, 0, 1, 0], "a GIF image"),
            ("IMG_0001.AAE", Array("<?xml version=\"1.0\"?><plist/>".utf8), "not an image photobook reads"),
        ]
        for file in files { _ = try scratch.write("photos/" + file.name, file.bytes) }
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf"), "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        for file in files {
            #expect(run.stderr.contains("photobook: \(photos)/\(file.name): \(file.says), skipped"), "\(run.stderr)")
        }
        let quiet = try Run.photobook(["build", photos, "-o", scratch.file("quiet.pdf")])
        #expect(!quiet.stderr.contains("skipped"), "only --verbose names the files a folder holds besides photos")
    }

    /// Named by its extension: a photo format photobook does not read is a warning even without --verbose.
    @Test(arguments: [("a.psd", "PSD"), ("c.gif", "GIF"), ("d.bmp", "BMP")])
    func aPhotoFormatPhotobookDoesNotReadIsAWarning(_ name: String, _ kind: String) throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/keep.jpg")
        _ = try scratch.write("photos/" + name, Array("not really".utf8))
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/\(name): \(kind) images are not supported "
                                    + "(photobook reads JPEG, PNG, HEIF, WebP, TIFF, JPEG XL and JPEG 2000), skipped"), "\(run.stderr)")
    }
}
