import Foundation
import Testing
import TestSupport

/// Titles, captions and page numbers as real text: read back with poppler exactly as asked, in the embedded
/// font, with the PDF's information, bookmark and page labels to match.
@Suite(.serialized) struct WordsTests {
    /// The text of page `page` (1-based), as pdftotext gives it, lines trimmed, blank lines dropped.
    static func text(_ pdf: String, page: Int) throws -> [String] {
        let run = try Run.command("/usr/bin/pdftotext", ["-f", "\(page)", "-l", "\(page)", "-enc", "UTF-8", pdf, "-"])
        #expect(run.status == 0, "pdftotext: \(run.stderr)")
        return run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && $0 != "\u{0C}" }
    }

    @Test func aTitlePageCaptionsAndNumbersReadBackExactly() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600), (600, 900), (900, 600)])
        try "Café à Zürich — “naïve” …".write(toFile: photos[0] + ".txt", atomically: true, encoding: .utf8)
        try "Ελληνικά και Кириллица".write(toFile: (photos[1] as NSString).deletingPathExtension + ".txt",
                                          atomically: true, encoding: .utf8)
        try "Hello 世界".write(toFile: photos[2] + ".txt", atomically: true, encoding: .utf8)
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build"] + photos + ["-o", out, "--title", "Summer in Κρήτη",
                                                          "--subtitle", "July 2024", "--author", "Анна Müller",
                                                          "--captions", "auto", "--page-numbers"])
        #expect(run.status == 0, "\(run.stderr)")
        // The characters DejaVu Sans lacks are drawn from an installed font that has them (FontFallbackTests).
        #expect(!run.stderr.contains("no installed font"), "\(run.stderr)")
        let facts = try PDFFacts(out)
        #expect(facts.pages == 4)
        #expect(try Self.text(out, page: 1) == ["Summer in Κρήτη", "July 2024", "Анна Müller"])
        #expect(try Self.text(out, page: 2) == ["Café à Zürich — “naïve” …", "2"])
        #expect(try Self.text(out, page: 3) == ["Ελληνικά και Кириллица", "3"])
        #expect(try Self.text(out, page: 4) == ["Hello 世界", "4"])
        let info = try Run.command("/usr/bin/pdfinfo", ["-enc", "UTF-8", out]).stdout.split(separator: "\n")
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(info.contains("Title: Summer in Κρήτη"), "\(info)")
        #expect(info.contains("Author: Анна Müller"), "\(info)")
        #expect(info.contains("Subject: July 2024"), "\(info)")
        let fonts = try Run.command("/usr/bin/pdffonts", [out])
        let dejavu = fonts.stdout.split(separator: "\n").filter { $0.contains("DejaVuSans") }
        #expect(!dejavu.isEmpty && dejavu.allSatisfy { $0.contains(" yes ") }, "embedded: \(fonts.stdout)")
        // The title page's bookmark, and page labels that match the printed numbers.
        let json = try Run.command("/usr/bin/qpdf", ["--json", out])
        #expect(json.stdout.contains("Summer in Κρήτη") || json.stdout.contains("Summer in \\u039a"), "outline title")
        #expect(json.stdout.contains("\"pagelabels\""), "page labels present")
    }

    @Test func captionsFromNamesAndDatesAndTheirLimits() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600), (900, 600)])
        let out = scratch.file("book.pdf")
        let named = try Run.photobook(["build"] + photos + ["-o", out, "--captions", "name", "--layout", "grid 1x2"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(try Self.text(out, page: 1) == ["img01", "img02"])
        // A caption longer than three lines is cut with an ellipsis and a warning naming the photo.
        try String(repeating: "a long caption that goes on ", count: 40).write(toFile: photos[0] + ".txt",
                                                                              atomically: true, encoding: .utf8)
        let long = try Run.photobook(["build"] + photos + ["-o", out, "--captions", "auto"])
        #expect(long.status == 0, "\(long.stderr)")
        #expect(long.stderr.contains("photobook: warning: \(photos[0]): caption longer than 3 lines"), "\(long.stderr)")
        let lines = try Self.text(out, page: 1)
        #expect(lines.count == 3 && lines[2].hasSuffix("…"), "\(lines)")
    }

    @Test func badSidecarsAreNamedAndThePhotoGoesInWithoutACaption() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600), (900, 600), (900, 600)])
        try Data([0x43, 0x61, 0x66, 0xE9]).write(to: URL(fileURLWithPath: photos[0] + ".txt"))
        try FileManager.default.createDirectory(atPath: photos[1] + ".txt", withIntermediateDirectories: false)
        try Data(repeating: 0x41, count: 70_000).write(to: URL(fileURLWithPath: photos[2] + ".txt"))
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build"] + photos + ["-o", out, "--captions", "auto"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("sidecar \(photos[0]).txt is not UTF-8 text"), "\(run.stderr)")
        #expect(run.stderr.contains("sidecar \(photos[1]).txt is a folder"), "\(run.stderr)")
        #expect(run.stderr.contains("sidecar \(photos[2]).txt is 68 KB"), "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 3)
        for page in 1...3 { #expect(try Self.text(out, page: page).isEmpty) }
    }

    @Test func aBadFontIsAUsageErrorBeforeAnyPhotoIsRead() throws {
        let scratch = try Scratch()
        let notAFont = try scratch.write("font.ttf", Array("not a font".utf8))
        let run = try Run.photobook(["build", scratch.file("no-photos"), "-o", scratch.file("b.pdf"), "--title", "T",
                                     "--font", notAFont])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("photobook: error: --font: "), "\(run.stderr)")
        #expect(run.stderr.contains(notAFont), "\(run.stderr)")
        let orphan = try Run.photobook(["build", scratch.file("p"), "-o", scratch.file("b.pdf"), "--author", "A"])
        #expect(orphan.status == 2 && orphan.stderr.contains("photobook: error: --author: goes on the title page, so it needs --title"))
    }
}

