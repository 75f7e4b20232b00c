import PhotoBook
@testable import PhotoBookCLI
import Testing

/// The option table and the parser it drives, in-process: getopt_long's manners, the defaults, the limits.
@Suite struct OptionTableTests {
    let mm = Length.pointsPerMillimetre

    func parse(_ arguments: [String]) throws(CLIError) -> BuildCommand {
        try BuildCommand.parse(arguments)
    }

    /// The message a usage error gives, or nil when the arguments parse.
    func error(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            #expect(error.status == .usage)
            return error.message
        }
    }

    @Test func everyOptionIsDeclaredOnceWithHelp() {
        let specs = BuildCommand.options.map(\.spec)
        #expect(Set(specs.map(\.long)).count == specs.count, "a long name is declared twice")
        let shorts = specs.compactMap(\.short)
        #expect(Set(shorts).count == shorts.count, "a short name is declared twice")
        for spec in specs {
            #expect(!spec.help.isEmpty && !spec.help.hasSuffix("."), "\(spec.longName): help is one phrase")
            #expect(spec.help.first?.isUppercase == false || spec.help.hasPrefix("JPEG"), "\(spec.longName)")
            #expect(spec.long.allSatisfy { $0.isLowercase || $0 == "-" }, "\(spec.longName)")
        }
    }

    @Test func theDefaultsShownAreTheDefaultsUsed() throws {
        let command = try parse(["photos", "-o", "book.pdf"])
        let layout = command.options.layout
        #expect(layout.pageSize == .a4)
        #expect(abs(layout.margin - 10 * mm) < 1e-9)
        #expect(layout.dpi == 300 && layout.fit == .fill && !layout.keepOriginals)
        #expect(command.options.quality == 90 && command.options.maxPixels == 100_000_000)
        #expect(command.options.jobs == BuildCommand.defaultJobs && !command.options.strict)
        #expect(!command.recursive && !command.quiet && !command.verbose)
        let shown = Dictionary(uniqueKeysWithValues: BuildCommand.options.map { ($0.spec.long, $0.spec.defaultText) })
        #expect(shown["page-size"] == "a4" && shown["margin"] == "10mm" && shown["dpi"] == "300")
        #expect(shown["quality"] == "90" && shown["fit"] == "fill" && shown["max-pixels"] == "100000000")
    }

    @Test func longOptionsTakeTheirValueAttachedOrNext() throws {
        let attached = try parse(["p", "-o", "b.pdf", "--page-size=a5", "--margin=5mm", "--dpi=200"])
        let next = try parse(["p", "-o", "b.pdf", "--page-size", "a5", "--margin", "5mm", "--dpi", "200"])
        #expect(attached.options.layout == next.options.layout)
        #expect(attached.options.layout.pageSize == .a5 && attached.options.layout.dpi == 200)
        // The value may itself start with '=' or '-' when it is attached or follows, as with getopt_long.
        #expect(try parse(["p", "--output=-x.pdf"]).output == "-x.pdf")
        #expect(try parse(["p", "--output", "--quiet"]).output == "--quiet")
    }

    @Test func shortOptionsBundleAndTakeAttachedValues() throws {
        let command = try parse(["p", "-rqj3", "-obook.pdf"])
        #expect(command.recursive && command.quiet && command.options.jobs == 3 && command.output == "book.pdf")
        #expect(try parse(["p", "-o", "b.pdf", "-j", "2"]).options.jobs == 2)
        #expect(try parse(["p", "-o", "b.pdf", "-vj2"]).verbose)
        #expect(error(["p", "-o", "b.pdf", "-rxq"]) == "unknown option '-x' in '-rxq' (see 'photobook build --help')")
        #expect(error(["p", "-o", "b.pdf", "-rj"]) == "-j (--jobs): needs a value (N)")
    }

    @Test func operandsAndOptionsMixAndDoubleDashEndsOptions() throws {
        let command = try parse(["a", "-o", "b.pdf", "b", "--", "-r", "--quiet", "-"])
        #expect(command.inputs == ["a", "b", "-r", "--quiet", "-"])
        #expect(!command.recursive && !command.quiet)
    }

    @Test func theLastValueGivenWins() throws {
        #expect(try parse(["p", "-o", "a.pdf", "--dpi", "200", "--dpi=240", "-o", "b.pdf"]).options.layout.dpi == 240)
        #expect(try parse(["p", "-o", "a.pdf", "-o", "b.pdf"]).output == "b.pdf")
    }

    @Test func anAbbreviationIsRefusedWithWhatItCouldMean() {
        #expect(error(["p", "-o", "b.pdf", "--pa", "a4"]) == "unknown option '--pa': did you mean --pages, --page-size, --pad-to or --page-numbers?")
        #expect(error(["p", "-o", "b.pdf", "--page-s=a4"]) == "unknown option '--page-s': did you mean --page-size?")
        #expect(error(["p", "-o", "b.pdf", "--ma", "1"]) == "unknown option '--ma': did you mean --max-pixels, --margin or --max-per-page?")
        #expect(error(["p", "-o", "b.pdf", "--pagesize", "a4"]) == "unknown option '--pagesize': did you mean --page-size?")
        #expect(error(["p", "-o", "b.pdf", "--qualty", "9"]) == "unknown option '--qualty': did you mean --quality?")
        #expect(error(["p", "-o", "b.pdf", "--frobnicate"]) == "unknown option '--frobnicate' (see 'photobook build --help')")
    }

    @Test func helpWinsOverEverythingAfterIt() throws {
        #expect(try parse(["--help", "--frobnicate", "--dpi", "0"]).help)
        #expect(try parse(["-rh"]).help)
        #expect(error(["--dpi", "0", "--help"]) != nil)
    }

    @Test func flagsTakeNoValue() {
        #expect(error(["p", "-o", "b.pdf", "--strict="]) == "--strict: takes no value, but was given ''")
        #expect(error(["p", "-o", "b.pdf", "--recursive=yes"]) == "--recursive: takes no value, but was given 'yes'")
    }

    @Test(arguments: [
        ("a4", 210.0, 297.0), ("A5", 148, 210), ("Letter", 215.9, 279.4), ("200x200mm", 200, 200),
        ("8.5x11in", 215.9, 279.4), ("21x29.7cm", 210, 297), ("210mmx297mm", 210, 297), (".5x.5in", 12.7, 12.7),
        ("3x3pt", 3 / Length.pointsPerMillimetre, 3 / Length.pointsPerMillimetre),
        ("14400x14400pt", 5080, 5080),
    ])
    func pageSizesWithinPDFLimitsAreTaken(text: String, width: Double, height: Double) throws {
        let size = try parse(["p", "-o", "b.pdf", "--margin", "0", "--page-size", text]).options.layout.pageSize
        #expect(abs(size.width / mm - width) < 0.01 && abs(size.height / mm - height) < 0.01, "\(size)")
    }

    @Test(arguments: [
        ("2.9x3pt", "'2.9x3pt' is too small for a PDF page: each side must be from 3 pt to 14400 pt"),
        ("14401x10pt", "'14401x10pt' is too large for a PDF page: each side must be from 3 pt to 14400 pt"),
        ("6000x6000mm", "'6000x6000mm' is too large for a PDF page: each side must be from 1.06 mm to 5080 mm (3 pt to 14400 pt)"),
        ("1e308x1e308mm", "'1e308x1e308mm' is too large for a PDF page: each side must be from 1.06 mm to 5080 mm (3 pt to 14400 pt)"),
        ("0x0in", "'0x0in' is too small for a PDF page: each side must be from 0.0417 in to 200 in (3 pt to 14400 pt)"),
        ("nanxnanmm", "'nanxnanmm' is not a page size"),
        ("200x200", "'200x200' is not a page size"),
        ("200mmx200in", "'200mmx200in' is not a page size"),
        ("a9", "'a9' is not a page size: use a3, a4, a5, letter, legal, or WxH with a unit mm, cm, in or pt (e.g. 200x200mm)"),
    ])
    func pageSizesOutsidePDFLimitsAreRefusedWithTheRange(text: String, message: String) {
        let said = error(["p", "-o", "b.pdf", "--page-size", text])
        #expect(said?.hasPrefix("--page-size: " + message) == true, "\(said ?? "accepted")")
    }

    @Test func theWidestMarginSuggestedIsAccepted() throws {
        for page in ["a4", "10x10mm", "3x400pt", "letter"] {
            let said = try #require(error(["p", "-o", "b.pdf", "--page-size", page, "--margin", "3000mm"]))
            #expect(said.hasPrefix("--margin: 3000 mm leaves no room for a photo on the page"), "\(said)")
            let suggested = try #require(said.split(separator: " ").suffix(2).first.map(String.init))
            let command = try parse(["p", "-o", "b.pdf", "--page-size", page, "--margin", suggested + "mm"])
            #expect(command.options.layout.contentArea != nil, "\(page): \(suggested)mm")
        }
        #expect(error(["p", "-o", "b.pdf", "--margin", "-1mm"]) == "--margin: '-1mm' is negative: use 0 or more")
        #expect(error(["p", "-o", "b.pdf", "--margin", "1e400"]) == "--margin: '1e400' is too large to be a length on a page")
    }

    @Test func aValueShownInAMessageIsQuotedEscapedAndCutShort() {
        #expect(ValueError.quote("a\u{1B}[31mb\n") == "'a\\u{1B}[31mb\\n'")
        #expect(ValueError.quote("ü😀") == "'ü😀'")
        let long = ValueError.quote(String(repeating: "9", count: 1000))
        #expect(long == "'\(String(repeating: "9", count: 40))...' (1000 characters)")
    }

    /// Every option, every extreme value, every way of writing it: a value is taken or refused with a message
    /// that names the option, and nothing traps. The same set runs against the binary in ExtremeArgumentTests.
    @Test func noValueCrashesTheParser() {
        for option in BuildCommand.options.map(\.spec) {
            for form in ExtremeArguments.forms(of: option) {
                for value in ExtremeArguments.values {
                    let arguments = ["photos", "-o", "b.pdf"] + form(value)
                    do {
                        _ = try parse(arguments)
                    } catch {
                        let named = error.message.hasPrefix(option.longName + ": ")
                            || error.message.hasPrefix("\(option.shortName ?? "-?") (\(option.longName)): ")
                            || error.message.hasPrefix("no output given") && option.long == "output"
                            || error.message.hasPrefix("no input given")
                            // A page too small for the default margin: the margin is what must change.
                            || error.message.hasPrefix("--margin: ") && option.long == "page-size"
                            // Options that end the line or are values of others: -o --help, --output --.
                            || arguments.contains("--") || arguments.contains("-")
                        #expect(named, "\(arguments): \(error.message)")
                    }
                }
            }
        }
    }
}

