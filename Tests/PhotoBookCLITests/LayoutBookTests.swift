import Foundation
import Imaging
import JPEG
import TestSupport
import Testing

/// Books in each layout, built by the binary and read back as a person would: where the images are drawn (from
/// the page content streams), the gaps between them, their order, and what each one shows, compared with a
/// reference crop that ImageMagick makes from the source photo.
@Suite(.serialized) struct LayoutBookTests {
    let mm = 72 / 25.4

    /// Photos of many shapes, each with its own colour so that it can be recognised on the page, and a gradient
    /// and a checkerboard so that a crop off by a few pixels shows.
    static let shapes: [(width: Int, height: Int)] = [
        (900, 600), (600, 900), (800, 800), (1500, 500), (800, 600), (600, 800), (900, 600), (900, 600),
        (600, 900), (1200, 400), (700, 700), (900, 600), (600, 900), (600, 900), (900, 600), (800, 600),
    ]

    static func photo(_ index: Int, width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let hue = index * 53 % 256
        // Blocks an eighth of the longer side: coarse enough to survive the page's downsampling unaliased.
        let block = max(width, height) / 8
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let line = (x / block + y / block) % 2 == 0 ? 0 : 60
                pixels[i] = UInt8((x * 255 / width + line) % 256)
                pixels[i + 1] = UInt8(y * 255 / height)
                pixels[i + 2] = UInt8((hue + line) % 256)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    static func writePhotos(into scratch: Scratch, shapes: [(width: Int, height: Int)] = shapes) throws -> [String] {
        _ = try scratch.sub("photos")
        return try shapes.enumerated().map { index, shape in
            let bytes = try JPEGEncoder.encode(photo(index, width: shape.width, height: shape.height),
                                               options: .init(quality: 95))
            return try scratch.write(String(format: "photos/img%02d.jpg", index + 1), bytes)
        }
    }

    /// A box of the rendered page as RGB, `dpi` pixels per inch, from a render of the whole page.
    static func region(_ page: (width: Int, height: Int, rgb: [UInt8]), pageHeight: Double, dpi: Double,
                       box: (x: Double, y: Double, width: Double, height: Double), inset: Int)
        -> (width: Int, height: Int, rgb: [UInt8]) {
        let scale = dpi / 72
        let left = Int((box.x * scale).rounded()) + inset
        let top = Int(((pageHeight - box.y - box.height) * scale).rounded()) + inset
        let width = Int((box.width * scale).rounded()) - 2 * inset
        let height = Int((box.height * scale).rounded()) - 2 * inset
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for y in top..<(top + height) {
            let start = (y * page.width + left) * 3
            rgb += page.rgb[start..<(start + width * 3)]
        }
        return (width, height, rgb)
    }

    /// What a placed photo should look like: the source cropped from its centre to the box's aspect (what
    /// `--fit fill` promises), scaled to `width` x `height`, then the same inset removed.
    static func reference(_ source: String, box: (x: Double, y: Double, width: Double, height: Double), dpi: Double,
                          inset: Int, scratch: Scratch) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let scale = dpi / 72
        let width = Int((box.width * scale).rounded()), height = Int((box.height * scale).rounded())
        let out = scratch.file("reference-\(UUID().uuidString).ppm")
        let run = try Run.command("/usr/bin/convert", [
            source, "-resize", "\(width)x\(height)^", "-gravity", "center", "-extent", "\(width)x\(height)",
            "-gravity", "center", "-crop", "\(width - 2 * inset)x\(height - 2 * inset)+0+0", "+repage",
            "-depth", "8", "ppm:" + out,
        ])
        #expect(run.status == 0, "convert: \(run.stderr)")
        return try readPPM(out)
    }

    /// The gap between two boxes, on the axis where they are apart; nil when they overlap.
    static func gap(_ a: (x: Double, y: Double, width: Double, height: Double),
                    _ b: (x: Double, y: Double, width: Double, height: Double)) -> Double? {
        let apartX = max(b.x - (a.x + a.width), a.x - (b.x + b.width))
        let apartY = max(b.y - (a.y + a.height), a.y - (b.y + b.height))
        let apart = max(apartX, apartY)
        return apart >= -1e-3 ? apart : nil
    }

