import Foundation
import Testing

/// Without `--font`, the characters DejaVu Sans lacks are drawn from an installed font for their script and
/// language, found through fontconfig (issue 33, "fonts found, not named"): Japanese in Noto Sans CJK JP even with
/// WenQuanYi Zen Hei installed (fontconfig's own first answer for Japanese), Han characters in the forms of the
/// language `--lang`, the environment or the text says; a character no installed font has is one warning per book,
/// drawn as a visible box, and a refusal with `--strict`.
@Suite struct FontFallbackTests {
    /// The locale neutral, so that the machine's LANG does not choose for the test.
    static let neutral = ["LC_ALL": "C"]

    /// The embedded fonts' names as pdffonts lists them, subset tags dropped ("NotoSansCJKjp-Regular").
    static func embeddedFonts(_ pdf: String) throws -> [String] {
        let listing = try Run.command("/usr/bin/pdffonts", [pdf]).stdout.split(separator: "\n").dropFirst(2)
        return listing.compactMap { line in
            line.split(separator: " ").first.map { name in String(name.split(separator: "+").last ?? name) }
        }
    }

    @Test func japaneseTextIsDrawnInTheJapaneseFaceNotFontconfigsFirstAnswer() throws {
        try #require(FileManager.default.fileExists(atPath: FontFileTests.notoCJK), "fonts-noto-cjk")
        try #require(FileManager.default.fileExists(atPath: FontFileTests.wqy), "fonts-wqy-zenhei")
        let scratch = try Scratch()
        let (run, out) = try FontFileTests.titleBook(scratch, "ja.pdf", font: nil, environment: Self.neutral)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("no installed font"), "every character has a font: \(run.stderr)")
        let fonts = try Self.embeddedFonts(out)
        // The space and "2026" stay in the Japanese run, whose face has them; WenQuanYi is nowhere.
        #expect(fonts == ["NotoSansCJKjp-Regular"], "\(fonts)")
        #expect(try WordsTests.text(out, page: 1) == ["東京の旅 2026", "山田太郎"])
        // Every character drawn: as much ink as the same page with Noto Sans CJK JP named as the font.
        let (named, reference) = try FontFileTests.titleBook(scratch, "named.pdf", font: FontFileTests.notoCJK + "#0",
                                                             environment: Self.neutral)
        #expect(named.status == 0, "\(named.stderr)")
        let inked = try FontFileTests.ink(out, scratch), expected = try FontFileTests.ink(reference, scratch)
        #expect(Double(inked) > 0.8 * Double(expected), "found \(inked) dark pixels, named \(expected)")
    }

    /// Han characters alone say no language: `--lang`, then the locale, choose the forms; without either,
    /// Simplified Chinese.
    @Test(arguments: [
        (["--lang", "zh-Hant"], [String: String](), "NotoSansCJKtc-Regular"),
        (["--lang", "zh-TW"], [:], "NotoSansCJKtc-Regular"),
        (["--lang", "ko"], [:], "NotoSansCJKkr-Regular"),
        (["--lang", "ja"], [:], "NotoSansCJKjp-Regular"),
        ([], ["LC_ALL": "ja_JP.UTF-8"], "NotoSansCJKjp-Regular"),
        (["--lang", "zh-Hans"], ["LC_ALL": "ja_JP.UTF-8"], "NotoSansCJKsc-Regular"),
        ([], [:], "NotoSansCJKsc-Regular"),
    ])
    func hanTakesTheFormsOfTheLanguage(options: [String], environment: [String: String], face: String) throws {
        try #require(FileManager.default.fileExists(atPath: FontFileTests.notoCJK), "fonts-noto-cjk")
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600)])
        let out = scratch.file("han.pdf")
        let run = try Run.command(Run.binary, ["build"] + photos + ["-o", out, "--title", "直行 2026"] + options,
                                  environment: Self.neutral.merging(environment) { $1 })
        #expect(run.status == 0, "\(run.stderr)")
        let fonts = try Self.embeddedFonts(out)
        #expect(fonts.contains(face), "\(options) \(environment): \(fonts)")
        #expect(fonts.filter { $0.hasPrefix("NotoSansCJK") }.count == 1, "\(fonts)")
        #expect(try WordsTests.text(out, page: 1) == ["直行 2026"])
    }

    /// `init --lang` writes the language into the description's options, and the book built from it takes its
    /// forms, whatever the locale of the build.
    @Test func aDescriptionKeepsItsLanguage() throws {
        try #require(FileManager.default.fileExists(atPath: FontFileTests.notoCJK), "fonts-noto-cjk")
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600)])
        let description = scratch.file("book.json"), out = scratch.file("d.pdf")
        let made = try Run.command(Run.binary, ["init"] + photos + ["-o", description, "--title", "直行", "--lang", "zh_TW"],
                                   environment: Self.neutral)
        #expect(made.status == 0, "\(made.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: description)))
        let options = (json as? [String: Any])?["options"] as? [String: Any]
        #expect(options?["lang"] as? String == "zh_TW", "as typed: \(String(describing: options))")
        let run = try Run.command(Run.binary, ["build", description, "-o", out],
                                  environment: ["LC_ALL": "ja_JP.UTF-8"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.embeddedFonts(out) == ["NotoSansCJKtc-Regular"])
    }

    /// A caption's own `lang` in a description beats the book's: the same characters in two forms, each caption
    /// in its language's face, and the report says which.
    @Test func aCaptionSaysItsOwnLanguage() throws {
        try #require(FileManager.default.fileExists(atPath: FontFileTests.notoCJK), "fonts-noto-cjk")
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600), (900, 600)])
        func describe(_ first: String, _ second: String) throws -> String {
            let description = scratch.file("book-\(first).json")
            let text = """
                {"schema": 1, "options": {"lang": "ja"}, "pages": [
                  {"photos": [{"path": "\(photos[0])", "caption": "直行", "lang": "\(first)"}]},
                  {"photos": [{"path": "\(photos[1])", "caption": "直行", "lang": "\(second)"}]}]}
                """
            try text.write(toFile: description, atomically: true, encoding: .utf8)
            return description
        }
        let out = scratch.file("l.pdf"), report = scratch.file("l.json")
        let run = try Run.command(Run.binary, ["build", try describe("zh-Hant", "ko"), "-o", out, "--report", report],
                                  environment: Self.neutral)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Set(try Self.embeddedFonts(out)) == ["NotoSansCJKtc-Regular", "NotoSansCJKkr-Regular"])
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let fonts = (json?["photos"] as? [[String: Any]] ?? []).compactMap { $0["captionFonts"] as? [String] }
        #expect(fonts == [["Noto Sans CJK TC"], ["Noto Sans CJK KR"]], "\(fonts)")

        let bad = try Run.command(Run.binary, ["build", try describe("ja", "日本"), "-o", scratch.file("bad.pdf")],
                                  environment: Self.neutral)
        #expect(bad.status == 2, "\(bad.stderr)")
        #expect(bad.stderr.contains("pages[1].photos[0].lang: '日本' is not a BCP 47 language tag"), "\(bad.stderr)")
    }

    @Test func aBadLanguageTagIsAUsageError() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600)])
        let run = try Run.photobook(["build"] + photos + ["-o", scratch.file("b.pdf"), "--lang", "ja--JP"])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("--lang") && run.stderr.contains("'ja--JP' is not a BCP 47 language tag"),
                "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("b.pdf")))
    }

    /// A caption in Thai and Devanagari (fonts-noto-core) and one mixing Latin and Han: each caption names the
    /// fonts it is drawn in, in the report, in order of first use.
    @Test func theReportNamesEachCaptionsFonts() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600), (600, 900), (900, 600)])
        let captions = ["Tokyo 東京", "สวัสดี नमस्ते", "Plain words"]
        for (photo, caption) in zip(photos, captions) {
            try caption.write(toFile: photo + ".txt", atomically: true, encoding: .utf8)
        }
        let out = scratch.file("c.pdf"), report = scratch.file("c.json")
        let run = try Run.command(Run.binary, ["build"] + photos + ["-o", out, "--captions", "auto", "--report", report],
                                  environment: Self.neutral)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("no installed font"), "\(run.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let entries = try #require(json?["photos"] as? [[String: Any]])
        let fonts = Dictionary(uniqueKeysWithValues: entries.compactMap { entry -> (String, [String])? in
            guard let caption = entry["caption"] as? String else { return nil }
            return (caption, entry["captionFonts"] as? [String] ?? [])
        })
        #expect(fonts["Tokyo 東京"] == ["DejaVu Sans", "Noto Sans CJK SC"], "\(fonts)")
        #expect(fonts["สวัสดี नमस्ते"]?.first == "Noto Sans Thai", "\(fonts)")
        #expect(fonts["สวัสดี नमस्ते"]?.contains("Noto Sans Devanagari") == true, "\(fonts)")
        #expect(fonts["Plain words"] == ["DejaVu Sans"], "\(fonts)")
        let pages = (1...3).map { try? WordsTests.text(out, page: $0) }
        for caption in captions {
            #expect(pages.contains { $0?.contains(caption) == true }, "\(caption) extracted: \(pages)")
        }
    }

    /// U+10FFFD (private use) is in no installed font: one warning for the book naming it and where it is, a
    /// visible box on the page, and with --strict no book at all.
    @Test func aCharacterNoFontHasIsOneWarningABoxAndARefusalWhenStrict() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600), (600, 900)])
        for photo in photos {
            try "Box \u{10FFFD} here".write(toFile: photo + ".txt", atomically: true, encoding: .utf8)
        }
        let out = scratch.file("m.pdf")
        let arguments = ["build"] + photos + ["-o", out, "--captions", "auto", "--title", "\u{10FFFD}"]
        let run = try Run.command(Run.binary, arguments, environment: Self.neutral)
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("no installed font has") }
        #expect(warnings.count == 1, "\(run.stderr)")
        #expect(warnings.first?.contains("a character of the words, drawn as �: U+10FFFD (title)") == true,
                "\(run.stderr)")
        #expect(warnings.first?.contains("no Debian font package is known to have them") == true, "\(run.stderr)")
        // The title page holds nothing but the replacement character: it is drawn, not blank (poppler draws
        // nothing for .notdef), and the text still extracts as typed.
        #expect(try FontFileTests.ink(out, scratch) > 20)
        #expect(try WordsTests.text(out, page: 1) == ["\u{10FFFD}"])

        let strict = scratch.file("strict.pdf")
        let refused = try Run.command(Run.binary, ["build"] + photos + ["-o", strict, "--captions", "auto", "--title",
                                                                         "\u{10FFFD}", "--strict"],
                                      environment: Self.neutral)
        #expect(refused.status != 0, "\(refused.stderr)")
        #expect(refused.stderr.contains("--strict"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: strict))
    }

    /// Lines as tall as the font: a caption in Noto Sans CJK (1.448 em from ascender to descender) keeps inside
    /// its box and the safe area (at 1.25 em it reached 0.6 mm past it).
    @Test func aTallFontsLinesStayInsideTheSafeArea() throws {
        try #require(FileManager.default.fileExists(atPath: FontFileTests.notoCJK), "fonts-noto-cjk")
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600), (600, 900)])
        for photo in photos {
            try "浅草寺にて、雨の午後。浅草寺にて、雨の午後。浅草寺にて、雨の午後。浅草寺にて、雨の午後。"
                .write(toFile: photo + ".txt", atomically: true, encoding: .utf8)
        }
        let run = try Run.command(Run.binary, ["build"] + photos + ["-o", scratch.file("t.pdf"), "--captions", "auto",
                                                                    "--font", FontFileTests.notoCJK + "#0",
                                                                    "--layout", "grid 2x1"],
                                  environment: Self.neutral)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("safe area") && !run.stderr.contains("outside"), "\(run.stderr)")
    }
}
