import PhotoBook

/// `photobook cover FRONT [BACK] -o OUT (--spine LENGTH | --interior-pages N --paper-ppi P) [options]`: the
/// options as typed and checked, each declared once in `options`.
struct CoverCommand: RunFields, TextFields {
    var inputs: [String] = []
    var output: String?
    var pageSize = PageSize.a4
    var spine: Double?
    var interiorPages: Int?
    var paperPPI: Int?
    var bleed = 0.0
    /// `--hardcover`: a case wrap, with `--wrap` (nil for `defaultWrap`) and `--hinge` (nil for `defaultHinge`).
    var hardcover = false
    /// `--preset`: its trim size, and a hardcover product's case wrap, under the options given.
    var preset: PrintPreset?
    var wrap: Double?
    var hinge: Double?
    /// `--safety`; nil for `defaultSafety`.
    var safety: Double?
    var crop = CropMode.auto
    var dpi = 300.0
    var quality = 90
    /// `--title`, `--subtitle`, `--author`, `--font`, `--lang`.
    var text = TextSettings()
    /// `--spine-text`.
    var spineText = SpineTextMode.auto
    /// `--pdfx`, `--output-profile`, `--output-condition`, and what `parse` made of them.
    var pdfx = PDFXOptions()
    var pdfxRequest: PDFXRequest?
    var run = RunSwitches()

    /// The most interior pages a spine is worked out for: far beyond any binding, small enough to stay exact.
    static let pagesLimit = 100_000
    /// Paper is sold from about 200 to 1000 pages per inch; the range leaves room on both sides.
    static let ppiLimit = 10_000
    /// How far inside the trim edges and folds the front's words stay without `--safety`: a book's default margin,
    /// as the length parser reads `10mm`, since a cover has no margin of its own.
    static let defaultSafety = 10 * Length.Unit.mm.points
    /// A case wrap without `--wrap` / `--hinge`: Mixam's published template, 20 mm turned in round every edge and
    /// a 5 mm hinge each side of the spine (docs/research/hardcover.md).
    static let defaultWrap = 20 * Length.Unit.mm.points
    static let defaultHinge = 5 * Length.Unit.mm.points
    /// The board a case is made over, 2.5 mm (docs/research/hardcover.md): the case's spine spans the book block
    /// and both boards' edges, so `--interior-pages` / `--paper-ppi` give pages / PPI + 2 x 2.5 mm.
    static let boardThickness = 2.5 * Length.Unit.mm.points

    /// Every option of `cover`, in the order help lists them within their sections; those it shares with `build`
    /// come from the option groups (Options/Groups), each naming the field of `cover` it sets.
    static var options: [Option<CoverCommand>] {
        [
            OutputGroup.output(.cover, \.output),
            PageGroup.preset(\.preset,
                             help: "start from a print service's published figures: the trim size as the panels, and "
                                 + "for a hardcover product --hardcover with its --wrap and --hinge (else its bleed); "
                                 + "the options given override it wherever they stand"),
            PageGroup.pageSize(\.pageSize),
            .value("spine", .length(), section: .page,
                   help: "the width of the spine, the thickness of the book block (or give --interior-pages and "
                       + "--paper-ppi)", \.spine),
            .value("interior-pages", .integer(1...pagesLimit), section: .page,
                   help: "the book's page count, to work out the spine as N / P inches (with --paper-ppi)",
                   \.interiorPages),
            .value("paper-ppi", .integer(1...ppiLimit, metavar: "P"), section: .page,
                   help: "the paper's pages per inch of thickness, as the print service quotes it (with "
                       + "--interior-pages)", \.paperPPI),
            PageGroup.bleed(\.bleed),
            .flag("hardcover", section: .page,
                  help: "make a hardcover's case wrap instead: the page size is each board's, --wrap is turned in round "
                      + "every edge, a --hinge goes each side of the spine, the spine from --interior-pages also "
                      + "spans the boards' thickness (2 x 2.5 mm)", \.hardcover),
            .value("wrap", .length(), defaultText: "20mm (Mixam's)", section: .page,
                   help: "with --hardcover: how far the sheet runs past the boards' edges, to be folded round them and "
                       + "glued inside (the turn-in; it is the case's bleed)", \.wrap),
            .value("hinge", .length(), defaultText: "5mm (Mixam's)", section: .page,
                   help: "with --hardcover: the strip between the spine and each board, where the case bends", \.hinge),
            PageGroup.safety(\.safety),
            CropGroup.crop(\.crop),
            PrintGroup.dpi(\.dpi),
            PrintGroup.quality(\.quality),
            PrintGroup.pdfx(\.pdfx.level),
            PrintGroup.outputProfile(\.pdfx.profilePath),
            PrintGroup.outputCondition(\.pdfx.condition),
            PrintGroup.intent(\.pdfx.intent),
        ] + TextGroup.titleLines() + TextGroup.fontAndLanguage() + [
            .value("spine-text", .choice(metavar: "HOW", [
                       .auto: "vertical when most of the title is Chinese characters, kana or Hangul, else rotated",
                       .vertical: "a column of upright characters, as Japanese and Chinese books set their spines",
                       .rotated: "one line turned a quarter clockwise, reading top to bottom, as English-language "
                           + "books do",
                   ]), default: "auto", section: .words,
                   help: "how the title (and author) go along the spine", \.spineText),
        ] + RunGroup.all()
    }

