import Foundation
import TestSupport
import Testing

/// Print-service presets as a user meets them: each one's boxes and padding read back from the PDF against the
/// figures the service published (docs/presets.md), options given overriding a preset wherever they stand, the
/// listing naming every preset with a source for each figure, and a mistyped name refused with the nearest ones.
@Suite(.serialized) struct PresetTests {
    static let mm = 72 / 25.4, inch = 72.0

    /// The published figures, written out here from docs/presets.md rather than read from the program's table.
    struct Expected: CustomTestStringConvertible {
        var name: String
        var width: Double, height: Double
        var bleed: Double, safety: Double
        /// The page count's step, nil when none is published (the book keeps its own count).
        var step: Int?
        var testDescription: String { name }
    }

    static let expected: [Expected] = [
        Expected(name: "lulu-a4", width: 210 * mm, height: 297 * mm, bleed: 0.125 * inch, safety: 0.5 * inch, step: nil),
        Expected(name: "lulu-us-letter", width: 8.5 * inch, height: 11 * inch, bleed: 0.125 * inch, safety: 0.5 * inch, step: nil),
        Expected(name: "lulu-square", width: 8.5 * inch, height: 8.5 * inch, bleed: 0.125 * inch, safety: 0.5 * inch, step: nil),
        Expected(name: "lulu-us-letter-landscape", width: 11 * inch, height: 8.5 * inch, bleed: 0.125 * inch,
                 safety: 0.5 * inch, step: nil),
        Expected(name: "lulu-small-landscape", width: 9 * inch, height: 7 * inch, bleed: 0.125 * inch, safety: 0.5 * inch,
                 step: nil),
        Expected(name: "jukebox-booklet-letter", width: 8.5 * inch, height: 11 * inch, bleed: 0.125 * inch,
                 safety: 0.125 * inch, step: 4),
    ]

    static func photos(_ count: Int, into scratch: Scratch) throws -> [String] {
        let shapes = Array(repeating: (width: 300, height: 200), count: count)
        return try LayoutBookTests.writePhotos(into: scratch, shapes: shapes)
    }

