import Testing
@testable import PhotoBook

/// One grammar for layouts (`LayoutName`): what `--layout` and a description page's "layout" took before they
/// shared it is still taken and means the same, and every name a listing writes reads back as what it names.
struct LayoutNameTests {
    /// The spellings the command line's own parser took: any case, `grid` with a space, colon, equals sign or
    /// nothing before the size, or the size alone.
    @Test(arguments: [("single", LayoutMode.single), ("SINGLE", .single), ("Auto", .auto),
                      ("grid 2x2", .grid(columns: 2, rows: 2)), ("grid:3x4", .grid(columns: 3, rows: 4)),
                      ("grid=3x4", .grid(columns: 3, rows: 4)), ("GRID3X4", .grid(columns: 3, rows: 4)),
                      ("3x4", .grid(columns: 3, rows: 4)), ("grid 020x001", .grid(columns: 20, rows: 1))])
    func theCommandLinesSpellingsStillReadAsBefore(text: String, mode: LayoutMode) {
        #expect(LayoutMode(text) == mode)
    }

    /// The spellings a description page took: spaces at the ends and inside a tree, a `+` before a grid's sizes.
    @Test func theDescriptionsSpellingsStillReadAsBefore() {
        #expect(PageArrangement(" single ") == .single)
        #expect(PageArrangement("grid +3x2") == .grid(columns: 3, rows: 2))
        #expect(PageArrangement("  [ 1 | [ 2 / 3 ] ] ") == .arranged(.row([.photo, .column([.photo, .photo])])))
        #expect(PageArrangement("1") == .arranged(.photo))
    }

    /// What neither took stays refused: a layout mode is not a page's arrangement and a tree is not a mode.
    @Test func whatNeitherTookIsRefused() {
        for wrong in ["", "grid", "gird 2x2", "grid  2x2", "grid 2 x 2", "grid -1x2", "grid 2x2x2", "2x", "[1 | 2]",
                      "1", "mosaic"] {
            #expect(LayoutMode(wrong) == nil, "\(wrong)")
        }
        for wrong in ["auto", "grid 0x2", "grid 21x1", "[1]", "[[1 | 2] | 3]", "[[1 / 2] / 3]", "[1 | 2 / 3]", "[2 | 1]",
                      "[1 | 3]", "[1 |\t2]", "[01 | 2]", "[1 | 2]]", "[[[[[[[[1 | 2]]]]]]]]", "[1|2|3|4|5|6|7]", "[1 | ２]"] {
            #expect(PageArrangement(wrong) == nil, "\(wrong)")
        }
    }

    /// Every arrangement the automatic layout can choose is written so that it reads back as itself.
    @Test(arguments: 1...LayoutLimits.maxPerPage)
    func everyArrangementReadsBackAsItself(count: Int) {
        for arrangement in Arrangement.all(of: count) {
            let page = PageArrangement.arranged(arrangement)
            #expect(PageArrangement(page.description) == page, "\(page)")
            #expect(PageArrangement(page.description.filter { $0 != " " }) == page, "\(page)")
        }
    }

    @Test func modesAndGridsReadBackAsThemselves() {
        for mode in [LayoutMode.single, .auto, .grid(columns: 3, rows: 2)] { #expect(LayoutMode(mode.description) == mode) }
        for page in [PageArrangement.single, .grid(columns: 20, rows: 1)] { #expect(PageArrangement(page.description) == page) }
        #expect(PageArrangement.grid(columns: 2, rows: 3).description == LayoutMode.grid(columns: 2, rows: 3).description)
    }
}
