import Foundation
import Testing

/// Hostile caption files through the whole text path (fonts found, bidi, shaping, line breaking, the PDF's text):
/// control characters, bidi overrides and isolates, a pile of combining marks, a lone surrogate's bytes, a line
/// of one unbreakable word. Each gives a book with a clear warning or a correct page, never a crash or a hang.
@Suite struct HostileTextTests {
    static let captions: [(name: String, bytes: [UInt8])] = [
        // DEL and the C1 controls pass as text and are drawn as spaces; a C0 control (an escape) refuses the file.
        ("controls", Array("bell tab\there del\u{7F} c1\u{85}\u{9B} end".utf8)),
        ("escape", Array("esc\u{1B}[31m red".utf8)),
        ("bidi", Array("\u{202E}reversed\u{202C} \u{2066}שלום\u{2069} \u{202B}مرحبا 2026\u{202C} \u{200F}x\u{200E}".utf8)),
        ("marks", Array(("a" + String(repeating: "\u{0301}\u{200B}", count: 10_000) + " ب" + String(repeating: "\u{064E}", count: 5_000)).utf8)),
        // U+D800 as UTF-8 would have it (CESU-8 / WTF-8): not UTF-8, refused as a sidecar, as a NUL is.
        ("surrogate", [0x61, 0xED, 0xA0, 0x80, 0x62]),
        ("word", Array(String(repeating: "supercalifragilistic", count: 60).utf8)),
        ("mixed", Array("東京 😀 𠮷野家 ﷺ ﷽ Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇ 🏳️‍🌈 \u{FEFF}\u{FFFC}\u{FFFD}".utf8)),
    ]

    @Test func hostileCaptionsGiveABookWithWarningsAndNoCrash() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: Self.captions.map { _ in (900, 600) })
        for (photo, caption) in zip(photos, Self.captions) {
            try Data(caption.bytes).write(to: URL(fileURLWithPath: photo + ".txt"))
        }
        let out = scratch.file("hostile.pdf")
        let started = Date()
        let run = try Run.command(Run.binary, ["build"] + photos + ["-o", out, "--captions", "auto", "--layout", "grid 4x2",
                                                                    "--title", "\u{202E}Title\u{2066}"],
                                  environment: ["LC_ALL": "C.UTF-8"], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Date().timeIntervalSince(started) < 60, "no hang")
        #expect(run.stderr.contains("combining marks beyond 30 on one character are left out"), "\(run.stderr)")
        #expect(run.stderr.contains("img05.jpg.txt is not UTF-8 text"), "the surrogate's sidecar is named: \(run.stderr)")
        #expect(run.stderr.contains("img02.jpg.txt holds a control character (U+001B)"), "\(run.stderr)")
        let text = try WordsTests.text(out, page: 2).joined(separator: "\n")
        #expect(text.contains("bell") && text.contains("end"), "\(text)")
        #expect(text.contains("東京") && text.contains("𠮷"), "\(text)")
        let gs = try Run.command("/usr/bin/gs", ["-q", "-sDEVICE=nullpage", "-dBATCH", "-dNOPAUSE", out])
        #expect(gs.status == 0 && !(gs.stdout + gs.stderr).contains("Error"), "\(gs.stdout)\(gs.stderr)")
        let qpdf = try Run.command("/usr/bin/qpdf", ["--check", out])
        #expect(qpdf.status == 0, "\(qpdf.stdout)\(qpdf.stderr)")
    }
}
