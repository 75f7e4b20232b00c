import Foundation
import Imaging
import JPEG
import Testing
import TestSupport

/// `--sort` and `--reverse`, end to end: photos whose names disagree with their capture dates, from a camera
/// that writes no time zone and a phone that does, and a PNG with an eXIf chunk; each photo one colour, so that
/// the order is read back from the rendered pages.
@Suite(.serialized) struct OrderTests {
    typealias Photo = (folder: String, name: String, colour: (UInt8, UInt8, UInt8), metadata: PhotoMetadata)

    static let photos: [Photo] = [
        ("camera", "DSC_0000.jpg", (0, 255, 255), PhotoMetadata()),  // no date at all
        ("camera", "DSC_0001.jpg", (255, 0, 0), PhotoMetadata(date: "2024:07:10 14:04:00")),
        ("camera", "DSC_0002.jpg", (0, 255, 0), PhotoMetadata(date: "2024:07:10 14:16:00")),
        ("phone", "IMG_0001.jpg", (255, 0, 255), PhotoMetadata(date: "2024:07:10 14:20:00", offset: "+02:00")),
        ("phone", "IMG_0002.jpg", (255, 255, 0), PhotoMetadata(date: "2024:07:10 14:10:00", subSeconds: "25", offset: "+02:00")),
        ("phone", "IMG_0003.jpg", (0, 0, 255), PhotoMetadata(date: "2024:07:10 14:00:00", offset: "+02:00")),
        ("phone", "IMG_0004.jpg", (255, 128, 0), PhotoMetadata(date: "2024:07:10 14:10:00", subSeconds: "1", offset: "+02:00")),
        // 15:12 at +03:00 is 12:12 UTC: between the phone's 14:10 and the camera's 14:16 (12:16 UTC, +02:00 borrowed
        // from the phone's 14:20, the nearest in local time).
        ("phone", "scan.png", (128, 128, 128), PhotoMetadata(date: "2024:07:10 15:12:00", offset: "+03:00")),
    ]

    static func write(into scratch: Scratch) throws {
        _ = try scratch.sub("camera")
        _ = try scratch.sub("phone")
        for photo in photos {
            let bytes: [UInt8]
            if photo.name.hasSuffix(".png") {
                bytes = photo.metadata.inserted(intoPNG: PhotoMetadata.solidPNG(width: 48, height: 48, rgb: photo.colour))
            } else {
                let c = photo.colour
                let image = RGBImage(width: 48, height: 48, pixels: (0..<48 * 48).flatMap { _ in [c.0, c.1, c.2] })
                let jpeg = try JPEGEncoder.encode(image, quality: 95)
                bytes = photo.metadata.date == nil ? jpeg : photo.metadata.inserted(intoJPEG: jpeg)
            }
            _ = try scratch.write("\(photo.folder)/\(photo.name)", bytes)
        }
    }

    /// Builds a book of small square pages, one photo filling each, and names the photo on each page by its colour.
    static func book(_ arguments: [String], in scratch: Scratch) throws -> (names: [String], run: Run) {
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build"] + arguments + ["-o", out, "--page-size", "20x20mm", "--margin", "0", "-v"])
        #expect(run.status == 0, "\(run.stderr)")
        let pages = try PDFFacts(out).pages
        var names: [String] = []
        for page in 1...max(1, pages) {
            let render = try renderPage(out, page: page, dpi: 30, scratch: scratch)
            let centre = ((render.height / 2) * render.width + render.width / 2) * 3
            let pixel = (Int(render.rgb[centre]), Int(render.rgb[centre + 1]), Int(render.rgb[centre + 2]))
            let nearest = photos.min { a, b in
                distance(a.colour, pixel) < distance(b.colour, pixel)
            }!
            #expect(distance(nearest.colour, pixel) < 40 * 40, "page \(page): \(pixel)")
            names.append(nearest.name)
        }
        return (names, run)
    }

    static func distance(_ a: (UInt8, UInt8, UInt8), _ b: (Int, Int, Int)) -> Int {
        let d = (Int(a.0) - b.0, Int(a.1) - b.1, Int(a.2) - b.2)
        return d.0 * d.0 + d.1 * d.1 + d.2 * d.2
    }

    static let byDate = ["IMG_0003.jpg", "DSC_0001.jpg", "IMG_0004.jpg", "IMG_0002.jpg", "scan.png", "DSC_0002.jpg",
                         "IMG_0001.jpg", "DSC_0000.jpg"]

    @Test func dateOrderInterleavesTheCameraAndThePhoneAcrossTimeZones() throws {
        let scratch = try Scratch()
        try Self.write(into: scratch)
        let (names, run) = try Self.book([scratch.file("camera"), scratch.file("phone"), "--sort", "date"], in: scratch)
        #expect(names == Self.byDate)
        #expect(run.stderr.contains("photobook: \(scratch.file("camera/DSC_0000.jpg")): no capture date: placed after "
                                    + "the dated photos, in name order"), "\(run.stderr)")
        #expect(!run.stderr.contains("DSC_0001.jpg: no capture date"))
    }

    @Test func reverseGivesTheSameBookBackwards() throws {
        let scratch = try Scratch()
        try Self.write(into: scratch)
        let (names, run) = try Self.book([scratch.file("phone"), scratch.file("camera"), "--sort", "date", "--reverse"],
                                         in: scratch)
        #expect(names == Self.byDate.reversed())
        #expect(run.stderr.contains("DSC_0000.jpg: no capture date: placed before the dated photos, in reverse name order"))
        let (byName, _) = try Self.book([scratch.file("camera"), scratch.file("phone"), "--reverse"], in: scratch)
        #expect(byName == Self.photos.map(\.name).reversed())
    }

    @Test func nameIsTheDefaultAndSortsRunsOfNamedPhotosWhileGivenKeepsThem() throws {
        let scratch = try Scratch()
        try Self.write(into: scratch)
        let (names, run) = try Self.book([scratch.file("camera"), scratch.file("phone")], in: scratch)
        #expect(names == Self.photos.map(\.name))
        #expect(!run.stderr.contains("no capture date"))
        let mixed = [scratch.file("phone/IMG_0003.jpg"), scratch.file("phone/IMG_0001.jpg"), scratch.file("camera"),
                     scratch.file("phone/scan.png"), scratch.file("phone/IMG_0002.jpg")]
        #expect(try Self.book(mixed, in: scratch).names
                == ["IMG_0001.jpg", "IMG_0003.jpg", "DSC_0000.jpg", "DSC_0001.jpg", "DSC_0002.jpg", "IMG_0002.jpg", "scan.png"])
        #expect(try Self.book(mixed + ["--sort", "given"], in: scratch).names
                == ["IMG_0003.jpg", "IMG_0001.jpg", "DSC_0000.jpg", "DSC_0001.jpg", "DSC_0002.jpg", "scan.png", "IMG_0002.jpg"])
    }

    @Test func anUnknownOrderIsAUsageError() throws {
        let run = try Run.photobook(["build", Run.fixture("exif-orientation"), "-o", "/tmp/never.pdf", "--sort", "time"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("'time' is not one of: name, date, given"), "\(run.stderr)")
    }
}
