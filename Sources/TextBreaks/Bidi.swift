import CICUShim

/// The Unicode bidirectional algorithm (UAX #9) by ICU's ubidi: which way a paragraph reads and the order its runs
/// are drawn in. A text is one paragraph, or several separated by paragraph separators (line feed, U+2029...),
/// each ordered alone. Bidi controls (U+202A-U+202E, U+2066-U+2069) are obeyed and stay in the runs, at the level
/// ICU gives them: whoever draws the runs drops them.
public enum Bidi {
    /// The paragraph's base direction by the first strong character (P2/P3), `nil` when it has none.
    ///
    /// Characters inside an isolate (U+2066-U+2069) do not count, as P2 says; for a text of several paragraphs the
    /// first one answers. Backed by ubidi_setPara's paragraph level. A text over 65,536 UTF-16 units is judged by
    /// its first 65,536.
    public static func baseDirection(of text: String) -> ParagraphDirection? {
        let utf16 = UTF16Text(text)
        guard let first = utf16.pieces.first else { return nil }
        let answer = utf16.withPiece(first) { pbicu_base_direction($0, $1) }
        switch answer {
        case Int32(PBICU_LTR): return .leftToRight
        case Int32(PBICU_RTL): return .rightToLeft
        default: return nil  // no strong character, or ICU failed (out of memory): nothing to go by either way
        }
    }

    /// The runs of `text` in VISUAL order (left to right on the page), by ICU's ubidi (ubidi_setPara,
    /// ubidi_getVisualRun). `base`: nil = by the text (default LTR when no strong character).
    ///
    /// The runs cover the text, each scalar in one run; an empty text has none. Paragraphs come one after another,
    /// each in its own visual order, so a caller that wants lines breaks at the paragraph separators first.
    /// A text over 65,536 UTF-16 units (more than a 64 KB caption can hold) is ordered in pieces cut at a line feed
    /// or space where one is near, all at `base`, else at the first piece's direction; a left-to-right run across
    /// a cut is one run. Should ICU fail (out of memory), a piece is one run at the base level, in logical order.
    public static func visualRuns(of text: String, base: ParagraphDirection? = nil) -> [BidiRun] {
        let utf16 = UTF16Text(text)
        let pieces = utf16.pieces
        guard !pieces.isEmpty else { return [] }
        var resolvedBase = base
        if pieces.count > 1, resolvedBase == nil {
            resolvedBase = baseDirection(of: text) ?? .leftToRight
        }
        let shimBase: Int32 = switch resolvedBase {
        case .leftToRight: Int32(PBICU_LTR)
        case .rightToLeft: Int32(PBICU_RTL)
        case nil: Int32(PBICU_NEUTRAL)
        }
        var runs: [BidiRun] = []
        for piece in pieces {
            // There are never more runs than units.
            var shimRuns = [pbicu_run](repeating: pbicu_run(), count: piece.count)
            let count = utf16.withPiece(piece) { units, length in
                shimRuns.withUnsafeMutableBufferPointer { buffer in
                    pbicu_visual_runs(units, length, shimBase, buffer.baseAddress, Int32(buffer.count))
                }
            }
            guard count >= 0 else {
                let fallback = resolvedBase ?? baseDirection(of: text) ?? .leftToRight
                runs.append(BidiRun(range: utf16.scalarOffset(ofUnit: piece.lowerBound)
                                        ..< utf16.scalarOffset(ofUnit: piece.upperBound),
                                    level: fallback == .rightToLeft ? 1 : 0))
                continue
            }
            for shimRun in shimRuns.prefix(Int(count)) {
                let start = piece.lowerBound + Int(shimRun.start)
                let end = start + Int(shimRun.length)
                let run = BidiRun(range: utf16.scalarOffset(ofUnit: start)..<utf16.scalarOffset(ofUnit: end),
                                  level: Int(shimRun.level))
                // A left-to-right run cut by a piece's end goes on at the next piece's start: one run again. (Two
                // halves of a right-to-left one stay apart, each reversed alone, as two lines would be.)
                if let last = runs.last, last.level == run.level, last.direction == .leftToRight,
                   last.range.upperBound == run.range.lowerBound {
                    runs[runs.count - 1] = BidiRun(range: last.range.lowerBound..<run.range.upperBound, level: run.level)
                } else {
                    runs.append(run)
                }
            }
        }
        return runs
    }
}
