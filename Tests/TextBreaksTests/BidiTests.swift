import Testing
import TextBreaks

/// Expected runs worked out from UAX #9 by hand (W, N and I rules), not from ICU's answers.
@Suite struct BidiTests {
    static func run(_ range: Range<Int>, _ level: Int) -> BidiRun { BidiRun(range: range, level: level) }

    @Test func hebrewWithALatinWordAndANumber() {
        let text = "שלום Tokyo 2026 עולם"
        #expect(Bidi.baseDirection(of: text) == .rightToLeft)
        // "Tokyo 2026" (L, WS, EN) rises to level 2; both spaces beside Hebrew are R's (N1, numbers count as R).
        // On the page, left to right: עולם, then "Tokyo 2026", then שלום at the right edge.
        let runs = Bidi.visualRuns(of: text)
        #expect(runs == [Self.run(15..<20, 1), Self.run(5..<15, 2), Self.run(0..<5, 1)])
        #expect(runs.map(\.direction) == [.rightToLeft, .leftToRight, .rightToLeft])
    }

    @Test func arabicWithANumber() {
        let text = "مرحبا 2026 بالعالم"
        #expect(Bidi.baseDirection(of: text) == .rightToLeft)
        // After AL the digits are AN (W2), level 2: their own run, left to right; the spaces go with the Arabic.
        #expect(Bidi.visualRuns(of: text) == [Self.run(10..<18, 1), Self.run(6..<10, 2), Self.run(0..<6, 1)])
    }

    @Test func latinIsOneRun() {
        #expect(Bidi.baseDirection(of: "Hello, world 2026!") == .leftToRight)
        #expect(Bidi.visualRuns(of: "Hello, world 2026!") == [Self.run(0..<18, 0)])
    }

    @Test func forcedRightToLeftBaseRaisesLatinToLevelTwo() {
        #expect(Bidi.visualRuns(of: "abc", base: .rightToLeft) == [Self.run(0..<3, 2)])
        #expect(Bidi.visualRuns(of: "abc", base: .rightToLeft).first?.direction == .leftToRight)
        // And the other way: Hebrew in a paragraph forced left to right.
        #expect(Bidi.visualRuns(of: "abc שלום", base: .leftToRight) == [Self.run(0..<4, 0), Self.run(4..<8, 1)])
    }

    @Test func rightToLeftOverrideTurnsLatinAround() {
        let text = "\u{202E}abc\u{202C} def"
        // P2 looks at the characters' own classes: "a" is L, whatever the override makes of it.
        #expect(Bidi.baseDirection(of: text) == .leftToRight)
        let runs = Bidi.visualRuns(of: text)
        Self.expectPartition(runs, count: 9)
        let abc = runs.first { $0.range.contains(1) }
        #expect(abc?.direction == .rightToLeft && abc?.level == 1)
        #expect(abc.map { (1..<4).allSatisfy($0.range.contains) } == true)
        // " def" reads left to right at level 0; where the PDF (offset 4, removed by X9) goes is ICU's choice.
        #expect(runs.last.map { $0.level == 0 && $0.range.upperBound == 9 && $0.range.contains(5) } == true)
    }

    @Test func isolatedHebrewDoesNotDecideTheParagraph() {
        // RLI ... PDI is skipped by P2: the first strong character outside it is "a".
        let text = "\u{2067}שלום\u{2069} abc"
        #expect(Bidi.baseDirection(of: text) == .leftToRight)
        #expect(Bidi.visualRuns(of: text).contains(Self.run(1..<5, 1)))
        #expect(Bidi.baseDirection(of: "\u{2067}שלום\u{2069}") == nil)
    }

    @Test func noStrongCharacter() {
        #expect(Bidi.baseDirection(of: "2026 !") == nil)
        #expect(Bidi.baseDirection(of: "") == nil)
        #expect(Bidi.visualRuns(of: "2026 !") == [Self.run(0..<6, 0)])
        // In a right-to-left paragraph the number still reads left to right (I2: EN at level 2).
        #expect(Bidi.visualRuns(of: "2026", base: .rightToLeft) == [Self.run(0..<4, 2)])
    }

    @Test func emptyTextHasNoRuns() {
        #expect(Bidi.visualRuns(of: "").isEmpty)
        #expect(Bidi.visualRuns(of: "", base: .rightToLeft).isEmpty)
    }

    @Test func rangesCountScalarsNotUTF16Units() {
        // 😀 is two UTF-16 units and one scalar: the Hebrew starts at scalar 6, not unit 7.
        let text = "😀 abc שלום"
        #expect(Bidi.visualRuns(of: text) == [Self.run(0..<6, 0), Self.run(6..<10, 1)])
        // 𐤀 (U+10900, Phoenician) is a right-to-left letter outside the BMP.
        #expect(Bidi.baseDirection(of: "𐤀𐤁 ab") == .rightToLeft)
        #expect(Bidi.visualRuns(of: "𐤀𐤁 ab") == [Self.run(3..<5, 2), Self.run(0..<3, 1)])
    }

    @Test func eachParagraphIsOrderedAlone() {
        // Two paragraphs of opposite directions: each by its own first strong character, one after the other.
        let runs = Bidi.visualRuns(of: "abc שלום\nשלום abc")
        #expect(runs == [Self.run(0..<4, 0), Self.run(4..<8, 1), Self.run(8..<9, 0),
                         Self.run(14..<17, 2), Self.run(9..<14, 1)])
        #expect(Bidi.baseDirection(of: "abc\nשלום") == .leftToRight)
    }

    @Test func aRunsDirectionIsItsLevelsParity() {
        #expect(BidiRun(range: 0..<1, level: 0).direction == .leftToRight)
        #expect(BidiRun(range: 0..<1, level: 3).direction == .rightToLeft)
        #expect(BidiRun(range: 0..<1, level: 62).direction == .leftToRight)
    }

    /// The runs cover `0..<count` once each, with no empty run.
    static func expectPartition(_ runs: [BidiRun], count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let sorted = runs.map(\.range).sorted { $0.lowerBound < $1.lowerBound }
        var next = 0
        for range in sorted {
            #expect(range.lowerBound == next && !range.isEmpty, "runs \(sorted)", sourceLocation: sourceLocation)
            next = range.upperBound
        }
        #expect(next == count, "runs end at \(next), not \(count)", sourceLocation: sourceLocation)
    }
}
