import Foundation
import Geometry
import Testing
@testable import PhotoBook
import Platform
import EXIF

/// A measure for tests: every character as wide as half its size, and only Latin, Greek and Cyrillic letters,
/// digits and punctuation covered.
struct FixedMeasure: TextMeasure {
    var fontName: String { "Fixed" }
    func width(of text: String, size: Double) -> Double { Double(text.count) * size / 2 }
    func covers(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x0530 || scalar == "…" }
    var ascent: Double { 0.8 }
    var descent: Double { 0.2 }
}

/// Words on pages: wrapping, captions under their photos, the title page, page numbers; and where captions come from.
struct TextPlanTests {
    let measure = FixedMeasure()

    @Test func wrapBreaksAtSpacesAndCutsTheFourthLineWithAnEllipsis() {
        // 10 pt characters are 5 pt wide: 60 pt holds 12 of them.
        let short = TextLines.wrap("A short one", width: 60, size: 10, maxLines: 3, measure: measure)
        #expect(short.lines == ["A short one"] && !short.cut)
        let two = TextLines.wrap("the quick brown fox jumps", width: 60, size: 10, maxLines: 3, measure: measure)
        #expect(two.lines == ["the quick", "brown fox", "jumps"] && !two.cut)
        let long = TextLines.wrap("one two three four five six seven eight nine ten eleven twelve", width: 60,
                                  size: 10, maxLines: 3, measure: measure)
        #expect(long.cut && long.lines.count == 3 && long.lines[2].hasSuffix("…"))
        for line in long.lines { #expect(measure.width(of: line, size: 10) <= 60, "\(line)") }
        let word = TextLines.wrap("Donaudampfschifffahrtsgesellschaft", width: 60, size: 10, maxLines: 3, measure: measure)
        #expect(word.lines.first == "Donaudampfsc" && word.lines.count == 3)
        #expect(TextLines.wrap("   ", width: 60, size: 10, maxLines: 3, measure: measure).lines.isEmpty)
    }

    @Test func charactersTheFontLacksAreFoundOnceEach() {
        #expect(TextLines.missing(in: "Καλημέρα 世界 世", measure: measure) == ["世", "界"])
        #expect(TextLines.missing(in: "Привет", measure: measure).isEmpty)
    }

    func textPlan(count: Int, captions: [String?], mode: LayoutMode = .single, title: BookText.Title? = nil,
                  numbers: Bool = false) throws -> BookPlan {
        var options = LayoutOptions()
        options.mode = mode
        let text = BookText(measure: measure, title: title, pageNumbers: numbers)
        let photos = BookPhoto.numbered(Array(repeating: (3000, 2000), count: count), captions: captions)
        return try #require(Planner.plan(photos: photos, options: options, text: text))
    }

    @Test(arguments: [LayoutMode.single, .grid(columns: 2, rows: 2), .auto])
    func aCaptionSitsUnderItsPhotoInsideTheCell(mode: LayoutMode) throws {
        let captions: [String?] = ["First photo", nil, "A caption long enough to need two lines in a small cell, surely", "Four"]
        let plan = try textPlan(count: 4, captions: captions, mode: mode)
        let area = LayoutOptions().contentArea!
        for page in plan.pages {
            let texts = page.texts.filter { $0.role == .caption }
            #expect(texts.count == page.photos.filter { captions[$0.photo.index] != nil }.count)
            for text in texts {
                // Under exactly one photo, as wide as its cell, inside the margins.
                let photo = try #require(page.photos.first { abs($0.cell.x - text.box.x) < 1e-6
                    && abs($0.cell.y - (text.box.y + text.box.height + 1.5 * Length.pointsPerMillimetre)) < 1e-6 })
                #expect(abs(photo.cell.width - text.box.width) < 1e-6)
                #expect(text.box.y >= area.y - 1e-6)
                #expect(text.lines.count >= 1 && text.lines.count <= 3)
                for line in text.lines { #expect(measure.width(of: line, size: text.size) <= text.box.width + 1e-6) }
            }
        }
    }