    /// Builds a book from `photos` with `options`, then checks every page: boxes inside the margins, apart by at
    /// least the gap, in input order, each showing its own photo. Returns the boxes per page.
    @discardableResult
    func checkBook(photos: [String], inputs: [String]? = nil, options: [String], margin: Double, gap: Double,
                   expectedOrder: [Int], scratch: Scratch) throws -> [[(x: Double, y: Double, width: Double, height: Double)]] {
        let out = scratch.file("book.pdf")
        // The references are centre crops: where an attention map moves a crop is AttentionCropTests' to check.
        let run = try Run.photobook(["build"] + (inputs ?? photos) + ["-o", out, "--margin", "\(margin)mm",
                                                                     "--gap", "\(gap)mm", "--crop", "centre"] + options)
        #expect(run.status == 0, "\(run.stderr)")
        let facts = try PDFFacts(out)
        let pages = try PlacedImage.read(out, scratch: scratch)
        #expect(pages.count == facts.pages)
        let dpi = 50.0
        var order: [Int] = []
        var boxes: [[(x: Double, y: Double, width: Double, height: Double)]] = []
        for (number, images) in pages.enumerated() {
            let size = facts.pageSizes[number]
            let visible = images.map(\.visible)
            boxes.append(visible)
            #expect(!images.isEmpty, "page \(number + 1) has no photo")
            let rendered = try renderPage(out, page: number + 1, dpi: Int(dpi), scratch: scratch)
            for (slot, box) in visible.enumerated() {
                let inside = box.x >= margin * mm - 0.01 && box.y >= margin * mm - 0.01
                    && box.x + box.width <= size.width - margin * mm + 0.01
                    && box.y + box.height <= size.height - margin * mm + 0.01
                #expect(inside, "page \(number + 1): \(box) crosses the margins")
                for other in visible[(slot + 1)...] {
                    let apart = Self.gap(box, other)
                    #expect(apart != nil && apart! >= gap * mm - 0.01, "page \(number + 1): \(box) and \(other) apart by \(apart ?? -1)")
                }
                // Which photo is it? The one whose reference it matches best, and it must match well.
                let shown = Self.region(rendered, pageHeight: size.height, dpi: dpi, box: box, inset: 2)
                var best = (index: -1, difference: Double.infinity)
                for (index, photo) in photos.enumerated() {
                    let reference = try Self.reference(photo, box: box, dpi: dpi, inset: 2, scratch: scratch)
                    guard reference.width == shown.width, reference.height == shown.height else { continue }
                    let difference = meanAbsoluteDifference(shown.rgb, reference.rgb)
                    if difference < best.difference { best = (index, difference) }
                }
                #expect(best.difference < 12, "page \(number + 1) box \(slot + 1): best match \(best)")
                order.append(best.index)
            }
        }
        #expect(order == expectedOrder, "photos appear in the order \(order)")
        return boxes
    }

    @Test func aGridBookPlacesEqualCellsInOrderAndOnlyTheLastPageHasEmptyCells() throws {
        let scratch = try Scratch()
        let photos = Array(try Self.writePhotos(into: scratch).prefix(11))
        let boxes = try checkBook(photos: photos, options: ["--layout", "grid 2x3"], margin: 12, gap: 5,
                                  expectedOrder: Array(0..<11), scratch: scratch)
        #expect(boxes.map(\.count) == [6, 5])
        // Equal cells, exactly the gap apart: columns 5 mm apart, rows 5 mm apart.
        let page = boxes[0]
        for box in page { #expect(abs(box.width - page[0].width) < 0.01 && abs(box.height - page[0].height) < 0.01) }
        #expect(abs(page[1].x - (page[0].x + page[0].width) - 5 * mm) < 0.01)
        #expect(abs(page[0].y - (page[2].y + page[2].height) - 5 * mm) < 0.01)
        #expect(abs(page[0].width - (210 - 24 - 5) / 2 * mm) < 0.01)
        #expect(abs(page[0].height - (297 - 24 - 10) / 3 * mm) < 0.01)
    }

    @Test func anAutoBookFillsEachPageAndCropsLittle() throws {
        let scratch = try Scratch()
        let photos = try Self.writePhotos(into: scratch)
        let boxes = try checkBook(photos: photos, options: ["--layout", "auto"], margin: 10, gap: 4,
                                  expectedOrder: Array(0..<photos.count), scratch: scratch)
        #expect(boxes.count < photos.count, "auto puts several photos on some pages")
        // Every page is filled to its margins.
        for page in boxes {
            #expect(abs(page.map(\.x).min()! - 10 * mm) < 0.01)
            #expect(abs(page.map { $0.x + $0.width }.max()! - 200 * mm) < 0.01)
            #expect(abs(page.map(\.y).min()! - 10 * mm) < 0.01)
            #expect(abs(page.map { $0.y + $0.height }.max()! - 287 * mm) < 0.01)
        }
        // The share of each photo cut away, from the boxes and the photos' own shapes.
        let shapes = boxes.flatMap { $0 }
        var shares: [Double] = []
        for (box, shape) in zip(shapes, Self.shapes) {
            let boxAspect = box.width / box.height, photoAspect = Double(shape.width) / Double(shape.height)
            shares.append(1 - min(boxAspect / photoAspect, photoAspect / boxAspect))
        }
        let mean = shares.reduce(0, +) / Double(shares.count)
        #expect(mean <= 0.08 && shares.max()! <= 1.0 / 3, "crop shares \(shares)")
    }

    /// Photos whose headers are sound but whose pixels are cut short fail only when decoded: they are named and
    /// left out, and the pages close up around them, in a grid and in an auto layout.
    @Test(arguments: ["grid 2x2", "auto"])
    func corruptPhotosAmongGoodOnesLeaveNoHole(layout: String) throws {
        let scratch = try Scratch()
        var inputs = try Self.writePhotos(into: scratch)
        let good = inputs
        for (position, source) in [(2, 4), (7, 9)] {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: inputs[source])))
            let bad = try scratch.write("photos/bad\(position).jpg", Array(bytes.prefix(bytes.count / 2)))
            inputs.insert(bad, at: position)
        }
        let boxes = try checkBook(photos: good, inputs: inputs, options: ["--layout", layout], margin: 10, gap: 4,
                                  expectedOrder: Array(0..<good.count), scratch: scratch)
        if layout.hasPrefix("grid") {
            #expect(boxes.map(\.count) == [4, 4, 4, 4], "full pages: \(boxes.map(\.count))")
        }
        let (run, report) = try Run.photobookReporting(["build"] + inputs + ["-o", scratch.file("again.pdf"), "--layout", layout])
        #expect(run.stderr.contains("photobook: warning: \(scratch.path)/photos/bad2.jpg: "), "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(scratch.path)/photos/bad7.jpg: "), "\(run.stderr)")
        #expect(report.photos.count == inputs.count, "\(report.kinds)")
        #expect(report.kinds.filter { $0.value != "succeeded" } == ["bad2.jpg": "corrupt", "bad7.jpg": "corrupt"], "\(report.kinds)")
    }
}

