import Foundation
import TestSupport
import Testing

/// Spreads as a reader of the printed book sees them: both pages rendered, cut at their TrimBox and put side by
/// side give the panorama (ImageMagick's crop of the source); the spine-side bleed of each page carries what the
/// other page starts with; the boxes are those of every other page; a spread never starts on a right-hand page.
@Suite(.serialized) struct SpreadTests {
    /// Pages of 4 x 2 inches and a bleed of 1/8 inch: the panoramas below have exactly 2 pixels per point on the
    /// spread's canvas, so that the source crop that should show is whole pixels and the renders compare 1:1.
    static let page = (width: 288.0, height: 144.0)
    static let dpi = 144

    /// A panorama of random 4x4-pixel blocks (ImageMagick, seeded): any shift of a pixel changes most of it.
    static func panorama(_ path: String, width: Int, height: Int, seed: Int = 7) throws {
        let run = try Run.command("/usr/bin/convert", ["-seed", "\(seed)", "-size", "\(width / 4)x\(height / 4)", "xc:",
                                                       "+noise", "Random", "-scale", "400%", "-depth", "8", path])
        #expect(run.status == 0, "convert: \(run.stderr)")
    }

    /// A plain photo that is not a panorama.
    static func photo(_ path: String, width: Int = 600, height: Int = 400, colours: String = "red-blue") throws {
        let run = try Run.command("/usr/bin/convert", ["-size", "\(width)x\(height)", "gradient:\(colours)", path])
        #expect(run.status == 0, "convert: \(run.stderr)")
    }

    /// Every page's boxes, as pdfinfo reads them: page number -> box name -> [x0, y0, x1, y1].
    static func boxes(_ pdf: String, pages: Int) throws -> [Int: [String: [Double]]] {
        let run = try Run.command("/usr/bin/pdfinfo", ["-box", "-f", "1", "-l", "\(pages)", pdf])
        #expect(run.status == 0, "pdfinfo: \(run.stderr)")
        var result: [Int: [String: [Double]]] = [:]
        for line in run.stdout.split(separator: "\n") where line.hasPrefix("Page") && line.contains("Box:") {
            // "Page    2 TrimBox:     9.00     9.00   297.00   153.00"
            let fields = line.split(separator: " ")
            guard fields.count == 7, let number = Int(fields[1]) else { continue }
            result[number, default: [:]][String(fields[2].dropLast())] = fields[3...].compactMap { Double($0) }
        }
        return result
    }

    /// The pages whose image has this pixel size (pdfimages -list).
    static func pages(withImage size: (width: Int, height: Int), in pdf: String) throws -> [Int] {
        try PDFFacts(pdf).images.filter { $0.width == size.width && $0.height == size.height }.map(\.page)
    }

    typealias Raster = (width: Int, height: Int, rgb: [UInt8])

    /// The part of a raster from column `x`, row `y`.
    static func crop(_ image: Raster, x: Int, y: Int, width: Int, height: Int) -> Raster {
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for row in y..<(y + height) {
            let start = (row * image.width + x) * 3
            rgb += image.rgb[start..<(start + width * 3)]
        }
        return (width, height, rgb)
    }

    /// Two rasters of one height side by side.
    static func sideBySide(_ a: Raster, _ b: Raster) -> Raster {
        var rgb: [UInt8] = []
        for row in 0..<a.height {
            rgb += a.rgb[(row * a.width * 3)..<((row + 1) * a.width * 3)]
            rgb += b.rgb[(row * b.width * 3)..<((row + 1) * b.width * 3)]
        }
        return (a.width + b.width, a.height, rgb)
    }

    /// The same raster moved one pixel to the left (its last column repeated): what a halve misplaced by one
    /// pixel would look like.
    static func shiftedByOne(_ image: Raster) -> Raster {
        crop(sideBySide(image, crop(image, x: image.width - 1, y: 0, width: 1, height: image.height)),
             x: 1, y: 0, width: image.width, height: image.height)
    }

