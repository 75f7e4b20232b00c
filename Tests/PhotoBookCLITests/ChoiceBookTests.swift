import Foundation
import Testing
import TestSupport

/// `--photos N` and `--pages N`, end to end on a small trip made with ImageMagick and exiftool: two days, a burst
/// of four frames of which one is sharp, a dark photo, a blurred one, a screenshot, a photo of a receipt, a photo
/// its owner starred and one rejected (XMP sidecars). The book's photos are read from the report and the PDF.
@Suite(.serialized) struct ChoiceBookTests {
    /// Each photo: its name, how it is made from its scene, when it was taken, its sidecar's rating.
    struct Photo {
        var name: String
        var scene: Int
        var effect: [String] = []
        var time: String?
        var rating: Int?
    }

    static let photos: [Photo] = [
        Photo(name: "IMG_0001.jpg", scene: 1, effect: ["-roll", "+20+6", "-blur", "0x9"], time: "2024:03:12 10:00:00.10"),
        Photo(name: "IMG_0002.jpg", scene: 1, effect: ["-roll", "+30+9", "-motion-blur", "0x40+15"], time: "2024:03:12 10:00:00.50"),
        Photo(name: "IMG_0003.jpg", scene: 1, effect: ["-roll", "+10+3"], time: "2024:03:12 10:00:00.90"),
        Photo(name: "IMG_0004.jpg", scene: 1, effect: ["-roll", "+40+12", "-blur", "0x11"], time: "2024:03:12 10:00:01.30"),
        Photo(name: "IMG_0005.jpg", scene: 2, time: "2024:03:12 10:20:00.00"),
        Photo(name: "IMG_0006.jpg", scene: 3, time: "2024:03:12 11:00:00.00"),
        Photo(name: "IMG_0007.jpg", scene: 4, effect: ["-evaluate", "multiply", "0.07"], time: "2024:03:12 11:30:00.00"),
        Photo(name: "IMG_0008.png", scene: 0),
        Photo(name: "IMG_0009.jpg", scene: -1, time: "2024:03:12 12:00:00.00"),
        Photo(name: "IMG_0010.jpg", scene: 5, time: "2024:03:13 09:00:00.00"),
        Photo(name: "IMG_0011.jpg", scene: 6, time: "2024:03:13 09:10:00.00"),
        Photo(name: "IMG_0012.jpg", scene: 7, effect: ["-blur", "0x14"], time: "2024:03:13 09:20:00.00"),
        Photo(name: "IMG_0013.jpg", scene: 8, time: "2024:03:13 09:30:00.00", rating: 5),
        Photo(name: "IMG_0014.jpg", scene: 9, time: "2024:03:13 09:40:00.00", rating: -1),
    ]

