import Foundation
import TestSupport
import Testing

/// `photobook cover --hardcover`: the case wrap's boxes read back with pdfinfo against the geometry (sheet =
/// 2 x (board + wrap) + 2 x hinge + spine), compared with the paperback cover of the same book, rendered with
/// pdftoppm to find the photos over the hinges, the spine between them and the marks in the turn-in.
@Suite(.serialized) struct HardcoverTests {
    static let mm = 72.0 / 25.4
    /// The presets of a hardcover product's case wrap alone (no page-count rule, no page figures of their own).
    static let casePresets = ["mixam-hardcover-a4"]
    static let a4 = (width: 210 * mm, height: 297 * mm)
    /// 100 pages at 444 pages per inch: the book block's thickness, in points.
    static let block = 100.0 / 444 * 72

    static func cover(_ scratch: Scratch, _ name: String, _ extra: [String]) throws -> (path: String, run: Run) {
        let out = scratch.file(name)
        let run = try Run.photobook(["cover", CoverTests.front, CoverTests.back, "-o", out, "--page-size", "a4",
                                     "--interior-pages", "100", "--paper-ppi", "444"] + extra)
        return (out, run)
    }

    @Test func theCaseWrapsBoxesMatchTheGeometryAndThePaperbacksOfTheSameBook() throws {
        let scratch = try Scratch()
        let hard = try Self.cover(scratch, "case.pdf", ["--hardcover"])
        #expect(hard.run.status == 0, "\(hard.run.stderr)")
        #expect(hard.run.stderr.contains("a hardcover case of 440.7 x 297 mm with a 10.7 mm spine and 5 mm hinges, "
                                         + "480.7 x 337 mm with the 20 mm wrap"), "\(hard.run.stderr)")
        // Mixam's defaults: 20 mm turned in, 5 mm hinges; the spine is the block and two 2.5 mm boards.
        let wrap = 20 * Self.mm, hinge = 5 * Self.mm, spine = Self.block + 2 * 2.5 * Self.mm
        let width = 2 * (Self.a4.width + wrap) + 2 * hinge + spine, height = Self.a4.height + 2 * wrap
        let boxes = try CoverTests.boxes(hard.path)
        CoverTests.expectBox(boxes["MediaBox"], [0, 0, width, height], "MediaBox")
        CoverTests.expectBox(boxes["BleedBox"], [0, 0, width, height], "BleedBox")
        CoverTests.expectBox(boxes["TrimBox"], [wrap, wrap, width - wrap, height - wrap], "TrimBox")

        let soft = try Self.cover(scratch, "paperback.pdf", ["--bleed", "3mm"])
        #expect(soft.run.status == 0, "\(soft.run.stderr)")
        let paperback = try CoverTests.boxes(soft.path)
        let softTrim = try #require(paperback["TrimBox"]), hardTrim = try #require(boxes["TrimBox"])
        // The same boards and height; the case is wider by its two hinges and the boards' thickness on the spine.
        #expect(abs((hardTrim[3] - hardTrim[1]) - (softTrim[3] - softTrim[1])) < 0.02)
        #expect(abs((hardTrim[2] - hardTrim[0]) - (softTrim[2] - softTrim[0]) - 2 * hinge - 5 * Self.mm) < 0.02,
                "\(hardTrim) against \(softTrim)")
    }

    /// At 72 dpi a pixel is a point: the photos run over the hinges up to the spine, which stays blank (no title),
    /// and a mark stands in the turn-in above each fold and board edge, where the photo has none.
    @Test func thePhotosCoverTheHingesAndTheMarksStandInTheTurnIn() throws {
        let scratch = try Scratch()
        let hard = try Self.cover(scratch, "case.pdf", ["--hardcover"])
        #expect(hard.run.status == 0, "\(hard.run.stderr)")
        let render = try Run.command("/usr/bin/pdftoppm", ["-r", "72", hard.path, scratch.file("case")])
        #expect(render.status == 0, "\(render.stderr)")
        let image = try PPM.parse(try Fixtures.read(scratch.file("case-1.ppm")))
        /// The mean of the pixel's three channels.
        func gray(_ x: Double, _ y: Double) -> Int {
            let at = (Int(y) * image.width + Int(x)) * 3
            return (Int(image.pixels[at]) + Int(image.pixels[at + 1]) + Int(image.pixels[at + 2])) / 3
        }
        let wrap = 20 * Self.mm, hinge = 5 * Self.mm, spine = Self.block + 2 * 2.5 * Self.mm
        let spineLeft = wrap + Self.a4.width + hinge, middle = Double(image.height) / 2
        #expect(gray(spineLeft + spine / 2, middle) > 250, "the spine is blank")
        #expect(gray(spineLeft - hinge / 2, middle) < 250, "the back photo covers its hinge")
        #expect(gray(spineLeft + spine + hinge / 2, middle) < 250, "the front photo covers its hinge")
        // The marks are black lines a point wide or less; beside them, 3 points off, the photo.
        for x in [wrap, wrap + Self.a4.width, spineLeft, spineLeft + spine, spineLeft + spine + hinge] {
            let marked = (Int(x) - 1...Int(x) + 1).map { gray(Double($0), 2) }.min() ?? 255
            #expect(marked < gray(x + 3, 2) - 30, "a mark at x = \(x)")
        }
    }

    @Test func wrapAndHingeOverrideTheDefaultsAndBadCombinationsAreRefused() throws {
        let scratch = try Scratch()
        let given = try Self.cover(scratch, "case.pdf", ["--hardcover", "--wrap", "15mm", "--hinge", "10mm"])
        #expect(given.run.status == 0, "\(given.run.stderr)")
        let wrap = 15 * Self.mm, hinge = 10 * Self.mm, spine = Self.block + 2 * 2.5 * Self.mm
        let width = 2 * (Self.a4.width + wrap) + 2 * hinge + spine
        CoverTests.expectBox(try CoverTests.boxes(given.path)["TrimBox"],
                             [wrap, wrap, width - wrap, Self.a4.height + wrap], "TrimBox")
        // Mixam's worked example: A4 with a 9 mm spine is 439 x 297 mm without the wrap, 479 x 337 mm with it.
        let example = scratch.file("mixam.pdf")
        let mixam = try Run.photobook(["cover", CoverTests.front, "-o", example, "--page-size", "a4", "--spine", "9mm",
                                       "--hardcover"])
        #expect(mixam.status == 0, "\(mixam.stderr)")
        let media = try #require(try CoverTests.boxes(example)["MediaBox"])
        #expect(abs(media[2] - 479 * Self.mm) < 0.02 && abs(media[3] - 337 * Self.mm) < 0.02, "\(media)")
        let bleed = try Self.cover(scratch, "bleed.pdf", ["--hardcover", "--bleed", "3mm"])
        #expect(bleed.run.status == 2)
        #expect(bleed.run.stderr.contains("--bleed: a case wrap's bleed is its turn-in: give --wrap instead"))
        let soft = try Self.cover(scratch, "soft.pdf", ["--hinge", "5mm"])
        #expect(soft.run.status == 2)
        #expect(soft.run.stderr.contains("--hinge: is a hardcover's figure: add --hardcover"))
        #expect(!FileManager.default.fileExists(atPath: bleed.path) && !FileManager.default.fileExists(atPath: soft.path))
    }

    /// Mixam's preset carries its case figures: the same sheet as its worked example; an option given before the
    /// preset still wins over it.
    @Test func aHardcoverPresetCarriesItsCaseFigures() throws {
        let scratch = try Scratch()
        let out = scratch.file("case.pdf")
        let run = try Run.photobook(["cover", CoverTests.front, "-o", out, "--hinge", "8mm", "--preset",
                                     "mixam-hardcover-a4", "--spine", "9mm"])
        #expect(run.status == 0, "\(run.stderr)")
        let wrap = 20 * Self.mm, hinge = 8 * Self.mm
        let width = 2 * (Self.a4.width + wrap) + 2 * hinge + 9 * Self.mm
        let boxes = try CoverTests.boxes(out)
        CoverTests.expectBox(boxes["MediaBox"], [0, 0, width, Self.a4.height + 2 * wrap], "MediaBox")
        CoverTests.expectBox(boxes["TrimBox"], [wrap, wrap, width - wrap, Self.a4.height + wrap], "TrimBox")
        let listing = try Run.photobook(["presets", "mixam-hardcover-a4"])
        #expect(listing.stdout.contains("case hinge    5 mm"), "\(listing.stdout)")
        #expect(listing.stdout.contains("source: https://mixam.com.au/support/hardcoversetup"), "\(listing.stdout)")
    }
}
