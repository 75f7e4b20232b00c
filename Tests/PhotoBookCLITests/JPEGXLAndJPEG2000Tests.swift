import Foundation
import TestSupport
import Testing

/// JPEG XL and JPEG 2000 as a user meets them: books of the conformance files, each photo upright and in its
/// colours as libjxl's and OpenJPEG's own tools show it, dates from a recompressed JPEG's EXIF, bad files left
/// out by name.
struct JPEGXLAndJPEG2000Tests {
    /// The photo embedded in a one-photo book (pdfimages' decode of its JPEG), as 8-bit RGB.
    static func embeddedPhoto(_ pdf: String, scratch: Scratch) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let prefix = scratch.file("embedded")
        let run = try Run.command("/usr/bin/pdfimages", ["-f", "1", "-l", "1", "-j", pdf, prefix])
        #expect(run.status == 0, "pdfimages: \(run.stderr)")
        let ppm = scratch.file("embedded.ppm")
        _ = try Run.command("/usr/bin/convert", [prefix + "-000.jpg", "-type", "TrueColor", ppm])
        return try readPPM(ppm)
    }

    /// A one-photo book of `fixture` at full size (`--fit fit` on a page bigger than the photo at 300 dpi):
    /// its photo is the reference picture (the tool's, upright), within JPEG's loss.
    @Test(arguments: [
        // JPEG XL stored 500x606 with orientation 5 (transposed): djxl shows it 606x500, and so must the book.
        ("jxl/bench_oriented_brg.jxl", ["djxl", "--bits_per_sample=8", "--quiet"], 606, 500),
        ("jxl/bicycles.jxl", ["djxl", "--bits_per_sample=8", "--quiet"], 1024, 631),
        // JPEG 2000: sYCC with 4:2:0 chroma, and a 12-bit tiled codestream.
        ("jpeg2000/file3.jp2", ["opj_decompress", "-quiet"], 480, 640),
        ("jpeg2000/p1_04.j2k", ["opj_decompress", "-quiet"], 1024, 1024),
    ])
    func aBookShowsThePhotoAsItsOwnToolDoes(_ fixture: String, _ tool: [String], _ width: Int, _ height: Int) throws {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf"), json = scratch.file("report.json")
        let run = try Run.photobook(["build", Run.fixture(fixture), "-o", out, "--fit", "fit", "--page-size", "30x30cm",
                                     "--margin", "0", "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        // The fixtures are small: the only warning is that they print below 300 dpi.
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.allSatisfy { $0.contains("dpi") }, "\(run.stderr)")
        let report = try ReadReport(path: json)
        #expect(report.photos.map(\.outcome) == ["succeeded"])
        let photo = try Self.embeddedPhoto(out, scratch: scratch)
        #expect(photo.width == width && photo.height == height, "\(photo.width)x\(photo.height)")
        let reference = scratch.file("reference.png")
        let converted = scratch.file("reference.ppm")
        if tool[0] == "djxl" {
            _ = try Run.command("/usr/bin/djxl", [Run.fixture(fixture), reference] + tool.dropFirst())
        } else {
            let raw = scratch.file(fixture.hasSuffix(".j2k") ? "reference.pgm" : "reference-raw.ppm")
            _ = try Run.command("/usr/bin/opj_decompress", ["-i", Run.fixture(fixture), "-o", raw, "-quiet"])
            _ = try Run.command("/usr/bin/convert", [raw, reference])
        }
        _ = try Run.command("/usr/bin/convert", [reference, "-type", "TrueColor", "-depth", "8", converted])
        let expected = try readPPM(converted)
        guard photo.width == expected.width, photo.height == expected.height else {
            Issue.record("reference \(expected.width)x\(expected.height)")
            return
        }
        // The book's photo is a JPEG of the decoded pixels: its loss, at photobook's quality, is a level or two.
        let difference = meanAbsoluteDifference(photo.rgb, expected.rgb)
        #expect(difference < 3, "\(fixture): mean difference \(difference)")
    }

    /// A JPEG recompressed by cjxl keeps its EXIF date (in a Brotli-compressed box): it is ordered by it.
    @Test func aRecompressedJPEGKeepsItsDate() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        let early = try scratch.copy(Run.fixture("exif-orientation/Landscape_3.jpg"), to: "early.jpg")
        let late = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/a-late.jpg")
        for (path, moment) in [(early, "2024:05:01 08:00:00"), (late, "2024:05:01 18:00:00")] {
            let run = try Run.command("/usr/bin/exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=\(moment)", path])
            #expect(run.status == 0, "exiftool: \(run.stderr)")
        }
        let converted = try Run.command("/usr/bin/cjxl", ["--quiet", early, scratch.file("photos/b-early.jxl")])
        #expect(converted.status == 0, "cjxl: \(converted.stderr)")
        let json = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf"), "--sort", "date", "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("no capture date"), "\(run.stderr)")
        let report = try ReadReport(path: json)
        let order = report.book.pages.flatMap(\.photos).map { FileSystemName.base(report.photos[$0].path) }
        #expect(order == ["b-early.jxl", "a-late.jpg"])
        #expect(report.photos.first { $0.path.hasSuffix(".jxl") }?.format == "JPEG XL (8-bit, a recompressed JPEG)")
        // Its EXIF box is inflated by a libjxl of its own, which once printed "decode.cc:2143: missing input".
        #expect(!run.stderr.contains("decode.cc"), "\(run.stderr)")
    }

    /// A cut JPEG XL is named by photobook alone: Debian's libjxl 0.7 printed "./lib/jxl/decode.cc:2143: missing
    /// input" beside photobook's error when its input was closed and ran out (JXLSession.next).
    @Test func aCutJPEGXLIsNamedByPhotobookAlone() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Run.fixture("jxl/bicycles.jxl"))))
        let cut = try scratch.write("photos/cut.jxl", Array(bytes.prefix(3000)))
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf")])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: error: \(cut): corrupt JPEG XL (libjxl cannot decode it: damaged data)\n"),
                "\(run.stderr)")
        #expect(!run.stderr.contains("decode.cc"), "\(run.stderr)")
    }

    /// Cut and lying files of both formats are left out by name with their reasons; the rest make the book.
    @Test func badFilesAreLeftOutByName() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/good.jpg")
        for (fixture, name) in [("jxl/bicycles.jxl", "cut.jxl"), ("jpeg2000/file3.jp2", "cut.jp2")] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Run.fixture(fixture))))
            _ = try scratch.write("photos/" + name, Array(bytes.prefix(bytes.count / 2)))
        }
        _ = try scratch.write("photos/named.j2k", Array("not a codestream".utf8))
        let out = scratch.file("book.pdf")
        let (run, report) = try Run.photobookReporting(["build", photos, "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        // Cut short: damaged. Named like a codestream, holding text: no image at all.
        #expect(report.kinds == ["good.jpg": "succeeded", "cut.jxl": "corrupt", "cut.jp2": "corrupt", "named.j2k": "unsupported"],
                "\(report.kinds)")
        for name in ["cut.jxl", "cut.jp2", "named.j2k"] {
            #expect(run.stderr.contains("photobook: warning: \(photos)/\(name): "), "\(name) named: \(run.stderr)")
        }
        #expect(try PDFFacts(out).pages == 1)
    }
}