    @Test(arguments: expected)
    func aPresetGivesThePublishedBoxesAndPadding(preset: Expected) throws {
        let scratch = try Scratch()
        // Five photos: a count no step divides, so that padding shows.
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build"] + (try Self.photos(5, into: scratch)) + ["-o", out, "--preset", preset.name])
        #expect(run.status == 0, "\(run.stderr)")
        let pages = try CropMarkTests.pageBoxes(out)
        let expectedPages = preset.step.map { (5 + $0 - 1) / $0 * $0 } ?? 5
        #expect(pages.count == expectedPages, "\(preset.name): \(pages.count) pages")
        if let step = preset.step, expectedPages > 5 {
            #expect(run.stderr.contains("\(expectedPages - 5) blank pages added to make a multiple of \(step)")
                        || run.stderr.contains("\(expectedPages - 5) blank page added to make a multiple of \(step)"),
                    "\(run.stderr)")
        }
        let b = preset.bleed, w = preset.width, h = preset.height, s = preset.safety
        for (number, boxes) in pages {
            #expect(CropMarkTests.near(boxes["MediaBox"], [0, 0, w + 2 * b, h + 2 * b]), "page \(number): \(boxes)")
            #expect(CropMarkTests.near(boxes["BleedBox"], [0, 0, w + 2 * b, h + 2 * b]), "page \(number): \(boxes)")
            #expect(CropMarkTests.near(boxes["TrimBox"], [b, b, b + w, b + h]), "page \(number): \(boxes)")
            #expect(CropMarkTests.near(boxes["ArtBox"], [b + s, b + s, b + w - s, b + h - s]), "page \(number): \(boxes)")
        }
    }

    /// The first page's TrimBox and BleedBox, and the page count, of a book built with `arguments`.
    func build(_ arguments: [String], photos count: Int = 1) throws -> (trim: [Double]?, media: [Double]?, pages: Int) {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build"] + (try Self.photos(count, into: scratch)) + ["-o", out, "-q"] + arguments)
        #expect(run.status == 0, "\(arguments): \(run.stderr)")
        let pages = try CropMarkTests.pageBoxes(out)
        return (pages[1]?["TrimBox"], pages[1]?["MediaBox"], pages.count)
    }

    @Test(arguments: [["--bleed", "5mm", "--preset", "lulu-a4"], ["--preset", "lulu-a4", "--bleed", "5mm"],
                      ["--bleed=5mm", "--preset=LULU-A4"]])
    func anOptionGivenOverridesThePresetWhereverItStands(arguments: [String]) throws {
        let book = try build(arguments)
        let b = 5 * Self.mm, w = 210 * Self.mm, h = 297 * Self.mm
        #expect(CropMarkTests.near(book.media, [0, 0, w + 2 * b, h + 2 * b]), "\(arguments): \(book)")
        #expect(CropMarkTests.near(book.trim, [b, b, b + w, b + h]), "\(arguments): \(book)")
    }

    @Test func thePageSizeAndPaddingGivenOverrideThePresetToo() throws {
        for arguments in [["--page-size", "a5", "--preset", "jukebox-booklet-letter", "--pad-to", "2"],
                          ["--pad-to", "2", "--preset", "jukebox-booklet-letter", "--page-size", "a5"]] {
            let book = try build(arguments, photos: 3)
            let b = 0.125 * Self.inch
            #expect(CropMarkTests.near(book.trim, [b, b, b + 148 * Self.mm, b + 210 * Self.mm]), "\(arguments): \(book)")
            #expect(book.pages == 4, "\(arguments): padded to a multiple of 2 from 3 photos, not of 4: \(book.pages)")
        }
        // And without them, the preset's own step: 3 photos make 4 pages, 5 make 8.
        #expect(try build(["--preset", "jukebox-booklet-letter"], photos: 5).pages == 8)
    }

    @Test func thePresetWidensTheMarginToTheSafetyMarginUnlessOneIsGiven() throws {
        let scratch = try Scratch()
        let photo = try Self.photos(1, into: scratch)[0]
        func photoLeftEdge(_ arguments: [String]) throws -> Double {
            let out = scratch.file("margin.pdf")
            let run = try Run.photobook(["build", photo, "-o", out, "-q", "--fit", "fill"] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
            // Along the middle row, the first column that is not paper, in points from the trim's left edge.
            let dpi = 72.0
            let page = try renderPage(out, page: 1, dpi: Int(dpi), scratch: scratch)
            let row = page.height / 2
            let first = (0..<page.width).first { x in
                let i = (row * page.width + x) * 3
                return Int(page.rgb[i]) + Int(page.rgb[i + 1]) + Int(page.rgb[i + 2]) < 3 * 240
            } ?? page.width
            return Double(first) * 72 / dpi - 0.125 * Self.inch
        }
        // Lulu's 0.5 in safety margin is wider than the 10 mm default margin: the photo moves in to it.
        #expect(abs(try photoLeftEdge(["--preset", "lulu-a4"]) - 0.5 * Self.inch) < 1.5)
        // A margin given wins, before or after the preset.
        #expect(abs(try photoLeftEdge(["--margin", "20mm", "--preset", "lulu-a4"]) - 20 * Self.mm) < 1.5)
        #expect(abs(try photoLeftEdge(["--preset", "lulu-a4", "--margin", "0"]) + 0.125 * Self.inch) < 1.5,
                "with no margin the photo runs into the bleed, to the page edge")
    }

    @Test func marksForAServiceThatRefusesThemAreAWarningNotAnError() throws {
        let scratch = try Scratch()
        let photo = try Self.photos(1, into: scratch)[0]
        let out = scratch.file("book.pdf")
        let lulu = try Run.photobook(["build", photo, "-o", out, "--preset", "lulu-a4", "--crop-marks"])
        #expect(lulu.status == 0 && FileManager.default.fileExists(atPath: out))
        #expect(lulu.stderr.contains("photobook: warning: --crop-marks: Lulu asks for files without crop marks"),
                "\(lulu.stderr)")
        let jukebox = try Run.photobook(["build", photo, "-o", out, "--preset", "jukebox-booklet-letter", "--crop-marks"])
        #expect(jukebox.status == 0 && !jukebox.stderr.contains("crop marks"), "\(jukebox.stderr)")
    }

    @Test func theListingNamesEveryPresetWithItsFiguresAndSources() throws {
        let run = try Run.photobook(["presets"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let blocks = run.stdout.components(separatedBy: "\n\n")
        // Every preset a test knows, each once (Lulu's are in both the sizes' and the page counts' tables).
        let known = Set(Self.expected.map(\.name) + PresetPageCountTests.rules.map(\.name) + HardcoverTests.casePresets)
        #expect(blocks.count == known.count, "\(run.stdout)")
        let docs = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/presets.md"), encoding: .utf8)
        for preset in Self.expected {
            guard let block = blocks.first(where: { $0.hasPrefix(preset.name + ":") }) else {
                Issue.record("\(preset.name) is not listed")
                continue
            }
            let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            // Each figure in millimetres and in inches, and the address it was published at.
            for label in ["trim size", "bleed", "safety margin"] {
                guard let index = lines.firstIndex(where: { $0.hasPrefix(label + " ") }) else {
                    Issue.record("\(preset.name): no \(label)")
                    continue
                }
                #expect(lines[index].contains(" mm") && lines[index].contains(" in"), "\(lines[index])")
                #expect(lines[index + 2].hasPrefix("source: https://"), "\(preset.name) \(label): \(lines[index + 2])")
            }
            #expect(lines.contains { $0.hasPrefix("bleed") && $0.contains(String(format: "%.3g in", preset.bleed / 72)) },
                    "\(preset.name): \(block)")
            let count = lines.first { $0.hasPrefix("page count") } ?? ""
            if let step = preset.step {
                #expect(count.contains("multiple of \(step)"), "\(preset.name): \(count)")
                #expect(block.contains("--pad-to \(step)"))
            } else {
                #expect(count.contains("no step found published"), "\(preset.name): \(count)")
            }
            #expect(docs.contains("`\(preset.name)`"), "docs/presets.md does not list \(preset.name)")
        }
        let one = try Run.photobook(["presets", "jukebox-booklet-letter"])
        #expect(one.status == 0 && one.stdout.hasPrefix("jukebox-booklet-letter:") && !one.stdout.contains("lulu"))
    }

    @Test func aMistypedPresetIsAUsageErrorNamingTheClosest() throws {
        let scratch = try Scratch()
        let photo = try Self.photos(1, into: scratch)[0]
        let out = scratch.file("book.pdf")
        let build = try Run.photobook(["build", photo, "-o", out, "--preset", "lulu-a5"])
        #expect(build.status == 2)
        #expect(build.stderr == "photobook: error: --preset: 'lulu-a5' is not a preset: did you mean lulu-a4? "
                    + "(see 'photobook presets')\n", "\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let list = try Run.photobook(["presets", "jukebox-letter"])
        #expect(list.status == 2 && list.stdout.isEmpty)
        #expect(list.stderr.hasPrefix("photobook: error: unknown preset 'jukebox-letter': did you mean jukebox-booklet-letter?"),
                "\(list.stderr)")
        let service = try Run.photobook(["presets", "lulu"])
        #expect(service.status == 2)
        for preset in Self.expected where preset.name.hasPrefix("lulu") {
            #expect(service.stderr.contains(preset.name), "\(service.stderr)")
        }
        #expect(!service.stderr.contains("jukebox"), "\(service.stderr)")
    }
}
