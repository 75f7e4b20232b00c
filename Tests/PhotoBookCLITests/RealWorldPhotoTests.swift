import Foundation
import TestSupport
import Testing

/// Books made from real files nobody here made (phones, a scanner; `Fixtures/*/metadata-extractor-images/`), each
/// page's picture compared with what an independent decoder makes of the file: upright, whole, right colours.
struct RealWorldPhotoTests {
    /// The decoder that gives the reference picture, upright.
    enum Reference: Sendable {
        /// libheif's heif-convert applies the file's own transformations (irot, imir, clap) and nothing else.
        case heifConvert
        /// libwebp's dwebp.
        case dwebp
        /// ImageMagick (through its own TIFF coder).
        case imageMagick
        /// A reference picture committed beside the fixture (Fixtures/heif/README.md says how it was made).
        case committed(String)

        func decode(_ source: String, to output: String) throws {
            let run: Run
            switch self {
            case .heifConvert: run = try Run.command("/usr/bin/heif-convert", ["-q", "100", source, output + ".png"])
            case .dwebp: run = try Run.command("/usr/bin/dwebp", [source, "-o", output + ".png"])  // PNG is its default
            case .imageMagick: run = try Run.command("/usr/bin/convert", [source + "[0]", "-depth", "8", output + ".png"])
            case .committed(let fixture): run = try Run.command("/bin/cp", [Run.fixture(fixture), output + ".png"])
            }
            #expect(run.status == 0, "\(self): \(run.stderr)")
        }
    }

    struct RealPhoto: CustomTestStringConvertible, Sendable {
        var fixture: String
        /// The upright size a person sees.
        var width: Int, height: Int
        var format: String
        var reference: Reference
        /// The embedded image carries an ICC profile (the photo's own: Display P3 for an iPhone).
        var hasProfile: Bool
        var testDescription: String { fixture }
    }

    static let photos: [RealPhoto] = [
        // An iPhone XR's HEIC: a grid of HEVC tiles, `irot` and EXIF Orientation 6 saying the same turn (applied
        // once), a Display P3 profile.
        RealPhoto(fixture: "heif/metadata-extractor-images/iphone-xr.heic", width: 3024, height: 4032,
                  format: "HEIF (HEIC)", reference: .heifConvert, hasProfile: true),
        // A Samsung Galaxy S10+'s HEIC (SM-G975F): the same turn written both ways, no profile.
        RealPhoto(fixture: "heif/metadata-extractor-images/samsung-galaxy-s10plus.heic", width: 3024, height: 4032,
                  format: "HEIF (HEIC)", reference: .heifConvert, hasProfile: false),
        // A lossy WebP (VP8X, with EXIF and an ICC profile) of an HTC Desire's photo.
        RealPhoto(fixture: "webp/metadata-extractor-images/htc-desire.webp", width: 776, height: 909,
                  format: "WebP (lossy)", reference: .dwebp, hasProfile: true),
        // A big-endian scan from an Epson Perfection V800 through VueScan: strips of 102 rows, an ICC profile,
        // an EXIF directory.
        RealPhoto(fixture: "tiff/metadata-extractor-images/epson-perfection-v800.tiff", width: 425, height: 640,
                  format: "TIFF (8-bit RGB, uncompressed)", reference: .imageMagick, hasProfile: true),
        // An iPhone 11 Pro's HEIC given what iOS 18 adds (a gain map and mattes whose auxl name two targets), which
        // heif-convert 1.15 refuses: the reference is its picture of the iPhone's own file.
        RealPhoto(fixture: "heif/metadata-extractor-images/iphone11pro-ios18-aux.heic", width: 3024, height: 4032,
                  format: "HEIF (HEIC)",
                  reference: .committed("heif/metadata-extractor-images/iphone11pro-reference.png"), hasProfile: true),
    ]

