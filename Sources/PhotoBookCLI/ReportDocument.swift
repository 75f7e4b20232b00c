import Foundation
import PhotoBook
import Platform

/// The JSON account of one build (`--report`): what was asked, what became of the book and of every photo, and
/// where the time went. Plain values, encoded by Foundation's `JSONEncoder`; docs/report.schema.json describes
/// them and docs/report.md explains them. Lengths are in PDF points (1/72 inch), origin at the bottom left of the
/// PDF page; crops are in pixels of the upright photo (its EXIF orientation applied), origin at its top left.
struct ReportDocument: Encodable, Equatable {
    /// Goes up when a field changes meaning or goes away; new fields may appear without it.
    /// 2: `failureKind` beside every failed or skipped outcome's `reason` (issue 32).
    static let schemaVersion = 2

    var schema: Int
    /// `photobook 0.1.0`.
    var program: String
    /// The status the program exits with: 0, 1 or 130.
    var exitStatus: Int32
    var options: ReportOptions
    var book: Book
    /// Every photo found, in the order they were found (the book's order is `book.pages`).
    var photos: [Photo]
    /// Every warning of the build, about a photo or about the book.
    var warnings: [Warning]
    /// What the print shop's checks found (`Preflight`), and the file's size against the service's limit.
    var preflight: PreflightReport
    /// Seconds, stage by stage.
    var timings: BuildTimings

    struct PreflightReport: Encodable, Equatable {
        struct Finding: Encodable, Equatable {
            /// `lowResolution`, `textOutsideSafety`, `textInGutter`, `photoInGutter`, `fileSize`.
            var kind: String
            var page: Int?
            var path: String?
            var message: String
        }
        var findings: [Finding]
        /// The bytes of the PDF written (committed or refused); absent when none was written.
        var fileSize: Int?
        /// The service's largest upload, with a preset that publishes one.
        var fileSizeLimit: Int?
    }

    struct Book: Encodable, Equatable {
        var output: String
        /// `succeeded` (the file was written), `failed`, `skipped` (not attempted: no usable photo, or --strict)
        /// or `cancelled` (interrupted).
        var outcome: String
        var reason: String?
        /// With `reason`: its kind (`Failure.Kind`), for programs.
        var failureKind: String?
        /// Pages in the written book: 0 unless it was written.
        var pagesWritten: Int
        /// Blank pages added at the end for --pad-to.
        var blankPages: Int
        /// The pages as finally planned (also when the book was not written), without the blank ones.
        var pages: [Page]
        /// The page count against the preset's rule (`--preset` with a published minimum or maximum), once
        /// planned: absent without such a rule.
        var pageCount: PageCount?
    }

    /// `pages` is the book's pages as built (title and blanks included); `short` and `over` are 0 within.
    struct PageCount: Encodable, Equatable {
        var pages: Int
        var minimum: Int?
        var maximum: Int?
        var short: Int
        var over: Int
    }

    struct Page: Encodable, Equatable {
        /// 1-based, as a reader counts.
        var number: Int
        /// `single`, `grid 2x2`, `[1 | 2]`, `title`.
        var arrangement: String
        /// The photos on the page in reading order, as indices into `photos`.
        var photos: [Int]
    }

    struct Photo: Encodable, Equatable {
        /// Its index in `photos`.
        var index: Int
        var path: String
        /// `succeeded`, `failed`, `skipped` or `cancelled`.
        var outcome: String
        var reason: String?
        /// With `reason`: its kind (`Failure.Kind`: corrupt, unsupported, tooLarge...), for programs.
        var failureKind: String?
        /// Where it is in the book, once the final plan is made.
        var page: Int?
        var cell: Box?
        var crop: Box?
        /// The share of the photo's area the crop leaves out, 0 to 1.
        var cropShare: Double?
        /// Where a crop that leaves something out was placed from: `regions`, `attention`, `description` or `centre`.
        var cropFrom: String?
        /// How many faces, pets and focus points the photo's metadata marks, when it marks any; and whether one of
        /// them is not whole in the crop.
        var regions: Int?
        var regionCut: Bool?
        /// The pixels embedded, and the density they print at.
        var pixelWidth: Int?
        var pixelHeight: Int?
        var effectiveDPI: Double?
        /// The photo's own JPEG bytes in the book (true), or a render re-encoded by photobook (false).
        var passThrough: Bool?
        /// A lossless crop: the photo's own DCT blocks, copied and turned, clipped to the cell by the page.
        var losslessCrop: Bool?
        /// For a render (not pass-through): true when it was taken from the render cache, an earlier build's.
        var fromCache: Bool?
        var caption: String?
        /// The fonts the caption is drawn in, in order of first use: the book's font, and the installed fonts found
        /// for the characters it lacks.
        var captionFonts: [String]?
        /// Its format, and what of it: "JPEG (progressive)", "HEIF (AVIF, 10-bit)", "TIFF (16-bit RGB, LZW)".
        var format: String?
        /// The photo kept in the book in its place, when it was left out as the same photo (its copy, or the
        /// other file of its shot).
        var duplicateOf: String?
        /// What the choice of photos decided (`--photos`, `--pages`, or a photo its owner rejected).
        var selection: Selection?
        var warnings: [String]
    }

