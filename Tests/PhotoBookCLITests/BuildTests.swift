import Foundation
import Imaging
import JPEG
import TestSupport
import Testing

/// The built binary on real folders: page count, page size, placed images, exit status, messages, files left.
@Suite(.serialized) struct BuildTests {
    let orientationFolder = Run.fixture("exif-orientation")

    @Test func theOrientationExamplesMakeAnA4BookWithOnePagePerPhoto() throws {
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", orientationFolder, "-o", out], tmpdir: tmp)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("wrote \(out): 18 pages"), "\(run.stderr)")
        let facts = try PDFFacts(out)
        #expect(facts.pages == 18)
        for size in facts.pageSizes {
            #expect(abs(size.width - 595.276) < 0.01 && abs(size.height - 841.89) < 0.01)
        }
        #expect(facts.producer.hasPrefix("photobook "))
        #expect(facts.creator.hasPrefix("photobook "))
        // Upright 1800x1200 (landscape) and 1200x1800 (portrait) photos cropped to the 190x277 mm cell, never
        // upsampled: landscapes keep their 1200 rows, portraits their 1200 columns. At their own resolution the
        // crops are lossless: whole 16-pixel MCUs around the crop, which the page clips.
        #expect(facts.images.count == 18)
        func covers(_ side: Int, _ crop: Double) -> Bool { side % 16 == 0 && Double(side) >= crop && Double(side) < crop + 32 }
        for (index, image) in facts.images.enumerated() {
            #expect(image.encoding == "jpeg")
            if index < 9 {
                #expect(image.height == 1200 && covers(image.width, 1200.0 * 190 / 277), "\(image)")
            } else {
                #expect(image.width == 1200 && covers(image.height, 1200.0 * 277 / 190), "\(image)")
            }
        }
        #expect(Scratch.listing(scratch.path) == ["book.pdf", "tmp"], "no temporary file beside the output")
        #expect(Scratch.listing(tmp).isEmpty, "no temporary file left in TMPDIR")
        let qpdf = try Run.command("/usr/bin/qpdf", ["--check", out])
        #expect(qpdf.status == 0, "\(qpdf.stdout)\(qpdf.stderr)")
    }

    /// Every orientation example, shown whole (`--fit fit`), must look like the upright reference photo.
    @Test func everyPhotoIsUpright() throws {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf")
        let names = (0...8).flatMap { ["Landscape_\($0).jpg", "Portrait_\($0).jpg"] }
        let inputs = names.map { "\(orientationFolder)/\($0)" }
        // Given order: by name, the photos named one after another would be sorted, all landscapes first.
        let run = try Run.photobook(["build"] + inputs + ["-o", out, "--fit", "fit", "--margin", "0", "--dpi", "72",
                                                          "--sort", "given"])
        #expect(run.status == 0, "\(run.stderr)")
        let pages = try (1...names.count).map { try renderPage(out, page: $0, dpi: 20, scratch: scratch) }
        // Landscape_1 and Portrait_1 are stored upright; every other example must render like them.
        for (index, name) in names.enumerated() {
            let reference = name.hasPrefix("Landscape") ? pages[0] : pages[1]
            let page = pages[index]
            #expect(page.width == reference.width && page.height == reference.height)
            let difference = meanAbsoluteDifference(page.rgb, reference.rgb)
            #expect(difference < 6, "\(name) differs from the upright photo by \(difference) per sample")
        }
    }