    /// `path` (any format ImageMagick reads) as 8-bit RGB of exactly `width` x `height`, box-filtered.
    static func rgb(_ path: String, width: Int, height: Int, scratch: Scratch) throws -> [UInt8] {
        let out = scratch.file("rgb-\(UUID().uuidString).ppm")
        let run = try Run.command("/usr/bin/convert", [path, "-alpha", "off", "-filter", "box",
                                                       "-resize", "\(width)x\(height)!", "-depth", "8", out])
        #expect(run.status == 0, "convert: \(run.stderr)")
        return try readPPM(out).rgb
    }

    /// The whole photo on a small page (`--fit fit`): the book's one image is the upright photo, resampled.
    @Test(arguments: photos)
    func eachPageIsTheIndependentDecodersPicture(_ photo: RealPhoto) throws {
        let scratch = try Scratch()
        let book = scratch.file("book.pdf"), json = scratch.file("report.json")
        let run = try Run.photobook(["build", Run.fixture(photo.fixture), "-o", book, "--fit", "fit",
                                     "--page-size", "100x150mm", "--dpi", "40", "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try ReadReport(path: json)
        let placed = try #require(report.photos.first)
        #expect(placed.outcome == "succeeded")
        #expect(placed.format == photo.format)

        let images = try PDFFacts(book).images
        #expect(images.count == 1)
        let image = try #require(images.first)
        #expect((image.color == "icc") == photo.hasProfile, "\(image.color)")
        // Upright: the embedded image has the photo's upright shape (a photo turned twice, or not at all, would not).
        let aspect = Double(photo.width) / Double(photo.height)
        #expect(abs(Double(image.width) / Double(image.height) - aspect) < 0.02, "\(image.width)x\(image.height)")

        let extract = try Run.command("/usr/bin/pdfimages", ["-j", book, scratch.file("page")])
        #expect(extract.status == 0, "pdfimages: \(extract.stderr)")
        let rendered = try Self.rgb(scratch.file("page-000.jpg"), width: image.width, height: image.height,
                                    scratch: scratch)
        try photo.reference.decode(Run.fixture(photo.fixture), to: scratch.file("reference"))
        let reference = try Self.rgb(scratch.file("reference.png"), width: image.width, height: image.height,
                                     scratch: scratch)
        // Measured: 1.5 to 4.5 (two resampling filters and a JPEG apart); the picture turned half round is 59.
        let difference = meanAbsoluteDifference(rendered, reference)
        #expect(difference < 7, "\(photo.fixture): mean difference \(difference)")
    }

    /// A phone folder: the photos of every format interleave by the moment they were taken (an HTC in 2011, an
    /// iPhone in 2019, a Samsung in 2020), the undated scan after them.
    @Test func aFolderOfRealPhotosSortsByCaptureDateAcrossFormats() throws {
        let scratch = try Scratch()
        let folder = try scratch.sub("phone")
        let names = ["a-scan.tiff", "b-samsung.heic", "c-iphone.heic", "d-htc.webp"]
        for (name, photo) in zip(names, [Self.photos[3], Self.photos[1], Self.photos[0], Self.photos[2]]) {
            _ = try scratch.copy(Run.fixture(photo.fixture), to: "phone/" + name)
        }
        let json = scratch.file("report.json")
        let run = try Run.photobook(["build", folder, "-o", scratch.file("book.pdf"), "--sort", "date", "--dpi", "30",
                                     "--report", json, "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try ReadReport(path: json)
        let order = report.book.pages.flatMap(\.photos).map { FileSystemName.base(report.photos[$0].path) }
        #expect(order == ["d-htc.webp", "c-iphone.heic", "b-samsung.heic", "a-scan.tiff"])
        #expect(run.stderr.contains("photobook: \(folder)/a-scan.tiff: no capture date: placed after the dated photos"),
                "\(run.stderr)")
        #expect(!run.stderr.contains("warning: \(folder)/c-iphone.heic"), "\(run.stderr)")
    }
}