/// A generated set of hostile values, and the ways of giving each to an option.
enum ExtremeArguments {
    static let values: [String] = {
        var values = [
            "", " ", "0", "-0", "1", "-1", "+5", "3", "7", "12", "100", "300", "2400", "2401", "65536",
            "1e308", "-1e308", "1e-308", "5e-324", "1e400", "nan", "NaN", "-nan", "inf", "-inf", "infinity",
            "0x1p1000", "0x10", "1_000", "10,5mm", ".5in", "5.", ".", "mm", "x", "200x", "x200mm", "0x0mm",
            "-5x5in", "3x3pt", "2.9x3pt", "14400x14400pt", "14401x14400pt", "1e308x1e308mm", "6000x6000mm",
            "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
            "4290250000", "4290250001", "a4", "A4", "letter", "fill", "fit", "FIT", "10mm", "104mm", "105mm",
            "1e3x1e3mm", "２００x２００mm", "٣٠٠", "ü", "😀", "文字", "\u{1B}[31mred", "tab\there", "line\nbreak",
            "\u{202E}evil", "=", "==", "--", "-", "-o", "--quiet", "no-such/../book.pdf", "/", "/dev/null",
            "book.pdf", ".", "..",
        ]
        values += ["9", "x", "a", "é", "1e9", "mm"].map { String(repeating: $0, count: 1000) }
        values.append(String(repeating: "1", count: 310) + "mm")
        values.append(String(repeating: "9", count: 400) + "x" + String(repeating: "9", count: 400) + "pt")
        return values
    }()

    /// `--name=value`, `--name value`, and for a short option `-Xvalue` and `-X value`; a flag is also given a
    /// value it must refuse.
    static func forms(of option: OptionSpec) -> [(String) -> [String]] {
        var forms: [(String) -> [String]] = [{ ["\(option.longName)=\($0)"] }]
        guard !option.isFlag else { return forms }
        forms.append { [option.longName, $0] }
        if let short = option.shortName {
            forms.append { [short + $0] }
            forms.append { [short, $0] }
        }
        return forms
    }
}
