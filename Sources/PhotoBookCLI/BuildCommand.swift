import Foundation
import PhotoBook

/// `photobook build INPUT... -o OUT [options]`: the options as typed and checked, each declared once in `options`.
struct BuildCommand: RunFields, TextFields {
    var inputs: [String] = []
    var output: String?
    var recursive = false
    /// Where the JSON report goes (`-`: standard output); nil for none.
    var report: String?
    var options = BuildOptions()
    var run = RunSwitches()
    /// Probe and plan, print the pages, write nothing (DryRun.swift).
    var dryRun = false
    /// `--title`, `--subtitle`, `--author`, `--font`, `--lang`.
    var text = TextSettings()
    var coverPhoto: String?
    var captions = CaptionSource.none
    var pageNumbers = false
    var sections = SectionMode.none
    /// The font, loaded and checked by `validate()` when the book has words.
    var font: BookFont?
    /// The print service's product whose figures the book starts from (`--preset`); the options given win.
    var preset: PrintPreset?
    /// `--pdfx`, `--output-profile`, `--output-condition`; checked into `options.pdfx` by `parse`.
    var pdfx = PDFXOptions()
    /// `--no-cache`: the render cache is neither read nor written.
    var noCache = false
    /// `--proof`: a fast book for the screen (`proofDPI`, `proofQuality`), marked as a proof.
    var proof = false
    /// `--photos N` and `--pages N` as given (`validate` refuses both at once).
    var photosCount: Int?
    var pagesCount: Int?
    /// What the two ask for.
    var choice: ChoiceRequest? { pagesCount.map { .pages($0) } ?? photosCount.map { .photos($0) } }
    static let proofDPI = 96
    static let proofQuality = 60

    /// Whether the book has any words to set.
    var hasWords: Bool { title != nil || captions != .none || pageNumbers || sections != .none }

    /// More workers than this would hold that many decoded photos in memory for no gain in speed.
    static let jobsLimit = 128
    static let defaultJobs = min(ProcessInfo.processInfo.activeProcessorCount, jobsLimit)
    /// The most photos or pages a choice may ask for.
    static let choiceLimit = 100_000
    /// The most pixels any JPEG can have (65,500 on a side, libjpeg's `JPEG_MAX_DIMENSION`).
    static let pixelLimit = 65_500 * 65_500