    /// The trip, made once for the suite (about 15 s of ImageMagick); each test writes its books elsewhere.
    static let trip: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photobook-choice-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let convert = "/usr/bin/convert"
        var scenes: [Int: String] = [:]
        func scene(_ number: Int) -> String {
            if let made = scenes[number] { return made }
            // A landscape-like scene with fine detail (plasma), a subject and some noise, as a camera gives.
            let path = folder + "/.scene\(number).png"
            _ = try? Run.command(convert, ["-seed", "\(number * 7 + 3)", "-size", "2000x1500", "plasma:", "-blur", "0x1",
                                           "-fill", "orange", "-draw", "circle 1000,750 1000,500", "-attenuate", "0.3",
                                           "+noise", "Gaussian", path])
            scenes[number] = path
            return path
        }
        for photo in photos {
            let out = folder + "/" + photo.name
            switch photo.scene {
            case 0:
                // A phone's screenshot: flat colours, bars, lines of text; no camera.
                _ = try? Run.command(convert, [
                    "-size", "1170x2532", "xc:#f2f2f7", "-fill", "white", "-draw", "rectangle 40,300 1130,900",
                    "-fill", "#007aff", "-draw", "rectangle 0,0 1170,200", "-fill", "black", "-pointsize", "48",
                    "-annotate", "+80+400", "Boarding pass  LH 1234", "-annotate", "+80+500", "Gate B12  Seat 23A",
                    "-fill", "#34c759", "-draw", "rectangle 80,1000 1090,1150", out])
            case -1:
                // A receipt on a table.
                var receipt = ["-size", "1400x1000", "xc:#6b4f3a", "(", "-size", "900x1200", "xc:#fbfaf5", "-fill", "#222",
                               "-pointsize", "34"]
                for (line, text) in ["RECEIPT  Cafe Lisboa", "2 x Pastel de nata  3.00", "1 x Espresso  1.20",
                                     "1 x Galao  1.80", "Total  6.00", "IVA 23%  1.12", "Obrigado!",
                                     "NIF 123456789", "Mesa 4"].enumerated() {
                    receipt += ["-annotate", "+60+\(100 + 70 * line)", text]
                }
                receipt += ["-rotate", "4", ")", "-gravity", "center", "-composite", "-resize", "2000x1500!",
                            "-attenuate", "0.2", "+noise", "Gaussian", "-quality", "92", out]
                _ = try? Run.command(convert, receipt)
            default:
                _ = try? Run.command(convert, [scene(photo.scene)] + photo.effect + ["-quality", "92", out])
            }
            if let time = photo.time {
                let parts = time.split(separator: ".")
                _ = try? Run.command("/usr/bin/exiftool", ["-q", "-overwrite_original", "-Make=Apple", "-Model=iPhone 13",
                                                           "-DateTimeOriginal=\(parts[0])", "-SubSecTimeOriginal=\(parts[1])",
                                                           "-OffsetTimeOriginal=+01:00", out])
            }
            if let rating = photo.rating {
                let xmp = """
                    <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
                    <rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="\(rating)"/></rdf:RDF></x:xmpmeta>
                    """
                _ = FileManager.default.createFile(atPath: out + ".xmp", contents: Data(xmp.utf8))
            }
        }
        for made in scenes.values { try? FileManager.default.removeItem(atPath: made) }
        return folder
    }()

    static func report(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    /// Each photo's selection in the report, by file name.
    static func selections(_ report: [String: Any]) -> [String: [String: Any]] {
        var found: [String: [String: Any]] = [:]
        for photo in report["photos"] as! [[String: Any]] {
            let name = (photo["path"] as! String).split(separator: "/").last.map(String.init)!
            found[name] = photo["selection"] as? [String: Any]
        }
        return found
    }

    @Test func photosNChoosesTheSharpFrameAndLeavesOutTheRest() throws {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf"), json = scratch.file("report.json")
        let run = try Run.photobook(["build", Self.trip, "--photos", "6", "--sort", "date", "--page-size", "10x10cm",
                                     "--no-cache", "--report", json, "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 6)
        try ReportSchema.expectValid(json)
        let selection = Self.selections(try Self.report(json))
        let chosen = selection.filter { $0.value["chosen"] as? Bool == true }.map(\.key).sorted()
        #expect(chosen == ["IMG_0003.jpg", "IMG_0005.jpg", "IMG_0006.jpg", "IMG_0010.jpg", "IMG_0011.jpg", "IMG_0013.jpg"])
        let reasons = selection.compactMapValues { $0["reason"] as? String }
        #expect(reasons == [
            "IMG_0001.jpg": "nearDuplicate", "IMG_0002.jpg": "nearDuplicate", "IMG_0004.jpg": "nearDuplicate",
            "IMG_0007.jpg": "exposure", "IMG_0008.png": "screenshot", "IMG_0009.jpg": "document",
            "IMG_0012.jpg": "blurred", "IMG_0014.jpg": "rejected",
        ])
        #expect((selection["IMG_0001.jpg"]?["of"] as? String)?.hasSuffix("/IMG_0003.jpg") == true)
        #expect(selection["IMG_0013.jpg"]?["score"] is Double)
        // The book's pages hold the chosen photos, in date order.
        let pages = (try Self.report(json)["book"] as! [String: Any])["pages"] as! [[String: Any]]
        #expect(pages.count == 6)
        #expect(run.stderr.contains("8 photos not chosen"), "\(run.stderr)")
    }

    @Test func pagesNFillsExactlyNPagesWithEveryDay() throws {
        let scratch = try Scratch()
        for (layout, pages) in [("single", 4), ("auto", 3), ("grid 2x1", 3)] {
            let out = scratch.file("book-\(pages).pdf"), json = scratch.file("report-\(pages).json")
            let run = try Run.photobook(["build", Self.trip, "--pages", "\(pages)", "--layout", layout, "--sort", "date",
                                         "--title", "Lisbon", "--page-size", "10x10cm", "--no-cache", "--report", json,
                                         "-o", out])
            #expect(run.status == 0, "\(layout): \(run.stderr)")
            #expect(try PDFFacts(out).pages == pages, "\(layout)")
            try ReportSchema.expectValid(json)
            let chosen = Self.selections(try Self.report(json)).filter { $0.value["chosen"] as? Bool == true }.map(\.key)
            // Both days, the starred photo, none of the junk.
            #expect(chosen.contains("IMG_0013.jpg"), "\(layout): \(chosen)")
            #expect(chosen.contains { ["IMG_0003.jpg", "IMG_0005.jpg", "IMG_0006.jpg"].contains($0) }, "\(layout): \(chosen)")
            for junk in ["IMG_0001.jpg", "IMG_0007.jpg", "IMG_0008.png", "IMG_0009.jpg", "IMG_0012.jpg", "IMG_0014.jpg"] {
                #expect(!chosen.contains(junk), "\(layout): \(junk)")
            }
        }
    }

    @Test func withoutACountOnlyTheRejectIsLeftOutAndTheDryRunSaysWhatItSaw() throws {
        let run = try Run.photobook(["build", Self.trip, "--sort", "date", "--dry-run"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("page ") }.count == 13)
        #expect(run.stdout.contains("choice: one moment, 4 photos: \(Self.trip)/IMG_0003.jpg kept"), "\(run.stdout)")
        #expect(run.stdout.contains("\(Self.trip)/IMG_0014.jpg: left out, rejected by its owner"))
        #expect(run.stdout.contains("\(Self.trip)/IMG_0008.png: looks a screenshot"))
        #expect(run.stdout.contains("\(Self.trip)/IMG_0012.jpg: looks blurred"))
        #expect(run.stdout.contains("\(Self.trip)/IMG_0007.jpg: looks badly exposed"))
        #expect(run.stdout.contains("\(Self.trip)/IMG_0009.jpg: looks a photo of a document"))
    }

    @Test func sectionsByEventHeadEachDay() throws {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", Self.trip, "--photos", "6", "--sort", "date", "--sections", "event",
                                     "--page-size", "10x10cm", "--no-cache", "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        let text = try Run.command("/usr/bin/pdftotext", [out, "-"]).stdout
        #expect(text.contains("12 March 2024") && text.contains("13 March 2024"), "\(text)")
        let refused = try Run.photobook(["build", Self.trip, "--sections", "event", "--dry-run"])
        #expect(refused.status == 2 && refused.stderr.contains("--sort date"))
    }

    @Test func initListsThePhotosLeftOutAndBuildPlacesWhatThePagesList() throws {
        let scratch = try Scratch()
        let description = scratch.file("book.json")
        let run = try Run.photobook(["init", Self.trip, "--photos", "6", "--sort", "date", "-o", description])
        #expect(run.status == 0, "\(run.stderr)")
        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: description))) as! [String: Any]
        let leftOut = file["photosLeftOut"] as! [[String: Any]]
        #expect(leftOut.count == 8)
        #expect(leftOut.contains { ($0["path"] as! String).hasSuffix("IMG_0014.jpg") && $0["reason"] as! String == "rejected" })
        let out = scratch.file("book.pdf")
        let built = try Run.photobook(["build", description, "--no-cache", "-o", out])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(try PDFFacts(out).pages == 6)
    }

    @Test(arguments: [
        (["--photos", "0"], "--photos"), (["--photos", "-3"], "--photos"), (["--photos", "many"], "--photos"),
        (["--pages", "0"], "--pages"), (["--photos", "3", "--pages", "3"], "--pages"),
        (["--pages", "25", "--preset", "lulu-a4"], "--pages"), (["--pages", "5", "--pad-to", "4"], "--pages"),
    ])
    func badCountsAreUsageErrors(arguments: [String], option: String) throws {
        let run = try Run.photobook(["build", Run.fixture("exif-orientation"), "--dry-run"] + arguments)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains(option), "\(arguments): \(run.stderr)")
    }
}
