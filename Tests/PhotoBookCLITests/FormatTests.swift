import Foundation
import TestSupport
import Testing

/// The formats beyond JPEG and PNG, as a user meets them: a folder of mixed photos, sorted by date across formats,
/// a multi-page scan, bad files of each kind, what the report says of each photo.
struct FormatTests {
    /// Sets each file's EXIF capture moment with exiftool (Debian's libimage-exiftool-perl, from `make test-deps`),
    /// which writes EXIF into JPEG, WebP, TIFF and HEIF files alike.
    static func date(_ path: String, _ moment: String) throws {
        let run = try Run.command("/usr/bin/exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=\(moment)",
                                                        "-OffsetTimeOriginal=+02:00", path])
        #expect(run.status == 0, "exiftool: \(run.stderr)")
    }

    /// Photos from a phone (WebP, HEIC), a scanner (TIFF) and a camera (JPEG) interleave by the moment they were
    /// taken, not by name or format.
    @Test func photosOfEveryFormatInterleaveByDate() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        var files = [
            ("a-camera.jpg", try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/a-camera.jpg"), "2024:05:01 12:00:00"),
            ("b-phone.webp", try scratch.copy(Run.fixture("webp/lossy.webp"), to: "photos/b-phone.webp"), "2024:05:01 09:30:00"),
            ("c-scan.tif", try scratch.copy(Run.fixture("tiff/rgb8-lzw.tif"), to: "photos/c-scan.tif"), "2024:05:01 11:00:00"),
        ]
        if FileManager.default.fileExists(atPath: Run.fixture("heif/photo.heic")) {
            files.append(("d-phone.heic", try scratch.copy(Run.fixture("heif/photo.heic"), to: "photos/d-phone.heic"),
                          "2024:05:01 10:15:00"))
        }
        for (_, path, moment) in files { try Self.date(path, moment) }
        let out = scratch.file("book.pdf"), json = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", out, "--sort", "date", "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("no capture date"), "\(run.stderr)")
        let report = try ReadReport(path: json)
        let order = report.book.pages.flatMap(\.photos).map { FileSystemName.base(report.photos[$0].path) }
        let expected = files.sorted { $0.2 < $1.2 }.map(\.0)
        #expect(order == expected)
        try ReportSchema.expectValid(json)
    }

    /// HEICs libheif 1.15 refuses as they are: an iPhone photo with what iOS 18 adds (a gain map and mattes that
    /// name two targets) and a derived (`iden`) image with its EXIF in `idat`. Both are placed, upright, sorted by
    /// their EXIF dates, with no word of the gain map.
    @Test func heicsOfIOS18AndDerivedImagesBuildABook() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture("heif/metadata-extractor-images/iphone11pro-ios18-aux.heic"),
                             to: "photos/z-iphone.heic")
        _ = try scratch.copy(Run.fixture("heif/iden.heic"), to: "photos/a-derived.heic")
        let json = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf"), "--sort", "date", "--dpi", "30",
                                     "--fit", "fit", "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        for word in ["gain", "auxiliary", "matte", "tmap"] { #expect(!run.stderr.contains(word), "\(run.stderr)") }
        let report = try ReadReport(path: json)
        let order = report.book.pages.flatMap(\.photos).map { FileSystemName.base(report.photos[$0].path) }
        #expect(order == ["z-iphone.heic", "a-derived.heic"])  // 2020-05-04, then 2021-07-14
        let byName = Dictionary(uniqueKeysWithValues: report.photos.map { (FileSystemName.base($0.path), $0) })
        let iphone = try #require(byName["z-iphone.heic"]), derived = try #require(byName["a-derived.heic"])
        #expect(iphone.outcome == "succeeded" && derived.outcome == "succeeded")
        #expect(iphone.format == "HEIF (HEIC)")
        // Upright: the whole photo (--fit fit) in its upright shape, 3024x4032 and 106x160.
        for (photo, aspect) in [(iphone, 0.75), (derived, 106.0 / 160)] {
            let width = Double(try #require(photo.pixelWidth)), height = Double(try #require(photo.pixelHeight))
            #expect(abs(width / height - aspect) < 0.02, "\(photo.path): \(width)x\(height)")
        }
        // Only the low resolution asked for (30 dpi) is told.
        #expect(iphone.warnings.allSatisfy { $0.contains("dpi") }, "\(iphone.warnings)")
        #expect(derived.warnings.allSatisfy { $0.contains("dpi") }, "\(derived.warnings)")
        try ReportSchema.expectValid(json)
    }

    @Test func theReportNamesEachPhotosFormat() throws {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf"), json = scratch.file("report.json")
        let run = try Run.photobook(["build", Run.fixture("webp/lossy.webp"), Run.fixture("tiff/rgb16-lzw.tif"),
                                     Run.fixture("exif-orientation/Landscape_3.jpg"), Run.fixture("pngsuite/basn6a08.png"),
                                     "-o", out, "--report", json, "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try ReadReport(path: json)
        let formats = Dictionary(uniqueKeysWithValues: report.photos.map { (FileSystemName.base($0.path), $0.format) })
        #expect(formats["lossy.webp"] == "WebP (lossy)")
        #expect(formats["rgb16-lzw.tif"] == "TIFF (16-bit RGB, LZW)")
        #expect(formats["Landscape_3.jpg"] == "JPEG")
        #expect(formats["basn6a08.png"] == "PNG (8-bit)")
        #expect(run.stderr.contains("lossy.webp: WebP (lossy)"), "--verbose names each photo's format: \(run.stderr)")
        try ReportSchema.expectValid(json)
    }

    /// Each page of a multi-page TIFF is a photo of its own, in page order, named by its page; the reduced
    /// copy the file also holds is not one.
    @Test func aMultiPageTIFFGivesOnePhotoPerPage() throws {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf"), json = scratch.file("report.json")
        let run = try Run.photobook(["build", Run.fixture("tiff/multipage.tif"), "-o", out, "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try ReadReport(path: json)
        #expect(report.photos.map { FileSystemName.base($0.path) }
            == ["multipage.tif (page 1 of 3)", "multipage.tif (page 2 of 3)", "multipage.tif (page 3 of 3)"])
        #expect(report.photos.allSatisfy { $0.outcome == "succeeded" })
        #expect(try PDFFacts(out).pages == 3)
        // Page order is file order: the pages differ in size, and the report says which is where.
        #expect(report.book.pages.map(\.photos) == [[0], [1], [2]])
    }

    /// A truncated or damaged file of any format is left out by name, with its reason, and the book is made of
    /// the rest; with --strict nothing is written.
    @Test func badFilesOfEveryFormatAreLeftOutByName() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/good.jpg")
        func cut(_ fixture: String, to name: String, keeping share: Double) throws {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Run.fixture(fixture))))
            _ = try scratch.write("photos/" + name, Array(bytes.prefix(Int(Double(bytes.count) * share))))
        }
        try cut("webp/lossy.webp", to: "cut.webp", keeping: 0.6)
        try cut("tiff/rgb8-lzw.tif", to: "cut.tif", keeping: 0.5)
        var bad = ["cut.webp", "cut.tif"]
        if FileManager.default.fileExists(atPath: Run.fixture("heif/photo.heic")) {
            try cut("heif/photo.heic", to: "cut.heic", keeping: 0.5)
            bad.append("cut.heic")
        }
        var expected = Dictionary(uniqueKeysWithValues: bad.map { ($0, "corrupt") })
        expected["good.jpg"] = "succeeded"
        // A TIFF that claims 100,000 x 100,000 pixels in a few hundred bytes.
        var huge = TIFFWriter.afterHeader(.littleEndian)
        huge.u32(8); huge.u16(6)
        huge.entry(256, type: 4, count: 1, value: 100_000)
        huge.entry(257, type: 4, count: 1, value: 100_000)
        huge.entry(258, type: 3, count: 1, value: 8)
        huge.entry(262, type: 3, count: 1, value: 1)
        huge.entry(273, type: 4, count: 1, value: 200)
        huge.entry(279, type: 4, count: 1, value: 100)
        huge.u32(0)
        _ = try scratch.write("photos/huge.tif", huge.bytes + [UInt8](repeating: 0x80, count: 100))
        bad.append("huge.tif")
        expected["huge.tif"] = "tooLarge"

        let out = scratch.file("book.pdf")
        let (run, report) = try Run.photobookReporting(["build", photos, "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        for name in bad {
            #expect(run.stderr.contains("photobook: warning: \(photos)/\(name): "), "\(name) named: \(run.stderr)")
        }
        #expect(report.kinds == expected, "\(report.kinds)")
        // The reason names the limit, the one thing the owner can change (--max-pixels).
        #expect(run.stderr.contains("huge.tif: image is 100000x100000 pixels, more than the limit"), "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 1)

        let (strict, strictReport) = try Run.photobookReporting(["build", photos, "-o", scratch.file("strict.pdf"), "--strict"])
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(strictReport.book.failureKind == "refused")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("strict.pdf")))
    }
}

/// The last part of a path.
enum FileSystemName {
    static func base(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
}