    /// `{"chosen": true, "score": S}` or `{"chosen": false, "reason": R}` (with `of`, the photo kept, for a
    /// near duplicate); `looks` says what a photo looks like, chosen or not (docs/report.md).
    struct Selection: Encodable, Equatable {
        var chosen: Bool
        var score: Double?
        var reason: String?
        var of: String?
        var looks: [String]?
        var moment: Int?
        var event: Int?
        /// What was measured of the photo, rounded: why it looks as it does (docs/research/choosing.md).
        var measured: Measured?
    }

    /// `PhotoTraits`, the figures the looks are judged on, each rounded to three decimals, under the names of
    /// PhotoTraits' own fields (docs/report.md).
    struct Measured: Encodable, Equatable {
        var traits: PhotoTraits

        init(_ traits: PhotoTraits) { self.traits = traits }

        /// The figures shown, besides `blur` (nil when the picture has no detail to judge, and then left out).
        static var figures: [(name: String, value: KeyPath<PhotoTraits, Double>)] {
            [("meanLuma", \.meanLuma), ("darkShare", \.darkShare), ("blownShare", \.blownShare),
             ("flatShare", \.flatShare), ("paperShare", \.paperShare), ("strokeShare", \.strokeShare)]
        }

        static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: FieldName.self)
            try container.encodeIfPresent(traits.blur.map(Self.rounded), forKey: FieldName("blur"))
            for (name, value) in Self.figures { try container.encode(Self.rounded(traits[keyPath: value]), forKey: FieldName(name)) }
        }
    }

    struct Box: Encodable, Equatable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double
    }

    struct Warning: Encodable, Equatable {
        var path: String?
        var message: String
    }

    init(_ report: BuildReport, options: ReportOptions, exitStatus: ExitStatus) {
        schema = Self.schemaVersion
        program = PhotoBookVersion.string
        self.exitStatus = exitStatus.rawValue
        self.options = options
        let (bookOutcome, bookReason) = Self.describe(report.book)
        book = Book(output: options.output, outcome: bookOutcome, reason: bookReason?.message,
                    failureKind: bookReason?.kind.rawValue,
                    pagesWritten: report.pagesWritten, blankPages: report.blankPages,
                    // The planned pages end with the --pad-to blanks, which `blankPages` counts instead.
                    pages: report.pages.dropLast(report.blankPages).enumerated().map {
                        Page(number: $0.offset + 1, arrangement: $0.element.arrangement, photos: $0.element.photos.map(\.index))
                    },
                    pageCount: report.pageCount.map {
                        PageCount(pages: $0.pages, minimum: $0.minimum, maximum: $0.maximum, short: $0.short, over: $0.over)
                    })
        photos = report.photos.enumerated().map { index, photo in
            let (outcome, reason) = Self.describe(photo.outcome)
            // Sizes planned for a photo that then failed, or for a book never finished, describe nothing printed.
            let placed = photo.page != nil
            var warnings = report.warnings.filter { $0.path == photo.path }.map(\.message)
            if placed, let dpi = photo.printedDPI ?? photo.effectiveDPI,
               let shortfall = Summary.shortfall(dpi, target: options.printDPI ?? options.dpi) {
                let inPrint = options.printDPI == nil ? "" : " in the book for print"
                warnings.append("prints at \(Int(dpi.rounded())) dpi\(inPrint), \(shortfall)")
            }
            return Photo(index: index, path: photo.path, outcome: outcome, reason: reason?.message,
                         failureKind: reason?.kind.rawValue, page: photo.page,
                         cell: photo.cell.map { Box(x: $0.x, y: $0.y, width: $0.width, height: $0.height) },
                         crop: photo.crop.map { Box(x: $0.x, y: $0.y, width: $0.width, height: $0.height) },
                         cropShare: photo.cropShare,
                         cropFrom: placed && (photo.cropShare ?? 0) > 0 ? photo.cropSource?.rawValue : nil,
                         regions: photo.regionCount > 0 ? photo.regionCount : nil,
                         regionCut: placed && photo.regionCount > 0 ? photo.cutsRegion : nil,
                         pixelWidth: placed ? photo.pixelWidth : nil,
                         pixelHeight: placed ? photo.pixelHeight : nil,
                         effectiveDPI: placed ? photo.effectiveDPI : nil, passThrough: photo.passThrough,
                         losslessCrop: photo.losslessCrop,
                         fromCache: placed && photo.passThrough == false ? photo.renderedFromCache : nil,
                         caption: photo.caption,
                         captionFonts: photo.captionFonts.isEmpty ? nil : photo.captionFonts, format: photo.format,
                         duplicateOf: photo.duplicateOf,
                         selection: photo.selection.map { choice in
                             Selection(chosen: choice.chosen, score: choice.chosen ? choice.score : nil,
                                       reason: choice.reason?.rawValue,
                                       of: choice.of.map { report.photos[$0.index].path },
                                       looks: choice.looks.isEmpty ? nil : choice.looks.map(\.rawValue),
                                       moment: choice.moment, event: choice.event,
                                       measured: choice.traits.map(Measured.init))
                         },
                         warnings: warnings)
        }
        warnings = report.warnings.map { Warning(path: $0.path, message: $0.message) }
        preflight = PreflightReport(findings: report.preflight.map {
            PreflightReport.Finding(kind: $0.kind.rawValue, page: $0.page, path: $0.path, message: $0.message)
        }, fileSize: report.fileSize, fileSizeLimit: report.fileSizeLimit?.bytes)
        timings = report.timings
    }

    /// The outcome's name and its reason, if it has one.
    static func describe(_ outcome: Outcome) -> (String, Failure?) {
        switch outcome {
        case .succeeded: return ("succeeded", nil)
        case .failed(let reason): return ("failed", reason)
        case .skipped(let because): return ("skipped", because)
        case .cancelled: return ("cancelled", nil)
        }
    }

    /// The document as JSON: sorted keys, so that equal reports are equal bytes, and a final newline.
    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [UInt8(ascii: "\n")]
    }
}