    /// The source's pixels `x, y, width, height`, resized by ImageMagick to `size`.
    static func reference(_ source: String, x: Int, y: Int, width: Int, height: Int, size: (Int, Int),
                          scratch: Scratch) throws -> Raster {
        let path = scratch.file("reference-\(x)-\(width).ppm")
        let run = try Run.command("/usr/bin/convert", [source, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage",
                                                       "-resize", "\(size.0)x\(size.1)!", "-depth", "8", path])
        #expect(run.status == 0, "convert: \(run.stderr)")
        return try readPPM(path)
    }

    /// A match within JPEG's rounding, and far from a match one pixel off.
    static let closeEnough = 2.0

    @Test(arguments: [(0.0, 0.0), (9.0, 0.0), (9.0, 20.0), (0.0, 20.0)])
    func theHalvesSideBySideAreThePanorama(bleed: Double, binding: Double) throws {
        let scratch = try Scratch()
        _ = try scratch.sub("photos")
        // The spread's canvas is both trims and the outer bleeds, 2 pixels per point.
        let canvas = (width: Int(2 * Self.page.width + 2 * bleed), height: Int(Self.page.height + 2 * bleed))
        let source = scratch.file("photos/b-panorama.png")
        try Self.panorama(source, width: 2 * canvas.width, height: 2 * canvas.height)
        try Self.photo(scratch.file("photos/a.png"))
        try Self.photo(scratch.file("photos/c.png"), colours: "green-yellow")
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", scratch.file("photos"), "-o", out, "--spreads", "--page-size", "288x144pt",
                                     "--bleed", "\(bleed)pt", "--binding", "\(binding)pt", "--dpi", "\(Self.dpi)",
                                     "--quality", "100", "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("page 2: 1 photo, spread, left half"), "\(run.stderr)")
        #expect(run.stderr.contains("page 3: 1 photo, spread, right half"), "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 4)

        // The boxes of every page, spreads and others alike; the binding moves no box.
        let margin = 10 * 72 / 25.4
        let expected: [String: [Double]] = [
            "MediaBox": [0, 0, Self.page.width + 2 * bleed, Self.page.height + 2 * bleed],
            "BleedBox": [0, 0, Self.page.width + 2 * bleed, Self.page.height + 2 * bleed],
            "TrimBox": [bleed, bleed, bleed + Self.page.width, bleed + Self.page.height],
            "ArtBox": [bleed + margin, bleed + margin, bleed + Self.page.width - margin, bleed + Self.page.height - margin],
        ]
        let boxes = try Self.boxes(out, pages: 4)
        for page in 1...4 {
            for (name, box) in expected {
                let found = boxes[page]?[name] ?? []
                #expect(found.count == 4 && zip(found, box).allSatisfy { abs($0 - $1) < 0.01 },
                        "page \(page) \(name): \(found), expected \(box)")
            }
        }
        // Each half is drawn at 2 pixels per point: nothing was resampled.
        let half = (width: 2 * Int(Self.page.width + 2 * bleed), height: 2 * canvas.height)
        #expect(try Self.pages(withImage: half, in: out) == [2, 3])

        // pdftocairo, not pdftoppm: poppler's Splash rasteriser (behind pdftoppm) draws an image a pixel or two
        // larger than its box, a drift across the page that a one-pixel test cannot tell from a misplaced half.
        let left = try renderPageWithCairo(out, page: 2, dpi: Self.dpi, scratch: scratch)
        let right = try renderPageWithCairo(out, page: 3, dpi: Self.dpi, scratch: scratch)
        let scale = Double(Self.dpi) / 72
        let trim = boxes[2]?["TrimBox"] ?? []
        try #require(trim.count == 4)
        let mediaHeight = Self.page.height + 2 * bleed
        let trimX = Int((trim[0] * scale).rounded()), trimY = Int(((mediaHeight - trim[3]) * scale).rounded())
        let trimWidth = Int(((trim[2] - trim[0]) * scale).rounded()), trimHeight = Int(((trim[3] - trim[1]) * scale).rounded())
        let leftTrim = Self.crop(left, x: trimX, y: trimY, width: trimWidth, height: trimHeight)
        let rightTrim = Self.crop(right, x: trimX, y: trimY, width: trimWidth, height: trimHeight)
        let book = Self.sideBySide(leftTrim, rightTrim)
        // The trims are the canvas less its bleed: in the panorama, 2 pixels per point of bleed in from each side.
        let expectedBook = try Self.reference(source, x: Int(2 * bleed), y: Int(2 * bleed),
                                              width: 2 * canvas.width - Int(4 * bleed),
                                              height: 2 * canvas.height - Int(4 * bleed),
                                              size: (book.width, book.height), scratch: scratch)
        let error = meanAbsoluteDifference(book.rgb, expectedBook.rgb)
        #expect(error < Self.closeEnough, "the trimmed spread differs from the panorama by \(error) on average")
        // The comparison sees a right half one pixel off.
        let misplaced = Self.sideBySide(leftTrim, Self.shiftedByOne(rightTrim))
        let misplacedError = meanAbsoluteDifference(misplaced.rgb, expectedBook.rgb)
        #expect(misplacedError > 3 * Self.closeEnough, "a one-pixel shift gives only \(misplacedError)")

