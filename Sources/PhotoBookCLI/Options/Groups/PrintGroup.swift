import PhotoBook

/// The print group: how densely the photos are printed and how they are compressed, for a book's pages and a
/// cover's alike (`build`, `init` and `cover`). Declared once; the including command names the field.
enum PrintGroup {
    /// A whole number on the command line, a density in the book: the engine's is a `Double`.
    static func dpi<Command>(_ field: WritableKeyPath<Command, Double>,
                             report: [ReportField<Command>] = []) -> Option<Command> {
        .value("dpi", .wholeNumber(10...2400), default: "300", section: .photos, report: report,
               help: "target density of the printed photos in pixels per inch; photos are never upsampled", field)
    }

    static func quality<Command>(_ field: WritableKeyPath<Command, Int>,
                                 report: [ReportField<Command>] = []) -> Option<Command> {
        .value("quality", .integer(1...100), default: "90", section: .photos, report: report,
               help: "JPEG quality of the photos embedded in the PDF", field)
    }
}

extension PrintGroup {
    static func pdfx<Command>(_ field: WritableKeyPath<Command, PDFXLevel?>,
                              report: [ReportField<Command>] = []) -> Option<Command> {
        .value("pdfx", .choice(metavar: "LEVEL", [
                   .x4: "PDF/X-4 (ISO 15930-7): PDF 1.6, the output intent with its profile, XMP metadata, a "
                       + "document ID, a TrimBox (and BleedBox) on every page and no ArtBox, fonts embedded, photos "
                       + "in their own ICC colour (sRGB when they have none), text in grey and marks in CMYK",
                   .x1a: "PDF/X-1a:2003 (ISO 15930-4): PDF 1.4, the same output intent, document ID and boxes, "
                       + "every photo converted to the profile's CMYK with Little CMS (from its own ICC profile, "
                       + "sRGB when it has none) and embedded as a CMYK JPEG, text in grey, marks in CMYK, no RGB, "
                       + "no ICC colour, no transparency",
               ]), section: .photos, report: report,
               help: "make a PDF/X file for a print shop, for the printing condition of --output-profile", field)
    }

    static func outputProfile<Command>(_ field: WritableKeyPath<Command, String?>,
                                       report: [ReportField<Command>] = []) -> Option<Command> {
        .value("output-profile", .inputFile(metavar: "FILE", extensions: ["icc", "icm"]),
               defaultText: "photobook's FOGRA39L (coated paper, ISO 12647-2)", section: .photos,
               report: report,
               help: "with --pdfx, the CMYK output ICC profile of the press and paper the book is printed on, "
                   + "embedded as the output intent; ask the print shop for theirs", field)
    }

    static func outputCondition<Command>(_ field: WritableKeyPath<Command, String?>,
                                         report: [ReportField<Command>] = []) -> Option<Command> {
        .value("output-condition", .words(metavar: "NAME", what: "output condition"),
               defaultText: "FOGRA39 for the default profile, else Custom", section: .photos,
               report: report,
               help: "with --pdfx, the registered name of the printing condition the profile characterises "
                   + "(FOGRA39, FOGRA51, GRACoL2006_Coated1v2...), the book's OutputConditionIdentifier", field)
    }
}

extension PrintGroup {
    static func intent<Command>(_ field: WritableKeyPath<Command, RenderingIntent?>,
                                report: [ReportField<Command>] = []) -> Option<Command> {
        .value("intent", .choice(metavar: "INTENT", [
                   .relative: "relative colorimetric with black-point compensation: the colours the press can print "
                       + "are kept exactly, the others clipped to the nearest it can",
                   .perceptual: "the whole photo compressed into the press's gamut: saturated colours keep their "
                       + "differences, at the cost of a little of every colour",
               ]), defaultText: "relative", section: .photos, report: report,
               help: "with --pdfx 1a, how the photos are converted to the output profile's CMYK", field)
    }
}

/// The PDF/X levels `--pdfx` makes.
enum PDFXLevel: String, CaseIterable {
    case x4 = "4"
    case x1a = "1a"

    var standard: PDFXStandard { self == .x4 ? .x4 : .x1a }
}

/// `--pdfx`, `--output-profile`, `--output-condition` and `--intent` as given, for `build` and `cover` alike.
struct PDFXOptions {
    var level: PDFXLevel?
    var profilePath: String?
    var condition: String?
    var intent: RenderingIntent?

    /// The request the options make, nil without --pdfx; a profile that is missing or not a CMYK output profile,
    /// or an option of the three given without --pdfx, is a usage error here, before any photo is read. So is
    /// `--intent` with anything but `--pdfx 1a`: a PDF/X-4 book's photos keep their own colour, so an intent
    /// would apply to nothing.
    func request() throws(CLIError) -> PDFXRequest? {
        if intent != nil, level != .x1a {
            throw .usage("--intent: is for the photos converted to CMYK in a PDF/X-1a book, so it needs --pdfx 1a"
                         + (level == .x4 ? " (a PDF/X-4 book's photos keep their own colour)" : ""))
        }
        guard let level else {
            for (name, value) in [("--output-profile", profilePath), ("--output-condition", condition)] where value != nil {
                throw .usage("\(name): is for a PDF/X book, so it needs --pdfx 4 or --pdfx 1a")
            }
            return nil
        }
        let path: String
        if let profilePath {
            path = profilePath
        } else if let found = OutputProfile.defaultPath {
            path = found
        } else {
            throw .usage("--pdfx: photobook's own output profile (\(OutputProfile.defaultFileName)) is not installed "
                         + "beside the binary: give --output-profile FILE.icc")
        }
        switch OutputProfile.load(path) {
        case .failure(let problem):
            throw .usage("--output-profile: \(path) \(problem)")
        case .success(let profile):
            let condition = self.condition ?? (profilePath == nil ? OutputProfile.defaultIdentifier : nil)
            return PDFXRequest(standard: level.standard, profile: profile, condition: condition,
                               intent: level == .x1a ? intent ?? .relative : nil)
        }
    }
}

extension PDFXRequest {
    /// What `--verbose` says of the book's standard before it is made: the printing condition and, for a
    /// PDF/X-1a book, how its photos are converted.
    var verboseNote: String {
        let converted: String
        switch intent {
        case nil: converted = "photos keep their own colour"
        case .relative?: converted = "photos converted to CMYK, relative colorimetric with black-point compensation"
        case .perceptual?: converted = "photos converted to CMYK, perceptual"
        }
        return "\(standard.rawValue) for \(identifier) (\(profile.path)): \(converted)"
    }
}
