/// `photobook completions bash|zsh|fish`: prints the completion script for a shell, for users who install the
/// binary alone (`photobook completions bash > ~/.local/share/bash-completion/completions/photobook`).
struct CompletionsCommand {
    var shell: CompletionScript.Shell?
    var help = false

    static var options: [Option<CompletionsCommand>] {
        [RunGroup.help(\.help)]
    }

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

    static func parse(_ arguments: [String]) throws(CLIError) -> CompletionsCommand {
        var command = CompletionsCommand()
        let operands = try ArgumentScanner(options: options, commandName: "completions").scan(arguments, into: &command)
        if command.help { return command }
        let shells = CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: ", ")
        guard operands.count == 1 else {
            throw .usage(operands.isEmpty ? "name a shell: \(shells)" : "name one shell, not \(operands.count)")
        }
        guard let shell = CompletionScript.Shell(rawValue: operands[0]) else {
            throw .usage("\(ValueError.quote(operands[0])) is not a shell photobook completes: use \(shells)")
        }
        command.shell = shell
        return command
    }
}
