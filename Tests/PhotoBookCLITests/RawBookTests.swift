import Foundation
import TestSupport
import Testing

/// Camera raw files as a photographer brings them: a raw among JPEGs, a raw and the camera's JPEG of one shot.
struct RawBookTests {
    static let dng = "raw/sample_1mp.dng"

    /// A phone's DNG in a folder of JPEGs is a photo like the others: rendered by LibRaw, named in the report
    /// with what it is, and `--verbose` says which way its pixels came.
    @Test func aFolderWithARawBuildsABook() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture(Self.dng), to: "photos/PXL_0001.dng")
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/PXL_0002.jpg")
        let out = scratch.file("book.pdf"), json = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", out, "--report", json, "--verbose", "--no-cache"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try ReadReport(path: json)
        let raw = try #require(report.photo(named: "PXL_0001.dng"))
        #expect(raw.outcome == "succeeded")
        #expect(raw.format == "camera raw (DNG, LG LG-H815, 256x144 preview)")
        // A book page at 300 dpi wants every pixel of a 600x338 photo: LibRaw's rendering, not the preview.
        #expect(run.stderr.contains("PXL_0001.dng: decoded by LibRaw at full size (600x338)"), "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 2)
        try ReportSchema.expectValid(json)
    }

    /// IMG_1.DNG beside IMG_1.JPG is one shot: the camera's JPEG goes in, and the warning names both files.
    @Test func aRawAndItsJPEGGoInOnceAsTheJPEG() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture(Self.dng), to: "photos/IMG_1.DNG")
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/IMG_1.JPG")
        let json = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf"), "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/IMG_1.DNG: the same shot as \(photos)/IMG_1.JPG "
                                    + "(1800x1200 pixels, this one 600x338), the camera's JPEG kept over its raw "
                                    + "(--prefer raw keeps the raw): left out"), "\(run.stderr)")
        let report = try ReadReport(path: json)
        #expect(report.kinds == ["IMG_1.JPG": "succeeded", "IMG_1.DNG": "duplicate"], "\(report.kinds)")
        #expect(report.photo(named: "IMG_1.DNG")?.outcome == "skipped")
        #expect(report.photo(named: "IMG_1.DNG")?.duplicateOf == "\(photos)/IMG_1.JPG")
        #expect(report.book.pages.flatMap(\.photos).count == 1)
    }

    /// `--prefer raw` keeps the raw, even with fewer pixels than the JPEG, and says so naming both.
    @Test func preferRawKeepsTheRaw() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture(Self.dng), to: "photos/IMG_1.DNG")
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/IMG_1.JPG")
        let json = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf"), "--report", json,
                                     "--prefer", "raw"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/IMG_1.JPG: the same shot as \(photos)/IMG_1.DNG "
                                    + "(600x338 pixels, this one 1800x1200), the raw kept over the camera's JPEG "
                                    + "(--prefer raw): left out"), "\(run.stderr)")
        let report = try ReadReport(path: json)
        #expect(report.kinds == ["IMG_1.DNG": "succeeded", "IMG_1.JPG": "duplicate"], "\(report.kinds)")
        #expect(report.photo(named: "IMG_1.JPG")?.outcome == "skipped")
        #expect(report.photo(named: "IMG_1.JPG")?.duplicateOf == "\(photos)/IMG_1.DNG")
        let (keep, keepReport) = try Run.photobookReporting(["build", photos, "-o", scratch.file("both.pdf"), "--keep-duplicates"])
        #expect(keep.status == 0, "\(keep.stderr)")
        #expect(keepReport.kinds == ["IMG_1.DNG": "succeeded", "IMG_1.JPG": "succeeded"], "\(keepReport.kinds)")
        #expect(try PDFFacts(scratch.file("both.pdf")).pages == 2)
    }

    /// Named otherwise, a JPEG of the same camera and capture moment as the raw is still the same shot.
    @Test func theSameCameraAndMomentMakeOneShot() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        // A shot is known by its moment to the sub-second (a burst's photos share a second): both files get one.
        let raw = try scratch.copy(Run.fixture(Self.dng), to: "photos/raw.dng")
        let jpeg = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/exported.jpg")
        let rawTag = try Run.command("/usr/bin/exiftool", ["-q", "-overwrite_original", "-SubSecTimeOriginal=42", raw])
        #expect(rawTag.status == 0, "exiftool: \(rawTag.stderr)")
        let tag = try Run.command("/usr/bin/exiftool", ["-q", "-overwrite_original", "-Make=LG Mobile", "-Model=LG-H815",
                                                       "-DateTimeOriginal=2015:06:08 12:10:44", "-SubSecTimeOriginal=42",
                                                       jpeg])
        #expect(tag.status == 0, "exiftool: \(tag.stderr)")
        let (run, report) = try Run.photobookReporting(["build", photos, "-o", scratch.file("book.pdf")])
        #expect(run.status == 0, "\(run.stderr)")
        // Left out for the other file of its shot (their bytes differ: not a copy), and named.
        #expect(report.kinds == ["exported.jpg": "succeeded", "raw.dng": "duplicate"], "\(report.kinds)")
        #expect(report.photo(named: "raw.dng")?.duplicateOf == jpeg)
        #expect(run.stderr.contains("photobook: warning: \(raw): "), "\(run.stderr)")
    }

    /// A raw's XMP sidecar (IMG_1.DNG.xmp) is read as any photo's: its caption is the photo's.
    @Test func aRawsSidecarIsRead() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture(Self.dng), to: "photos/IMG_7.DNG")
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description><rdf:Alt>
            <rdf:li xml:lang="x-default">Harbour at dawn</rdf:li></rdf:Alt></dc:description></rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """
        _ = try scratch.write("photos/IMG_7.DNG.xmp", Array(xmp.utf8))
        let json = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf"), "--report", json,
                                     "--captions", "auto"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ReadReport(path: json).photo(named: "IMG_7.DNG")?.caption == "Harbour at dawn")
    }
}
