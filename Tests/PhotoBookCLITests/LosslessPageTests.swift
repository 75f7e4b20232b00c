import Foundation
import Imaging
import JPEG
import TestSupport
import Testing

/// A JPEG shown at its own resolution but cropped goes into the book as its own DCT blocks under the crop,
/// turned upright: the source's quantisation tables, the source's pixels, the crop where the plan puts it.
@Suite(.serialized) struct LosslessPageTests {
    /// A 300x450 pt page with no margin at 72 dpi: a 600x450 (upright) photo is cropped to its middle 300x450
    /// pixels (x 150...450) at its own resolution, one pixel per point.
    static let page = ["--page-size", "300x450pt", "--margin", "0", "--dpi", "72"]

    /// ImageMagick's pixel operations that turn a stored image upright, for each EXIF orientation.
    static let turn: [Int: [String]] = [1: [], 2: ["-flop"], 3: ["-rotate", "180"], 4: ["-flip"], 5: ["-transpose"],
                                        6: ["-rotate", "90"], 7: ["-transverse"], 8: ["-rotate", "270"]]

    /// A photo of 600x450 upright pixels, stored as `orientation` says, with that EXIF orientation.
    static func photo(orientation: Int, options: JPEGEncoder.Options, seed: UInt64 = 7) throws -> [UInt8] {
        let (width, height) = orientation >= 5 ? (450, 600) : (600, 450)
        let jpeg = try JPEGEncoder.encode(TestImages.detailed(width: width, height: height, seed: seed), options: options)
        var tiff = TIFFWriter.afterHeader(.littleEndian)
        tiff.u32(8); tiff.u16(1)
        tiff.entry(0x0112, type: 3, count: 1, value: UInt32(orientation))
        tiff.u32(0)
        return HostileFiles.withEXIF(jpeg, tiff: tiff.bytes)
    }