    /// Every option of `build`, in the order help lists them within their sections; those it shares with `cover` and
    /// `init` come from the option groups (Options/Groups), each naming the field of `build` it sets.
    static var options: [Option<BuildCommand>] {
        [
            OutputGroup.output(.book, \.output, report: [.shows("output") { .text($0.output ?? "") }]),
            .value("report", .outputFile(metavar: "FILE", extensions: ["json"]), section: .files,
                   description: .commandLineOnly,
                   help: "also write a JSON account of the build to FILE (- for standard output), whatever its "
                       + "outcome: the options, the pages, each photo's outcome, page, cell, crop and density, "
                       + "the warnings and the time taken (see docs/report.md)", \.report),
            .flag("recursive", short: "r", section: .files, description: .saidByThePages("the pages list every photo"),
                  report: [.shows("recursive", \.recursive)],
                  help: "include photos in subfolders, following symbolic links but never round a loop", \.recursive),
            FilesGroup.keepDuplicates(\.options.keepDuplicates,
                                     report: [.shows("keepDuplicates", \.options.keepDuplicates)]),
            FilesGroup.prefer(\.options.prefer, report: [.shows("prefer", \.options.prefer)]),
            .value("sort", .choice(metavar: "ORDER", [
                       .name: "inputs in the order given, and natural name order (img2 before img10) within a "
                           + "folder and within a run of photos named one after another (as a shell's *.jpg "
                           + "gives them)",
                       .date: "by the moment each photo was taken (EXIF DateTimeOriginal with its fraction of a "
                           + "second and time zone, from EXIF in any format, or a TIFF's own tags), a photo without a time zone taken to be in the "
                           + "zone of the photo with one nearest to it in local time (the phone on the same trip), "
                           + "local times compared as they are when no photo has one, equal moments in name order, "
                           + "and the photos without a date last, in name order (--verbose names them)",
                       .given: "exactly as given on the command line, a folder's photos in natural name order",
                   ]), default: "name", section: .files,
                   description: .saidByThePages("the pages list the photos in order"),
                   report: [.shows("sort", \.options.order.sort)], help: "the order of the photos in the book",
                   \.options.order.sort),
            .flag("reverse", section: .files, description: .saidByThePages("the pages list the photos in order"),
                  report: [.shows("reverse", \.options.order.reverse)],
                  help: "the same book read backwards, whatever the order (with --sort date: newest first, the "
                      + "photos without a date at the start)", \.options.order.reverse),
            .value("photos", .integer(1...choiceLimit), section: .files,
                   description: .saidByThePages("the pages list the photos chosen"), report: [.shows("photos", \.options.choicePhotos)],
                   help: "a book of the N best photos: one of each moment (a burst, a retake), the sharpest; blurred, "
                       + "badly exposed photos, screenshots and photos of documents only when nothing better is left; "
                       + "5- and 4-star and favourite photos first, rejected ones (-1) never; with --sort date every "
                       + "event of the trip gets its share (the report's selection says why each photo is in or out)",
                   \.photosCount),
            .value("pages", .integer(1...choiceLimit), section: .files,
                   description: .saidByThePages("the pages list the photos chosen"), report: [.shows("pages", \.options.choicePages)],
                   help: "a book of exactly N pages (title page and section openers counted, as print shops count), "
                       + "filled with the best photos, chosen as --photos chooses them, at the layout asked for",
                   \.pagesCount),
            .value("max-pixels", .integer(1...pixelLimit), default: "100000000", section: .files,
                   report: [.shows("maxPixels", \.options.maxPixels)],
                   help: "refuse images whose header declares more pixels (decompression bombs)", \.options.maxPixels),
            PageGroup.preset(\.preset, report: [.shows("preset") { $0.preset.map { .text($0.name) } }],
                   help: "start from a print service's published figures: trim size (--page-size), bleed, safety "
                       + "margin (the margin at least as wide), page-count step (--pad-to) and the fewest and most "
                       + "pages (a warning outside them, a refusal with --strict); the options given override it "
                       + "wherever they stand; 'photobook presets' lists the figures and their sources"),
            PageGroup.pageSize(\.options.layout.pageSize, report: [.shows("pageWidth", \.options.layout.pageSize.width),
                                                                 .shows("pageHeight", \.options.layout.pageSize.height)]),
            .value("margin", .length(), default: "10mm", section: .page,
                   report: [.shows("margin", \.options.layout.margin)], help: "blank border on every side of the page", \.options.layout.margin),
            PageGroup.bleed(\.options.layout.bleed, report: [.shows("bleed", \.options.layout.bleed)]),
            .flag("crop-marks", section: .page,
                  report: [.shows("cropMarks", \.options.layout.cropMarks)],
                  help: "draw trim marks at the corners, outside the bleed, in registration colour; the PDF page "
                      + "grows by \(Length.Unit.mm.describe(CropMarks.room)) on every side, its TrimBox and BleedBox "
                      + "stay where the cut and the bleed are",
                  \.options.layout.cropMarks),
            PageGroup.safety(\.options.layout.safety, report: [.shows("safety", \.options.layout.safetyOrMargin)]),
            .value("binding", .length(), default: "0", section: .page,
                   report: [.shows("binding", \.options.layout.binding)],
                   help: "an inside margin on the spine side of each page (page 1 is a right-hand page); page "
                       + "numbers go to the outer corners", \.options.layout.binding),
            .value("pad-to", .integer(1...LayoutLimits.padTo), default: "1", section: .page,
                   report: [.shows("padTo", \.options.layout.padTo)],
                   help: "add blank pages at the end to make the page count a multiple of N", \.options.layout.padTo),
            .flag("spreads", section: .page, description: .saidByThePages("a description lists its pages one by one"),
                  report: [.shows("spreads", \.options.layout.spreads)],
                  help: "a panorama (at least twice as wide as tall) crosses the gutter of a left-hand page and the "
                      + "right-hand page after it, full bleed, never a sheet; its caption on the right-hand page, no "
                      + "page number; pages face (page 1 on the right). A panorama due on a right-hand page waits "
                      + "while the photos after it fill that page (auto regroups them instead); a page is left "
                      + "blank, with a warning, only when nothing can fill it", \.options.layout.spreads),
            .value("layout", .layout, default: "single", section: .page,
                   description: .saidByThePages("set a page's \"layout\" instead"),
                   report: [.shows("layout", \.options.reportedLayout)], help: "how photos share the pages", \.options.layout.mode),
            .value("gap", .length(), default: "4mm", section: .page,
                   report: [.shows("gap", \.options.layout.gap)], help: "space between two photos on a page", \.options.layout.gap),
            .value("max-per-page", .integer(1...LayoutLimits.maxPerPage), default: "4", section: .page,
                   description: .saidByThePages("set a page's \"layout\" instead"),
                   report: [.shows("maxPerPage", \.options.layout.maxPerPage)],
                   help: "the most photos the auto layout puts on a page", \.options.layout.maxPerPage),
            .value("fit", .choice(metavar: "MODE", [
                       .fill: "cover the photo's cell, cropping the overflow from the centre",
                       .fit: "show the whole photo, as large as its cell allows",
                   ]), default: "fill", section: .page, report: [.shows("fit", \.options.layout.fit)], help: "how a photo meets its cell on the page",
                   \.options.layout.fit),
            CropGroup.crop(\.options.layout.crop, report: [.shows("crop", \.options.layout.crop)]),
            PrintGroup.dpi(\.options.layout.dpi, report: [.shows("dpi", \.options.layout.dpi)]),
            .value("min-dpi", .wholeNumber(1...2400), section: .photos,
                   report: [.shows("minDPI", \.options.minimumDPI)],
                   help: "refuse the book, before any photo is rendered, when a photo would print below N pixels "
                       + "per inch after its crop, naming its page (without it, photos below the density asked for "
                       + "or below the 200 dpi print shops ask for are a warning)", \.options.minimumDPI),
            PrintGroup.quality(\.options.quality, report: [.shows("quality", \.options.quality)]),
            PrintGroup.pdfx(\.pdfx.level, report: [.shows("pdfx") { $0.options.pdfx.map { .text(($0.standard == .x4 ? PDFXLevel.x4 : .x1a).rawValue) } }]),
            PrintGroup.outputProfile(\.pdfx.profilePath, report: [.shows("outputProfile", \.options.pdfx?.profile.path)]),
            PrintGroup.outputCondition(\.pdfx.condition, report: [.shows("outputCondition", \.options.pdfx?.identifier)]),
            PrintGroup.intent(\.pdfx.intent, report: [.shows("intent", \.options.pdfx?.intent)]),
            .flag("keep-originals", section: .photos,
                  report: [.shows("keepOriginals", \.options.layout.keepOriginals)],
                  help: "never resample: JPEG photos are embedded byte for byte, their orientation and crop applied "
                      + "by the page", \.options.layout.keepOriginals),
        ] + TextGroup.titleLines(reported: true) + [
            .value("cover-photo", .inputFile(extensions: ImageFormat.fileExtensions.sorted()), section: .words,
                   report: [.shows("coverPhoto", \.coverPhoto)],
                   help: "a photo for the title page, under the title (needs --title); not repeated in the book",
                   \.coverPhoto),
            .value("captions", .choice(metavar: "SOURCE", [
                       .auto: "a sidecar text file beside the photo (IMG_1.jpg.txt or IMG_1.txt), else its XMP "
                           + "sidecar's description or title (IMG_1.jpg.xmp or IMG_1.xmp), else its Google Takeout "
                           + "JSON's description, else the photo's own description",
                       .name: "the file name without its extension",
                       .date: "the capture date",
                       .none: "no captions",
                   ]), default: "none", section: .words,
                   description: .saidByThePages("set a photo's \"caption\" instead"),
                   report: [.shows("captions", \.captions)], help: "a caption under each photo, on at most three lines", \.captions),
            .value("sections", .choice(metavar: "MODE", [
                       .folder: "each folder the photos come from (subfolders with -r), headed by its name",
                       .day: "each day the photos were taken, headed by the date; undated photos last",
                       .event: "each event of the trip (with --sort date: a new one after a gap of hours, or a night, "
                           + "far longer than the gaps around it), headed by its dates",
                       .none: "no sections",
                   ]), default: "none", section: .words,
                   description: .saidByThePages("set a page's \"heading\" instead"),
                   report: [.shows("sections", \.sections)],
                   help: "start each section on a new page under a heading, with a bookmark", \.sections),
            .flag("page-numbers", section: .words,
                  report: [.shows("pageNumbers", \.pageNumbers)],
                  help: "print each page's number at the bottom, as a printer counts (the title page unnumbered)",
                  \.pageNumbers),
        ] + TextGroup.fontAndLanguage(reported: true) + [
            .value("jobs", short: "j", .integer(1...jobsLimit), defaultText: "the number of cores", section: .running,
                   description: .heldNotWritten,
                   report: [.shows("jobs", \.options.jobs)], help: "photos worked on at once", \.options.jobs),
            .flag("strict", section: .running,
                  report: [.shows("strict", \.options.strict)],
                  help: "if any photo cannot be used, or the page count is outside the --preset's rules, write "
                      + "nothing and fail (without it, such photos are left out and the count is warned of)",
                  \.options.strict),
            .flag("dry-run", short: "n", section: .running, description: .commandLineOnly,
                  help: "read the photos' headers and plan the book, then print it page by page on stdout with "
                      + "every warning the build would give, and write nothing (-o may be left out); a photo that "
                      + "fails only when it is decoded, such as a truncated file, is found by a real build alone",
                  \.dryRun),
            .flag("proof", section: .running, description: .commandLineOnly,
                  help: "a fast book for the screen, to look at before the real build: the same pages and words, "
                      + "photos at \(proofDPI) dpi and JPEG quality \(proofQuality), marked as a proof in the PDF's "
                      + "keywords and on stderr (not with --pdfx)", \.proof),
            .flag("no-cache", section: .running, description: .commandLineOnly,
                  help: "neither read nor write the render cache, where rendered photos are kept so that a rebuild "
                      + "renders only what changed: $XDG_CACHE_HOME/photobook (~/.cache/photobook when it is unset); "
                      + "remove that folder to clear it", \.noCache),
            .value("cache-limit", .byteSize(), default: "2G", section: .running, description: .heldNotWritten,
                   help: "the most the render cache keeps after a build; the least recently used photos go first",
                   \.options.cacheLimit),
        ] + RunGroup.all()
    }

