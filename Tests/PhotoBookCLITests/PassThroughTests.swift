import Foundation
import JPEG
import TestSupport
import Testing

/// JPEGs that need no pixel work go into the book byte for byte; the page turns and crops them.
@Suite(.serialized) struct PassThroughTests {
    let folder = Run.fixture("exif-orientation")

    /// Every image stream of the book, extracted with `pdfimages -j`, in page order.
    func streams(of pdf: String, scratch: Scratch) throws -> [Data] {
        let run = try Run.command("/usr/bin/pdfimages", ["-j", pdf, scratch.file("img")])
        #expect(run.status == 0)
        return try Scratch.listing(scratch.path).filter { $0.hasPrefix("img-") && $0.hasSuffix(".jpg") }
            .map { try Data(contentsOf: URL(fileURLWithPath: scratch.file($0))) }
    }

    @Test func keepOriginalsEmbedsEveryJPEGByteForByteAndStillCropsAndTurnsIt() throws {
        let scratch = try Scratch()
        let names = ["Landscape_1", "Landscape_6", "Portrait_3", "Portrait_8"]
        let sources = names.map { "\(folder)/\($0).jpg" }
        let kept = scratch.file("kept.pdf"), rendered = scratch.file("rendered.pdf")
        #expect(try Run.photobook(["build"] + sources + ["-o", kept, "--keep-originals"]).status == 0)
        #expect(try Run.photobook(["build"] + sources + ["-o", rendered, "--dpi", "110"]).status == 0)
        let embedded = try streams(of: kept, scratch: scratch)
        #expect(embedded.count == names.count)
        for (source, stream) in zip(sources, embedded) {
            #expect(stream == (try Data(contentsOf: URL(fileURLWithPath: source))), "\(source) is embedded unchanged")
        }
        // The pages look like the ones photobook renders itself: same crop, upright.
        for page in 1...names.count {
            let a = try renderPageWithCairo(kept, page: page, dpi: 72, scratch: scratch)
            let b = try renderPageWithCairo(rendered, page: page, dpi: 72, scratch: scratch)
            #expect(a.width == b.width && a.height == b.height)
            let difference = meanAbsoluteDifference(a.rgb, b.rgb)
            #expect(difference < 2, "page \(page) (\(names[page - 1])): \(difference)")
        }
        let qpdf = try Run.command("/usr/bin/qpdf", ["--check", kept])
        #expect(qpdf.status == 0, "\(qpdf.stdout)")
    }

    @Test func aWholePhotoAtOrBelowTheTargetDensityIsPassedThroughWithoutAsking() throws {
        let scratch = try Scratch()
        let source = "\(folder)/Portrait_6.jpg"
        let out = scratch.file("book.pdf")
        #expect(try Run.photobook(["build", source, "-o", out, "--fit", "fit"]).status == 0)
        let embedded = try streams(of: out, scratch: scratch)
        #expect(embedded == [try Data(contentsOf: URL(fileURLWithPath: source))])
    }

    @Test func aBrokenJPEGIsNotPassedThrough() throws {
        let scratch = try Scratch()
        let good = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/Landscape_1.jpg"))
        let broken = try scratch.write("broken.jpg", Array(good.prefix(good.count * 3 / 4)))
        let out = scratch.file("book.pdf")
        let (run, report) = try Run.photobookReporting(["build", broken, "-o", out, "--keep-originals"])
        #expect(run.status == 1)
        #expect(report.kinds == ["broken.jpg": "corrupt"], "\(report.kinds)")
        #expect(run.stderr.contains("photobook: error: \(broken): "), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// PDF readers decode Huffman-coded JPEGs only: arithmetic-coded and CMYK photos are re-encoded instead.
    @Test func arithmeticAndCMYKJPEGsAreReencodedEvenWithKeepOriginals() throws {
        let scratch = try Scratch()
        let picture = TestImages.detailed(width: 300, height: 200, seed: 3)
        let arithmetic = try scratch.write("arith.jpg", try JPEGEncoder.encode(picture, options: .init(quality: 90, arithmeticCoding: true)))
        let cmyk = Run.fixture("cmyk-jpeg/pillow_pil_sample_cmyk.jpg")
        let out = scratch.file("book.pdf")
        // --sort given: by name the order would hang on where the fixtures and the scratch folder lie.
        let run = try Run.photobook(["build", arithmetic, cmyk, "-o", out, "--keep-originals", "--sort", "given"])
        #expect(run.status == 0, "\(run.stderr)")
        let embedded = try streams(of: out, scratch: scratch)
        #expect(embedded.count == 2)
        #expect(embedded.first != (try Data(contentsOf: URL(fileURLWithPath: arithmetic))))
        #expect(embedded.last != (try Data(contentsOf: URL(fileURLWithPath: cmyk))))
        let facts = try PDFFacts(out)
        #expect(facts.images.map(\.color) == ["rgb", "rgb"])
        #expect(facts.images.map(\.height) == [200, 100], "never resampled: their own rows (cropped to the cell)")
    }
}