    @Test func aTitlePageComesFirstWithTheCoverPhotoAndIsNotNumbered() throws {
        let title = BookText.Title(title: "Summer in Κρήτη", subtitle: "July 2024", author: "Ana", photo: 2)
        let plan = try textPlan(count: 4, captions: [], title: title, numbers: true)
        #expect(plan.pages.count == 4, "the title page and three photo pages: the cover is not repeated")
        let first = plan.pages[0]
        #expect(first.arrangement == "title")
        #expect(first.texts.map(\.role) == [.title, .subtitle, .author])
        #expect(first.texts[0].lines == ["Summer in Κρήτη"])
        #expect(first.photos.map(\.photo) == [2])
        #expect(plan.pages.dropFirst().flatMap { $0.photos.map(\.photo) } == [0, 1, 3])
        // The title page counts as page 1 and carries no number; the others do, centred in the footer.
        #expect(plan.pages.map(\.number) == [1, 2, 3, 4])
        #expect(!first.texts.contains { $0.role == .pageNumber })
        for page in plan.pages.dropFirst() {
            let number = try #require(page.texts.first { $0.role == .pageNumber })
            #expect(number.lines == [String(page.number)] && number.alignment == .center)
            // Photos stay above the footer.
            #expect(page.photos.allSatisfy { $0.cell.y >= number.box.y + number.box.height - 1e-6 })
        }
    }

    @Test func facingPagesPutTheNumberInTheOuterCorner() {
        let text = BookText(measure: measure, pageNumbers: true, facingPages: true)
        let area = Rect(x: 10, y: 10, width: 100, height: 100)
        #expect(text.pageNumber(1, area: area).alignment == .right)
        #expect(text.pageNumber(2, area: area).alignment == .left)
    }

    // MARK: where captions come from

    func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("captions-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The caption of the photo at `path` as a build finds it: its sidecar found as discovery does, read as the
    /// probe does.
    func caption(of path: String, source: CaptionSource, description: String?,
                 captureDate: CaptureDate?) -> (caption: String?, warning: String?) {
        Captions.caption(source: source, path: path, sidecar: Captions.sidecarFile(of: path).map(Captions.readSidecar),
                         description: description, captureDate: captureDate)
    }

    @Test func autoTakesTheSidecarThenTheDescription() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = folder + "/IMG_1.jpg", b = folder + "/IMG_2.jpg", c = folder + "/IMG_3.jpg"
        try "  Lunch\nin   Ζαγόρι \n".write(toFile: a + ".txt", atomically: true, encoding: .utf8)
        try "from the short name".write(toFile: folder + "/IMG_1.txt", atomically: true, encoding: .utf8)
        try "short name only".write(toFile: folder + "/IMG_2.txt", atomically: true, encoding: .utf8)
        #expect(caption(of: a, source: .auto, description: "exif", captureDate: nil).caption == "Lunch in Ζαγόρι")
        #expect(caption(of: b, source: .auto, description: "exif", captureDate: nil).caption == "short name only")
        #expect(caption(of: c, source: .auto, description: " From EXIF ", captureDate: nil).caption == "From EXIF")
        #expect(caption(of: c, source: .auto, description: nil, captureDate: nil).caption == nil)
        // A blank sidecar says: no caption, not even the description.
        try "  \n".write(toFile: c + ".txt", atomically: true, encoding: .utf8)
        #expect(caption(of: c, source: .auto, description: "exif", captureDate: nil) == (nil, nil))
        #expect(caption(of: a, source: .name, description: nil, captureDate: nil).caption == "IMG_1")
        #expect(caption(of: a, source: .date, description: nil, captureDate: CaptureDate(exifDateTime: "2024:07:14 18:03:09")).caption
                == "14 July 2024, 18:03")
        #expect(caption(of: a, source: .none, description: "x", captureDate: nil).caption == nil)
    }

    @Test func aBadSidecarIsNamedAndThePhotoGoesInWithoutACaption() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [(String, (String) throws -> Void, String)] = [
            ("latin1", { try Data([0x43, 0x61, 0x66, 0xE9]).write(to: URL(fileURLWithPath: $0)) }, "is not UTF-8 text"),
            ("utf16", { try "Hi".data(using: .utf16)!.write(to: URL(fileURLWithPath: $0)) }, "is not UTF-8 text"),
            ("huge", { try Data(repeating: 0x41, count: Captions.sidecarLimit + 1).write(to: URL(fileURLWithPath: $0)) },
             "more than a caption can be"),
            ("folder", { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: false) },
             "is a folder"),
            ("loop", { try FileManager.default.createSymbolicLink(atPath: $0, withDestinationPath: $0) }, "cannot be read"),
            ("fifo", { _ = mkfifo($0, 0o600) }, "is not a regular file"),
        ]
        for (name, make, reason) in cases {
            let photo = folder + "/\(name).jpg"
            try make(photo + ".txt")
            let result = caption(of: photo, source: .auto, description: "fallback", captureDate: nil)
            #expect(result.caption == nil, "\(name)")
            #expect(result.warning?.contains("sidecar \(photo).txt") == true && result.warning?.contains(reason) == true,
                    "\(name): \(result.warning ?? "no warning")")
        }
    }
}

