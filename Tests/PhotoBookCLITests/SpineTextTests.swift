import Foundation
import Testing

/// A Japanese or Chinese title goes down a wrap cover's spine as a column of upright characters, punctuation in
/// its vertical forms (HarfBuzz's `vert`), as Japanese and Chinese books are set; a Latin title keeps its rotated
/// line; `--spine-text` chooses (issue 33, "vertical spines").
@Suite struct SpineTextTests {
    static let title = "東京の旅「二〇二六」"

    static func cover(_ scratch: Scratch, title: String = title, extra: [String] = []) throws -> (Run, String) {
        let out = scratch.file("cover.pdf")
        let run = try Run.command(Run.binary, ["cover", CoverTests.front, CoverTests.back, "-o", out, "--page-size", "a5",
                                               "--spine", "15mm", "--bleed", "3mm", "--title", title] + extra,
                                  environment: ["LC_ALL": "C.UTF-8"])
        return (run, out)
    }

    @Test func aJapaneseTitleIsAColumnOfUprightCharacters() throws {
        try #require(FileManager.default.fileExists(atPath: FontFileTests.notoCJK), "fonts-noto-cjk")
        let scratch = try Scratch()
        let (run, out) = try Self.cover(scratch)
        #expect(run.status == 0, "\(run.stderr)")
        let mm = CoverTests.mm, bleed = 3 * mm, spineLeft = bleed + 148 * mm, spineRight = spineLeft + 15 * mm
        let characters = try CoverTests.words(out).filter { $0.xMin >= spineLeft - 1 && $0.xMax <= spineRight + 1 }
        // pdftotext boxes each upright character alone, one under the other, in the typed order, centred on the spine.
        #expect(characters.map(\.text).joined() == Self.title, "\(characters)")
        for (above, below) in zip(characters, characters.dropFirst()) {
            #expect(above.yMin < below.yMin, "\(above) above \(below)")
        }
        for character in characters {
            #expect(abs((character.xMin + character.xMax) / 2 - (spineLeft + spineRight) / 2) < 3, "\(character)")
            // Upright: as wide as tall or wider, not a line turned on its side.
            #expect(character.xMax - character.xMin >= 0.5 * (character.yMax - character.yMin), "\(character)")
        }
        // The spine's brackets are drawn in their vertical forms (Noto Sans CJK JP's 59006 and 59007; the front's
        // horizontal title has 1408 and 1409), every glyph upright.
        let content = try Run.command("/usr/bin/qpdf", ["--qdf", "--normalize-content=n", "--object-streams=disable", out, "-"])
        let codes = content.stdout.split(separator: "\n").filter { $0.hasSuffix("] TJ") }.flatMap { line in
            line.matches(of: /<([0-9a-fA-F]{4})>/).compactMap { Int(String($0.1), radix: 16) }
        }
        #expect(codes.contains(59006) && codes.contains(59007) && codes.contains(1408), "\(codes)")
        #expect(!content.stdout.contains("0 -1 1 0 "), "no turned text matrix on the cover")
    }

    /// A Latin word in a column is turned sideways, reading down, as Japanese books set one; the characters
    /// around it stay upright.
    @Test func aLatinWordInAColumnIsTurnedSideways() throws {
        try #require(FileManager.default.fileExists(atPath: FontFileTests.notoCJK), "fonts-noto-cjk")
        let scratch = try Scratch()
        let (run, out) = try Self.cover(scratch, title: "東京の旅 Tokyo", extra: ["--spine-text", "vertical"])
        #expect(run.status == 0, "\(run.stderr)")
        let mm = CoverTests.mm, spineLeft = 3 * mm + 148 * mm, spineRight = spineLeft + 15 * mm
        let onSpine = try CoverTests.words(out).filter { $0.xMin >= spineLeft - 1 && $0.xMax <= spineRight + 1 }
        let tokyo = try #require(onSpine.first { $0.text == "Tokyo" }, "\(onSpine)")
        #expect(tokyo.yMax - tokyo.yMin > 2 * (tokyo.xMax - tokyo.xMin), "turned: taller than wide \(tokyo)")
        let han = try #require(onSpine.first { $0.text == "旅" }, "\(onSpine)")
        #expect(han.yMax <= tokyo.yMin + 1, "旅 above Tokyo: \(han) \(tokyo)")
        #expect(abs((tokyo.xMin + tokyo.xMax) / 2 - (spineLeft + spineRight) / 2) < 3, "centred: \(tokyo)")
        let turned = try CoverTests.textMatrices(out).filter { $0.count == 6 && $0[0] == 0 && $0[1] == -1 }
        #expect(turned.count == 1, "the Latin word's line alone is turned")
    }

    @Test func rotatedIsTheEnglishSpineAndALatinTitleKeepsIt() throws {
        let scratch = try Scratch()
        let (run, out) = try Self.cover(scratch, extra: ["--spine-text", "rotated"])
        #expect(run.status == 0, "\(run.stderr)")
        let matrices = try CoverTests.textMatrices(out)
        #expect(matrices.contains { $0.count == 6 && $0[0] == 0 && $0[1] == -1 && $0[2] == 1 && $0[3] == 0 }, "\(matrices)")
        let latin = try Scratch()
        let (plain, plainOut) = try Self.cover(latin, title: "Summer in Crete")
        #expect(plain.status == 0, "\(plain.stderr)")
        let turned = try CoverTests.textMatrices(plainOut).filter { $0.count == 6 && $0[0] == 0 && $0[1] == -1 }
        #expect(turned.count == 1, "one turned line, the title's")
        let bad = try Run.command(Run.binary, ["cover", CoverTests.front, "-o", latin.file("x.pdf"), "--spine", "15mm",
                                               "--title", "x", "--spine-text", "sideways"])
        #expect(bad.status == 2 && bad.stderr.contains("--spine-text"), "\(bad.stderr)")
    }
}
