import Foundation
import TestSupport
import Testing

/// What a library says about a file it could read reaches `--verbose`, naming the file, and nothing else; a
/// multi-page TIFF given where one photo goes says which of its pages is used.
struct FormatNoteTests {
    /// `rgb8-jpeg-ycbcr.tif` with stray bytes before its last strip's end-of-image marker: every pixel is there,
    /// and libjpeg (through libtiff) warns of the bytes while the page is decoded.
    static func paddedJPEGTIFF(in scratch: Scratch, as name: String) throws -> String {
        let bytes = try TIFFStripEdit.replacingLastStrip(of: try Fixtures.bytes("tiff/rgb8-jpeg-ycbcr.tif")) {
            Array($0.dropLast(2)) + [UInt8](repeating: 0x12, count: 16) + [0xFF, 0xD9]
        }
        return try scratch.write(name, bytes)
    }

    /// A 4x4 TIFF with a private tag libtiff does not know, as scanner software writes: libtiff warns while
    /// reading the directory.
    static func unknownTagTIFF(in scratch: Scratch, as name: String) throws -> String {
        var tiff = TIFFWriter.afterHeader(.littleEndian)
        let entries: [(UInt16, UInt16, UInt32)] = [(256, 3, 4), (257, 3, 4), (258, 3, 8), (259, 3, 1), (262, 3, 1),
                                                   (273, 4, 8 + 2 + 12 * 9 + 4), (277, 3, 1), (279, 4, 16),
                                                   (65000, 4, 7)]
        tiff.u32(8)
        tiff.u16(UInt16(entries.count))
        for (tag, type, value) in entries { tiff.entry(tag, type: type, count: 1, value: value) }
        tiff.u32(0)
        return try scratch.write(name, tiff.bytes + [UInt8](repeating: 0x80, count: 16))
    }