    static var document: CommandDocument {
        CommandDocument(
            name: "cover",
            synopsis: "photobook cover FRONT [BACK] -o COVER.pdf --spine LENGTH [options]",
            summary: "make the one-page wrap cover of a paperback: back, spine and front",
            description: [
                "Makes the wrap cover of a paperback photo book as one PDF page: the back on the left, the spine, "
                    + "the front on the right, with the bleed round the outside and a TrimBox of back + spine + "
                    + "front. The first photo named fills the front, a second one the back (else the back is "
                    + "blank); each runs out to the bleed but stops at the folds. The title, subtitle and author "
                    + "go at the top of the front, in white or black, whichever reads better over the photo; the "
                    + "title and author also go along the spine, reading from top to bottom, when it is wide "
                    + "enough for a line of text (a warning says when it is not).",
                "The spine is --spine wide, or --interior-pages divided by --paper-ppi inches: give one or the "
                    + "other. The cover is written atomically, as a book is: Ctrl-C leaves an existing "
                    + "COVER.pdf untouched and no temporary file behind. A photo that cannot be used fails the "
                    + "cover (status 1) and nothing is written.",
            ],
            // Any file: photos are known by their content, not their names.
            operands: "FRONT [BACK]", operandCompletion: .filesAndFolders,
            options: options.map(\.spec),
            examples: [
                ("photobook cover front.jpg back.jpg -o cover.pdf --spine 14mm --bleed 3mm",
                 "the front and back photos, a 14 mm spine and a 3 mm bleed"),
                ("photobook cover front.jpg -o cover.pdf --interior-pages 200 --paper-ppi 444",
                 "the spine of a 200-page book on paper of 444 pages per inch (11.4 mm)"),
                (#"photobook cover front.jpg -o cover.pdf --spine 1cm --title "Summer 2025""#,
                 "the title on the front and along the spine"),
            ])
    }

    /// Parses the arguments after `cover` and checks them together, before any photo is read.
    static func parse(_ arguments: [String]) throws(CLIError) -> CoverCommand {
        let (given, inputs) = try ArgumentScanner(options: options, commandName: "cover").scan(arguments)
        var command = CoverCommand()
        Option.applyDefaults(options, to: &command)
        // A print preset goes under every option given, wherever it stands, as for `build`.
        if !given.has("help"), let preset = given.value("preset", as: PrintPreset.self) { preset.apply(to: &command) }
        given.apply(to: &command)
        command.inputs = inputs
        if command.help { return command }
        try command.validate()
        command.pdfxRequest = try command.pdfx.request()
        return command
    }

