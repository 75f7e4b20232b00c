import Foundation
import Testing
import TestSupport
import TextBreaks

/// Our visual order against GNU FriBidi's (fribidi(1), libfribidi-bin): an implementation of UAX #9 that shares no
/// code with ICU. This file also imports Foundation, whose own ICU (_FoundationICU) is in the process next to
/// Debian's libicuuc that TextBreaks uses: the two must not disturb each other.
@Suite struct FriBidiReferenceTests {
    static let fribidi = "/usr/bin/fribidi"

    static let texts = [
        "שלום Tokyo 2026 עולם",
        "مرحبا 2026 بالعالم",
        "Hello, world",
        "abc שלום def",
        "שלום (abc) עולם!",
        "The title is \"מה נשמע?\" in Hebrew.",
        "١٢٣ مرحبا 45.6%",
        "עברית 1-2-3 ו-English ו-2026.",
        "😀 abc שלום 😀",
        "ثم 12:30 في Paris, France عام 2026",
        "  שלום  ",
        "2026 - 2027",
    ]

    /// FriBidi's visual-to-logical map and levels (in scalars) of each text, one paragraph per line of its input.
    static func reference(_ texts: [String]) throws -> [(visualToLogical: [Int], levels: [Int])] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("textbreaks-\(UUID().uuidString).txt").path
        try texts.joined(separator: "\n").appending("\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try ExternalCommand.output(fribidi, ["--novisual", "--vtol", "--levels", "--nobreak", path])
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
            .map { $0.split(separator: " ").compactMap { Int($0) } }
        try #require(lines.count == 2 * texts.count, "fribidi printed \(lines.count) lines")
        return stride(from: 0, to: lines.count, by: 2).map { (lines[$0], lines[$0 + 1]) }
    }

    /// Our runs as FriBidi shows them: the scalars' logical offsets in visual order, and each scalar's level.
    static func ours(_ text: String) -> (visualToLogical: [Int], levels: [Int]) {
        let runs = Bidi.visualRuns(of: text)
        var levels = [Int](repeating: -1, count: text.unicodeScalars.count)
        var order: [Int] = []
        for run in runs {
            order += run.direction == .rightToLeft ? Array(run.range.reversed()) : Array(run.range)
            for offset in run.range { levels[offset] = run.level }
        }
        return (order, levels)
    }

    @Test func theReferenceIsInstalled() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.fribidi),
                "fribidi(1) is missing: make test-deps installs libfribidi-bin")
    }

    @Test func visualOrderAndLevelsMatchFriBidi() throws {
        let reference = try Self.reference(Self.texts)
        for (text, expected) in zip(Self.texts, reference) {
            let ours = Self.ours(text)
            #expect(ours.visualToLogical == expected.visualToLogical, "\(text)")
            #expect(ours.levels == expected.levels, "\(text)")
        }
    }

    @Test func overridesMatchFriBidiOutsideTheControls() throws {
        // UAX #9 removes the controls (X9), and the two libraries give them different levels: compare the rest.
        let texts = ["\u{202E}abc\u{202C} def", "abc \u{202B}שלום xyz\u{202C} 12", "\u{2067}abc 12\u{2069} שלום",
                     "x\u{202D}שלום עולם\u{202C}y", "\u{2068}שלום\u{2069} abc \u{2066}שלום\u{2069}"]
        let reference = try Self.reference(texts)
        for (text, expected) in zip(texts, reference) {
            let controls = Set(text.unicodeScalars.enumerated()
                .filter { (0x202A...0x202E).contains($0.element.value) || (0x2066...0x2069).contains($0.element.value) }
                .map(\.offset))
            let ours = Self.ours(text)
            #expect(ours.visualToLogical.filter { !controls.contains($0) }
                        == expected.visualToLogical.filter { !controls.contains($0) }, "\(text)")
        }
    }

    @Test func foundationsICUAndOursWorkSideBySide() {
        // Foundation's formatting and comparison go through its own ICU; ours through Debian's. Interleaved.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "ja_JP")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy年M月d日"
        let day = formatter.string(from: Date(timeIntervalSince1970: 1_767_225_600))
        #expect(day == "2026年1月1日")
        #expect(LineBreaks.opportunities(in: day, language: "ja") == [4, 5, 6, 7, 8])
        #expect("é".compare("f", locale: Locale(identifier: "fr")) == .orderedAscending)
        #expect(Bidi.visualRuns(of: "שלום abc") == [BidiRun(range: 5..<8, level: 2), BidiRun(range: 0..<5, level: 1)])
    }
}