        guard bleed > 0 else { return }
        // The left page's spine-side bleed shows the first columns of the right page's picture, and the right
        // page's spine-side bleed the last columns of the left one's.
        let strip = Int((bleed * scale).rounded())
        let leftBleed = Self.crop(left, x: trimX + trimWidth, y: trimY, width: strip, height: trimHeight)
        let rightStart = Self.crop(right, x: trimX, y: trimY, width: strip, height: trimHeight)
        #expect(meanAbsoluteDifference(leftBleed.rgb, rightStart.rgb) < Self.closeEnough)
        let shiftedStart = Self.crop(right, x: trimX + 1, y: trimY, width: strip, height: trimHeight)
        #expect(meanAbsoluteDifference(leftBleed.rgb, shiftedStart.rgb) > 3 * Self.closeEnough)
        let rightBleed = Self.crop(right, x: 0, y: trimY, width: strip, height: trimHeight)
        let leftEnd = Self.crop(left, x: trimX + trimWidth - strip, y: trimY, width: strip, height: trimHeight)
        #expect(meanAbsoluteDifference(rightBleed.rgb, leftEnd.rgb) < Self.closeEnough)
        // And the outer bleeds are the panorama's outer columns: the whole left page is the canvas's first part.
        let expectedLeft = try Self.reference(source, x: 0, y: 0, width: 2 * Int(Self.page.width + 2 * bleed),
                                              height: 2 * canvas.height, size: (left.width, left.height),
                                              scratch: scratch)
        #expect(meanAbsoluteDifference(left.rgb, expectedLeft.rgb) < Self.closeEnough)
    }

    /// In each layout, with photos that force a choice, every spread starts on an even page.
    @Test(arguments: ["single", "2x1", "auto"])
    func aSpreadNeverStartsOnARightHandPage(layout: String) throws {
        let scratch = try Scratch()
        _ = try scratch.sub("photos")
        // Panoramas second and fifth: on page 2 by luck, then on page 5 unless the layout sees to it.
        for (index, name) in ["a", "b-panorama", "c", "d", "e-panorama", "f", "g"].enumerated() {
            if name.hasSuffix("panorama") {
                try Self.panorama(scratch.file("photos/\(name).png"), width: 1188, height: 324, seed: index)
            } else {
                try Self.photo(scratch.file("photos/\(name).png"), width: index % 2 == 0 ? 600 : 400,
                               height: index % 2 == 0 ? 400 : 600)
            }
        }
        let out = scratch.file("book.pdf")
        // The single photos of one shape are the same bytes: they are kept, as the page count needs them.
        let run = try Run.photobook(["build", scratch.file("photos"), "-o", out, "--spreads", "--page-size", "288x144pt",
                                     "--bleed", "9pt", "--dpi", "\(Self.dpi)", "--layout", layout, "--verbose",
                                     "--keep-duplicates"])
        #expect(run.status == 0, "\(run.stderr)")
        let spreadPages = try Self.pages(withImage: (612, 324), in: out)
        #expect(spreadPages.count == 4, "\(spreadPages)")
        for pair in stride(from: 0, to: spreadPages.count - 1, by: 2) {
            #expect(spreadPages[pair] % 2 == 0 && spreadPages[pair + 1] == spreadPages[pair] + 1, "\(spreadPages)")
        }
        let listed = run.stderr.split(separator: "\n").filter { $0.contains("spread, left half") }
        #expect(listed.count == 2, "\(run.stderr)")
        #expect(!run.stderr.contains("left blank"), "no blank page is needed: \(run.stderr)")
    }

    /// A panorama alone in the book: page 1 is a right-hand page, so it is left blank, and the build says so.
    @Test func aBlankPageIsNamed() throws {
        let scratch = try Scratch()
        _ = try scratch.sub("photos")
        try Self.panorama(scratch.file("photos/wide.png"), width: 1188, height: 324)
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", scratch.file("photos"), "-o", out, "--spreads", "--page-size", "288x144pt"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 3)
        #expect(try PDFFacts(out).images.map(\.page) == [2, 3])
        #expect(run.stderr.contains("wide.png: page 1 left blank so that this panorama's spread starts on a left-hand page"),
                "\(run.stderr)")
    }

    /// A panorama that fails only when it is decoded takes both its halves with it: the book is planned again
    /// without it and has no spread and no hole.
    @Test func aPanoramaThatFailsToDecodeLeavesNoHalf() throws {
        let scratch = try Scratch()
        _ = try scratch.sub("photos")
        try Self.photo(scratch.file("photos/a.jpg"))
        let whole = scratch.file("whole.jpg")
        try Self.panorama(whole, width: 1188, height: 324)
        let bytes = try Fixtures.read(whole)
        _ = try scratch.write("photos/b-panorama.jpg", Array(bytes.prefix(bytes.count * 2 / 3)))
        try Self.photo(scratch.file("photos/c.jpg"), colours: "green-yellow")
        let out = scratch.file("book.pdf")
        let (run, report) = try Run.photobookReporting(["build", scratch.file("photos"), "-o", out, "--spreads",
                                                        "--page-size", "288x144pt", "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(report.kinds == ["a.jpg": "succeeded", "b-panorama.jpg": "corrupt", "c.jpg": "succeeded"], "\(report.kinds)")
        #expect(run.stderr.contains("photobook: warning: \(scratch.file("photos/b-panorama.jpg")): "), "\(run.stderr)")
        #expect(!run.stderr.contains("spread"), "\(run.stderr)")
        let facts = try PDFFacts(out)
        #expect(facts.pages == 2 && facts.images.map(\.page) == [1, 2])
    }
}

/// The words around a spread, read back with pdftotext: its caption on the right-hand page only, no page number
/// on either half, the pages around it numbered in their outer corners.
@Suite(.serialized) struct SpreadWordsTests {
    static func text(_ pdf: String, page: Int) throws -> String {
        let run = try Run.command("/usr/bin/pdftotext", ["-layout", "-f", "\(page)", "-l", "\(page)", pdf, "-"])
        #expect(run.status == 0, "pdftotext: \(run.stderr)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theCaptionIsOnTheRightHandPageAndTheHalvesAreUnnumbered() throws {
        let scratch = try Scratch()
        _ = try scratch.sub("photos")
        try SpreadTests.photo(scratch.file("photos/alpha.png"))
        try SpreadTests.panorama(scratch.file("photos/bravo-panorama.png"), width: 2400, height: 800)
        try SpreadTests.photo(scratch.file("photos/charlie.png"), colours: "green-yellow")
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", scratch.file("photos"), "-o", out, "--spreads", "--page-size", "a5",
                                     "--bleed", "3mm", "--captions", "name", "--page-numbers"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 4)
        #expect(try Self.text(out, page: 2) == "", "the left half carries neither caption nor number")
        #expect(try Self.text(out, page: 3) == "bravo-panorama", "only the caption on the right half")
        let first = try Self.text(out, page: 1), last = try Self.text(out, page: 4)
        #expect(first.contains("alpha") && first.hasSuffix("1"), "\(first)")
        #expect(last.contains("charlie") && last.hasSuffix("4"), "\(last)")
        // Pages face even without --binding: page 1's number is in its right (outer) corner, page 4's in its left.
        let firstNumberLine = first.split(separator: "\n").last.map(String.init) ?? ""
        let lastNumberLine = last.split(separator: "\n").last.map(String.init) ?? ""
        #expect(firstNumberLine.prefix(while: { $0 == " " }).count > lastNumberLine.prefix(while: { $0 == " " }).count,
                "\(firstNumberLine.debugDescription) vs \(lastNumberLine.debugDescription)")
    }
}
