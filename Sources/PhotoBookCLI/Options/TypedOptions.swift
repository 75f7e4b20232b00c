/// The build options typed on a command line, each read once by its option's parser, and the inputs it names: what
/// was typed, nothing else. `build` sets them over the defaults, a print preset and a description
/// (`BuildCommand.layered`); `init` plans with them and writes them into a description as typed. (`Given...` names
/// what a description file gives: `GivenBook`, `GivenPage`.)
struct TypedOptions {
    var options: OptionValues<BuildCommand>
    var inputs: [String]

    /// `--help`: the rest of the line is not looked at.
    var help: Bool { options.has("help") }

    /// Scans `arguments` as `photobook NAME` takes them, with build's table.
    static func scan(_ arguments: [String], commandName: String) throws(CLIError) -> TypedOptions {
        let (options, inputs) = try ArgumentScanner(options: BuildCommand.options, commandName: commandName).scan(arguments)
        return TypedOptions(options: options, inputs: inputs)
    }
}
