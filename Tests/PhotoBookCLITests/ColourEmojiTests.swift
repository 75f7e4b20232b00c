import Foundation
import Testing

/// Emoji in the words (issue 33, "Emoji in captions are drawn from a monochrome or colour emoji font when one is
/// installed"): Noto Color Emoji's pictures (fonts-noto-color-emoji, make test-deps) go onto the page as images with
/// soft masks, the text over them copies as typed, a PDF/X-4 book keeps to its rules, and a PDF/X-1a book, which
/// may hold no transparency, draws them from outline fonts or warns.
@Suite struct ColourEmojiTests {
    static let neutral = ["LC_ALL": "C"]
    static let emojiFont = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

    /// Two photos captioned with emoji (a ZWJ family, a flag, a keycap, a skin tone), built with `extra`.
    static func book(_ scratch: Scratch, _ name: String, _ extra: [String]) throws -> (run: Run, pdf: String, report: String) {
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600), (600, 900)])
        let captions = ["Sunset 🌅 with 👨\u{200D}👩\u{200D}👧", "東京 🇯🇵 1\u{FE0F}\u{20E3} 👍🏽"]
        for (photo, caption) in zip(photos, captions) {
            try caption.write(toFile: photo + ".txt", atomically: true, encoding: .utf8)
        }
        let pdf = scratch.file(name + ".pdf"), report = scratch.file(name + ".json")
        let run = try Run.command(Run.binary, ["build"] + photos + ["-o", pdf, "--captions", "auto", "--report", report,
                                                                    "--title", "Trip 🧑 2026"] + extra,
                                  environment: Self.neutral.merging(["SOURCE_DATE_EPOCH": "1700000000"]) { $1 })
        return (run, pdf, report)
    }

    @Test func emojiArePicturesAndCopyAsTyped() throws {
        let scratch = try Scratch()
        let (run, pdf, report) = try Self.book(scratch, "plain", [])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("no installed font"), "\(run.stderr)")
        // 🧑 is in no outline font here: drawn at all, it is Noto Color Emoji's picture.
        let pages = (1...3).map { (try? WordsTests.text(pdf, page: $0)) ?? [] }
        #expect(pages[0] == ["Trip 🧑 2026"], "\(pages)")
        #expect(pages.joined().contains("Sunset 🌅 with 👨\u{200D}👩\u{200D}👧"), "\(pages)")
        #expect(pages.joined().contains("東京 🇯🇵 1\u{FE0F}\u{20E3} 👍🏽"), "\(pages)")
        // Pictures with soft masks; no font made of the emoji face.
        let images = try Run.command("/usr/bin/pdfimages", ["-list", pdf]).stdout.split(separator: "\n").dropFirst(2)
        let masks = images.filter { $0.split(separator: " ", omittingEmptySubsequences: true)[2] == "smask" }
        // 🧑, 🌅, the family, the flag, the keycap, the hand with its tone: six pictures, each with its mask.
        #expect(masks.count == 6, "\(images)")
        #expect(try !FontFallbackTests.embeddedFonts(pdf).contains { $0.contains("Emoji") })
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let fonts = (json?["photos"] as? [[String: Any]] ?? []).compactMap { $0["captionFonts"] as? [String] }
        #expect(fonts.contains(["DejaVu Sans", "Noto Color Emoji"]), "\(fonts)")
        // The space after the flag goes to the primary face: the emoji face keeps only emoji.
        #expect(fonts.contains(["Noto Sans CJK SC", "Noto Color Emoji", "DejaVu Sans"]), "\(fonts)")
    }

    @Test func aPDFX4BookKeepsItsRulesWithEmoji() throws {
        let scratch = try Scratch()
        let (run, pdf, _) = try Self.book(scratch, "x4", ["--pdfx", "4"])
        #expect(run.status == 0, "\(run.stderr)")
        let verdict = try PDFXTests.verdict(of: pdf)
        #expect(verdict.problems == [], "\(verdict.problems)")
        // The pictures' palettes are in sRGB by profile, never device RGB.
        let spaces: [String] = verdict.fact("colourSpaces") ?? []
        #expect(spaces.contains("/Indexed") && !spaces.contains("/DeviceRGB"), "\(spaces)")
        try PDFXTests.expectQPDFPasses(pdf)
    }

    @Test func aPDFX1aBookSaysWhyItHasNoColourEmoji() throws {
        let scratch = try Scratch()
        let (run, pdf, _) = try Self.book(scratch, "x1a", ["--pdfx", "1a"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("U+1F9D1 '🧑' (title)") && run.stderr.contains("PDF/X-1a"), "\(run.stderr)")
        let verdict = try PDFX1aTests.x1aVerdict(of: pdf)
        #expect(verdict.problems == [], "\(verdict.problems)")
        let images = try Run.command("/usr/bin/pdfimages", ["-list", pdf]).stdout
        #expect(!images.contains("smask"), "\(images)")
        let strict = try Self.book(scratch, "strict", ["--pdfx", "1a", "--strict"])
        #expect(strict.run.status != 0 && !FileManager.default.fileExists(atPath: strict.pdf))
    }

    @Test func theEmojiFontIsNoFontForWords() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600)])
        let run = try Run.command(Run.binary, ["build"] + photos + ["-o", scratch.file("e.pdf"), "--title", "Hi",
                                                                    "--font", Self.emojiFont])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("NotoColorEmoji.ttf") && run.stderr.contains("colour emoji font"), "\(run.stderr)")
    }
}
