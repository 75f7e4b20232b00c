import Foundation
import TestSupport
import Testing

/// Every file of a folder that is not put in the book is named, with what it is when its name or bytes say so:
/// a photo format photobook does not read in a warning, any other file with `--verbose`.
struct SkippedFileTests {
    /// A file called like a camera raw is read as one (most raws are TIFF structures whose first directory is
    /// a thumbnail: never read as a TIFF). A TIFF that is no raw, named like one, is left out by name with
    /// LibRaw's own reason, and the book is made of the rest.
    @Test(arguments: ["IMG_0001.DNG", "IMG_0002.CR2", "DSC_0003.NEF", "DSC0004.ARW", "IMGP0005.PEF"])
    func aTIFFNamedLikeARawIsRefusedByLibRaw(_ name: String) throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture("tiff/rgb8-lzw.tif"), to: "photos/" + name)
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/IMG_0001.JPG")
        let json = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf"), "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        let reason = "unsupported camera raw (LibRaw: Unsupported file format or not RAW file)"
        #expect(run.stderr.contains("\(photos)/\(name): \(reason)"), "\(run.stderr)")
        let report = try ReadReport(path: json)
        #expect(report.kinds == [name: "unsupported", "IMG_0001.JPG": "succeeded"], "\(report.kinds)")
        #expect(report.photo(named: name)?.outcome == "failed")
    }

    /// Named on the command line, a damaged raw fails by name with LibRaw's reason (not a TIFF's, not one
    /// failure per directory of a multi-page file), and `--strict` refuses the book.
    @Test func aDamagedRawNamedOnTheCommandLineFailsByNameWithLibRawsReason() throws {
        let scratch = try Scratch()
        let raw = try scratch.copy(Run.fixture("tiff/multipage.tif"), to: "IMG_0009.DNG")
        let jpeg = Run.fixture("exif-orientation/Landscape_1.jpg")
        let json = scratch.file("report.json")
        let run = try Run.photobook(["build", raw, jpeg, "-o", scratch.file("book.pdf"), "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        let reason = "unsupported camera raw (LibRaw: Unsupported file format or not RAW file)"
        #expect(run.stderr.contains("\(raw): \(reason)"), "\(run.stderr)")
        #expect(!run.stderr.contains("page 1 of"), "\(run.stderr)")
        let report = try ReadReport(path: json)
        #expect(report.photos.map(\.outcome) == ["failed", "succeeded"])
        #expect(report.photos.first?.failureKind == "unsupported")
        #expect(report.photos.first?.reason == reason)
        let (strict, strictReport) = try Run.photobookReporting(["build", raw, jpeg, "-o", scratch.file("strict.pdf"), "--strict"])
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(strictReport.book.failureKind == "refused" && strictReport.photos.first?.failureKind == "unsupported")
        #expect(strict.stderr.contains("photobook: error: \(raw): "), "\(strict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("strict.pdf")))
    }

    /// Files whose names promise nothing are named by their bytes with --verbose.
    @Test func otherFilesAreNamedByWhatTheirBytesSay() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/keep.jpg")
        let files: [(name: String, bytes: [UInt8], says: String)] = [
            ("layers", Array("8BPS".utf8) + [0, 1, 0, 0, 0, 0, 0, 0, 0, 3], "a Photoshop document (PSD)"),
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
    @Test(arguments: [("a.psd", "PSD")])
    func aPhotoFormatPhotobookDoesNotReadIsAWarning(_ name: String, _ kind: String) throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/keep.jpg")
        _ = try scratch.write("photos/" + name, Array("not really".utf8))
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/\(name): \(kind) images are not supported "
                                    + "(photobook reads JPEG, PNG, HEIF, WebP, TIFF, camera raw, JPEG XL, JPEG 2000, GIF and BMP), skipped"), "\(run.stderr)")
    }
}
