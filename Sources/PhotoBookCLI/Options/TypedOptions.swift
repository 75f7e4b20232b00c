import PhotoBook

/// The build options typed on a command line, in the order typed, each with its value as typed: what `init`
/// writes into a description, and what `build book.json` checks against it. (`Given...` names what a
/// description file gives: `GivenBook`, `GivenPage`.)
struct TypedOptions {
    var command = BuildCommand()
    var typed: [(name: String, value: String?)] = []

    /// The build command's table, each option also recording itself.
    static var options: [Option<TypedOptions>] {
        BuildCommand.options.map { option in
            Option<TypedOptions>(spec: option.spec, defaultValue: option.defaultValue,
                                 declaration: option.declaration) { recorder, value throws(ValueError) in
                try option.apply(&recorder.command, value)
                recorder.typed.append((option.spec.long, value))
            }
        }
    }

    /// Scans `arguments` as `photobook NAME` takes them, after the build's defaults.
    static func scan(_ arguments: [String], commandName: String) throws(CLIError) -> TypedOptions {
        var recorder = TypedOptions()
        recorder.command.options.jobs = BuildCommand.defaultJobs
        Option.applyDefaults(BuildCommand.options, to: &recorder.command)
        recorder.command.inputs = try ArgumentScanner(options: options, commandName: commandName)
            .scan(arguments, into: &recorder)
        return recorder
    }
}