    /// The spine's width in points, from `--spine` or from `--interior-pages` and `--paper-ppi`.
    var spineWidth: Double {
        if let spine { return spine }
        let pages = interiorPages ?? 0, ppi = Double(paperPPI ?? 1)
        return hardcover ? CoverGeometry.caseSpineWidth(interiorPages: pages, pagesPerInch: ppi, board: Self.boardThickness)
            : CoverGeometry.spineWidth(interiorPages: pages, pagesPerInch: ppi)
    }

    var geometry: CoverGeometry {
        guard hardcover else {
            return CoverGeometry(panel: pageSize, spine: spineWidth, bleed: bleed, safety: safety ?? Self.defaultSafety)
        }
        return .caseWrap(board: pageSize, spine: spineWidth, wrap: wrap ?? Self.defaultWrap,
                         hinge: hinge ?? Self.defaultHinge, safety: safety ?? Self.defaultSafety)
    }

    /// The checks that need more than one option, or none given.
    func validate() throws(CLIError) {
        guard !inputs.isEmpty else {
            throw .usage("no input given: name the front photo (and a second photo for the back)")
        }
        guard inputs.count <= 2 else {
            throw .usage("\(inputs.count) photos given: name the front photo, and at most one more for the back")
        }
        guard output != nil else { throw .usage("no output given: add -o COVER.pdf") }
        switch (spine != nil, interiorPages != nil, paperPPI != nil) {
        case (true, false, false), (false, true, true):
            break
        case (true, _, _):
            let other = interiorPages != nil ? "--interior-pages" : "--paper-ppi"
            throw .usage("--spine: the spine's width is given twice, by --spine and by \(other): use one or the other")
        case (false, true, false):
            throw .usage("--interior-pages: needs --paper-ppi, the paper's pages per inch, to work out the spine")
        case (false, false, true):
            throw .usage("--paper-ppi: needs --interior-pages, the book's page count, to work out the spine")
        case (false, false, false):
            throw .usage("--spine: no spine width given: add --spine LENGTH, or --interior-pages N with --paper-ppi P")
        }
        if hardcover, bleed > 0 {
            throw .usage("--bleed: a case wrap's bleed is its turn-in: give --wrap instead")
        }
        for (name, value) in [("--wrap", wrap), ("--hinge", hinge)] where value != nil && !hardcover {
            throw .usage("\(name): is a hardcover's figure: add --hardcover, or leave it out for a paperback's cover")
        }
        for (name, value) in [("--subtitle", subtitle), ("--author", author)] where value != nil && title == nil {
            throw .usage("\(name): goes under the title, so it needs --title")
        }
        let mm = Length.Unit.mm
        switch geometry.problem {
        case nil:
            break
        case .tooWide(let largest)?:
            let limit = mm.describe(PageSize.sideRange.upperBound)
            let panels = 2 * pageSize.width
            if geometry.mediaSize.height > PageSize.sideRange.upperBound
                || panels <= PageSize.sideRange.upperBound && panels + 2 * bleed > PageSize.sideRange.upperBound {
                throw .usage("--bleed: \(mm.describe(bleed)) makes the cover larger than a PDF page may be "
                             + "(each side at most \(limit))")
            }
            if panels > PageSize.sideRange.upperBound {
                throw .usage("--page-size: two panels of \(pageSize) side by side, with the bleed, are wider than a "
                             + "PDF page may be (\(limit))")
            }
            let cause = spine != nil ? "--spine: \(mm.describe(spineWidth))"
                : "--interior-pages: \(interiorPages ?? 0) pages at \(paperPPI ?? 0) ppi make a spine of "
                    + "\(mm.describe(spineWidth)), which"
            throw .usage("\(cause) makes the cover wider than a PDF page may be (\(limit)): the spine can be at most "
                         + "\(mm.describe(largest, rounding: .down)) with these panels")
        case .safetyLeavesNoRoom?:
            throw .usage("--safety: \(mm.describe(geometry.safety)) leaves no room on the front (\(pageSize))")
        case .notFinite?, .panelOutOfRange?:
            // The parsers refuse such values; reaching here means a parser and the engine disagree.
            throw .usage("--page-size: the cover's sizes cannot make a PDF page (\(pageSize))")
        }
    }
}