    @Test func aBadFileAmongGoodOnesIsLeftOutWithItsNameAndReason() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        for n in 1...3 { _ = try scratch.copy("\(orientationFolder)/Landscape_\(n).jpg", to: "photos/img\(n).jpg") }
        let good = try Data(contentsOf: URL(fileURLWithPath: "\(orientationFolder)/Landscape_4.jpg"))
        _ = try scratch.write("photos/img2b.jpg", Array(good.prefix(good.count / 3)))
        let out = scratch.file("book.pdf")
        let (run, report) = try Run.photobookReporting(["build", photos, "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/img2b.jpg: "), "\(run.stderr)")
        #expect(report.kinds == ["img1.jpg": "succeeded", "img2.jpg": "succeeded", "img3.jpg": "succeeded", "img2b.jpg": "corrupt"],
                "\(report.kinds)")
        #expect(report.photo(named: "img2b.jpg")?.reason?.isEmpty == false)
        #expect(run.stderr.contains("3 pages, 1 photo left out"), "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 3)
    }

    @Test func strictTurnsABadPhotoIntoAFailedBuildWithNoOutput() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy("\(orientationFolder)/Landscape_1.jpg", to: "photos/a.jpg")
        _ = try scratch.write("photos/b.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0])
        let out = scratch.file("book.pdf")
        let previous: [UInt8] = Array("the old book".utf8)
        _ = try scratch.write("book.pdf", previous)
        let (run, report) = try Run.photobookReporting(["build", photos, "-o", out, "--strict"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("photobook: error: \(photos)/b.jpg: "), "\(run.stderr)")
        #expect(run.stderr.contains("nothing was written"), "\(run.stderr)")
        #expect(report.kinds["b.jpg"] == "corrupt", "\(report.kinds)")
        #expect(report.book.outcome == "skipped" && report.book.failureKind == "refused")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))) == previous, "the old book is intact")
        #expect(Scratch.listing(scratch.path) == ["book.pdf", "photos"])
    }

    @Test func onlyBadPhotosFailTheBuild() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.write("photos/empty.jpg", [])
        _ = try scratch.write("photos/text.jpg", Array("hello".utf8))
        _ = try scratch.write("photos/cut.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0])
        let out = scratch.file("book.pdf")
        let (run, report) = try Run.photobookReporting(["build", photos, "-o", out])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(report.kinds == ["cut.png": "corrupt", "empty.jpg": "corrupt", "text.jpg": "unsupported"], "\(report.kinds)")
        #expect(report.book.outcome == "skipped" && report.book.failureKind == "refused")
        for name in ["cut.png", "empty.jpg", "text.jpg"] {
            #expect(run.stderr.contains("photobook: error: \(photos)/\(name): "), "\(name) named: \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(Scratch.listing(scratch.path) == ["photos"])
    }

    @Test func contentNotNameDecidesTheFormat() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture("pngsuite/basn2c08.png"), to: "photos/really-a-png.jpg")
        _ = try scratch.copy("\(orientationFolder)/Landscape_1.jpg", to: "photos/really-a-jpeg.png")
        _ = try scratch.write("photos/notes.txt", Array("not a photo".utf8))
        _ = try scratch.write("photos/animation.gif", Array("GIF89a not really".utf8))
        _ = try scratch.write("photos/clip.mov", [0, 0, 0, 20] + Array("ftypqt  ".utf8) + [0, 0, 0, 0] + Array("qt  ".utf8))
        let out = scratch.file("book.pdf")
        let (run, report) = try Run.photobookReporting(["build", photos, "-o", out, "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: \(photos)/notes.txt: not an image photobook reads, skipped"), "\(run.stderr)")
        #expect(run.stderr.contains("photobook: \(photos)/clip.mov: an ISO media file of brand 'qt' (a video?), skipped"),
                "\(run.stderr)")
        // Read as the GIF its bytes begin as, and found damaged.
        #expect(report.kinds == ["really-a-png.jpg": "succeeded", "really-a-jpeg.png": "succeeded", "animation.gif": "corrupt"],
                "\(report.kinds)")
        #expect(report.photo(named: "really-a-png.jpg")?.format?.hasPrefix("PNG") == true)
        #expect(report.photo(named: "really-a-jpeg.png")?.format?.hasPrefix("JPEG") == true)
        #expect(run.stderr.contains("photobook: warning: \(photos)/animation.gif: "), "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 2)
    }

    @Test func pageSizeMarginAndFitAreHonoured() throws {
        let scratch = try Scratch()
        let out = scratch.file("square.pdf")
        let run = try Run.photobook(["build", "\(orientationFolder)/Landscape_1.jpg", "-o", out,
                                     "--page-size", "200x200mm", "--margin", "0", "--fit", "fit", "--dpi", "150"])
        #expect(run.status == 0, "\(run.stderr)")
        let facts = try PDFFacts(out)
        #expect(abs(facts.pageSizes[0].width - 566.929) < 0.01 && abs(facts.pageSizes[0].height - 566.929) < 0.01)
        // 200 mm at 150 dpi is 1181 px wide; the whole 3:2 photo: 1181x787.
        #expect(facts.images.first.map { abs($0.width - 1181) <= 1 && abs($0.height - 787) <= 1 } == true,
                "\(facts.images)")
    }

    @Test func aSmallPhotoIsPlacedAtItsNativePixelsWithAWarning() throws {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", Run.fixture("pngsuite/basn2c08.png"), "-o", out, "--fit", "fit"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("dpi on page 1, below the 300 dpi asked for"), "\(run.stderr)")
        let image = try #require(try PDFFacts(out).images.first)
        #expect(image.width == 32 && image.height == 32)
    }

    @Test func theOldBookIsReplacedAtomicallyAndKeepsItsPermissions() throws {
        let scratch = try Scratch()
        let out = try scratch.write("book.pdf", Array("old".utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: out)
        let run = try Run.photobook(["build", "\(orientationFolder)/Landscape_1.jpg", "-o", out, "--quiet"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "--quiet prints errors only: \(run.stderr)")
        #expect(try PDFFacts(out).pages == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
        #expect(mode == 0o640)
    }

    @Test func pngSuiteMakesABookOfItsValidImagesAndNamesEachCorruptOne() throws {
        let scratch = try Scratch()
        let out = scratch.file("pngsuite.pdf")
        // PngSuite holds a few images twice, byte for byte (bgai4a08.png is basi4a08.png): each is a page here.
        let (run, report) = try Run.photobookReporting(["build", Run.fixture("pngsuite"), "-o", out, "--keep-duplicates"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 161)
        let corrupt = Scratch.listing(Run.fixture("pngsuite")).filter { $0.hasPrefix("x") && $0.hasSuffix(".png") }
        #expect(corrupt.count == 14)
        for name in corrupt {
            let line = run.stderr.split(separator: "\n").first { $0.contains("pngsuite/\(name): ") }
            #expect(line?.hasPrefix("photobook: warning: ") == true, "\(name) is not named in:\n\(run.stderr)")
            #expect(report.kinds[name] == "corrupt", "\(name): \(String(describing: report.kinds[name]))")
        }
        #expect(report.photos.count == 175 && report.photos.filter { $0.outcome == "succeeded" }.count == 161)
    }

    /// Each page's pixels against an independently made reference of the same crop: ImageMagick turns the photo
    /// upright, crops the centre to the cell's aspect and resizes it to the size photobook embedded.
    /// At 100 dpi the photos are decoded at full scale; at 45 dpi libjpeg's 1/2 DCT scale does part of the
    /// reduction and only the cropped part is decoded.
    @Test(arguments: ["Landscape_1", "Landscape_3", "Landscape_5", "Landscape_6", "Landscape_8",
                      "Portrait_2", "Portrait_6", "Portrait_7"], [100, 45])
    func pagesMatchAnIndependentCropOfTheUprightPhoto(name: String, dpi: Int) throws {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf")
        let source = "\(orientationFolder)/\(name).jpg"
        // The reference crops the centre (`--crop centre`): the attention map would move these crops to the waterfall.
        let run = try Run.photobook(["build", source, "-o", out, "--dpi", "\(dpi)", "--quality", "95", "--crop", "centre"])
        #expect(run.status == 0, "\(run.stderr)")
        let image = try #require(try PDFFacts(out).images.first)

        let extract = try Run.command("/usr/bin/pdfimages", ["-j", out, scratch.file("page")])
        #expect(extract.status == 0)
        let ours = try readPPM(try convertToPPM(scratch.file("page-000.jpg"), [], scratch: scratch, name: "ours"))

        let upright = name.hasPrefix("Landscape") ? (w: 1800.0, h: 1200.0) : (w: 1200.0, h: 1800.0)
        let cellAspect = 190.0 / 277.0
        let crop = upright.w / upright.h > cellAspect
            ? (w: Int((upright.h * cellAspect).rounded()), h: Int(upright.h))
            : (w: Int(upright.w), h: Int((upright.w / cellAspect).rounded()))
        // Trap: without +repage after -auto-orient, ImageMagick's centred crop of orientation 7 lands elsewhere.
        let reference = try readPPM(try convertToPPM(source, ["-auto-orient", "+repage", "-gravity", "center",
            "-crop", "\(crop.w)x\(crop.h)+0+0", "+repage", "-filter", "Lanczos",
            "-resize", "\(image.width)x\(image.height)!"], scratch: scratch, name: "reference"))
        #expect(ours.width == reference.width && ours.height == reference.height)
        let difference = meanAbsoluteDifference(ours.rgb, reference.rgb)
        // ImageMagick crops at whole pixels; photobook keeps the exact centre (488.5 px in for these photos), so
        // half a pixel of shift adds about 1 to the ~2 that JPEG re-encoding alone costs.
        #expect(difference < 4, "\(name): mean difference \(difference) per sample")

        // The comparison is sharp enough to see a crop shifted by 2% of the width.
        let shifted = try readPPM(try convertToPPM(source, ["-auto-orient", "+repage", "-gravity", "center",
            "-crop", "\(crop.w)x\(crop.h)+\(crop.w / 50)+0", "+repage", "-filter", "Lanczos",
            "-resize", "\(image.width)x\(image.height)!"], scratch: scratch, name: "shifted"))
        #expect(meanAbsoluteDifference(ours.rgb, shifted.rgb) > difference * 1.5)
    }

    @Test func cmykPhotosKeepTheirColours() throws {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf")
        let source = Run.fixture("cmyk-jpeg/pillow_pil_sample_cmyk.jpg")
        let run = try Run.photobook(["build", source, "-o", out, "--fit", "fit", "--quality", "95"])
        #expect(run.status == 0, "\(run.stderr)")
        let facts = try PDFFacts(out)
        #expect(facts.images.first?.color == "rgb", "pages carry RGB, converted by photobook")
        _ = try Run.command("/usr/bin/pdfimages", ["-j", out, scratch.file("page")])
        let ours = try readPPM(try convertToPPM(scratch.file("page-000.jpg"), [], scratch: scratch, name: "ours"))
        let reference = try readPPM(try convertToPPM(source, ["-colorspace", "sRGB"], scratch: scratch, name: "ref"))
        #expect(ours.width == reference.width && ours.height == reference.height)
        let difference = meanAbsoluteDifference(ours.rgb, reference.rgb)
        #expect(difference < 4, "mean difference \(difference) per sample")
    }
}

/// Geometry at the image's own edge after a DCT-scaled decode: libjpeg rounds a scaled side up, so the last
/// decoded pixel is partial and the map from full-resolution pixels must use the scale, not the sizes.
@Test func anEdgeStaysWhereItIsAfterAScaledDecodeOfAnOddSizedPhoto() throws {
    let scratch = try Scratch()
    let (width, height, boundary) = (4001, 3000, 3600)
    var pixels = [UInt8](repeating: 255, count: width * height * 3)
    for y in 0..<height { for x in boundary..<width { for c in 0..<3 { pixels[(y * width + x) * 3 + c] = 0 } } }
    let jpeg = try JPEGEncoder.encode(RGBImage(width: width, height: height, pixels: pixels), quality: 95)
    let source = try scratch.write("edge.jpg", jpeg)
    let out = scratch.file("book.pdf")
    // 500 pt at 72 dpi: 500 of 4001 columns, decoded at 1/8.
    let run = try Run.photobook(["build", source, "-o", out, "--fit", "fit", "--margin", "0",
                                 "--page-size", "500x400pt", "--dpi", "72"])
    #expect(run.status == 0, "\(run.stderr)")
    _ = try Run.command("/usr/bin/pdfimages", ["-j", out, scratch.file("page")])
    let page = try readPPM(try convertToPPM(scratch.file("page-000.jpg"), [], scratch: scratch, name: "page"))
    #expect(page.width == 500)
    // Where the middle row crosses half grey, to a fraction of a pixel.
    let row = page.height / 2
    let values = (0..<page.width).map { Double(page.rgb[(row * page.width + $0) * 3]) }
    let i = try #require(values.firstIndex { $0 < 127.5 })
    let crossing = Double(i - 1) + (values[i - 1] - 127.5) / (values[i - 1] - values[i]) + 0.5
    let expected = Double(boundary) * Double(page.width) / Double(width)
    #expect(abs(crossing - expected) < 0.3, "edge at \(crossing), expected \(expected)")
}

/// Converts an image to a binary PPM with ImageMagick, applying `operations` first.
func convertToPPM(_ source: String, _ operations: [String], scratch: Scratch, name: String) throws -> String {
    let target = scratch.file("\(name).ppm")
    let run = try Run.command("/usr/bin/convert", [source] + operations + ["-depth", "8", "ppm:\(target)"])
    #expect(run.status == 0, "convert: \(run.stderr)")
    return target
}
