import Foundation
import Testing

@testable import PDF
import Typeface

/// The embedded font's /ToUnicode map gives every glyph drawn back as the character it was drawn for.
@Suite struct ToUnicodeTests {
    /// The objects of `pdf` from `qpdf --json` (version 2), streams decoded and inlined as base64.
    static func objects(_ pdf: String, streamData: String = "inline") throws -> [String: [String: Any]] {
        let json = try Tools.run("qpdf", ["--json", "--json-key=qpdf", "--json-stream-data=\(streamData)", pdf])
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let root = try #require(parsed as? [String: Any])
        let qpdf = try #require(root["qpdf"] as? [Any])
        return try #require(qpdf[1] as? [String: [String: Any]])
    }

    /// The one Type0 font of `objects` and the decoded bytes of its /ToUnicode stream, as text.
    static func toUnicode(in objects: [String: [String: Any]]) throws -> (reference: String, text: String) {
        let fonts = objects.values.compactMap { $0["value"] as? [String: Any] }.filter { $0["/Subtype"] as? String == "/Type0" }
        #expect(fonts.count == 1)
        let reference = try #require(fonts.first?["/ToUnicode"] as? String)
        let stream = try #require(objects["obj:" + reference]?["stream"] as? [String: Any])
        let base64 = try #require(stream["data"] as? String)
        let data = try #require(Data(base64Encoded: base64))
        return (reference, String(decoding: data, as: UTF8.self))
    }

    @Test func theFontsToUnicodeMapsEachGlyphDrawnToItsCharacter() throws {
        try Tools.withTempDirectory { dir in
            let pdf = try PDFTextTests.book(["Café 😀"], in: dir)
            let (reference, text) = try Self.toUnicode(in: Self.objects(pdf))
            #expect(text.contains("/CMapName /Adobe-Identity-UCS def"))
            #expect(text.contains("1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange"))
            // DejaVu Sans: C 38, a 68, f 73, é 136, space 3, 😀 5988 (beyond the BMP: a surrogate pair).
            let metrics = try FontFace(path: PDFFont.defaultPath)
            var expected: [String] = []
            for scalar in "Café 😀".unicodeScalars.sorted(by: { metrics.glyph(for: $0)! < metrics.glyph(for: $1)! }) {
                let units = String(scalar).utf16.map { GlyphToUnicodeCMap.hex($0) }.joined()
                expected.append("<\(GlyphToUnicodeCMap.hex(UInt16(metrics.glyph(for: scalar)!)))> <\(units)>")
            }
            #expect(text.contains("6 beginbfchar\n" + expected.joined(separator: "\n") + "\nendbfchar"), "\(text)")
            #expect(text.contains("D83DDE00"))
            // Compressed like libharu's own streams (qpdf shows the stream's dictionary as stored).
            let number = try #require(reference.split(separator: " ").first)
            let stored = try Tools.run("qpdf", ["--show-object=\(number)", pdf])
            #expect(stored.contains("/Filter /FlateDecode") || stored.contains("/Filter [ /FlateDecode ]"), "\(stored)")
            #expect(try Tools.qpdfCheck(pdf))
        }
    }

    /// At most 100 entries per bfchar block (the CMap specification's limit), glyphs in ascending order.
    @Test func blocksHoldAtMostAHundredGlyphs() throws {
        let map = Dictionary(uniqueKeysWithValues: (0..<250).map { (UInt32($0 + 10), Unicode.Scalar(0x4E00 + $0)!) })
        let lines = GlyphToUnicodeCMap.text(map).split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasSuffix("beginbfchar") } == ["100 beginbfchar", "100 beginbfchar", "50 beginbfchar"])
        #expect(lines.filter { $0 == "endbfchar" }.count == 3)
        #expect(lines.contains("<000A> <4E00>") && lines.contains("<0103> <4EF9>"))
    }

    /// The page shows glyph ids, two bytes each, one Tj per line: the font's own ids, kept by the subset.
    @Test func theDrawnCodesAreTheFontsGlyphIds() throws {
        try Tools.withTempDirectory { dir in
            let line = "Café Ελλ Кир “q” … \u{FFFD}"
            let pdf = try PDFTextTests.book([line, "😀"], in: dir)
            let content = try Tools.run("qpdf", ["--qdf", "--object-streams=disable", pdf, "-"])
            let shown = content.split(separator: "\n").filter { $0.hasSuffix(" Tj") }.map { $0.dropLast(3) }
            let face = try FontFace(path: PDFFont.defaultPath)
            func hex(_ text: String) -> String {
                "<" + text.unicodeScalars.map { String(format: "%04x", face.glyph(for: $0)!) }.joined() + ">"
            }
            #expect(shown.map { $0.lowercased() } == [hex(line), hex("😀")])
        }
    }

    @Test func pdftotextReadsTheTextBackWithoutAWarning() throws {
        try Tools.withTempDirectory { dir in
            let drawn = Array(PDFTextTests.lines.prefix(4)) + ["Sun 😀 day"]
            let pdf = try PDFTextTests.book(drawn, in: dir)
            let run = try Tools.runCapturingErrors("pdftotext", ["-enc", "UTF-8", pdf, "-"])
            #expect(run.errors == "")
            let got = run.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            #expect(got == drawn)
        }
    }
}
