import Foundation
import PhotoBook
@testable import PhotoBookCLI
import TestSupport
import Testing

/// One declaration per option: an option several commands take comes from one option group, never a copy, and
/// every report field an option names is in the report the binary writes, following the value given.
@Suite struct OptionDeclarationTests {
    /// One row of a command's table: its names and where it was declared.
    struct Row {
        var command: String
        var long: String
        var short: Character?
        var declaration: String
    }

    /// Every command's table, as its parser reads it and its help lists it.
    static var tables: [Row] {
        func rows<Command>(_ command: String, _ options: [Option<Command>]) -> [Row] {
            options.map { Row(command: command, long: $0.spec.long, short: $0.spec.short, declaration: $0.declaration) }
        }
        return rows("build", BuildCommand.options) + rows("init", InitCommand.options)
            + rows("cover", CoverCommand.options) + rows("presets", PresetsCommand.options)
            + rows("completions", CompletionsCommand.options)
    }

    /// What is wrong with `rows`: a name twice in one table, a long name declared at two places, a short name
    /// standing for two long ones.
    static func problems(_ rows: [Row]) -> [String] {
        var problems: [String] = []
        var declared: [String: Row] = [:]
        var shorts: [Character: String] = [:]
        for (index, row) in rows.enumerated() {
            if rows[..<index].contains(where: { $0.command == row.command && $0.long == row.long }) {
                problems.append("\(row.command): --\(row.long) is in its table twice")
            }
            if let first = declared[row.long], first.declaration != row.declaration {
                problems.append("--\(row.long) is declared at \(first.declaration) (\(first.command)) and again at "
                                + "\(row.declaration) (\(row.command)): include the one declaration instead")
            }
            declared[row.long] = declared[row.long] ?? row
            if let short = row.short {
                if let long = shorts[short], long != row.long {
                    problems.append("-\(short) is --\(long) in one command and --\(row.long) in \(row.command)")
                }
                shorts[short] = shorts[short] ?? row.long
            }
        }
        return problems
    }

