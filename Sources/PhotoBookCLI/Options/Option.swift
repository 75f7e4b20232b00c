/// What a shell can offer while the user types an option's value or a command's operands.
enum Completion: Equatable {
    /// Free text (a number, a length): nothing to offer.
    case none
    /// One of these words.
    case words([String])
    /// A file name; with extensions, files ending in one of them (and folders to reach them).
    case files(extensions: [String])
    /// Files and folders: photos and the folders that hold them.
    case filesAndFolders
}

/// Where an option is listed in the help, the man page and the README, in this order. (Which options commands
/// share is said by the option groups: PageGroup, PrintGroup, TextGroup, OutputGroup, RunGroup.)
enum HelpSection: String, CaseIterable {
    case files = "Input and output"
    case page = "Pages"
    case photos = "Photos"
    case words = "Words"
    case running = "Running"
    case messages = "Messages"
}

/// What a book description file (`photobook init`, docs/book-description.md) may do with an option of `build`.
enum DescriptionUse: Equatable {
    /// The file may hold it, and `init` writes it when it is given.
    case held
    /// The file may hold it, but `init` does not write it: it is about the machine, not the book (`--jobs`).
    case heldNotWritten
    /// Only on the command line, with or without a description: how to run, not what to build.
    case commandLineOnly
    /// Neither in the file nor beside it: the description's pages say it (the words say how).
    case saidByThePages(String)

    /// Why a description file cannot hold it; nil when it can.
    var refusal: String? {
        switch self {
        case .held, .heldNotWritten: nil
        case .commandLineOnly: "give it on the command line"
        case .saidByThePages(let instead): instead
        }
    }
}

/// An option as a reader and a shell see it: its names, its value, its default and what it does. Help, the man
/// page, the README's table and the completion scripts are all written from this, so they cannot disagree.
struct OptionSpec: Equatable {
    /// The long name without its dashes (`page-size`).
    var long: String
    var short: Character?
    /// The value's placeholder (`SIZE`); nil for a flag, which takes no value.
    var metavar: String?
    /// The default as the reader should see it (`a4`, `off`, `the number of cores`); nil when there is none to show.
    var defaultText: String?
    /// What the option does, as one phrase in lower case without a full stop.
    var help: String
    /// The values it accepts, when that is more than the help says (`1 to 100`).
    var allowed: String?
    var section: HelpSection
    var completion: Completion
    /// Must be given on every run (`--output`).
    var isRequired = false
    /// Whether a book description may hold it (`build`'s options only).
    var description: DescriptionUse = .held
    /// The names of the fields of a report's `options` that show its value (`Option.report`); empty when none does.
    var reportFields: [String] = []

    var longName: String { "--" + long }
    var shortName: String? { short.map { "-\($0)" } }
    var isFlag: Bool { metavar == nil }

    /// `-o, --output PATH`, `--page-size SIZE`.
    var synopsis: String {
        [shortName, longName].compactMap { $0 }.joined(separator: ", ") + (metavar.map { " " + $0 } ?? "")
    }

    /// The help with what it accepts: `JPEG quality of the embedded photos, 1 to 100`.
    var helpWithAllowed: String { allowed.map { "\(help); \($0)" } ?? help }

    /// `(default: a4)`, `(required)`, or nothing.
    var defaultNote: String? {
        if isRequired { return "required" }
        return defaultText.map { "default: \($0)" }
    }
}

/// One option of a command, declared once: what documents show of it and what it does to the command.
struct Option<Command> {
    var spec: OptionSpec
    /// The default, written as a user would type the value; applied before the arguments, through the same
    /// parser, so that the default shown and the default used are one thing.
    var defaultValue: String?
    /// Where the option is declared, as `#fileID` and `#line` say it (`PhotoBookCLI/PageGroup.swift:12`): an option several commands take
    /// is one declaration in an option group, found at the same place in each command's table, never a copy.
    var declaration: String
    /// Reads a value given for the option (nil for a flag) into what it sets on the command: the one parse of
    /// every value, typed, held in a description or the default.
    var parse: (_ text: String?) throws(ValueError) -> OptionValues<Command>.Setting
    /// What a report's `options` shows of it (`--report`, `ReportOptions`): build's table says; empty elsewhere.
    var report: [ReportField<Command>] = []