    static var document: CommandDocument {
        CommandDocument(
            name: "build",
            synopsis: "photobook build INPUT... -o OUTPUT.pdf [options]",
            summary: "make a print-ready PDF photo book from folders and files of photos",
            description: [
                "Makes a print-ready PDF photo book, one photo per page, from folders and files of JPEG, PNG, "
                    + "HEIC/HEIF, AVIF, WebP, TIFF, JPEG XL, JPEG 2000, GIF, BMP and camera raw (DNG, NEF, CR2, CR3, ARW, ORF, RW2, RAF...) photos. Photos are in natural name order (img2 before img10), inputs in the order given, "
                    + "unless --sort says otherwise; images are recognised by their content, other files are skipped. Every photo is "
                    + "turned upright from its EXIF orientation (a HEIF's own transformations) and resampled once to the density asked for.",
                "The book is written atomically: OUTPUT is replaced only when the whole book is ready, and "
                    + "Ctrl-C at any moment leaves it untouched and no temporary file behind.",
                "Given a book description (BOOK.json, written by photobook init and edited by hand) as its only "
                    + "INPUT, it builds the pages the file lists, with the file's captions, layouts and focus points; "
                    + "options on the command line override the file's. See docs/book-description.md.",
            ],
            operands: "INPUT", operandCompletion: .filesAndFolders,
            options: options.map(\.spec),
            examples: [
                ("photobook build ./photos -o book.pdf", "A4, 10 mm margins, photos cropped to fill the page"),
                ("photobook build ./2025-italy -r -o italy.pdf", "include subfolders"),
                ("photobook build cover.jpg ./days ./nights -o book.pdf", "files and folders, in the order given"),
                ("photobook build ./camera ./phone --sort date -o trip.pdf",
                 "two cameras' photos interleaved by the time they were taken"),
                ("photobook build prints --page-size 20x20cm --margin 0 --fit fit -o square.pdf",
                 "square pages, each photo whole"),
                ("photobook build ./photos --layout auto --dry-run", "see the pages before waiting for a build"),
                ("photobook build book.json -o book.pdf", "the book a description file says (photobook init)"),
            ])
    }