    static func libtiffLines(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.contains("libtiff") }
    }

    @Test func aDecodeWarningIsSaidWithVerboseNamingTheFile() throws {
        let scratch = try Scratch()
        let padded = try Self.paddedJPEGTIFF(in: scratch, as: "padded.tif")
        let clean = Run.fixture("tiff/rgb8-jpeg-ycbcr.tif")
        let json = scratch.file("report.json")
        let verbose = try Run.photobook(["build", padded, clean, "-o", scratch.file("book.pdf"), "--verbose",
                                         "--report", json])
        #expect(verbose.status == 0, "\(verbose.stderr)")
        let lines = Self.libtiffLines(verbose.stderr)
        #expect(lines.count == 1, "\(verbose.stderr)")
        #expect(lines.first?.hasPrefix("photobook: \(padded): libtiff: JPEGLib: Corrupt JPEG data: ") == true, "\(lines)")
        #expect(lines.first?.hasSuffix("extraneous bytes before marker 0xd9") == true, "\(lines)")
        let report = try ReadReport(path: json)
        #expect(report.photos.map(\.outcome) == ["succeeded", "succeeded"])

        let quiet = try Run.photobook(["build", padded, clean, "-o", scratch.file("quiet.pdf")])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(Self.libtiffLines(quiet.stderr).isEmpty, "without --verbose a note is not said: \(quiet.stderr)")
    }

    /// A panorama across a spread is decoded once for each half: its note is said once.
    @Test func aSpreadsNoteIsSaidOnce() throws {
        let scratch = try Scratch()
        let wide = scratch.file("wide.tif"), jpeg = scratch.file("wide-jpeg.tif")
        #expect(try Run.command("/usr/bin/convert", ["-size", "400x100", "gradient:red-blue", "-depth", "8", wide]).status == 0)
        #expect(try Run.command("/usr/bin/tiffcp", ["-c", "jpeg", "-r", "16", wide, jpeg]).status == 0)
        let padded = try scratch.write("panorama.tif", try TIFFStripEdit.replacingLastStrip(of: try Fixtures.read(jpeg)) {
            Array($0.dropLast(2)) + [UInt8](repeating: 0x12, count: 16) + [0xFF, 0xD9]
        })
        let json = scratch.file("report.json")
        let run = try Run.photobook(["build", padded, "-o", scratch.file("book.pdf"), "--spreads", "--verbose",
                                     "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try ReadReport(path: json)
        #expect(report.book.pages.filter { $0.arrangement.contains("spread") }.count == 2, "\(report.book.pages)")
        #expect(Self.libtiffLines(run.stderr).count == 1, "\(run.stderr)")
    }

    /// The two books differ only in the bytes libjpeg skipped: the pages are the same.
    @Test func aFileWithANoteMakesTheSameBookAsWithout() throws {
        let scratch = try Scratch()
        let padded = try Self.paddedJPEGTIFF(in: scratch, as: "padded.tif")
        let clean = try scratch.copy(Run.fixture("tiff/rgb8-jpeg-ycbcr.tif"), to: "clean.tif")
        for (input, output) in [(padded, "a.pdf"), (clean, "b.pdf")] {
            let run = try Run.photobook(["build", input, "-o", scratch.file(output)])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let a = try renderPage(scratch.file("a.pdf"), page: 1, dpi: 20, scratch: scratch)
        let b = try renderPage(scratch.file("b.pdf"), page: 1, dpi: 20, scratch: scratch)
        #expect(a.width == b.width && a.height == b.height)
        #expect(a.rgb == b.rgb)
    }

    @Test func aDirectoryWarningIsSaidOnceWithVerbose() throws {
        let scratch = try Scratch()
        let odd = try Self.unknownTagTIFF(in: scratch, as: "scanner.tif")
        let run = try Run.photobook(["build", odd, "-o", scratch.file("book.pdf"), "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.libtiffLines(run.stderr)
            == ["photobook: \(odd): libtiff: TIFFReadDirectory: Unknown field with tag 65000 (0xfde8) encountered"],
                "\(run.stderr)")
    }

    @Test func filesWithoutWarningsSayNothingOfLibtiff() throws {
        let scratch = try Scratch()
        let names = ["rgb8-lzw.tif", "rgb8-jpeg-ycbcr.tif", "grey1-g4.tif", "rgb16-lzw.tif", "multipage.tif",
                     "rgb8-tiled-edges.tif"]
        let run = try Run.photobook(["build"] + names.map { Run.fixture("tiff/" + $0) }
                                    + ["-o", scratch.file("book.pdf"), "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.libtiffLines(run.stderr).isEmpty, "\(run.stderr)")
    }

    /// `photobook cover --verbose` says what the codecs noticed, as `build` does.
    @Test func theCoverSaysItsPhotosNotesWithVerbose() throws {
        let scratch = try Scratch()
        let padded = try Self.paddedJPEGTIFF(in: scratch, as: "front.tif")
        let run = try Run.photobook(["cover", padded, "-o", scratch.file("cover.pdf"), "--spine", "8mm", "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = Self.libtiffLines(run.stderr)
        #expect(lines.count == 1 && lines[0].hasPrefix("photobook: \(padded): libtiff: JPEGLib: "), "\(run.stderr)")
    }

    /// A side of the cover shows one photo: of a multi-page TIFF, its first page, and a warning says so.
    @Test func aMultiPageTIFFOnTheCoverShowsItsFirstPageAndSaysSo() throws {
        let scratch = try Scratch()
        let multipage = Run.fixture("tiff/multipage.tif"), out = scratch.file("cover.pdf")
        let run = try Run.photobook(["cover", Run.fixture("tiff/rgb8-lzw.tif"), multipage, "-o", out, "--spine", "8mm"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(multipage): a TIFF of 3 pages: the back shows page 1 "
                                    + "(to show another, save that page as a file of its own)"), "\(run.stderr)")
        #expect(!run.stderr.contains("the front shows"), "\(run.stderr)")
        #expect(try PDFFacts(out).images.count == 2)
    }

    @Test func aMultiPageTIFFAsTheTitlePhotoShowsItsFirstPageAndSaysSo() throws {
        let scratch = try Scratch()
        let multipage = Run.fixture("tiff/multipage.tif"), out = scratch.file("book.pdf")
        let json = scratch.file("report.json")
        let run = try Run.photobook(["build", Run.fixture("tiff/rgb8-lzw.tif"), "-o", out, "--title", "Scans",
                                     "--cover-photo", multipage, "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        let warning = "--cover-photo: a TIFF of 3 pages: the title page shows page 1 "
            + "(to show another, save that page as a file of its own)"
        #expect(run.stderr.contains("photobook: warning: \(multipage): \(warning)"), "\(run.stderr)")
        let report = try ReadReport(path: json)
        #expect(report.photos.map { FileSystemName.base($0.path) } == ["rgb8-lzw.tif", "multipage.tif (page 1 of 3)"])
        #expect(try PDFFacts(out).pages == 2)
    }
}
