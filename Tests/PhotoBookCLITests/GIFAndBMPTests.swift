import Foundation
import TestSupport
import Testing

/// GIF and BMP as a user meets them: a folder with an animated GIF, a still one and a BMP scan makes a book whose
/// pages show the pictures (against ImageMagick's reading of the same files), the animation named in a warning.
struct GIFAndBMPTests {
    @Test func aFolderOfGIFsAndBMPsMakesABook() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        let files = [("a-still.gif", "gif/hopper.gif"), ("b-animated.gif", "gif/dispose_bgnd.gif"),
                     ("c-scan.bmp", "bmp/g/rgb24.bmp"), ("d-rle.bmp", "bmp/g/pal8rle.bmp")]
        for (name, fixture) in files { _ = try scratch.copy(Run.fixture(fixture), to: "photos/" + name) }
        let out = scratch.file("book.pdf"), json = scratch.file("report.json")
        let run = try Run.photobook(["build", photos, "-o", out, "--fit", "fit", "--quality", "95", "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/b-animated.gif: animated GIF (5 frames): only the first "
                                    + "frame is used"), "\(run.stderr)")
        #expect(!run.stderr.contains("a-still.gif") && !run.stderr.contains(".bmp"), "\(run.stderr)")
        let report = try ReadReport(path: json)
        #expect(report.photos.map(\.outcome) == ["succeeded", "succeeded", "succeeded", "succeeded"])
        let formats = report.photos.map { $0.format ?? "" }
        #expect(formats == ["GIF (GIF89a)", "GIF (GIF89a, animated)", "BMP (24-bit)", "BMP (8-bit, RLE8)"])
        try ReportSchema.expectValid(json)

        // Each page's image is the picture (small pictures are never upsampled), JPEG-encoded at quality 95.
        let facts = try PDFFacts(out)
        #expect(facts.pages == 4)
        #expect(try Run.command("/usr/bin/pdfimages", ["-j", out, scratch.file("page")]).status == 0)
        for (index, (_, fixture)) in files.enumerated() {
            let ours = try readPPM(try convertToPPM(scratch.file(String(format: "page-%03d.jpg", index)), [],
                                                    scratch: scratch, name: "ours-\(index)"))
            let reference = try readPPM(try convertToPPM(Run.fixture(fixture) + "[0]", ["-background", "white", "-flatten"],
                                                         scratch: scratch, name: "reference-\(index)"))
            #expect(ours.width == reference.width && ours.height == reference.height, "\(fixture)")
            guard ours.width == reference.width && ours.height == reference.height else { continue }
            // JPEG at quality 95 of palette pictures with hard edges: a few levels a sample on average.
            let difference = meanAbsoluteDifference(ours.rgb, reference.rgb)
            #expect(difference < 4, "\(fixture): mean difference \(difference)")
            // The comparison can tell pictures apart (the BMPs are one picture in two encodings, so each is held
            // against a GIF), and a BMP's rows upside down (stored bottom row first).
            let other = try readPPM(try convertToPPM(Run.fixture(files[(index + 2) % files.count].1) + "[0]",
                                                     ["-background", "white", "-flatten", "-resize",
                                                      "\(ours.width)x\(ours.height)!"], scratch: scratch, name: "other-\(index)"))
            #expect(meanAbsoluteDifference(ours.rgb, other.rgb) > difference * 4 + 10, "\(fixture)")
            if fixture.hasSuffix(".bmp") {
                let flipped = try readPPM(try convertToPPM(Run.fixture(fixture), ["-flip"], scratch: scratch, name: "flipped-\(index)"))
                #expect(meanAbsoluteDifference(ours.rgb, flipped.rgb) > difference * 4 + 10, "\(fixture)")
            }
        }
    }

    /// A GIF or BMP cut short, or a BMP holding a PNG, is left out by name with its reason; the book is made of
    /// the rest.
    @Test func badGIFsAndBMPsAreLeftOutByName() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture("gif/hopper.gif"), to: "photos/good.gif")
        for (name, fixture) in [("cut.gif", "gif/transparent.gif"), ("cut.bmp", "bmp/g/rgb24.bmp")] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Run.fixture(fixture))))
            _ = try scratch.write("photos/" + name, Array(bytes.prefix(bytes.count / 2)))
        }
        _ = try scratch.copy(Run.fixture("bmp/q/rgb24png.bmp"), to: "photos/png-inside.bmp")
        let out = scratch.file("book.pdf")
        let (run, report) = try Run.photobookReporting(["build", photos, "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        // Cut short: damaged. A BMP holding a PNG: a feature of the format photobook does not read.
        #expect(report.kinds == ["good.gif": "succeeded", "cut.gif": "corrupt", "cut.bmp": "corrupt", "png-inside.bmp": "unsupported"],
                "\(report.kinds)")
        for name in ["cut.gif", "cut.bmp", "png-inside.bmp"] {
            #expect(run.stderr.contains("photobook: warning: \(photos)/\(name): "), "\(name) named: \(run.stderr)")
        }
        #expect(try PDFFacts(out).pages == 1)
    }
}
