import Foundation
import Testing

@testable import PDF

/// The embedded font's /ToUnicode map is a real ToUnicode CMap that gives every drawn code back as itself.
@Suite struct ToUnicodeTests {
    /// The objects of `pdf` from `qpdf --json` (version 2), streams decoded and inlined as base64.
    static func objects(_ pdf: String) throws -> [String: [String: Any]] {
        let json = try Tools.run("qpdf", ["--json", "--json-key=qpdf", "--json-stream-data=inline", pdf])
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

    @Test func theFontsToUnicodeIsABfrangeCMapNotAnEncoding() throws {
        try Tools.withTempDirectory { dir in
            let pdf = try PDFTextTests.book(["Café"], in: dir)
            let (reference, text) = try Self.toUnicode(in: Self.objects(pdf))
            #expect(text.contains("beginbfrange"))
            #expect(!text.contains("begincidrange"), "libharu's encoding CMap is back:\n\(text)")
            #expect(text.contains("/CMapName /Adobe-Identity-UCS def"))
            #expect(text.contains("1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange"))
            #expect(text == IdentityToUnicodeCMap.text)
            // Compressed like libharu's own streams (qpdf shows the stream's dictionary as stored).
            let number = try #require(reference.split(separator: " ").first)
            let stored = try Tools.run("qpdf", ["--show-object=\(number)", pdf])
            #expect(stored.contains("/Filter /FlateDecode") || stored.contains("/Filter [ /FlateDecode ]"), "\(stored)")
            #expect(try Tools.qpdfCheck(pdf))
        }
    }

    /// 248 ranges of 256 codes, one per first byte, the surrogates D8–DF left out, at most 100 per block.
    @Test func theRangesCoverTheBasicPlaneButTheSurrogatesEachCodeToItself() throws {
        let lines = IdentityToUnicodeCMap.text.split(separator: "\n").map(String.init)
        var blocks: [Int] = []
        var firstBytes: [Int] = []
        for line in lines {
            if line.hasSuffix(" beginbfrange") {
                blocks.append(Int(line.split(separator: " ")[0])!)
            } else if line.hasPrefix("<"), line.split(separator: " ").count == 3 {
                let codes = line.split(separator: " ").map { Int($0.dropFirst().dropLast(), radix: 16)! }
                #expect(codes[0] & 0xFF == 0 && codes[1] == codes[0] | 0xFF && codes[2] == codes[0], "\(line)")
                firstBytes.append(codes[0] >> 8)
            }
        }
        #expect(blocks == [100, 100, 48])
        #expect(firstBytes == Array(0x00...0xD7) + Array(0xE0...0xFF))
        #expect(lines.filter { $0 == "endbfrange" }.count == blocks.count)
    }

    /// What the map relies on: libharu's "UTF-8" encoder writes each character as its UTF-16 code unit.
    @Test func theDrawnCodesAreTheUTF16CodeUnitsOfTheText() throws {
        try Tools.withTempDirectory { dir in
            let line = "Café Ελλ Кир “q” … \u{FFFD}"
            let pdf = try PDFTextTests.book([line, "😀"], in: dir)
            let content = try Tools.run("qpdf", ["--qdf", "--object-streams=disable", pdf, "-"])
            let shown = content.split(separator: "\n").filter { $0.hasSuffix(" Tj") }.map { $0.dropLast(3) }
            func hex(_ text: String) -> String {
                "<" + text.utf16.map { String(format: "%04x", $0) }.joined() + ">"
            }
            #expect(shown == [Substring(hex(line)), Substring(hex("\u{FFFD}"))])
        }
    }

    @Test func pdftotextReadsTheTextBackWithoutAWarning() throws {
        try Tools.withTempDirectory { dir in
            let drawn = Array(PDFTextTests.lines.prefix(4))
            let pdf = try PDFTextTests.book(drawn + ["Sun 😀 day"], in: dir)
            let run = try Tools.runCapturingErrors("pdftotext", ["-enc", "UTF-8", pdf, "-"])
            #expect(run.errors == "")
            let got = run.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            let expected = drawn + ["Sun \u{FFFD} day"]
            #expect(got == expected)
        }
    }
}