    /// Parses the arguments after `build` and checks every value against the limits of the output, before
    /// any photo is read.
    static func parse(_ arguments: [String]) throws(CLIError) -> BuildCommand {
        try merge(TypedOptions.scan(arguments, commandName: "build"))
    }

    /// The command that `typed` and a description's options (`description`) make: merged once (`layered`), then
    /// checked once (`checked`), before any photo is read.
    static func merge(_ typed: TypedOptions,
                      description: OptionValues<BuildCommand> = OptionValues()) throws(CLIError) -> BuildCommand {
        try layered(typed, description: description).checked()
    }

    /// The one merge, each layer over the one before: the defaults, a print preset's figures, a description's
    /// options, then the options typed. Every value was read by its parser when it was typed or when the
    /// description was loaded; nothing here reads one again or weighs one against another (`checked` does).
    /// `init` plans from this too, so that its pages are the build's.
    static func layered(_ typed: TypedOptions,
                        description: OptionValues<BuildCommand> = OptionValues()) -> BuildCommand {
        var command = defaults
        // A print preset goes under every option given, wherever it stands (typed, or in a description): the
        // margin it widens to its safety margin is the default one, since any margin given wins over it.
        if !typed.help, let preset = typed.options.value("preset", as: PrintPreset.self)
            ?? description.value("preset", as: PrintPreset.self) {
            preset.apply(to: &command.options)
            if let level = preset.writesPDFX { command.pdfx.level = level }
        }
        description.apply(to: &command)
        typed.options.apply(to: &command)
        command.inputs = typed.inputs
        return command
    }

