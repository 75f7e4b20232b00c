import Foundation
import Imaging
import JPEG
import TestSupport
import Testing

/// Photos that mark no region, with one subject off the centre (saturated and detailed, on a plain background), on
/// pages that cut most of them away: the subject is found on the rendered page, not in anything photobook says.
struct AttentionCropTests {
    /// The upright picture, and its subject: 320x440 pixels, 80 from one side. An A4
    /// page of it keeps 707 of the 1600 columns; from the centre, columns 446...1153, which miss the subject.
    static let width = 1600, height = 1000
    static func subject(left: Bool) -> (x: Int, y: Int, width: Int, height: Int) { (left ? 80 : 1200, 280, 320, 440) }

    static func upright(left: Bool) -> RGBImage {
        let box = subject(left: left)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                let i = (y * width + x) * 3
                let inside = x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height
                if inside {
                    // A checker of red and yellow squares: edges and colour.
                    let odd = (x / 12 + y / 12) % 2 == 1
                    pixels[i] = odd ? 220 : 240; pixels[i + 1] = odd ? 40 : 200; pixels[i + 2] = odd ? 30 : 40
                } else {
                    // A soft grey-blue sky with a little sensor noise.
                    let grey = 140 + 30 * y / height + Int(state & 3)
                    pixels[i] = UInt8(grey - 20); pixels[i + 1] = UInt8(grey); pixels[i + 2] = UInt8(grey + 15)
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The picture as stored for EXIF orientation 6 (turned a quarter counter-clockwise: the viewer turns it back).
    static func storedForOrientation6(_ image: RGBImage) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: image.pixels.count)
        let storedWidth = image.height, storedHeight = image.width
        for v in 0..<image.height {
            for u in 0..<image.width {
                let from = (v * image.width + u) * 3, to = ((storedHeight - 1 - u) * storedWidth + v) * 3
                pixels[to] = image.pixels[from]; pixels[to + 1] = image.pixels[from + 1]; pixels[to + 2] = image.pixels[from + 2]
            }
        }
        return RGBImage(width: storedWidth, height: storedHeight, pixels: pixels)
    }

    /// A JPEG with an EXIF APP1 that holds only an Orientation tag.
    static func jpeg(_ image: RGBImage, orientation: Int?) throws -> [UInt8] {
        let bytes = try JPEGEncoder.encode(image, quality: 90)
        guard let orientation else { return bytes }
        let tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1,
                                                 0, UInt8(orientation), 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        return Array(bytes.prefix(2)) + segment + bytes.dropFirst(2)
    }

    /// The bounding box and count of the subject's pixels (red or yellow) on a rendered page.
    static func found(on page: (width: Int, height: Int, rgb: [UInt8])) -> (x0: Int, x1: Int, count: Int) {
        var x0 = Int.max, x1 = -1, count = 0
        for y in 0..<page.height {
            for x in 0..<page.width {
                let i = (y * page.width + x) * 3
                let r = Int(page.rgb[i]), b = Int(page.rgb[i + 2])
                guard r > 170, r - b > 100 else { continue }
                count += 1
                x0 = min(x0, x); x1 = max(x1, x)
            }
        }
        return (x0, x1, count)
    }

    @Test("the subject is whole on its A4 page, left or right, turned by EXIF or not; --crop centre cuts it away",
          arguments: [(true, nil), (false, nil), (true, 6), (false, 6)] as [(Bool, Int?)])
    func subjectKept(left: Bool, orientation: Int?) throws {
        let scratch = try Scratch()
        let picture = Self.upright(left: left)
        let photo = try scratch.write("photo.jpg", try Self.jpeg(orientation == 6 ? Self.storedForOrientation6(picture) : picture,
                                                                   orientation: orientation))
        // 40 dpi: the page's 1000 rows of photo are 468 pixels, the subject 150 x 206 of them.
        let expected = Double(320 * 440) * pow(468.0 / 1000, 2)
        for crop in ["auto", "centre"] {
            let pdf = scratch.file("\(crop).pdf")
            let run = try Run.photobook(["build", photo, "-o", pdf, "--page-size", "a4", "--margin", "0", "--crop", crop, "-q"])
            #expect(run.status == 0, "\(run.stderr)")
            let page = try renderPage(pdf, page: 1, dpi: 40, scratch: scratch)
            let seen = Self.found(on: page)
            if crop == "auto" {
                #expect(Double(seen.count) > 0.9 * expected, "\(crop): \(seen.count) subject pixels of \(Int(expected))")
                #expect(seen.x0 > 2 && seen.x1 < page.width - 3, "\(crop): subject at columns \(seen.x0)...\(seen.x1)")
            } else {
                #expect(Double(seen.count) < 0.05 * expected, "\(crop): \(seen.count) subject pixels")
            }
        }
    }

