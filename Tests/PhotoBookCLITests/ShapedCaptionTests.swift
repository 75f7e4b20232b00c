import Foundation
import Testing

/// A book's captions are shaped by HarfBuzz and set by the Unicode bidirectional algorithm (issue 33, "shaping
/// and direction"): Arabic joined, Hebrew and Arabic right to left with their numbers and Latin words left to
/// right, Devanagari reordered; the glyphs drawn are the ones `hb-shape` (HarfBuzz's own tool, libharfbuzz-bin)
/// gives for the same string in the same font, and the text extracts as typed.
@Suite struct ShapedCaptionTests {
    static let neutral = ["LC_ALL": "C.UTF-8"]

    /// One single-photo page per caption; the book's path.
    static func book(_ captions: [String], _ scratch: Scratch, extra: [String] = []) throws -> (Run, String) {
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: captions.map { _ in (900, 600) })
        for (photo, caption) in zip(photos, captions) {
            try caption.write(toFile: photo + ".txt", atomically: true, encoding: .utf8)
        }
        let out = scratch.file("shaped.pdf")
        let run = try Run.command(Run.binary, ["build"] + photos + ["-o", out, "--captions", "auto"] + extra,
                                  environment: neutral)
        return (run, out)
    }

    /// The glyph ids `hb-shape` gives, in its (visual) order.
    static func hbShape(_ text: String, font: String) throws -> [Int] {
        let run = try Run.command("/usr/bin/hb-shape", ["--no-glyph-names", "--no-positions", "--no-clusters", font, text],
                                  environment: neutral)
        #expect(run.status == 0, "hb-shape: \(run.stderr)")
        return run.stdout.trimmingCharacters(in: CharacterSet(charactersIn: "[]\n")).split(separator: "|").compactMap { Int($0) }
    }

    /// The glyph codes of every TJ array of page `page`'s content, in the order written.
    static func drawnCodes(_ pdf: String, page: Int) throws -> [Int] {
        let run = try Run.command("/usr/bin/qpdf", ["--qdf", "--normalize-content=n", "--object-streams=disable",
                                                    "--pages", pdf, "\(page)", "--", "--empty", "-"])
        #expect(run.status == 0, "qpdf: \(run.stderr)")
        return run.stdout.split(separator: "\n").filter { $0.hasSuffix("] TJ") }.flatMap { line in
            line.matches(of: /<([0-9a-fA-F]{4})>/).compactMap { Int(String($0.1), radix: 16) }
        }
    }

    @Test func arabicIsJoinedAsHarfBuzzJoinsIt() throws {
        let scratch = try Scratch()
        let arabic = "مرحبا بالعالم"
        let (run, out) = try Self.book([arabic], scratch)
        #expect(run.status == 0, "\(run.stderr)")
        // DejaVu Sans has Arabic: one right-to-left run, written left to right as drawn, so the content holds
        // hb-shape's (visual) order, and its joined forms, not the letters' own glyphs.
        let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let shaped = try Self.hbShape(arabic, font: dejaVu)
        let nominal = try Self.hbShape(arabic.unicodeScalars.map { String($0) }.joined(separator: "\u{200C}"), font: dejaVu)
        #expect(shaped.count >= 12, "\(shaped)")
        #expect(try Self.drawnCodes(out, page: 1) == shaped)
        #expect(Set(shaped) != Set(nominal), "joined forms differ from the letters alone")
        #expect(try Self.plain(WordsTests.text(out, page: 1).joined()) == arabic)
    }

    /// pdftotext's text without the bidi embeddings and isolates it puts around right-to-left runs.
    static func plain(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter {
            !(0x202A...0x202E).contains($0.value) && !(0x2066...0x2069).contains($0.value)
        }))
    }

    /// Right to left with a number and a Latin word inside: the Hebrew words at the ends, "Tokyo 2026" reading
    /// left to right between them, and the text read back as typed.
    @Test func hebrewReadsRightToLeftAroundLatinAndDigits() throws {
        let scratch = try Scratch()
        let hebrew = "שלום Tokyo 2026 עולם"
        let (run, out) = try Self.book([hebrew], scratch)
        #expect(run.status == 0, "\(run.stderr)")
        // pdftotext reads it in typed order, with the bidi embeddings it adds around each run.
        let extracted = Self.plain(try WordsTests.text(out, page: 1).joined())
        // Trap: poppler moves the space after "2026" to before "Tokyo" wherever it is drawn: compare without spaces.
        #expect(extracted.filter { $0 != " " } == hebrew.filter { $0 != " " }, "\(extracted)")
        // Where pdftotext puts each word: שלום (typed first) is the rightmost, עולם (typed last) the leftmost.
        let boxes = try Run.command("/usr/bin/pdftotext", ["-bbox", "-enc", "UTF-8", out, "-"]).stdout
        func left(_ word: String) -> Double? {
            guard let line = boxes.split(separator: "\n").first(where: { $0.contains(">\(word)") }),
                  let match = line.firstMatch(of: /xMin="([0-9.]+)"/) else { return nil }
            return Double(String(match.1))
        }
        // pdftotext -bbox spells a right-to-left word as drawn, left to right.
        let first = try #require(left(String("שלום".reversed()))), last = try #require(left(String("עולם".reversed())))
        let tokyo = try #require(left("Tokyo"))
        #expect(last < tokyo && tokyo < first, "עולם \(last), Tokyo \(tokyo), שלום \(first)")
    }

    /// Devanagari draws its vowel sign before the consonant it follows: hb-shape's glyphs, and the text reads
    /// back as typed (the line carries /ActualText).
    @Test func devanagariIsReorderedAndReadsBack() throws {
        let scratch = try Scratch()
        let hindi = "क्षत्रिय नमस्ते"
        let (run, out) = try Self.book([hindi], scratch)
        #expect(run.status == 0, "\(run.stderr)")
        let shaped = try Self.hbShape(hindi, font: "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf")
        #expect(try Self.drawnCodes(out, page: 1) == shaped)
        #expect(try WordsTests.text(out, page: 1) == [hindi])
    }

    /// A Japanese caption, which has no spaces, wraps between characters as Japanese does (ICU's strict line
    /// breaking): no line starts with closing punctuation, a small kana or the long-vowel mark, none ends with an
    /// opening bracket; a caption longer than three lines ends in an ellipsis, with a warning.
    @Test func japaneseWrapsBetweenCharactersWithKinsoku() throws {
        let scratch = try Scratch()
        let caption = "浅草寺にて、雨の午後、ちょっとコーヒーを飲んだ。「東京」（日本）の友達と一緒に長い散歩をして、"
            + "夕方まで写真を撮り続けた。とても楽しかった一日でした。"
        let (run, out) = try Self.book([caption], scratch, extra: ["--layout", "grid 2x1"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try WordsTests.text(out, page: 1)
        #expect(lines.count >= 2 && lines.joined() == caption, "\(lines)")
        let long = try Scratch()
        let (cut, cutOut) = try Self.book([caption + caption + caption], long, extra: ["--layout", "grid 2x1"])
        #expect(cut.status == 0, "\(cut.stderr)")
        let cutLines = try WordsTests.text(cutOut, page: 1)
        #expect(cutLines.count == 3 && cutLines.last?.hasSuffix("…") == true, "\(cutLines)")
        #expect(cut.stderr.contains("caption longer than 3 lines on page 1; cut with an ellipsis"), "\(cut.stderr)")
        for line in lines + cutLines {
            #expect(!"、。，」）！？ょっャュョッー…".contains(line.first!), "starts with \(line.first!): \(line)")
            #expect(!"「（".contains(line.last!), "ends with \(line.last!): \(line)")
        }
    }

    /// Combining marks beyond 30 on one character are left out, with a warning, and the book is made at once.
    @Test func aPileOfCombiningMarksIsCutWithAWarning() throws {
        let scratch = try Scratch()
        let (run, out) = try Self.book(["a" + String(repeating: "\u{0301}", count: 30_000) + " b"], scratch)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("29970 combining marks beyond 30 on one character are left out"), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }
}
