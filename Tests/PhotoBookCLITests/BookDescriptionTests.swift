import Foundation
import Imaging
import JPEG
import TestSupport
import Testing

/// `photobook init` and `photobook build book.json`: a description reproduces the book, edits a person makes to
/// it show in the rebuilt PDF, and every kind of mistake in it is named by its place in the file.
@Suite(.serialized) struct BookDescriptionTests {
    /// Photos in two folders, and the options of a book with words.
    static func trip(_ scratch: Scratch) throws -> (inputs: [String], options: [String]) {
        (try DryRunTests.photoFolders(scratch), ["--layout", "auto", "--captions", "name", "--sections", "folder",
                                                 "--page-numbers", "--margin", "8mm"])
    }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// Runs a Python script on the description, as a person (or their script) edits it; `book` is the parsed file.
    @discardableResult
    static func edit(_ path: String, _ script: String) throws -> String {
        let program = "import json, sys\npath = sys.argv[1]\nbook = json.load(open(path))\n" + script
            + "\njson.dump(book, open(path, 'w'), indent=2)\n"
        let run = try Run.command("/usr/bin/python3", ["-c", program, path])
        #expect(run.status == 0, "python3: \(run.stderr)")
        return run.stdout
    }

    @Test(arguments: [[String](), ["--layout", "grid 2x2", "--title", "Italy", "--cover-photo", "COVER", "--pad-to", "4"],
                      ["--layout", "single", "--fit", "fit", "--binding", "12mm"],
                      // A preset's figures go under the options in init as in build: the square pages' arrangements.
                      ["--preset", "lulu-square"]])
    func initThenBuildMakesTheBookTheDirectBuildMakes(variant: [String]) throws {
        let scratch = try Scratch()
        var (inputs, options) = try Self.trip(scratch)
        // The variant's options come last: the last value given wins.
        options += variant.map { $0 == "COVER" ? scratch.file("trip/Venice/img09.jpg") : $0 }
        _ = try scratch.sub("books")
        let description = scratch.file("books/trip.json")
        let initRun = try Run.photobook(["init"] + inputs + ["-o", description] + options)
        #expect(initRun.status == 0, "\(initRun.stderr)")
        let file = try Self.json(description)
        #expect(file["schema"] as? Int == 1)
        let written = try #require(file["options"] as? [String: Any])
        #expect(written.keys.sorted() == (["margin", "page-numbers"] + variant.enumerated().compactMap { offset, word in
            word.hasPrefix("--") && word != "--layout" ? String(word.dropFirst(2)) : nil
        }).sorted())
        if variant.contains("COVER") { #expect(written["cover-photo"] as? String == "../trip/Venice/img09.jpg") }
        let pages = try #require(file["pages"] as? [[String: Any]])
        let firstPhoto = try #require((pages.first?["photos"] as? [[String: Any]])?.first)
        #expect(firstPhoto["path"] as? String == "../trip/Rome/img01.jpg")
        #expect(firstPhoto["caption"] as? String == "img01")
        #expect(pages.first?["heading"] as? String == "Rome")
        let headings = pages.compactMap { $0["heading"] as? String }
        #expect(headings == ["Rome", "Venice"])
        #expect(pages.allSatisfy { $0["layout"] is String })

        let described = scratch.file("described.pdf"), direct = scratch.file("direct.pdf")
        let fromFile = try Run.photobook(["build", description, "-o", described, "--verbose"])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        let directRun = try Run.photobook(["build"] + inputs + ["-o", direct, "--verbose"] + options)
        #expect(directRun.status == 0, "\(directRun.stderr)")
        let listed = DryRunTests.pages(fromFile.stderr, verbose: true)
        #expect(!listed.isEmpty)
        #expect(listed == DryRunTests.pages(directRun.stderr, verbose: true))
        let photoPages = listed.filter { !$0.head.hasSuffix("title") && !$0.head.hasSuffix("blank") }
        #expect(photoPages.count == pages.count)
        // The dry run of the description predicts the same pages.
        let dry = try Run.photobook(["build", description, "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(DryRunTests.pages(dry.stdout, verbose: false) == listed)
        let a = try PDFFacts(described), b = try PDFFacts(direct)
        #expect(a.pages == b.pages)
        #expect(a.images.map { "\($0.page) \($0.width)x\($0.height)" } == b.images.map { "\($0.page) \($0.width)x\($0.height)" })
        for page in 1...a.pages {
            #expect(try WordsTests.text(described, page: page) == WordsTests.text(direct, page: page))
        }
    }

    /// A multi-page TIFF's pages are photos of their own, which init writes by their names ("scan.tif (page 2 of
    /// 3)") and build reads back as those pages; the file named alone, or a page count it no longer has, is a
    /// usage error that says how to name them.
    @Test func theDescriptionOfAMultiPageTIFFNamesItsPages() throws {
        let scratch = try Scratch()
        _ = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture("tiff/multipage.tif"), to: "photos/scan.tif")
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/a.jpg")
        let description = scratch.file("book.json")
        let initRun = try Run.photobook(["init", scratch.file("photos"), "-o", description])
        #expect(initRun.status == 0, "\(initRun.stderr)")
        let pages = try #require(try Self.json(description)["pages"] as? [[String: Any]])
        let paths = pages.flatMap { ($0["photos"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String } }
        #expect(paths == ["photos/a.jpg", "photos/scan.tif (page 1 of 3)", "photos/scan.tif (page 2 of 3)",
                          "photos/scan.tif (page 3 of 3)"])
        let described = scratch.file("described.pdf"), direct = scratch.file("direct.pdf")
        let fromFile = try Run.photobook(["build", description, "-o", described])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(try Run.photobook(["build", scratch.file("photos"), "-o", direct]).status == 0)
        let a = try PDFFacts(described), b = try PDFFacts(direct)
        #expect(a.images.map { "\($0.page) \($0.width)x\($0.height)" } == b.images.map { "\($0.page) \($0.width)x\($0.height)" })

        try Self.edit(description, "book['pages'][1]['photos'][0]['path'] = 'photos/scan.tif'")
        let alone = try Run.photobook(["build", description, "-o", described])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("pages[1].photos[0].path: \(scratch.file("photos/scan.tif")) holds 3 pictures: list "
                                      + "each as \"photos/scan.tif (page 1 of 3)\""), "\(alone.stderr)")
        try Self.edit(description, "book['pages'][1]['photos'][0]['path'] = 'photos/scan.tif (page 1 of 4)'")
        let miscounted = try Run.photobook(["build", description, "-o", described])
        #expect(miscounted.status == 2)
        #expect(miscounted.stderr.contains("holds 3 pictures now, not 4"), "\(miscounted.stderr)")
    }

    /// Red, green and blue thirds, left to right: which third a page shows says where the crop went.
    static func thirds(width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width { pixels[(y * width + x) * 3 + min(2, x * 3 / width)] = 230 }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The colour at the middle of page `page`, rendered small.
    static func middle(_ pdf: String, page: Int, scratch: Scratch) throws -> (r: Int, g: Int, b: Int) {
        let image = try renderPage(pdf, page: page, dpi: 20, scratch: scratch)
        let i = (image.height / 2 * image.width + image.width / 2) * 3
        return (Int(image.rgb[i]), Int(image.rgb[i + 1]), Int(image.rgb[i + 2]))
    }

    @Test func editsAPersonMakesShowInTheRebuiltBook() throws {
        let scratch = try Scratch()
        let (inputs, options) = try Self.trip(scratch)
        _ = try scratch.write("wide.jpg", JPEGEncoder.encode(Self.thirds(width: 1500, height: 500), options: .init(quality: 95)))
        let description = scratch.file("trip.json")
        #expect(try Run.photobook(["init"] + inputs + ["-o", description] + options).status == 0)
        let before = try Self.json(description)["pages"] as? [[String: Any]] ?? []
        #expect(before.count >= 3)
        // Reorder the first page's photos and caption one, delete a photo from a later page (and its layout,
        // which held it), pin another page as a grid, add pages with a new photo focused on its left edge, on its
        // right edge, and on neither.
        let picked = try Self.edit(description, """
            pages = book['pages']
            first = pages[0]['photos']
            first.reverse()
            first[0]['caption'] = 'Colosseum at noon'
            cut = next(i for i, p in enumerate(pages) if i > 0 and len(p['photos']) >= 2)
            pages[cut]['photos'].pop()
            del pages[cut]['layout']
            pin = next(i for i, p in enumerate(pages) if i not in (0, cut) and 2 <= len(p['photos']) <= 4)
            pages[pin]['layout'] = 'grid 2x2'
            pages.append({'photos': [{'path': 'wide.jpg', 'focus': [0, 0.5]}]})
            pages.append({'layout': 'single', 'photos': [{'path': 'wide.jpg', 'focus': [1, 0.5]}]})
            pages.append({'photos': [{'path': 'wide.jpg'}]})
            print(cut, pin)
            """).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(picked.count == 2)
        let (cut, pin) = (picked[0], picked[1])
        let after = try Self.json(description)["pages"] as? [[String: Any]] ?? []
        func names(_ page: [String: Any]) -> [String] {
            (page["photos"] as? [[String: Any]] ?? []).map { URL(fileURLWithPath: $0["path"] as! String).lastPathComponent }
        }
        let out = scratch.file("edited.pdf")
        // --crop centre: the unfocused page must show the middle third, where an attention map would take the edge
        // between two thirds (a focus wins either way).
        let run = try Run.photobook(["build", description, "-o", out, "--verbose", "--crop", "centre"])
        try #require(run.status == 0, "\(run.stderr)")
        let listed = DryRunTests.pages(run.stderr, verbose: true)
        try #require(listed.map(\.photos) == after.map(names))
        #expect(names(after[0]) == names(before[0]).reversed())
        #expect(names(after[cut]) == Array(names(before[cut]).dropLast()))
        #expect(listed[pin].head.hasSuffix(", " + (after[pin]["layout"] as? String ?? "?")), "\(listed[pin])")
        #expect(try PDFFacts(out).pages == after.count)
        #expect(try WordsTests.text(out, page: 1).contains("Colosseum at noon"))
        // The crop keeps its focus in view: the left third, the right third, and the middle by default.
        let count = after.count
        let left = try Self.middle(out, page: count - 2, scratch: scratch)
        let right = try Self.middle(out, page: count - 1, scratch: scratch)
        let centre = try Self.middle(out, page: count, scratch: scratch)
        #expect(left.r > 180 && left.g < 60 && left.b < 60, "\(left)")
        #expect(right.b > 180 && right.r < 60 && right.g < 60, "\(right)")
        #expect(centre.g > 180 && centre.r < 60 && centre.b < 60, "\(centre)")
        // The same size of crop for each: only the part of the photo changes. (A lossless crop embeds whole blocks
        // around it, so the embedded sizes may differ by where the crop falls on the 16-pixel grid.)
        let images = try PDFFacts(out).images.filter { $0.page >= count - 2 }
        #expect(images.count == 3, "\(images)")
        for image in images {
            #expect(abs(image.width - images[0].width) < 2 * 16 && abs(image.height - images[0].height) < 2 * 16, "\(images)")
        }
    }

    @Test func optionsOnTheCommandLineOverrideTheFile() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600), (600, 900), (900, 600)])
        let description = scratch.file("book.json")
        let initRun = try Run.photobook(["init"] + photos + ["-o", description, "--page-size", "a5", "--pad-to", "4"])
        #expect(initRun.status == 0, "\(initRun.stderr)")
        #expect((try Self.json(description)["options"] as? [String: String]) == ["page-size": "a5", "pad-to": "4"])
        let out = scratch.file("book.pdf")
        #expect(try Run.photobook(["build", description, "-o", out]).status == 0)
        var facts = try PDFFacts(out)
        #expect(facts.pages == 4)
        #expect(abs(facts.pageSizes[0].width - 419.53) < 0.1)
        // The page size from the command line, the padding still from the file.
        #expect(try Run.photobook(["build", description, "-o", out, "--page-size", "letter"]).status == 0)
        facts = try PDFFacts(out)
        #expect(facts.pages == 4)
        #expect(abs(facts.pageSizes[0].width - 612) < 0.1)
        // Options the pages decide are refused beside a description, not silently ignored.
        let sorted = try Run.photobook(["build", description, "-o", out, "--sort", "date"])
        #expect(sorted.status == 2 && sorted.stderr.contains("--sort"))
    }

    @Test func aPhotoThatFailsAtDecodeLeavesNoHoleAndATooTightLayoutNamesItsPage() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600), (900, 600), (1500, 500), (600, 900)])
        // Truncated: the header probes well, the pixels do not decode. Only a build finds it out.
        let bytes = try Fixtures.read(photos[1])
        _ = try scratch.write("photos/cut.jpg", Array(bytes.prefix(bytes.count / 2)))
        let description = try scratch.write("book.json", Array(#"""
            {"schema": 1, "pages": [{"layout": "[1 | 2]", "photos": [{"path": "photos/img01.jpg"}, {"path": "photos/cut.jpg"}]},
                                    {"layout": "grid 2x2", "photos": [{"path": "photos/img02.jpg"}, {"path": "photos/cut.jpg"}]}]}
            """#.utf8))
        let dry = try Run.photobook(["build", description, "--dry-run"])
        #expect(dry.status == 0)
        #expect(DryRunTests.pages(dry.stdout, verbose: false).map(\.photos) == [["img01.jpg", "cut.jpg"], ["img02.jpg", "cut.jpg"]])
        let out = scratch.file("book.pdf")
        let (run, report) = try Run.photobookReporting(["build", description, "-o", out, "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(report.kinds["cut.jpg"] == "corrupt" && report.photo(named: "cut.jpg")?.outcome == "failed", "\(report.kinds)")
        #expect(run.stderr.contains("photobook: warning: \(scratch.file("photos/cut.jpg")): "), "\(run.stderr)")
        let listed = DryRunTests.pages(run.stderr, verbose: true)
        #expect(listed.map(\.photos) == [["img01.jpg"], ["img02.jpg"]])
        // The row of two gives way to the best arrangement of one; a grid still holds one.
        #expect(listed.map(\.head) == ["1 photo, 1", "1 photo, grid 2x2"])
        #expect(try PDFFacts(out).images.count == 2)

        // A panorama and five portraits in a row leave the portraits slivers: the build fails and says which page.
        let row = ([#"{"path": "photos/img03.jpg"}"#] + (1...5).map { _ in #"{"path": "photos/img04.jpg"}"# })
            .joined(separator: ", ")
        let tightJSON = #"{"schema": 1, "pages": [{"photos": [{"path": "photos/img01.jpg"}]}, "#
            + #"{"layout": "[1 | 2 | 3 | 4 | 5 | 6]", "photos": ["# + row + "]}]}"
        _ = try scratch.write("book.json", Array(tightJSON.utf8))
        for extra in [["-o", out], ["--dry-run"]] {
            let tight = try Run.photobook(["build", description] + extra)
            #expect(tight.status == 1, "\(tight.stderr)")
            #expect(tight.stderr.contains("pages[1]: the layout \"[1 | 2 | 3 | 4 | 5 | 6]\""), "\(tight.stderr)")
        }
    }

    /// Each broken description, and the place the error must name.
    static let broken: [(name: String, json: String, place: String)] = [
        ("bad JSON", "{\"schema\": 1,\n  \"pages\": [ {\"photos\": [}]}", "line 2, column"),
        ("not an object", "[1, 2]", "the top level"),
        ("unknown key", #"{"schema": 1, "pages": [{"photos": [{"path": "a.jpg", "crop": 1}]}]}"#, "pages[0].photos[0].crop"),
        ("unknown top key", #"{"schema": 1, "title": "x", "pages": []}"#, "title: unknown key"),
        ("wrong type", #"{"schema": 1, "pages": [{"photos": [{"path": 7}]}]}"#, "pages[0].photos[0].path: expected a string"),
        ("wrong option type", #"{"schema": 1, "options": {"page-numbers": "yes"}, "pages": [{"photos": [{"path": "a.jpg"}]}]}"#,
         "options.page-numbers: expected true"),
        ("bad option value", #"{"schema": 1, "options": {"margin": "wide"}, "pages": [{"photos": [{"path": "a.jpg"}]}]}"#,
         "options.margin"),
        ("unknown option", #"{"schema": 1, "options": {"colour": "red"}, "pages": [{"photos": [{"path": "a.jpg"}]}]}"#,
         "options.colour: unknown option"),
        ("focus out of range", #"{"schema": 1, "pages": [{"photos": [{"path": "a.jpg"}]}, {"photos": [{"path": "a.jpg"}, {"path": "a.jpg", "focus": [0.5, 1.5]}]}]}"#,
         "pages[1].photos[1].focus"),
        ("focus of one number", #"{"schema": 1, "pages": [{"photos": [{"path": "a.jpg", "focus": [0.5]}]}]}"#,
         "pages[0].photos[0].focus"),
        ("focus not numbers", #"{"schema": 1, "pages": [{"photos": [{"path": "a.jpg", "focus": "left"}]}]}"#,
         "pages[0].photos[0].focus"),
        ("layout that does not fit", #"{"schema": 1, "pages": [{"layout": "[1 | 2]", "photos": [{"path": "a.jpg"}]}]}"#,
         "pages[0].layout: \"[1 | 2]\" holds 2 photos, the page has 1"),
        ("grid too small", #"{"schema": 1, "pages": [{"layout": "grid 1x1", "photos": [{"path": "a.jpg"}, {"path": "a.jpg"}]}]}"#,
         "pages[0].layout"),
        ("unknown layout", #"{"schema": 1, "pages": [{"layout": "mosaic", "photos": [{"path": "a.jpg"}]}]}"#,
         "pages[0].layout: expected single, grid CxR"),
        ("missing photo", #"{"schema": 1, "pages": [{"photos": [{"path": "a.jpg"}, {"path": "gone/b.jpg"}]}]}"#,
         "pages[0].photos[1].path: "),
        ("a folder for a photo", #"{"schema": 1, "pages": [{"photos": [{"path": "."}]}]}"#, "pages[0].photos[0].path"),
        ("not a photo", #"{"schema": 1, "pages": [{"photos": [{"path": "notes.txt"}]}]}"#, "pages[0].photos[0].path"),
        ("no pages", #"{"schema": 1, "pages": []}"#, "pages: expected at least one page"),
        ("empty page", #"{"schema": 1, "pages": [{"photos": [{"path": "a.jpg"}]}, {"photos": []}]}"#,
         "pages[1].photos: expected at least one photo"),
        ("missing pages", #"{"schema": 1}"#, "pages: missing"),
        ("other schema", #"{"schema": 9, "pages": []}"#, "schema: expected 1"),
        ("option a description decides", #"{"schema": 1, "options": {"layout": "auto"}, "pages": [{"photos": [{"path": "a.jpg"}]}]}"#,
         "options.layout"),
        ("empty file", "", "not valid JSON"),
    ]

    @Test func everyKindOfBrokenDescriptionIsAUsageErrorThatSaysWhere() throws {
        let scratch = try Scratch()
        let photo = try LayoutBookTests.writePhotos(into: scratch, shapes: [(600, 400)])[0]
        try FileManager.default.moveItem(atPath: photo, toPath: scratch.file("a.jpg"))
        _ = try scratch.write("notes.txt", Array("just words".utf8))
        let out = scratch.file("book.pdf")
        for (name, json, place) in Self.broken {
            let path = try scratch.write("book.json", Array(json.utf8))
            for extra in [[], ["--dry-run"]] {
                let run = try Run.photobook(["build", path, "-o", out] + extra)
                #expect(run.status == 2, "\(name): exit \(run.status) \(run.stderr)")
                #expect(run.stderr.hasPrefix("photobook: error: \(path): "), "\(name): \(run.stderr)")
                #expect(run.stderr.contains(place), "\(name): \(run.stderr)")
                #expect(run.stderr.split(separator: "\n").count == 1, "\(name): \(run.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: out), "\(name)")
        }
        // The missing photo is named by its path, as the file resolves it.
        _ = try scratch.write("book.json", Array(Self.broken.first { $0.name == "missing photo" }!.json.utf8))
        let missing = try Run.photobook(["build", scratch.file("book.json"), "-o", out])
        #expect(missing.stderr.contains(scratch.path + "/gone/b.jpg"), "\(missing.stderr)")
        // The same file, mended, builds.
        _ = try scratch.write("book.json", Array(#"{"schema": 1, "pages": [{"photos": [{"path": "a.jpg"}]}]}"#.utf8))
        #expect(try Run.photobook(["build", scratch.file("book.json"), "-o", out]).status == 0)
        #expect(try PDFFacts(out).pages == 1)
    }
}