    /// A flag: present or not.
    /// - Parameter report: the report fields that show it (`Option.report`).
    static func flag(_ long: String, short: Character? = nil, defaultText: String? = "off", section: HelpSection,
                     description: DescriptionUse = .held, report: [ReportField<Command>] = [], help: String,
                     _ keyPath: WritableKeyPath<Command, Bool>,
                     file: StaticString = #fileID, line: UInt = #line) -> Option {
        Option(spec: OptionSpec(long: long, short: short, metavar: nil, defaultText: defaultText, help: help, allowed: nil,
                                section: section, completion: .none, description: description,
                                reportFields: report.map(\.name)),
               defaultValue: nil, declaration: "\(file):\(line)",
               parse: { _ in .init(name: long, text: nil, value: true) { $0[keyPath: keyPath] = true } }, report: report)
    }

    /// An option with a value, read and checked by `parser`.
    /// - Parameters:
    ///   - default: the default as typed by a user (applied through `parser`); nil when the command has its own.
    ///   - defaultText: what help shows as the default when it is not `default` itself.
    static func value<Value>(_ long: String, short: Character? = nil, _ parser: ValueParser<Value>,
                             default: String? = nil, defaultText: String? = nil, required: Bool = false,
                             section: HelpSection, description: DescriptionUse = .held, report: [ReportField<Command>] = [],
                             help: String, _ keyPath: WritableKeyPath<Command, Value>,
                             file: StaticString = #fileID, line: UInt = #line) -> Option {
        Option(spec: OptionSpec(long: long, short: short, metavar: parser.metavar, defaultText: defaultText ?? `default`,
                                help: help, allowed: parser.allowed, section: section, completion: parser.completion,
                                isRequired: required, description: description, reportFields: report.map(\.name)),
               defaultValue: `default`, declaration: "\(file):\(line)",
               parse: { text throws(ValueError) in
                   let value = try parser.parse(text ?? "")
                   return .init(name: long, text: text, value: value) { $0[keyPath: keyPath] = value }
               }, report: report)
    }

    /// Sets every option's default on `command` through its own parser, before any argument is read. A default
    /// its parser refuses is a mistake in the table, not in the user's input.
    static func applyDefaults(_ options: [Option], to command: inout Command) {
        for option in options {
            guard let value = option.defaultValue else { continue }
            do {
                try option.parse(value).set(&command)
            } catch {
                fatalError("the default \(value) of \(option.spec.longName) is refused by its own parser: \(error.message)")
            }
        }
    }

    /// An option with a value that stays nil until it is given.
    static func value<Value>(_ long: String, short: Character? = nil, _ parser: ValueParser<Value>,
                             defaultText: String? = nil, required: Bool = false, section: HelpSection,
                             description: DescriptionUse = .held, report: [ReportField<Command>] = [], help: String,
                             _ keyPath: WritableKeyPath<Command, Value?>,
                             file: StaticString = #fileID, line: UInt = #line) -> Option {
        Option(spec: OptionSpec(long: long, short: short, metavar: parser.metavar, defaultText: defaultText,
                                help: help, allowed: parser.allowed, section: section, completion: parser.completion,
                                isRequired: required, description: description, reportFields: report.map(\.name)),
               defaultValue: nil, declaration: "\(file):\(line)",
               parse: { text throws(ValueError) in
                   let value = try parser.parse(text ?? "")
                   return .init(name: long, text: text, value: value) { $0[keyPath: keyPath] = value }
               }, report: report)
    }
}
