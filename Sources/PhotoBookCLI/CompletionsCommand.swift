/// `photobook completions bash|zsh|fish`: prints the completion script for a shell, for users who install the
/// binary alone (`photobook completions bash > ~/.local/share/bash-completion/completions/photobook`).
struct CompletionsCommand: PrintingCommand {
    /// Nil only for --help.
    var shell: CompletionScript.Shell?
    var help = false

    static var document: CommandDocument {
        CommandDocument(
            name: "completions",
            synopsis: "photobook completions bash|zsh|fish",
            summary: "print the shell completion script for bash, zsh or fish",
            description: [
                "Prints the completion script for the shell named, written from the same table as this help. "
                    + "make install installs all three; this command is for a photobook installed by hand.",
            ],
            operands: "SHELL", operandCompletion: .words(CompletionScript.Shell.allCases.map(\.rawValue)),
            options: options.map(\.spec),
            examples: [("photobook completions bash > ~/.local/share/bash-completion/completions/photobook",
                        "completion in bash for your own account")])
    }

    mutating func take(_ operands: [String]) throws(CLIError) {
        let shells = CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: ", ")
        guard operands.count == 1 else {
            throw .usage(operands.isEmpty ? "name a shell: \(shells)" : "name one shell, not \(operands.count)")
        }
        guard let shell = CompletionScript.Shell(rawValue: operands[0]) else {
            throw .usage("\(ValueError.quote(operands[0])) is not a shell photobook completes: use \(shells)")
        }
        self.shell = shell
    }

    /// The shell's script.
    func render() -> String {
        shell.map(CompletionScript.render) ?? ""
    }
}
