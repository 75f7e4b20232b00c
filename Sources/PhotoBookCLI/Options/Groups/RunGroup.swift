/// The run group: how much a command says while it works, and its help. `--help` is every command's; `--quiet`
/// and `--verbose` belong to the commands that do work (`build`, `init` and `cover`). Declared once; the
/// including command names the field.
enum RunGroup {
    static func quiet<Command>(_ field: WritableKeyPath<Command, Bool>) -> Option<Command> {
        .flag("quiet", short: "q", section: .messages, description: .commandLineOnly, help: "print errors only", field)
    }

    static func verbose<Command>(_ field: WritableKeyPath<Command, Bool>) -> Option<Command> {
        .flag("verbose", short: "v", section: .messages, description: .commandLineOnly,
              help: "also report skipped files, each photo's density and where each part of a cover lies", field)
    }

    static func help<Command>(_ field: WritableKeyPath<Command, Bool>) -> Option<Command> {
        .flag("help", short: "h", defaultText: nil, section: .messages, description: .commandLineOnly,
              help: "show this help and exit", field)
    }

    /// The three, in the order help lists them, for a command that makes something.
    static func all<Command: RunFields>() -> [Option<Command>] {
        [quiet(\.run.quiet), verbose(\.run.verbose), help(\.run.help)]
    }
}

/// What the run group sets on a command that makes something (build, cover): how much it says, and whether it
/// only shows its help.
struct RunSwitches {
    var quiet = false
    var verbose = false
    var help = false
}

/// A command whose run switches the run group sets, read as `command.quiet`, `.verbose`, `.help`.
protocol RunFields {
    var run: RunSwitches { get set }
}

extension RunFields {
    var quiet: Bool { run.quiet }
    var verbose: Bool { run.verbose }
    var help: Bool { run.help }
}
