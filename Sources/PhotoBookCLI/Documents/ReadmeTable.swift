/// The README's table of `build` options in Markdown, written from the option table; the README holds it between
/// two marker comments, `make docs` writes it there and a test fails when the two differ.
enum ReadmeTable {
    static let begin = "<!-- options: written by `make docs` from the option tables in Sources/PhotoBookCLI -->"
    static let end = "<!-- end of options -->"

    static func render(_ document: CommandDocument = BuildCommand.document) -> String {
        var lines = [begin, "| option | default | meaning |", "|---|---|---|"]
        for option in document.options {
            let value = option.isRequired ? "(required)" : option.defaultText.map { defaultCell($0) } ?? ""
            lines.append("| `\(option.synopsis)` | \(escape(value)) | \(escape(option.helpWithAllowed)) |")
        }
        lines.append(end)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value a user would type is shown as code; a description (`the number of cores`, `off`) as words.
    private static func defaultCell(_ text: String) -> String {
        text == "off" || text.contains(" ") ? text : "`\(text)`"
    }

    private static func escape(_ text: String) -> String { text.replacingAll("|", with: "\\|") }
}