    @Test func noOptionIsDeclaredTwiceAcrossTheCommands() {
        let rows = Self.tables
        #expect(Self.problems(rows) == [])
        // The options build and cover share are there, and each comes from its group.
        for long in ["output", "page-size", "bleed", "safety", "dpi", "quality", "title", "subtitle", "author", "font",
                     "quiet", "verbose", "help"] {
            let declarations = Set(rows.filter { $0.long == long }.map(\.declaration))
            let groups = ["PageGroup", "PrintGroup", "TextGroup", "OutputGroup", "RunGroup"]
            #expect(declarations.count == 1 && groups.contains { declarations.first?.hasPrefix("PhotoBookCLI/\($0).swift:") == true },
                    "--\(long): \(declarations)")
            #expect(rows.filter { $0.long == long }.map(\.command).contains("cover"), "--\(long)")
        }
    }

    /// The check itself finds a copy: cover's table with `--bleed` declared again in place of the group's.
    @Test func aCopiedDeclarationIsFound() {
        let copy = Option<CoverCommand>.value("bleed", .length(), default: "0", section: .page, help: "a copy", \.bleed)
        let tables = Self.tables.filter { !($0.command == "cover" && $0.long == "bleed") }
            + [Row(command: "cover", long: "bleed", short: nil, declaration: copy.declaration)]
        #expect(Self.problems(tables).count == 1)
        #expect(Self.problems(tables).first?.hasPrefix("--bleed is declared at PhotoBookCLI/PageGroup.swift:") == true)
        let twice = Self.tables + [Self.tables.first { $0.command == "presets" }!]
        #expect(Self.problems(twice) == ["presets: --help is in its table twice"])
    }

    /// The report's fields are the options' own: build's table declares each with the option it shows
    /// (`Option.report`), once, and the report holds those and nothing else but the inputs and SOURCE_DATE_EPOCH.
    @Test func everyReportFieldIsNamedByOneOption() throws {
        let named = BuildCommand.options.flatMap(\.spec.reportFields)
        #expect(Set(named).count == named.count, "a report field is named by two options: \(named)")
        for option in BuildCommand.options {
            #expect(option.spec.reportFields == option.report.map(\.name), "\(option.spec.longName)")
        }
        let command = try BuildCommand.parse(["photos", "-o", "book.pdf"])
        let shown = ReportOptions(command, options: command.options).shown
        // Every option with a default shows it; those that stay unset until given (--title, --pdfx) are left out.
        let unset: Set = ["photos", "pages", "preset", "minDPI", "title", "subtitle", "author", "coverPhoto", "pdfx", "lang",
                          "outputProfile", "outputCondition", "intent"]
        #expect(Set(shown.keys) == Set(named).subtracting(unset), "\(shown.keys.sorted())")
    }

    /// Options given in a build of their own: `--pages` cannot go with `--photos`.
    static let apart: Set<String> = ["pages"]

    /// A value other than the default for each option that names a report field (a flag: given), for
    /// `theReportShowsEveryOptionThatNamesAField`.
    static func unusual(photos: String, scratch: Scratch) throws -> [String: [String]] {
        let font = scratch.file("font.ttf")
        try FileManager.default.copyItem(atPath: BookFont.defaultPath, toPath: font)
        return [
            "output": [scratch.file("other.pdf")], "recursive": [], "sort": ["date"], "reverse": [],
            "max-pixels": ["50000000"], "preset": ["lulu-a4"], "page-size": ["a5"], "margin": ["5mm"],
            "bleed": ["3mm"], "crop-marks": [], "safety": ["4mm"], "binding": ["2mm"], "pad-to": ["32"],
            "spreads": [], "layout": ["auto"], "gap": ["2mm"], "max-per-page": ["3"], "fit": ["fit"],
            "crop": ["centre"], "dpi": ["150"],
            "quality": ["80"], "keep-originals": [], "title": ["A title"], "subtitle": ["A subtitle"],
            "author": ["An author"], "cover-photo": [photos + "/a.jpg"], "captions": ["name"],
            "sections": ["folder"], "page-numbers": [], "font": [font], "lang": ["ja"],
            "jobs": [BuildCommand.defaultJobs == 1 ? "2" : "1"], "strict": [], "keep-duplicates": [], "prefer": ["raw"],
            "pdfx": ["1a"], "intent": ["perceptual"], "output-profile": ["/usr/share/color/icc/ghostscript/default_cmyk.icc"],
            "output-condition": ["FOGRA51"], "min-dpi": ["1"], "photos": ["2"], "pages": ["2"],
        ]
    }

    /// Two real reports, one of a build with the defaults and one with every option given another value: each
    /// field an option names is in the second and differs from the first. An option given a report field in the
    /// table but not shown by the binary fails here, and so does one this test has no value for.
    @Test func theReportShowsEveryOptionThatNamesAField() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        try DistinctPhotos.write(into: photos)
        func options(of report: String) throws -> [String: Any] {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
            return try #require((json as? [String: Any])?["options"] as? [String: Any], "\(report) has no options")
        }
        let plain = scratch.file("plain.json")
        let first = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf"), "--report", plain])
        #expect(first.status == 0, "\(first.stderr)")
        let unusual = try Self.unusual(photos: photos, scratch: scratch)
        let reported = scratch.file("unusual.json")
        var arguments = ["build", photos, "--report", reported]
        for option in BuildCommand.options where !option.spec.reportFields.isEmpty && !Self.apart.contains(option.spec.long) {
            let value = try #require(unusual[option.spec.long], "no value for \(option.spec.longName) in this test")
            arguments += [option.spec.longName] + value
        }
        let second = try Run.photobook(arguments)
        #expect(second.status == 0, "\(arguments): \(second.stderr)")
        let before = try options(of: plain)
        var after = try options(of: reported)
        // An option that excludes one given above, in a build of its own with the defaults.
        for name in Self.apart {
            let alone = scratch.file("\(name).json")
            let run = try Run.photobook(["build", photos, "-o", scratch.file("\(name).pdf"), "--report", alone,
                                         "--\(name)"] + (unusual[name] ?? []))
            #expect(run.status == 0, "--\(name): \(run.stderr)")
            let fields = BuildCommand.options.first { $0.spec.long == name }?.spec.reportFields ?? []
            for (field, value) in try options(of: alone) where fields.contains(field) { after[field] = value }
        }
        for option in BuildCommand.options {
            for field in option.spec.reportFields {
                let shown = try #require(after[field], "the report has no \(field) for \(option.spec.longName)")
                #expect("\(shown)" != before[field].map { "\($0)" },
                        "\(option.spec.longName) \(unusual[option.spec.long] ?? []): \(field) stays \(shown)")
            }
        }
        let named = Set(BuildCommand.options.flatMap(\.spec.reportFields))
        #expect(Set(after.keys).subtracting(named).isSubset(of: ["inputs", "sourceDateEpoch"]), "\(after.keys.sorted())")
    }
}
