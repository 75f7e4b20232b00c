import Foundation
import TestSupport
import Testing

/// `--pdfx 4`: real books and covers, read back by pikepdf (Debian's python3-pikepdf, over qpdf), a reader that
/// is not ours, against the PDF/X-4 rules of docs/research/pdfx.md (Reference/pdfx_check.py), and by `qpdf --check`.
@Suite struct PDFXTests {
    static let checker = Fixtures.packageRoot.appendingPathComponent("Tests/PhotoBookCLITests/Reference/pdfx_check.py").path
    static let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]
    static let ghostscriptICC = "/usr/share/color/icc/ghostscript/"

    /// What the checker found: the rules broken and the facts read.
    struct Verdict {
        var problems: [String]
        var facts: [String: Any]
        func fact<T>(_ path: String...) -> T? {
            var value: Any? = facts
            for key in path { value = (value as? [String: Any])?[key] }
            return value as? T
        }
    }

    static func verdict(of pdf: String) throws -> Verdict {
        let run = try Run.command("/usr/bin/python3", [checker, pdf])
        #expect(run.status == 0, "the checker failed on \(pdf): \(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return Verdict(problems: json["problems"] as? [String] ?? ["no problems list"], facts: json["facts"] as? [String: Any] ?? [:])
    }

    static func expectQPDFPasses(_ pdf: String) throws {
        let run = try Run.command("/usr/bin/qpdf", ["--check", pdf])
        #expect(run.status == 0 && run.stdout.contains("No syntax or stream encoding errors"), "\(run.stdout)\(run.stderr)")
    }

    /// A book with words in every place (a title page, captions, page numbers, sections), photos with and without
    /// profiles, a CMYK JPEG (rendered to RGB), a grey PNG: with bleed and crop marks, and without either.
    @Test(arguments: [["--bleed", "3mm", "--crop-marks"], []])
    func aBookIsPDFX4(extra: [String]) throws {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf")
        let run = try Run.command(Run.binary, [
            "build", Run.fixture("exif-orientation"), Run.fixture("cmyk-jpeg"), "-o", out, "--pdfx", "4",
            "--layout", "auto", "--title", "Çà & <va>", "--author", "A. Tester", "--captions", "name",
            "--page-numbers", "--sections", "folder", "-q",
        ] + extra, environment: Self.epoch)
        #expect(run.status == 0, "\(run.stderr)")
        let verdict = try Self.verdict(of: out)
        #expect(verdict.problems == [], "\(verdict.problems)")
        #expect(verdict.fact("version") == "1.6")
        #expect(verdict.fact("info", "Title") == "Çà & <va>")
        #expect(verdict.fact("xmp", "title") == "Çà & <va>")
        #expect(verdict.fact("xmp", "CreateDate") == "2023-11-14T22:13:20Z")
        #expect(verdict.fact("outputIntent", "OutputConditionIdentifier") == "FOGRA39")
        #expect(verdict.fact("outputIntent", "RegistryName") == "http://www.color.org")
        let shipped = try Fixtures.read(Fixtures.packageRoot.appendingPathComponent("Resources/FOGRA39L-photobook.icc").path)
        #expect(verdict.fact("profileBytes") == shipped.count)
        let fonts: [String] = verdict.fact("fonts") ?? []
        #expect(fonts.count == 1 && fonts.allSatisfy { $0.hasSuffix("embedded=True") }, "\(fonts)")
        // Photos in their ICC colour, text in grey, crop marks in CMYK; nothing in DeviceRGB.
        let spaces: [String] = verdict.fact("colourSpaces") ?? []
        #expect(spaces.contains("/ICCBased") && spaces.contains("/DeviceGray") && !spaces.contains("/DeviceRGB"), "\(spaces)")
        #expect(spaces.contains("/DeviceCMYK") == extra.contains("--crop-marks"), "\(spaces)")
        try Self.expectQPDFPasses(out)
    }

    /// Under SOURCE_DATE_EPOCH the same book is the same bytes, /ID and XMP included; another book has another /ID.
    @Test func theDocumentIDIsTheBooks() throws {
        let scratch = try Scratch()
        func build(_ name: String, _ extra: [String] = []) throws -> (bytes: [UInt8], id: String?) {
            let out = try scratch.sub(name) + "/book.pdf"
            let run = try Run.command(Run.binary, ["build", Run.fixture("exif-orientation"), "-o", out, "--pdfx", "4",
                                                   "--page-numbers", "-q"] + extra, environment: Self.epoch)
            #expect(run.status == 0, "\(run.stderr)")
            return (try Fixtures.read(out), try Self.verdict(of: out).fact("id"))
        }
        let first = try build("one"), second = try build("two"), other = try build("three", ["--margin", "5mm"])
        #expect(first.bytes == second.bytes)
        #expect(first.id != nil && first.id != other.id)
    }

    /// A cover shares the page and print options: the same rules, with its title on the front and the spine.
    @Test func aCoverIsPDFX4() throws {
        let scratch = try Scratch()
        let out = scratch.file("cover.pdf")
        let run = try Run.command(Run.binary, [
            "cover", Run.fixture("exif-orientation/Landscape_1.jpg"), "-o", out, "--spine", "12mm", "--bleed", "3mm",
            "--title", "Cover", "--author", "Me", "--pdfx", "4", "-q",
        ], environment: Self.epoch)
        #expect(run.status == 0, "\(run.stderr)")
        let verdict = try Self.verdict(of: out)
        #expect(verdict.problems == [], "\(verdict.problems)")
        try Self.expectQPDFPasses(out)
    }

    /// Another CMYK output profile, with and without a registered condition name.
    @Test func anotherProfileAndCondition() throws {
        let scratch = try Scratch()
        let profile = Self.ghostscriptICC + "default_cmyk.icc"
        for (condition, registered) in [(["--output-condition", "CGATS TR 001"], true), ([], false)] {
            let out = scratch.file("book-\(registered).pdf")
            let run = try Run.command(Run.binary, ["build", Run.fixture("exif-orientation/Landscape_1.jpg"), "-o", out,
                                                   "--pdfx", "4", "--output-profile", profile, "-q"] + condition,
                                      environment: Self.epoch)
            #expect(run.status == 0, "\(run.stderr)")
            let verdict = try Self.verdict(of: out)
            #expect(verdict.problems == [], "\(verdict.problems)")
            #expect(verdict.fact("outputIntent", "OutputConditionIdentifier") == (registered ? "CGATS TR 001" : "Custom"))
            #expect(verdict.fact("outputIntent", "OutputCondition") == "Artifex CMYK SWOP Profile")
            #expect((verdict.fact("outputIntent", "RegistryName") as String?) == (registered ? "http://www.color.org" : nil))
            #expect(verdict.fact("profileBytes") == (try Fixtures.read(profile)).count)
            // Without a title the book is called by its file's name.
            #expect(verdict.fact("info", "Title") == "book-\(registered)")
        }
    }

    /// A profile that cannot be a CMYK output intent is a usage error naming it and why, before any photo is read
    /// (the photo named does not exist), and nothing is written.
    @Test func aBadProfileIsAUsageError() throws {
        let scratch = try Scratch()
        let cmyk = try Fixtures.read(Self.ghostscriptICC + "default_cmyk.icc")
        // An output profile that says it is for RGB: the colour space is checked as well as the class.
        var rgbPrinter = cmyk
        rgbPrinter.replaceSubrange(16..<20, with: Array("RGB ".utf8))
        let cases: [(String, String)] = [
            (try scratch.write("text.icc", Array("not a profile at all, only words".utf8)), "is not an ICC profile"),
            (try scratch.write("cut.icc", Array(cmyk.dropLast(100))), "is cut short or padded"),
            (Self.ghostscriptICC + "srgb.icc", "is a 'mntr' profile, not an output ('prtr') profile"),
            (Self.ghostscriptICC + "default_gray.icc", "is a 'mntr' profile"),
            (try scratch.write("rgb-printer.icc", rgbPrinter), "is for 'RGB' colour, not CMYK"),
            (scratch.file("missing.icc"), "cannot be read"),
        ]
        let out = scratch.file("book.pdf")
        for (profile, reason) in cases {
            let run = try Run.photobook(["build", scratch.file("no-such-photo.jpg"), "-o", out, "--pdfx", "4",
                                         "--output-profile", profile])
            #expect(run.status == 2, "\(profile): \(run.stderr)")
            #expect(run.stderr.contains("--output-profile: \(profile) ") && run.stderr.contains(reason), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        for option in [["--output-profile", Self.ghostscriptICC + "default_cmyk.icc"], ["--output-condition", "FOGRA39"]] {
            let run = try Run.photobook(["cover", scratch.file("front.jpg"), "-o", out, "--spine", "1cm"] + option)
            #expect(run.status == 2 && run.stderr.contains("\(option[0]): is for a PDF/X book, so it needs --pdfx 4"),
                    "\(run.stderr)")
        }
    }

    /// Without --pdfx nothing of it is in the book: no output intent, no XMP, no /ID, version 1.3, an ArtBox.
    @Test func aPlainBookHasNoneOfIt() throws {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf")
        let run = try Run.command(Run.binary, ["build", Run.fixture("exif-orientation/Landscape_1.jpg"), "-o", out, "-q"],
                                  environment: Self.epoch)
        #expect(run.status == 0, "\(run.stderr)")
        let verdict = try Self.verdict(of: out)
        for rule in ["header is b'%PDF-1.3'", "no trailer /ID", "0 GTS_PDFX output intents", "the catalog has no /Metadata",
                     "page 1 has an ArtBox beside its TrimBox", "DeviceRGB: an image or colour space in DeviceRGB"] {
            #expect(verdict.problems.contains { $0.hasPrefix(rule) }, "\(rule): \(verdict.problems)")
        }
    }
}