extension WordsTests {
    @Test func sectionsByFolderStartNewPagesWithBookmarksUnderTheTitle() throws {
        let scratch = try Scratch()
        let shapes: [(width: Int, height: Int)] = [(900, 600), (900, 600), (600, 900)]
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: shapes)
        for sub in ["Reykjavík", "Vík"] { _ = try scratch.sub("photos/\(sub)") }
        try FileManager.default.moveItem(atPath: photos[0], toPath: scratch.file("photos/Reykjavík/a.jpg"))
        try FileManager.default.moveItem(atPath: photos[1], toPath: scratch.file("photos/Reykjavík/b.jpg"))
        try FileManager.default.moveItem(atPath: photos[2], toPath: scratch.file("photos/Vík/c.jpg"))
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", scratch.file("photos"), "-r", "-o", out, "--title", "Ísland",
                                     "--sections", "folder", "--layout", "grid 2x1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 3)
        #expect(try Self.text(out, page: 2).first == "Reykjavík")
        #expect(try Self.text(out, page: 3).first == "Vík")
        let json = try Run.command("/usr/bin/qpdf", ["--json", out])
        let outlines = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])["outlines"]
            as? [[String: Any]]
        #expect(outlines?.first?["title"] as? String == "Ísland")
        let kids = (outlines?.first?["kids"] as? [[String: Any]]) ?? []
        #expect(kids.map { $0["title"] as? String } == ["Reykjavík", "Vík"])
        #expect(kids.map { $0["destpageposfrom1"] as? Int } == [2, 3])
    }
}

extension WordsTests {
    /// Dates and descriptions written into the photos by the test (EXIF DateTimeOriginal, ImageDescription, XMP
    /// dc:description), read back as captions.
    @Test func captionsFromTheCaptureDateAndThePhotosOwnDescription() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600), (900, 600), (900, 600)])
        let metadata = [
            PhotoMetadata(date: "2024:07:14 18:03:09", offset: "+02:00", imageDescription: Array("Λίμνη at dawn".utf8)),
            PhotoMetadata(date: "2023:12:31 09:05:00", xmpDescription: "Зима – from XMP"),
            PhotoMetadata(),
        ]
        for (path, meta) in zip(photos, metadata) {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            try Data(meta.inserted(intoJPEG: bytes)).write(to: URL(fileURLWithPath: path))
        }
        let out = scratch.file("book.pdf")
        let dated = try Run.photobook(["build"] + photos + ["-o", out, "--captions", "date", "--sort", "given"])
        #expect(dated.status == 0, "\(dated.stderr)")
        #expect(try Self.text(out, page: 1) == ["14 July 2024, 18:03"])
        #expect(try Self.text(out, page: 2) == ["31 December 2023, 9:05"])
        #expect(try Self.text(out, page: 3).isEmpty)
        let described = try Run.photobook(["build"] + photos + ["-o", out, "--captions", "auto", "--sort", "given"])
        #expect(described.status == 0, "\(described.stderr)")
        #expect(try Self.text(out, page: 1) == ["Λίμνη at dawn"])
        #expect(try Self.text(out, page: 2) == ["Зима – from XMP"])
        #expect(try Self.text(out, page: 3).isEmpty)
    }

    /// `photobook build . --sections folder` from inside the folder, or its photos named bare: the section is the
    /// folder's own name, never ".".
    @Test func aFolderGivenAsDotIsHeadedByItsName() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600), (600, 900)])
        let folder = String(photos[0][..<photos[0].lastIndex(of: "/")!])
        for inputs in [["."], photos.map { String($0.split(separator: "/").last!) }] {
            let run = try Run.command(Run.binary, ["build"] + inputs + ["-o", scratch.file("b.pdf"), "--sections", "folder",
                                                                        "--layout", "grid 2x1"], directory: folder)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try Self.text(scratch.file("b.pdf"), page: 1) == [String(folder.split(separator: "/").last!)])
        }
    }

    @Test func aHeadingNoFontCanPrintIsNamed() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600)])
        _ = try scratch.sub("photos/東京\u{10FFFD}")
        try FileManager.default.moveItem(atPath: photos[0], toPath: scratch.file("photos/東京\u{10FFFD}/a.jpg"))
        let run = try Run.photobook(["build", scratch.file("photos"), "-r", "-o", scratch.file("b.pdf"),
                                     "--sections", "folder"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: no installed font has a character of the words, drawn as "
                                    + "�: U+10FFFD (heading 東京\u{10FFFD})"), "\(run.stderr)")
    }
}
