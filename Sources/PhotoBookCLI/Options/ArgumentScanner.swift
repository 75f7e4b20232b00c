/// Reads a command's arguments with getopt_long's manners, driven by the command's table of options:
/// `--name value` and `--name=value`; short options bundled (`-rq`) and a short option's value attached or
/// following (`-j4`, `-j 4`); options and operands in any order; `--` ends the options; a lone `-` is an operand.
/// Unlike getopt_long, an abbreviated long option is refused with the options it could mean, so that a script
/// written today keeps its meaning when a new option starts with the same letters.
struct ArgumentScanner<Command> {
    let options: [Option<Command>]
    /// For messages: `build` in "see 'photobook build --help'".
    let commandName: String

    /// Sets every option given on `command` and returns the operands in order (`scan(_:)`).
    func scan(_ arguments: [String], into command: inout Command) throws(CLIError) -> [String] {
        let (given, operands) = try scan(arguments)
        given.apply(to: &command)
        return operands
    }

    /// Reads every option given, each value once by its option's parser, and returns them with the operands in
    /// order. Stops at `--help`, so that help is shown whatever else the line holds.
    func scan(_ arguments: [String]) throws(CLIError) -> (given: OptionValues<Command>, operands: [String]) {
        var given = OptionValues<Command>()
        var operands: [String] = []
        var rest = arguments[...]
        var onlyOperands = false
        while let argument = rest.popFirst() {
            if onlyOperands || argument == "-" || !argument.hasPrefix("-") {
                operands.append(argument)
            } else if argument == "--" {
                onlyOperands = true
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let attached = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
                guard let option = options.first(where: { $0.spec.long == name }) else {
                    throw .usage(unknown(long: name))
                }
                if option.spec.isFlag, let attached {
                    throw .usage("\(option.spec.longName): takes no value, but was given \(ValueError.quote(attached))")
                }
                var value = attached
                if !option.spec.isFlag && value == nil { value = try next(&rest, for: option.spec) }
                try read(option, value, into: &given, as: option.spec.longName)
                if option.spec.long == "help" { return (given, operands) }
            } else {
                // A bundle of short options; the first one that takes a value takes the rest of the bundle.
                var letters = argument.dropFirst()
                while let letter = letters.popFirst() {
                    guard let option = options.first(where: { $0.spec.short == letter }) else {
                        let bundle = argument.count > 2 ? " in \(ValueError.quote(argument))" : ""
                        throw .usage("unknown option \(ValueError.quote("-\(letter)"))\(bundle) (see \(helpCommand))")
                    }
                    let shown = "-\(letter)"
                    if option.spec.isFlag {
                        try read(option, nil, into: &given, as: shown)
                    } else {
                        var value = String(letters)
                        if letters.isEmpty { value = try next(&rest, for: option.spec, shown: shown) }
                        try read(option, value, into: &given, as: shown)
                        letters = ""
                    }
                    if option.spec.long == "help" { return (given, operands) }
                }
            }
        }
        return (given, operands)
    }

    private var helpCommand: String { "'photobook \(commandName) --help'" }

    private func next(_ rest: inout ArraySlice<String>, for spec: OptionSpec, shown: String? = nil) throws(CLIError) -> String {
        guard let value = rest.popFirst() else {
            throw .usage("\(Self.name(spec, as: shown ?? spec.longName)): needs a value (\(spec.metavar ?? "a value"))")
        }
        return value
    }

    /// The option as the user wrote it, and its long name when that was a short one: `-j (--jobs)`.
    private static func name(_ spec: OptionSpec, as shown: String) -> String {
        shown == spec.longName ? shown : "\(shown) (\(spec.longName))"
    }

    private func read(_ option: Option<Command>, _ value: String?, into given: inout OptionValues<Command>,
                      as shown: String) throws(CLIError) {
        do {
            given.add(try option.parse(value))
        } catch {
            throw .usage("\(Self.name(option.spec, as: shown)): \(error.message)")
        }
    }

    /// The message for `--name`, saying which options the user may have meant.
    private func unknown(long name: String) -> String {
        let quoted = ValueError.quote("--" + name)
        let longNames = options.map(\.spec.long)
        var meant = name.isEmpty ? [] : longNames.filter { $0.hasPrefix(name) }
        if meant.isEmpty {
            let distances = longNames.map { ($0, Self.editDistance($0, name)) }
            let best = distances.map(\.1).min() ?? .max
            if best <= max(1, min(3, name.count / 3)) { meant = distances.filter { $0.1 == best }.map(\.0) }
        }
        guard !meant.isEmpty else { return "unknown option \(quoted) (see \(helpCommand))" }
        let names = meant.map { "--" + $0 }
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " or " + names.last!
        return "unknown option \(quoted): did you mean \(list)?"
    }

    /// Levenshtein distance, for suggesting the option a typo was meant to be; names are short.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars.prefix(64))
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
