import PhotoBook

/// What the documents say about one command: its synopsis and prose beside its table of options. Help, the man
/// page, the README's options table and the completion scripts are all written from these.
struct CommandDocument {
    var name: String
    var synopsis: String
    /// One line, lower case, no full stop: for `photobook --help` and the completion menus.
    var summary: String
    var description: [String]
    /// The placeholder for the operands (`INPUT`), and what a shell offers for them.
    var operands: String
    var operandCompletion: Completion
    var options: [OptionSpec]
    var examples: [(command: String, comment: String)] = []
}

/// The program as a whole: its commands and what it promises to scripts.
enum ProgramDocument {
    static let name = PhotoBookVersion.name
    static let summary = "make print-ready PDF photo books from folders of photos"

    /// The commands the documents describe, in the order they list them.
    static var commands: [CommandDocument] {
        [BuildCommand.document, InitCommand.document, EditCommand.document, CoverCommand.document, PresetsCommand.document,
         CompletionsCommand.document]
    }

    /// The options of `photobook` itself, before any command.
    static let options: [OptionSpec] = [
        OptionSpec(long: "help", short: "h", metavar: nil, defaultText: nil, help: "show the commands and exit",
                   allowed: nil, section: .messages, completion: .none),
        OptionSpec(long: "version", short: "V", metavar: nil, defaultText: nil, help: "show the version and exit",
                   allowed: nil, section: .messages, completion: .none),
    ]

    static let exitStatuses: [(status: ExitStatus, short: String, meaning: String)] = [
        (.success, "book written", "the book was written"),
        (.failure, "build failed", "the build failed: no usable photo, no photos found, a write error, or a photo "
            + "left out with --strict; nothing was written"),
        (.usage, "usage error", "usage error: unknown option, bad value, missing input, output folder missing or "
            + "not writable, output is a folder or one of the inputs; no photo was read and nothing was written"),
        (.interrupted, "interrupted (nothing written)", "interrupted by Ctrl-C, SIGTERM or SIGHUP before the book "
            + "was committed; nothing was written"),
    ]

    static let environment: [(name: String, meaning: String)] = [
        ("TMPDIR", "not used: the build's private working folder, where the rendered pages wait until the book is "
            + "saved, is made beside the output (hidden, .BOOK.photobook-pages-XXXXXX), on the filesystem the book "
            + "will occupy anyway; it is removed on every path"),
        ("PHOTOBOOK_PROGRESS", "1: the progress line is written to standard error even when it is not a terminal, "
            + "each state starting with a carriage return (photobook edit's Build the book reads it)"),
        ("SOURCE_DATE_EPOCH", "whole seconds since 1970-01-01 00:00:00 UTC: the PDF's dates are that moment, in "
            + "UTC, and the same inputs give the same bytes; empty counts as unset, a malformed value is a usage error"),
    ]
}