    /// The command before anything is given: each option's default, through its own parser.
    static var defaults: BuildCommand {
        var command = BuildCommand()
        command.options.jobs = defaultJobs
        Option.applyDefaults(options, to: &command)
        return command
    }

    /// The one check of what the merged values mean together (`validate`), and the PDF/X request they make (its
    /// profile read); `--help` is not checked.
    func checked() throws(CLIError) -> BuildCommand {
        if help { return self }
        try validate()
        var command = self
        command.options.pdfx = try pdfx.request()
        return command
    }

    /// The checks that need more than one option, or none given.
    func validate() throws(CLIError) {
        guard !inputs.isEmpty else { throw .usage("no input given: name folders or photos to build from") }
        guard output != nil || dryRun else { throw .usage("no output given: add -o BOOK.pdf") }
        if proof, pdfx.level != nil {
            throw .usage("--proof: a proof is for the screen, not the press; leave out --pdfx (or --preset's) for it")
        }
        if dryRun, report != nil {
            throw .usage("--report: a dry run builds nothing to report; leave out --dry-run, or use 'photobook init' "
                         + "for the plan as a file")
        }
        if sections == .event, options.order.sort != .date {
            throw .usage("--sections event: events are found from the capture times; add --sort date")
        }
        if photosCount != nil, pagesCount != nil {
            throw .usage("--pages: give --photos or --pages, not both (--pages N chooses as many photos as fill N pages)")
        }
        if let pages = pagesCount, let preset {
            if let rule = preset.pageRule(refusing: pages) { throw .usage("--pages: \(pages) \(rule)") }
        }
        if let pages = pagesCount, options.layout.padTo > 1, pages % options.layout.padTo != 0 {
            throw .usage("--pages: \(pages) is not a multiple of --pad-to \(options.layout.padTo)")
        }
        for (name, value) in [("--subtitle", subtitle), ("--author", author), ("--cover-photo", coverPhoto)]
        where value != nil && title == nil {
            throw .usage("\(name): goes on the title page, so it needs --title")
        }
        let layout = options.layout
        switch layout.problem {
        case nil:
            break
        case .marginLeavesNoRoom(let largest)?:
            throw Self.leavesNoRoom("--margin", layout.margin, largest: largest, page: layout.pageSize)
        case .gapLeavesNoRoom(let largest)?:
            throw .usage("--gap: \(Length.Unit.mm.describe(layout.gap)) leaves no room for a \(layout.mode) grid "
                         + "inside the margins: use at most \(Length.Unit.mm.describe(largest, rounding: .down))")
        case .gridTooFine?:
            throw .usage("--layout: a \(layout.mode) grid has more cells than the page can hold at "
                         + "\(Length.Unit.pt.describe(LayoutOptions.minimumContentSide)) each")
        case .bindingLeavesNoRoom(let largest)?:
            throw Self.leavesNoRoom("--binding", layout.binding, largest: largest, page: layout.pageSize)
        case .safetyLeavesNoRoom?:
            throw .usage("--safety: \(Length.Unit.mm.describe(layout.safety ?? 0)) leaves no room on the page "
                         + "(\(layout.pageSize))")
        case .pageSizeOutOfRange? where layout.pageSize.isWithinPDFLimits:
            let what = layout.bleed == 0 ? "--crop-marks: the room for the marks"
                : "--bleed: \(Length.Unit.mm.describe(layout.bleed))" + (layout.cropMarks ? " with --crop-marks" : "")
            throw .usage("\(what) makes the PDF page larger than PDF allows (each side at most 14400 pt)")
        case .pageSizeOutOfRange?, .dpiNotPositive?, .gridEmpty?, .maxPerPageOutOfRange?, .padToOutOfRange?:
            // The parsers refuse such values; reaching here means a parser and the engine disagree.
            throw .usage("the page size or density cannot make a book (\(layout.pageSize), \(layout.dpi) dpi)")
        }
    }
}

