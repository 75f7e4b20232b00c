/// A command that prints one text and takes no option but --help (`presets`, `completions`): its scan, its help
/// and its run are the same for each; what its operands may be and what it prints are its own.
protocol PrintingCommand {
    init()
    var help: Bool { get set }
    /// What help, the man page and the completion scripts say of it; its `name` is the command's.
    static var document: CommandDocument { get }
    /// Takes the operands the scan left, refusing those the command does not know (not called for --help).
    mutating func take(_ operands: [String]) throws(CLIError)
    /// What the command prints.
    func render() -> String
}

extension PrintingCommand {
    /// --help alone.
    static var options: [Option<Self>] {
        [RunGroup.help(\.help)]
    }

    /// The command as its arguments give it: with `help` set, its operands are not looked at.
    static func parse(_ arguments: [String]) throws(CLIError) -> Self {
        var command = Self()
        let operands = try ArgumentScanner(options: options, commandName: document.name).scan(arguments, into: &command)
        if command.help { return command }
        try command.take(operands)
        return command
    }

    /// `photobook NAME [OPERAND...]`: its text, or its help, on stdout; a bad command line on stderr.
    static func run(_ arguments: [String]) -> ExitStatus {
        PhotoBookCLI.reportingError { () throws(CLIError) in
            let command = try parse(arguments)
            Diagnostics.standardOutput(command.help ? HelpText.command(document) : command.render())
            return .success
        }
    }
}