/// Bleed as a print shop checks it: the boxes read back with pdfinfo, and the pixels in the bleed come from
/// the photo, not white paper.
@Suite(.serialized) struct BleedBookTests {
    let mm = 72 / 25.4

    static func boxes(_ pdf: String) throws -> [String: [Double]] {
        let run = try Run.command("/usr/bin/pdfinfo", ["-box", pdf])
        var boxes: [String: [Double]] = [:]
        for line in run.stdout.split(separator: "\n") where line.contains("Box:") {
            let parts = line.split(separator: ":", maxSplits: 1)
            boxes[String(parts[0])] = parts[1].split(separator: " ").compactMap { Double($0) }
        }
        return boxes
    }

    @Test func aFullBleedBookHasItsBoxesAndPhotoPixelsInTheBleed() throws {
        let scratch = try Scratch()
        // Portraits, which fill an A4 page alone (a landscape photo alone would be placed whole, white around it).
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(600, 850), (600, 900)])
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build"] + photos + ["-o", out, "--bleed", "3mm", "--margin", "0",
                                                          "--safety", "5mm", "--layout", "auto"])
        #expect(run.status == 0, "\(run.stderr)")
        let boxes = try Self.boxes(out)
        let b = 3 * mm, w = 210 * mm, h = 297 * mm
        func near(_ box: [Double]?, _ expected: [Double]) -> Bool {
            guard let box, box.count == 4 else { return false }
            return zip(box, expected).allSatisfy { abs($0 - $1) < 0.01 }
        }
        #expect(near(boxes["MediaBox"], [0, 0, w + 2 * b, h + 2 * b]), "\(boxes)")
        #expect(near(boxes["BleedBox"], [0, 0, w + 2 * b, h + 2 * b]), "\(boxes)")
        #expect(near(boxes["TrimBox"], [b, b, w + b, h + b]), "\(boxes)")
        #expect(near(boxes["ArtBox"], [b + 5 * mm, b + 5 * mm, w + b - 5 * mm, h + b - 5 * mm]), "\(boxes)")
        // The outermost row and column of pixels, inside the bleed, are photo, not paper.
        let page = try renderPage(out, page: 1, dpi: 72, scratch: scratch)
        var white = 0, total = 0
        for x in 0..<page.width {
            for y in [0, page.height - 1] {
                let i = (y * page.width + x) * 3
                total += 1
                if page.rgb[i] > 245 && page.rgb[i + 1] > 245 && page.rgb[i + 2] > 245 { white += 1 }
            }
        }
        #expect(white * 10 < total, "\(white) of \(total) edge pixels are white")
    }

    @Test func withoutBleedTheTrimBoxIsThePage() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600)])
        let out = scratch.file("book.pdf")
        #expect(try Run.photobook(["build"] + photos + ["-o", out]).status == 0)
        let boxes = try Self.boxes(out)
        #expect(boxes["TrimBox"] == boxes["MediaBox"], "\(boxes)")
    }
}