    @Test("the report and --verbose say the crop came from the attention map")
    func said() throws {
        let scratch = try Scratch()
        let photo = try scratch.write("left.jpg", try Self.jpeg(Self.upright(left: true), orientation: nil))
        let report = scratch.file("report.json")
        let run = try Run.photobook(["build", photo, "-o", scratch.file("book.pdf"), "--page-size", "a4", "--margin", "0",
                                     "-v", "--report", report])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ReportSchema.problems(in: report) == nil)
        #expect(try #require(try ReadReport(path: report).photo(named: "left.jpg")).cropFrom == "attention")
        #expect(run.stderr.contains("cropped around what draws the eye"), "\(run.stderr)")
    }

    @Test("--crop center is --crop centre, on the command line, in a book description and in --help")
    func americanSpelling() throws {
        let scratch = try Scratch()
        let photo = try scratch.write("left.jpg", try Self.jpeg(Self.upright(left: true), orientation: nil))
        let page = ["--page-size", "a4", "--margin", "0", "-q"]
        var pages: [String: [UInt8]] = [:]
        for crop in ["auto", "centre", "center", "Center"] {
            let pdf = scratch.file("\(crop).pdf")
            let run = try Run.photobook(["build", photo, "-o", pdf, "--crop", crop] + page)
            #expect(run.status == 0, "\(crop): \(run.stderr)")
            pages[crop] = try renderPage(pdf, page: 1, dpi: 40, scratch: scratch).rgb
        }
        #expect(pages["center"] == pages["centre"] && pages["Center"] == pages["centre"])
        // The subject is off the centre: auto moves the crop, so the comparison above can tell the modes apart.
        #expect(pages["auto"] != pages["centre"])
        let description = try scratch.write("book.json", Array(#"{"schema": 1, "options": {"crop": "center", "page-size": "a4", "margin": "0"}, "pages": [{"photos": [{"path": "left.jpg"}]}]}"#.utf8))
        let described = scratch.file("described.pdf")
        let fromFile = try Run.photobook(["build", description, "-o", described, "-q"])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        if fromFile.status == 0 { #expect(try renderPage(described, page: 1, dpi: 40, scratch: scratch).rgb == pages["centre"]) }
        let help = try Run.photobook(["build", "--help"])
        #expect(help.stdout.contains("centre (or center)"), "\(help.stdout)")
        let wrong = try Run.photobook(["build", photo, "-o", scratch.file("x.pdf"), "--crop", "middle"])
        #expect(wrong.status == 2 && wrong.stderr.contains("'middle'"), "\(wrong.stderr)")
    }

    @Test("a 6-megapixel HEIC is measured on its thmb item (heif-enc -t): the subject is whole; without one, centred")
    func heifThumbnailDrivesTheCrop() throws {
        let scratch = try Scratch()
        // The picture at twice its size: 3200x2000, more than a HEIF decoded whole for its map (4 megapixels).
        let small = Self.upright(left: true), width = 2 * Self.width, height = 2 * Self.height
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let from = ((y / 2) * Self.width + x / 2) * 3, to = (y * width + x) * 3
                pixels[to] = small.pixels[from]; pixels[to + 1] = small.pixels[from + 1]; pixels[to + 2] = small.pixels[from + 2]
            }
        }
        let png = try scratch.write("big.png", TestPNGEncoder.encode(width: width, height: height, colorType: 2, pixels: pixels))
        let expected = Double(320 * 440) * pow(468.0 / 1000, 2)
        for thumbnail in [true, false] {
            let heic = scratch.file(thumbnail ? "with.heic" : "without.heic")
            let encode = try Run.command("/usr/bin/heif-enc", ["-q", "50"] + (thumbnail ? ["-t", "320"] : []) + [png, "-o", heic])
            #expect(encode.status == 0, "heif-enc: \(encode.stderr)")
            let pdf = scratch.file(thumbnail ? "with.pdf" : "without.pdf")
            let run = try Run.photobook(["build", heic, "-o", pdf, "--page-size", "a4", "--margin", "0", "-q"])
            #expect(run.status == 0, "\(run.stderr)")
            let seen = Self.found(on: try renderPage(pdf, page: 1, dpi: 40, scratch: scratch))
            if thumbnail {
                #expect(Double(seen.count) > 0.9 * expected, "\(seen.count) subject pixels of \(Int(expected))")
            } else {
                #expect(Double(seen.count) < 0.05 * expected, "without a thumbnail: \(seen.count) subject pixels")
            }
        }
    }
}
