import Words

/// Measures text as the book will set it, so that the planner, which does no I/O, can wrap captions and place
/// titles: the PDF module answers with the glyph widths of the font it embeds.
public protocol TextMeasure: Sendable {
    /// The font's name as a reader knows it, for messages ("DejaVu Sans").
    var fontName: String { get }
    /// The advance width of `text` set at `size` points, in points.
    func width(of text: String, size: Double) -> Double
    /// Whether the font has a glyph for `scalar`; one it lacks would print as �.
    func covers(_ scalar: Unicode.Scalar) -> Bool
    /// How far the tallest glyphs rise above the baseline, per point of size.
    var ascent: Double { get }
    /// How far the deepest glyphs fall below the baseline, per point of size (positive).
    var descent: Double { get }
    /// The same measure for text in `language` (a caption's own `lang`), which may draw some characters in other
    /// faces (Han in Japanese or Chinese forms); itself when the language changes nothing.
    func speaking(_ language: Language?) -> any TextMeasure
    /// Where a line of `text` may start, after its first (offsets in Unicode scalars), as its language breaks
    /// lines (UAX #14); nil breaks at spaces only.
    func lineStarts(in text: String) -> [Int]?
    /// How wide a column of upright characters is, per point of size; 0 when the measure sets no columns.
    var columnWidth: Double { get }
    /// How long `text` is set as a column of upright characters at `size` points, in points.
    func columnLength(of text: String, size: Double) -> Double
}

extension TextMeasure {
    /// The distance between baselines per point of size: 1.25, or the font's whole extent when that is more, so
    /// that lines in a font as tall as Noto Sans CJK (1.448 em from ascender to descender) keep inside their box
    /// (at 1.25 a CJK caption's first line reached 0.6 mm above it, past the safe area). DejaVu Sans is 1.164.
    public var lineHeight: Double { max(1.25, ascent + descent) }

    public func speaking(_ language: Language?) -> any TextMeasure { self }
    public func lineStarts(in text: String) -> [Int]? { nil }
    public var columnWidth: Double { 0 }
    public func columnLength(of text: String, size: Double) -> Double { width(of: text, size: size) }
}

/// Breaking text into lines that fit a width, with the font's own widths.
public enum TextLines {
    /// The lines `text` needs at `width` points, at most `maxLines`; the last one ends with an ellipsis when the
    /// text did not fit (`cut` is then true). Breaks at spaces; a word wider than the line is broken where it must.
    public static func wrap(_ text: String, width: Double, size: Double, maxLines: Int, measure: any TextMeasure)
        -> (lines: [String], cut: Bool) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).map(String.init)
        guard !words.isEmpty, maxLines > 0, width > 0 else { return ([], !words.isEmpty) }
        let joined = words.joined(separator: " ")
        if let starts = measure.lineStarts(in: joined) {
            return wrap(joined, at: starts, width: width, size: size, maxLines: maxLines, measure: measure)
        }
        var lines: [String] = []
        var current = ""
        var pending = words[...]
        while let word = pending.first {
            let candidate = current.isEmpty ? word : current + " " + word
            if measure.width(of: candidate, size: size) <= width {
                current = candidate
                pending = pending.dropFirst()
                continue
            }
            if current.isEmpty {
                // A single word wider than the line: as many characters as fit, the rest on the next line.
                let (head, tail) = split(word, width: width, size: size, measure: measure)
                lines.append(head)
                pending = pending.dropFirst()
                if !tail.isEmpty { pending = [tail] + pending }
            } else {
                lines.append(current)
                current = ""
            }
            if lines.count == maxLines { break }
        }
        if lines.count < maxLines && !current.isEmpty {
            lines.append(current)
            current = ""
        }
        let cut = !pending.isEmpty || !current.isEmpty
        if cut, let last = lines.popLast() {
            lines.append(ellipsized(last, width: width, size: size, measure: measure))
        }
        return (lines, cut)
    }

    /// `text` (its spaces single) broken where its language lets a line start (`starts`, UAX #14: Japanese between
    /// characters but never before 、。」 or a small kana, nor after 「; Thai between words; elsewhere after spaces
    /// and hyphens): each line as long as fits; a stretch wider than the line alone (a long word, a URL) is broken
    /// between characters, at least one a line. Spaces at the ends of lines are dropped.
    static func wrap(_ text: String, at starts: [Int], width: Double, size: Double, maxLines: Int,
                     measure: any TextMeasure) -> (lines: [String], cut: Bool) {
        let scalars = Array(text.unicodeScalars)
        let ends = starts.filter { $0 > 0 && $0 < scalars.count } + [scalars.count]
        func piece(_ range: Range<Int>) -> String {
            String(String.UnicodeScalarView(scalars[range])).trimmingTrailingSpaces()
        }
        var lines: [String] = []
        var start = 0
        while start < scalars.count && lines.count < maxLines {
            // The furthest place a line may end that fits, by halving: a line only grows as it takes more (a
            // caption of 10,000 zero-width spaces has as many places, and measuring each was minutes).
            var end: Int?
            var low = ends.partitionPoint { $0 <= start }, high = ends.count
            while low < high {
                let middle = (low + high) / 2
                if measure.width(of: piece(start..<ends[middle]), size: size) <= width {
                    end = ends[middle]
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            if let end {
                lines.append(piece(start..<end))
                start = end
            } else {
                // Nothing up to the next place a line may start fits: as many characters as do, at least one.
                let next = ends.first { $0 > start } ?? scalars.count
                let (head, _) = split(String(String.UnicodeScalarView(scalars[start..<next])), width: width, size: size,
                                      measure: measure)
                lines.append(head)
                start += head.unicodeScalars.count
            }
            while start < scalars.count && scalars[start] == " " { start += 1 }
        }
        let cut = start < scalars.count
        if cut, let last = lines.popLast() {
            lines.append(ellipsized(last, width: width, size: size, measure: measure))
        }
        return (lines, cut)
    }

    /// `line` shortened until it fits with an ellipsis after it.
    static func ellipsized(_ line: String, width: Double, size: Double, measure: any TextMeasure) -> String {
        ellipsized(line) { measure.width(of: $0, size: size) <= width }
    }

    /// `text` shortened, a character at a time from its end, until `fits` takes it with an ellipsis after it.
    static func ellipsized(_ text: String, fits: (String) -> Bool) -> String {
        var characters = Array(text)
        while !characters.isEmpty {
            let candidate = String(characters).trimmingTrailingSpaces() + "…"
            if fits(candidate) { return candidate }
            characters.removeLast()
        }
        return "…"
    }

    /// The longest head of `word` that fits, and the rest; at least one character goes on each line.
    private static func split(_ word: String, width: Double, size: Double, measure: any TextMeasure) -> (String, String) {
        let characters = Array(word)
        var count = 1
        while count < characters.count && measure.width(of: String(characters[..<(count + 1)]), size: size) <= width {
            count += 1
        }
        return (String(characters[..<count]), String(characters[count...]))
    }

    /// The characters of `text` the font lacks, each once, in order of first appearance.
    public static func missing(in text: String, measure: any TextMeasure) -> [Unicode.Scalar] {
        var seen: Set<Unicode.Scalar> = []
        var missing: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars where !scalar.properties.isWhitespace && !measure.covers(scalar) {
            if seen.insert(scalar).inserted { missing.append(scalar) }
        }
        return missing
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}

extension Array where Element == Int {
    /// The index of the first element for which `belongs` is false, in an array where it is true up to some index
    /// and false from there on (sorted offsets); `count` when it is true throughout.
    func partitionPoint(_ belongs: (Int) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