/// The options a build ran with, defaults included: lengths in points, names as the command line takes them. Each
/// field but `inputs` and `sourceDateEpoch` is shown by the option of build's table that declares it
/// (`Option.report`, `ReportField`), so that the table is the one list of what a report holds; docs/report.md and
/// docs/report.schema.json describe the fields, and OptionDeclarationTests checks a real report against the table.
struct ReportOptions: Encodable, Equatable {
    var inputs: [String]
    /// `SOURCE_DATE_EPOCH`, when it was set: the PDF's dates are this moment.
    var sourceDateEpoch: Int?
    /// Every option's fields, by name, as a description file holds an option's value; a field whose value is nil
    /// (an option that stays unset, such as --title) is left out.
    var shown: [String: OptionValue]
    /// The build's own density, and in a proof the print book's (`LayoutOptions.printDPI`), which a photo's
    /// density is then measured against: read from the options the build ran with, not back out of `shown`.
    var dpi: Double
    var printDPI: Double?

    /// `options`: the build's own, which may say more than the command's (a description's pages, a choice).
    init(_ command: BuildCommand, options: BuildOptions) {
        var ran = command
        ran.options = options
        inputs = command.inputs
        sourceDateEpoch = options.creationDate.map { Int($0.timeIntervalSince1970) }
        shown = [:]
        for field in BuildCommand.options.flatMap(\.report) {
            if let value = field.value(ran) { shown[field.name] = value }
        }
        dpi = options.layout.dpi
        printDPI = options.layout.printDPI
    }

    /// The book's path as given (the report's `book.output` too).
    var output: String { if case .text(let path)? = shown["output"] { path } else { "" } }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FieldName.self)
        try container.encode(inputs, forKey: FieldName("inputs"))
        try container.encodeIfPresent(sourceDateEpoch, forKey: FieldName("sourceDateEpoch"))
        for (name, value) in shown { try container.encode(value, forKey: FieldName(name)) }
    }
}

/// A JSON field named at run time, for the report's parts whose fields come from a table.
struct FieldName: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
