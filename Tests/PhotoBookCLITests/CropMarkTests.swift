import Foundation
import Imaging
import JPEG
import TestSupport
import Testing

/// Crop marks as a print shop checks them: the boxes read back with pdfinfo for every combination of bleed, marks
/// and binding, the file checked by qpdf, and the rendered pixels: marks on the extended trim lines outside the
/// bleed, white paper elsewhere outside the bleed, and the photo reaching the bleed edge.
@Suite(.serialized) struct CropMarkTests {
    static let mm = 72 / 25.4
    /// The marks' room on each side, from docs/crop-marks.md: a 3 mm gap outside the bleed and a 6 mm mark.
    static let gap = 3 * mm, markLength = 6 * mm
    static let trimWidth = 60 * mm, trimHeight = 80 * mm
    static let dpi = 300.0

    struct Book {
        var bleed: Double
        var marks: Bool
        var binding: Double
        var offset: Double { bleed + (marks ? CropMarkTests.gap + CropMarkTests.markLength : 0) }
        var mediaWidth: Double { CropMarkTests.trimWidth + 2 * offset }
        var mediaHeight: Double { CropMarkTests.trimHeight + 2 * offset }
        var arguments: [String] {
            ["--page-size", "60x80mm", "--margin", "0", "--safety", "5mm", "--pad-to", "2", "--bleed", "\(bleed / CropMarkTests.mm)mm",
             "--binding", "\(binding / CropMarkTests.mm)mm"] + (marks ? ["--crop-marks"] : [])
        }
    }

    static let books: [Book] = [0, 3].flatMap { bleed in
        [false, true].flatMap { marks in [0, 5].map { Book(bleed: Double(bleed) * mm, marks: marks, binding: Double($0) * mm) } }
    }