    /// Builds the one-page book, and returns the embedded JPEG's bytes and the page rendered at 72 dpi.
    static func build(_ source: String, scratch: Scratch) throws -> (embedded: [UInt8], page: (width: Int, height: Int, rgb: [UInt8])) {
        let out = scratch.file("book.pdf")
        // The page is checked against the centre crop: where an attention map moves a crop is AttentionCropTests'.
        let run = try Run.photobook(["build", source, "-o", out, "--crop", "centre"] + page)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Run.command("/usr/bin/pdfimages", ["-j", out, scratch.file("img")]).status == 0)
        let embedded = try Fixtures.read(scratch.file("img-000.jpg"))
        // pdftocairo: poppler's Splash rasteriser (pdftoppm) resamples even at one pixel per point.
        return (embedded, try renderPageWithCairo(out, page: 1, dpi: 72, scratch: scratch))
    }

    /// The source decoded by djpeg, turned upright by ImageMagick: the reference for what the page shows.
    static func upright(_ source: String, orientation: Int, djpeg: [String] = [], scratch: Scratch) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let decoded = scratch.file("decoded.ppm"), turned = scratch.file("upright.ppm")
        let ppm = try ExternalCommand.output("/usr/bin/djpeg", djpeg + ["-rgb", "-ppm", source])
        try Data(ppm).write(to: URL(fileURLWithPath: decoded))
        #expect(try Run.command("/usr/bin/convert", [decoded] + turn[orientation]! + [turned]).status == 0)
        return try readPPM(turned)
    }

    static func crop(_ image: (width: Int, height: Int, rgb: [UInt8]), x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        var pixels: [UInt8] = []
        for row in y..<(y + height) {
            let start: Int = (row * image.width + x) * 3
            pixels += image.rgb[start..<(start + width * 3)]
        }
        return pixels
    }

    /// The quantisation tables as the embedded file must hold them: the source's, transposed for 5-8.
    static func expectSourceTables(_ embedded: [UInt8], source: [UInt8], orientation: Int) throws {
        let ours = try JPEGCoefficients.read(embedded), theirs = try JPEGCoefficients.read(source)
        #expect(JPEGStructure.frame(embedded).marker == 0xC0, "baseline, Huffman-coded")
        #expect(ours.components.count == theirs.components.count)
        for (a, b) in zip(ours.components, theirs.components) {
            let expected = orientation >= 5 ? (0..<64).map { b.quantization[($0 % 8) * 8 + $0 / 8] } : b.quantization
            #expect(a.quantization == expected, "orientation \(orientation)")
        }
    }

    @Test("a low-resolution photo's crop is its own blocks, drawn where the plan puts it", arguments: 1...8)
    func cropIsLossless(orientation: Int) throws {
        let scratch = try Scratch()
        let bytes = try Self.photo(orientation: orientation, options: .init(quality: 85, chromaSubsampling: .both))
        let source = try scratch.write("photo.jpg", bytes)
        let (embedded, page) = try Self.build(source, scratch: scratch)
        try Self.expectSourceTables(embedded, source: bytes, orientation: orientation)
        let info = try JPEGDecoder.readInfo(embedded)
        // Whole 16-pixel MCUs around the 300x450 crop; never resampled.
        #expect(info.width >= 300 && info.width < 332 && info.height >= 450 && info.height < 482, "\(info.width)x\(info.height)")

        // The page, rendered one pixel per point, is the upright source's middle 300x450 pixels.
        let reference = try Self.upright(source, orientation: orientation, scratch: scratch)
        #expect(page.width == 300 && page.height == 450)
        let expected = Self.crop(reference, x: 150, y: 0, width: 300, height: 450)
        let difference = meanAbsoluteDifference(page.rgb, expected)
        let largest = zip(page.rgb, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
        let steps = zip(page.rgb, expected).filter { $0 != $1 }.count
        // A turned block decodes to the turned pixels but for rounding: the IDCT's row and column passes and
        // the chroma upsampling round in the stored image's directions (as for jpegtran's output).
        #expect(difference < 0.2 && largest <= 4, "orientation \(orientation): mean difference \(difference) per sample, largest \(largest), \(steps) differ")
        let shifted = Self.crop(reference, x: 151, y: 0, width: 300, height: 450)
        #expect(meanAbsoluteDifference(page.rgb, shifted) > 2, "the comparison sees a crop one pixel off")
    }

    /// Decoded without smoothing (each block on its own), the embedded file's pixels are exactly djpeg's pixels
    /// of the source at the same place: no generation loss at all.
    @Test("the embedded pixels are djpeg's pixels of the source", arguments: ["4:2:0", "4:4:4", "grey"])
    func pixelsAreTheSources(_ kind: String) throws {
        let scratch = try Scratch()
        let options: JPEGEncoder.Options = switch kind {
        case "4:2:0": .init(quality: 80, chromaSubsampling: .both)
        case "4:4:4": .init(quality: 95, chromaSubsampling: .none)
        default: .init(quality: 80, colorModel: .grayscale)
        }
        let bytes = try Self.photo(orientation: 1, options: options, seed: 11)
        let source = try scratch.write("photo.jpg", bytes)
        let (embedded, _) = try Self.build(source, scratch: scratch)
        try Self.expectSourceTables(embedded, source: bytes, orientation: 1)
        let file = try scratch.write("embedded.jpg", embedded)
        let ours = try readPPM(try scratch.write("ours.ppm", ExternalCommand.output("/usr/bin/djpeg", ["-nosmooth", "-rgb", "-ppm", file])))
        let reference = try Self.upright(source, orientation: 1, djpeg: ["-nosmooth"], scratch: scratch)
        // The crop (x 150...450) grown outwards to the iMCU grid: 16 pixels for 4:2:0, one block otherwise.
        let unit = kind == "4:2:0" ? 16 : 8
        let x = 150 / unit * unit
        #expect(ours.width == (450 + unit - 1) / unit * unit - x && ours.height == 450)
        #expect(ours.rgb == Self.crop(reference, x: x, y: 0, width: ours.width, height: 450), "\(kind)")
        #expect(try PDFFacts(scratch.file("book.pdf")).images.first?.color == (kind == "grey" ? "gray" : "rgb"))
    }

    /// A grey photo's lossless crop stays grey, so its grey profile still describes it and goes with it.
    @Test func aGreyPhotoKeepsItsGreyProfile() throws {
        let scratch = try Scratch()
        let profilePath = "/usr/share/color/icc/ghostscript/sgray.icc"
        let photo = try ColourTests.photo(in: scratch, name: "grey.jpg", profile: profilePath, extra: ["-colorspace", "Gray"])
        #expect(try JPEGDecoder.readInfo(Fixtures.read(photo)).components == 1)
        let out = scratch.file("book.pdf")
        // A square page crops the 300x200 photo; at 300 dpi it has fewer pixels than asked for: lossless.
        let run = try Run.photobook(["build", photo, "-o", out, "--page-size", "150x150mm"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("ICC"), "\(run.stderr)")
        let profile = try Fixtures.read(profilePath)
        #expect(try ColourTests.colourSpaces(out) == [.iccBased(components: 1, alternate: "DeviceGray", profile: profile)])
        let image = try #require(try PDFFacts(out).images.first)
        #expect(image.color == "icc" || image.color == "gray", "\(image)")
        #expect(image.height == 200 && image.width == 208, "columns 50...250 in whole 8-pixel blocks, 48...256: \(image)")
    }

    /// Copying blocks reads every scan as a decode would: a truncated photo is named and left out, never
    /// copied with a grey or garbled end.
    @Test func aTruncatedPhotoIsLeftOutByName() throws {
        let scratch = try Scratch()
        let good = try Self.photo(orientation: 6, options: .init(quality: 85, chromaSubsampling: .both))
        let broken = try scratch.write("broken.jpg", Array(good.prefix(good.count * 2 / 3)))
        let other = try scratch.write("other.jpg", try Self.photo(orientation: 1, options: .init(quality: 85), seed: 3))
        let out = scratch.file("book.pdf")
        let (run, report) = try Run.photobookReporting(["build", broken, other, "-o", out] + Self.page)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(report.kinds == ["broken.jpg": "corrupt", "other.jpg": "succeeded"], "\(report.kinds)")
        #expect(run.stderr.contains("photobook: warning: \(broken): "), "\(run.stderr)")
        #expect(try PDFFacts(out).images.count == 1)
        let strict = try Run.photobook(["build", broken, "-o", scratch.file("strict.pdf"), "--strict"] + Self.page)
        #expect(strict.status == 1)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("strict.pdf")))
    }

    /// Progressive and arithmetic-coded sources take the same path, written as baseline Huffman files (PDF
    /// readers do not decode arithmetic coding); their coefficients are kept.
    @Test(arguments: ["progressive", "arithmetic"])
    func progressiveAndArithmeticSourcesAreRewrittenLosslessly(_ kind: String) throws {
        let scratch = try Scratch()
        let options = JPEGEncoder.Options(quality: 85, progressive: kind == "progressive", arithmeticCoding: kind == "arithmetic",
                                          chromaSubsampling: .both)
        let bytes = try Self.photo(orientation: 6, options: options)
        let source = try scratch.write("photo.jpg", bytes)
        let (embedded, page) = try Self.build(source, scratch: scratch)
        try Self.expectSourceTables(embedded, source: bytes, orientation: 6)
        let reference = try Self.upright(source, orientation: 6, scratch: scratch)
        let difference = meanAbsoluteDifference(page.rgb, Self.crop(reference, x: 150, y: 0, width: 300, height: 450))
        #expect(difference < 0.1, "\(kind): mean difference \(difference) per sample")
    }
}
