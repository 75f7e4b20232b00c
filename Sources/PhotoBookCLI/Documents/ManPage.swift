import PhotoBook

/// The manual page photobook(1), in the man macros of troff, written from the option tables; `make docs` keeps
/// the copy in docs/photobook.1 and a test fails when it differs from what the table says.
enum ManPage {
    static func render() -> String {
        var out: [String] = []
        // No date: the page must be the same whenever it is written, so the copy in the repository can be checked.
        out.append(".TH PHOTOBOOK 1 \"\" \"\(escape(PhotoBookVersion.string))\" \"User Commands\"")
        out += [".SH NAME", "photobook \\- \(escape(ProgramDocument.summary))"]

        out.append(".SH SYNOPSIS")
        let synopses = ProgramDocument.commands.map(\.synopsis) + ["photobook --help | --version"]
        out += synopses.flatMap { [".B " + escape($0), ".br"] }.dropLast()

        let commands = ProgramDocument.commands
        out.append(".SH DESCRIPTION")
        out += commands[0].description.flatMap { [".PP", escape($0)] }.dropFirst()

        out.append(".SH COMMANDS")
        for command in commands {
            out += [".TP", ".B " + escape(command.name), escape(sentence(capitalised(command.summary)))]
            for paragraph in command.description where command.name != commands[0].name {
                out += [".IP", escape(paragraph)]
            }
        }

        out.append(".SH OPTIONS")
        out.append("Options of photobook itself, before any command:")
        for option in ProgramDocument.options {
            out += [".TP", names(option), escape(sentence(capitalised(option.help)))]
        }
        for command in commands where command.options.contains(where: { $0.long != "help" }) {
            out.append(".SH \"OPTIONS OF \(escape(command.name.uppercased()))\"")
            for section in HelpSection.allCases {
                let options = command.options.filter { $0.section == section }
                guard !options.isEmpty else { continue }
                out.append(".SS \"\(escape(section.rawValue))\"")
                for option in options {
                    out += [".TP", names(option), escape(sentence(capitalised(option.helpWithAllowed)))
                                + (option.defaultNote.map { " " + escape(sentence(capitalised($0))) } ?? "")]
                }
            }
        }

        out.append(".SH \"EXIT STATUS\"")
        for status in ProgramDocument.exitStatuses {
            out += [".TP", ".B \(status.status.rawValue)", escape(sentence(capitalised(status.meaning)))]
        }
        out.append(".SH ENVIRONMENT")
        for variable in ProgramDocument.environment {
            out += [".TP", ".B " + escape(variable.name), escape(sentence(capitalised(variable.meaning)))]
        }
        out.append(".SH EXAMPLES")
        for command in commands {
            for example in command.examples {
                out += [".PP", escape(capitalised(example.comment)) + ":", ".PP", ".RS",
                        ".EX", escape(example.command), ".EE", ".RE"]
            }
        }
        out += [".SH \"SEE ALSO\"", ".BR img2pdf (1),", ".BR vipsthumbnail (1),", ".BR convert (1)"]
        return out.joined(separator: "\n") + "\n"
    }

    /// `.BR \-o ", " \-\-output " " \fIPATH\fR`: bold names, italic placeholder.
    private static func names(_ option: OptionSpec) -> String {
        var parts = [option.shortName, option.longName].compactMap { $0 }.map { "\\fB\(escape($0))\\fR" }
            .joined(separator: ", ")
        if let metavar = option.metavar { parts += " \\fI\(escape(metavar))\\fR" }
        return parts
    }

    private static func capitalised(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
    private static func sentence(_ text: String) -> String { text.hasSuffix(".") ? text : text + "." }

    /// Text safe in a troff line: backslashes and dashes escaped, no line starting with a control character.
    static func escape(_ text: String) -> String {
        var out = text.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}

extension String {
    /// Every occurrence of `target` replaced, without Foundation.
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