    /// One photo of one flat, mid-dark colour: neither paper nor mark.
    static func writePhoto(into scratch: Scratch) throws -> String {
        let width = 600, height = 800
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) { pixels[i] = 200; pixels[i + 1] = 70; pixels[i + 2] = 40 }
        let bytes = try JPEGEncoder.encode(RGBImage(width: width, height: height, pixels: pixels), options: .init(quality: 95))
        return try scratch.write("photo.jpg", bytes)
    }

    static func near(_ box: [Double]?, _ expected: [Double]) -> Bool {
        guard let box, box.count == 4 else { return false }
        return zip(box, expected).allSatisfy { abs($0 - $1) < 0.02 }
    }

    /// Every page's boxes, by page number then box name.
    static func pageBoxes(_ pdf: String) throws -> [Int: [String: [Double]]] {
        let run = try Run.command("/usr/bin/pdfinfo", ["-box", "-f", "1", "-l", "1000", pdf])
        var pages: [Int: [String: [Double]]] = [:]
        for line in run.stdout.split(separator: "\n") where line.hasPrefix("Page") && line.contains("Box:") {
            // "Page    1 MediaBox:     0.00     0.00   351.50   351.50"
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 7, let page = Int(fields[1]) else { continue }
            pages[page, default: [:]][String(fields[2].dropLast())] = fields[3...].compactMap { Double($0) }
        }
        return pages
    }

    @Test(arguments: books)
    func theBoxesFollowTheTrimAtItsOffset(book: Book) throws {
        let scratch = try Scratch()
        let photo = try Self.writePhoto(into: scratch)
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", photo, "-o", out] + book.arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let check = try Run.command("/usr/bin/qpdf", ["--check", out])
        #expect(check.status == 0, "qpdf: \(check.stdout) \(check.stderr)")
        let pages = try Self.pageBoxes(out)
        #expect(pages.count == 2, "a photo page and the blank page --pad-to 2 adds: \(pages)")
        let o = book.offset, w = Self.trimWidth, h = Self.trimHeight, b = book.bleed, s = 5 * Self.mm
        for (number, boxes) in pages {
            #expect(Self.near(boxes["MediaBox"], [0, 0, w + 2 * o, h + 2 * o]), "page \(number): \(boxes)")
            #expect(Self.near(boxes["TrimBox"], [o, o, o + w, o + h]), "page \(number): \(boxes)")
            #expect(Self.near(boxes["BleedBox"], [o - b, o - b, o + w + b, o + h + b]), "page \(number): \(boxes)")
            #expect(Self.near(boxes["ArtBox"], [o + s, o + s, o + w - s, o + h - s]), "page \(number): \(boxes)")
        }
    }

    @Test(arguments: books.filter(\.marks))
    func marksSitOnTheTrimLinesOutsideTheBleedAndNothingElseDoes(book: Book) throws {
        let scratch = try Scratch()
        let photo = try Self.writePhoto(into: scratch)
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", photo, "-o", out] + book.arguments)
        #expect(run.status == 0, "\(run.stderr)")
        for pageNumber in [1, 2] {
            let page = try renderPage(out, page: pageNumber, dpi: Int(Self.dpi), scratch: scratch)
            try checkPixels(page, of: book, pageNumber: pageNumber)
        }
        // Registration colour: every ink full, in a hairline, written as a DeviceCMYK stroke.
        let qdf = scratch.file("book.qdf")
        _ = try Run.command("/usr/bin/qpdf", ["--qdf", "--object-streams=disable", out, qdf])
        let content = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        #expect(content.contains("1 1 1 1 K"), "marks not stroked in registration colour")
        #expect(content.contains("0.25 w"), "marks not a 0.25 pt hairline")
    }

    /// Page pixel at a point given in PDF points (origin bottom left).
    static func pixel(_ page: (width: Int, height: Int, rgb: [UInt8]), x: Double, y: Double, mediaHeight: Double)
        -> (column: Int, row: Int) {
        let scale = dpi / 72
        return (Int((x * scale).rounded(.down)), Int(((mediaHeight - y) * scale).rounded(.down)))
    }

    func checkPixels(_ page: (width: Int, height: Int, rgb: [UInt8]), of book: Book, pageNumber: Int) throws {
        let scale = Self.dpi / 72
        #expect(abs(Double(page.width) - book.mediaWidth * scale) < 2 && abs(Double(page.height) - book.mediaHeight * scale) < 2)
        func luma(_ column: Int, _ row: Int) -> Int {
            let i = (row * page.width + column) * 3
            return (Int(page.rgb[i]) + Int(page.rgb[i + 1]) + Int(page.rgb[i + 2])) / 3
        }
        let o = book.offset, b = book.bleed
        let trim = (left: o, bottom: o, right: o + Self.trimWidth, top: o + Self.trimHeight)
        let bleed = (left: o - b, bottom: o - b, right: o + Self.trimWidth + b, top: o + Self.trimHeight + b)
        let markNear = 3.0 / scale // points: a rendered hairline spreads over a pixel or two
        // Every mark: dark along its middle, on the trim line, in each corner; white in the gap before it.
        for (x, outX) in [(trim.left, -1.0), (trim.right, 1.0)] {
            for (y, outY) in [(trim.bottom, -1.0), (trim.top, 1.0)] {
                let middle = b + Self.gap + Self.markLength / 2
                for (px, py, along) in [(x + outX * middle, y, true), (x, y + outY * middle, false)] {
                    var darkest = 255
                    for step in -2...2 {
                        let d = Double(step) / scale
                        let p = Self.pixel(page, x: along ? px : px + d, y: along ? py + d : py, mediaHeight: book.mediaHeight)
                        darkest = min(darkest, luma(p.column, p.row))
                    }
                    #expect(darkest < 100, "page \(pageNumber): no mark at (\(px), \(py)): darkest \(darkest)")
                }
            }
        }
        // Outside the bleed box: white paper, except on the marks.
        var stray = 0
        for row in 0..<page.height {
            for column in 0..<page.width {
                let x = (Double(column) + 0.5) / scale, y = book.mediaHeight - (Double(row) + 0.5) / scale
                let inside = x > bleed.left - 1 / scale && x < bleed.right + 1 / scale
                    && y > bleed.bottom - 1 / scale && y < bleed.top + 1 / scale
                if inside { continue }
                let onVerticalMark = [trim.left, trim.right].contains { abs(x - $0) < markNear }
                    && (y < bleed.bottom - Self.gap + markNear || y > bleed.top + Self.gap - markNear)
                let onHorizontalMark = [trim.bottom, trim.top].contains { abs(y - $0) < markNear }
                    && (x < bleed.left - Self.gap + markNear || x > bleed.right + Self.gap - markNear)
                if onVerticalMark || onHorizontalMark { continue }
                if luma(column, row) < 250 { stray += 1 }
            }
        }
        #expect(stray == 0, "page \(pageNumber): \(stray) non-white pixels outside the bleed, off the marks")
        guard pageNumber == 1 else { return }
        // The photo fills the page to the bleed edge: just inside it, photo colour (not paper, not a mark); on a
        // right-hand page with a binding the spine side (left) stays inside the trim.
        let inset = 1.5 / scale
        var sides: [(x: Double, y: Double)] = [
            (bleed.right - inset, (trim.bottom + trim.top) / 2),
            ((trim.left + trim.right) / 2 + book.binding / 2, bleed.top - inset),
            ((trim.left + trim.right) / 2 + book.binding / 2, bleed.bottom + inset),
        ]
        if book.binding == 0 { sides.append((bleed.left + inset, (trim.bottom + trim.top) / 2)) }
        for side in sides {
            let p = Self.pixel(page, x: side.x, y: side.y, mediaHeight: book.mediaHeight)
            let i = (p.row * page.width + p.column) * 3
            let rgb = (Int(page.rgb[i]), Int(page.rgb[i + 1]), Int(page.rgb[i + 2]))
            #expect(abs(rgb.0 - 200) < 20 && abs(rgb.1 - 70) < 20 && abs(rgb.2 - 40) < 20,
                    "page 1 at (\(side.x), \(side.y)) is \(rgb), not the photo")
        }
        // And it stops there: one pixel further out is paper.
        let outside = Self.pixel(page, x: bleed.right + 2 / scale, y: (trim.bottom + trim.top) / 2, mediaHeight: book.mediaHeight)
        #expect(luma(outside.column, outside.row) >= 250, "the photo runs past the bleed edge")
    }
}

extension CropMarkTests.Book: CustomTestStringConvertible {
    var testDescription: String {
        "bleed \(Int((bleed / CropMarkTests.mm).rounded())) mm, marks \(marks ? "on" : "off"), binding \(Int((binding / CropMarkTests.mm).rounded())) mm"
    }
}