extension TextPlanTests {
    @Test(arguments: [LayoutMode.single, .grid(columns: 2, rows: 2), .auto])
    func eachSectionStartsOnANewPageUnderItsHeading(mode: LayoutMode) throws {
        var options = LayoutOptions()
        options.mode = mode
        let text = BookText(measure: measure)
        let headings = ["Reykjavík", "Reykjavík", "Reykjavík", "Vík", "Vík", "Höfn"]
        let photos = BookPhoto.numbered(Array(repeating: (3000, 2000), count: 6), headings: headings)
        let plan = try #require(Planner.plan(photos: photos, options: options, text: text))
        let starts = plan.pages.enumerated().filter { $0.element.heading != nil }
        #expect(starts.map(\.element.heading) == ["Reykjavík", "Vík", "Höfn"])
        // No page mixes two sections, and the photos keep their order.
        for page in plan.pages {
            let sections = Set(page.photos.map { headings[$0.photo.index] })
            #expect(sections.count == 1)
        }
        #expect(plan.pages.flatMap { $0.photos.map(\.photo.index) } == Array(0..<6))
        // The heading sits at the top of the area, the photos under it.
        let area = options.contentArea!
        for (_, page) in starts {
            let heading = try #require(page.texts.first { $0.role == .heading })
            #expect(abs(heading.box.y + heading.box.height - (area.y + area.height)) < 1e-6)
            #expect(page.photos.allSatisfy { $0.cell.y + $0.cell.height <= heading.box.y - 4 * Length.pointsPerMillimetre + 1e-6 })
        }
    }

    @Test func sectionsByFolderAndByDay() {
        let file = PhotoFile(path: "trip/Day 1/IMG_1.jpg", format: ImageFormat(sniffing: [0xFF, 0xD8, 0xFF]), id: FileSystem.FileID(device: 0, inode: 0))
        #expect(SectionMode.folder.heading(of: file, captureDate: nil) == "Day 1")
        #expect(SectionMode.day.heading(of: file, captureDate: CaptureDate(exifDateTime: "2024:07:14 18:03:09")) == "14 July 2024")
        #expect(SectionMode.day.heading(of: file, captureDate: nil) == "Without a date")
        #expect(SectionMode.none.heading(of: file, captureDate: CaptureDate(exifDateTime: "2024:07:14 18:03:09")) == nil)
    }
}