extension BuildCommand {
    /// `--margin: 120 mm leaves no room for a photo on the page (A4): use at most 104 mm`.
    static func leavesNoRoom(_ option: String, _ value: Double, largest: Double, page: PageSize) -> CLIError {
        .usage("\(option): \(Length.Unit.mm.describe(value)) leaves no room for a photo on the page (\(page)): "
               + "use at most \(Length.Unit.mm.describe(largest, rounding: .down))")
    }
}

extension BuildOptions {
    /// `--photos N`, for the report.
    var choicePhotos: Int? { if case .photos(let count)? = choice { count } else { nil } }
    /// `--pages N`, for the report.
    var choicePages: Int? { if case .pages(let count)? = choice { count } else { nil } }
    /// The layout mode, for the report: "description" when a description's pages said how photos share them.
    var reportedLayout: String { given == nil ? String(describing: layout.mode) : "description" }

    /// These options made a proof's (`--proof`): its photos at the proof's density and quality, the density
    /// checks (the print shops' 200 dpi, `--min-dpi`) still made for the book for print, at the density asked for.
    mutating func makeProof() {
        layout.printDPI = layout.dpi
        layout.dpi = Double(BuildCommand.proofDPI)
        quality = BuildCommand.proofQuality
        proof = true
    }
}

extension LayoutOptions {
    /// The safety margin the words keep: `--safety`, else the margin (the report's `safety`).
    var safetyOrMargin: Double { safety ?? margin }
}
