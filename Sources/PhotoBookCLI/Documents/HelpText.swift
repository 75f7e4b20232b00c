/// `--help` for the program and for each command, written from the option tables, wrapped for a terminal.
enum HelpText {
    static let width = 80
    /// Where the text of an option starts.
    private static let textColumn = 28

    /// `photobook --help`.
    static func program() -> String {
        let synopses = ProgramDocument.commands.map(\.synopsis) + ["photobook --help | --version"]
        var lines = synopses.enumerated().map { ($0.offset == 0 ? "Usage: " : "       ") + $0.element }
        lines += ["", "Commands:"]
        for command in ProgramDocument.commands {
            lines += entry(command.name, command.summary)
        }
        lines += ["", "Run 'photobook COMMAND --help' for a command's options and their defaults."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `photobook COMMAND --help`.
    static func command(_ document: CommandDocument) -> String {
        var lines = ["Usage: " + document.synopsis, ""]
        for paragraph in document.description {
            lines += wrap(paragraph, width: width)
            lines.append("")
        }
        for section in HelpSection.allCases {
            let options = document.options.filter { $0.section == section }
            guard !options.isEmpty else { continue }
            lines.append(section.rawValue + ":")
            for option in options {
                lines += entry(names(option), text(option))
            }
            lines.append("")
        }
        if !document.examples.isEmpty {
            lines.append("Examples:")
            for example in document.examples { lines += ["  " + example.command, "      " + example.comment] }
            lines.append("")
        }
        // Commands that only print (presets, completions) cannot fail a build or be interrupted mid-way.
        let printsOnly = !["build", "init", "cover"].contains(document.name)
        lines += wrap("Exit status: " + (printsOnly ? "0 success, 2 usage error." : ProgramDocument.exitStatuses
            .map { "\($0.status.rawValue) \($0.short)" }
            .joined(separator: ", ") + "."), width: width)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `-o, --output PATH`, with long-only options lined up under the long names.
    static func names(_ option: OptionSpec) -> String {
        option.short == nil ? "    " + option.synopsis : option.synopsis
    }

    /// What an option does, what it accepts and its default, as one text.
    static func text(_ option: OptionSpec) -> String {
        // A no-break space keeps "default: 100000000" on one line, where a reader looks for it.
        // (A long default, such as a path, may go to a line of its own instead.)
        option.helpWithAllowed + (option.defaultNote.map {
            " (\($0.count <= 30 ? $0.replacingAll(" ", with: noBreak) : $0))"
        } ?? "")
    }

    private static let noBreak = "\u{A0}"

    /// Two columns: `name` from column 2, `text` wrapped from `textColumn`.
    private static func entry(_ name: String, _ text: String) -> [String] {
        let indent = String(repeating: " ", count: textColumn)
        var wrapped = wrap(text, width: width - textColumn).map { indent + $0 }
        let head = "  " + name
        if head.count + 2 <= textColumn, !wrapped.isEmpty {
            wrapped[0] = head.padding(to: textColumn) + wrapped[0].dropFirst(textColumn)
        } else {
            wrapped.insert(head, at: 0)
        }
        return wrapped
    }

    /// Words of `text` in lines of at most `width` characters (a longer word gets a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { $0.replacingAll(noBreak, with: " ") }
    }
}

extension String {
    func padding(to length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
