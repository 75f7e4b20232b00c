import Typeface

/// A run of shaped glyphs of one font, one direction, and the text it stands for.
///
/// The glyphs are HarfBuzz's (`FontFace.shape`): visual order, left to right (top to bottom for a `.topToBottom`
/// column), in font units, each with the offset in Unicode scalars of `text` of its cluster's first scalar. Measured (`PDFFont.width(of:size:)`) and drawn
/// (`PDFPage.drawGlyphs`) with the font it was shaped with.
public struct PDFGlyphRun: Sendable {
    public let text: String
    public let glyphs: [ShapedGlyph]
    public let direction: TextDirection

    public init(text: String, glyphs: [ShapedGlyph], direction: TextDirection) {
        self.text = text
        self.glyphs = glyphs
        self.direction = direction
    }

    /// The indices of `glyphs` in logical order, the order a page writes them in so that text extraction reads
    /// them as typed: by cluster, and within a cluster as HarfBuzz made them (a right-to-left run's glyphs
    /// reversed back first, so a base still comes before its marks).
    /// The order the glyphs are written in the content stream: logical for left-to-right and vertical runs,
    /// visual (left to right, as HarfBuzz gives them) for right-to-left ones.
    ///
    /// Trap: poppler reads a right-to-left run written in logical order, each glyph placed by its own Tm, with a
    /// space between most letters ("ש ו ב ע ם"), and one in a single TJ stepping back to the left as one word
    /// per letter; written left to right it reorders the letters itself and reads the words exactly. MuPDF reads
    /// the stream's order instead (the visual order comes out backwards there); pdftotext is what most readers on
    /// Linux copy text with, and what this project checks extraction with.
    var writingOrder: [Int] {
        direction == .rightToLeft ? Array(glyphs.indices) : logicalOrder
    }

    var logicalOrder: [Int] {
        let visual = Array(glyphs.indices)
        let shaped = direction == .rightToLeft ? visual.reversed() : visual
        return shaped.enumerated().sorted { first, second in
            let (a, b) = (glyphs[first.element].cluster, glyphs[second.element].cluster)
            return a != b ? a < b : first.offset < second.offset
        }.map(\.element)
    }

    /// What each glyph stands for in the font's ToUnicode map, by index of `glyphs`, and the clusters in logical
    /// order, each with its glyphs (in logical order), its text, and whether it is plain: its glyphs spell its
    /// text by themselves, one nominal glyph per character in order, or one glyph for all of it (a ligature such
    /// as lam-alef, a joined Arabic form).
    /// - A glyph that is the nominal glyph (character map) of a character of its cluster stands for it.
    /// - The characters no such glyph took go to the cluster's other glyphs in order: all to a single one, else
    ///   one each and the rest to the last. So every glyph stands for something (MuPDF prints U+FFFD for one that
    ///   does not, poppler a gap), and the glyphs read in the order written give the cluster back (Devanagari's
    ///   "त्रि", drawn as the vowel sign's variant then the "त्र" conjunct, reads "त" + "्रि").
    func meanings(in program: some PDFFontProgram) -> (glyphs: [[Unicode.Scalar]], clusters: [(glyphs: [Int], text: [Unicode.Scalar], isPlain: Bool)]) {
        let scalars = Array(text.unicodeScalars)
        var meanings = [[Unicode.Scalar]](repeating: [], count: glyphs.count)
        var clusters: [(glyphs: [Int], text: [Unicode.Scalar], isPlain: Bool)] = []
        let order = logicalOrder
        var start = 0
        while start < order.count {
            let cluster = glyphs[order[start]].cluster
            var end = start + 1
            while end < order.count, glyphs[order[end]].cluster == cluster { end += 1 }
            let next = end < order.count ? glyphs[order[end]].cluster : scalars.count
            let lower = min(max(cluster, 0), scalars.count)
            let own = Array(scalars[lower..<max(lower, min(next, scalars.count))])
            let members = Array(order[start..<end])
            var taken = [Bool](repeating: false, count: own.count)
            var others: [Int] = []
            for index in members {
                let glyph = glyphs[index].glyph
                if let found = own.indices.first(where: { !taken[$0] && program.glyph(for: own[$0]) == glyph }) {
                    taken[found] = true
                    meanings[index] = [own[found]]
                } else {
                    others.append(index)
                }
            }
            var left = own.indices.filter { !taken[$0] }.map { own[$0] }
            for (number, index) in others.enumerated() where !left.isEmpty {
                let share = number == others.count - 1 ? left.count : 1
                meanings[index] = Array(left.prefix(share))
                left.removeFirst(share)
            }
            let spelled = members.flatMap { meanings[$0] } == own
            clusters.append((members, own, members.count == 1 || (others.isEmpty && spelled)))
            start = end
        }
        return (meanings, clusters)
    }
}

extension PDFFontProgram {
    /// The width of `run` at `size` points: the sum of its shaped advances, in points, the distance
    /// `PDFPage.drawGlyphs` moves; for a top-to-bottom column its length, the sum of its advances down (-yAdvance).
    /// The sum is taken in font units first, so that drawing (which ends its pen at the same expression) and
    /// measuring give the same number to the last bit.
    func width(of run: PDFGlyphRun, size: Double) -> Double {
        let units = run.direction == .topToBottom ? -run.glyphs.reduce(0) { $0 + $1.yAdvance } : run.glyphs.reduce(0) { $0 + $1.xAdvance }
        return Double(units) * size / Double(unitsPerEm)
    }

    /// Each glyph's horizontal origin in a top-to-bottom column, in points from the column's top centre at `size`
    /// points (y up, so negative down the column): the pen (the advances before it, both ways) plus its offset,
    /// top to bottom.
    func columnOrigins(of run: PDFGlyphRun, size: Double) -> [(x: Double, y: Double)] {
        var pen = (x: 0, y: 0)
        let scale = size / Double(unitsPerEm)
        return run.glyphs.map { glyph in
            defer { pen = (pen.x + glyph.xAdvance, pen.y + glyph.yAdvance) }
            return (Double(pen.x + glyph.xOffset) * scale, Double(pen.y + glyph.yOffset) * scale)
        }
    }

    /// Each glyph's origin along and across the baseline, in points from the run's start at `size` points: the pen
    /// (the advances before it) plus its offset, in visual order.
    func origins(of run: PDFGlyphRun, size: Double) -> [(along: Double, across: Double)] {
        var pen = 0
        let scale = size / Double(unitsPerEm)
        return run.glyphs.map { glyph in
            defer { pen += glyph.xAdvance }
            return (Double(pen + glyph.xOffset) * scale, Double(glyph.yOffset) * scale)
        }
    }
}

extension PDFFont {
    /// The width of the run at `size` points: the sum of its shaped advances (what drawGlyphs moves), in points;
    /// for a `.topToBottom` run the column's length.
    public func width(of run: PDFGlyphRun, size: Double) -> Double { embedded.program.width(of: run, size: size) }
}

extension PDFFontMetrics {
    /// The same, for the planner, which has no document: identical numbers.
    public func width(of run: PDFGlyphRun, size: Double) -> Double { program.width(of: run, size: size) }
}
