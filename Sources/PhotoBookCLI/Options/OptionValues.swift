/// The options given in one place, a command line or a book description, each read once by its option's parser:
/// what was given there, nothing else. A command is its defaults with such layers set over them in order
/// (`BuildCommand.layered`), so that which value wins is said in one place and no value is read twice.
struct OptionValues<Command> {
    /// One option's value, as its parser read it.
    struct Setting {
        /// The option's long name (`page-size`).
        var name: String
        /// The value as given, nil for a flag: what `init` writes into a description.
        var text: String?
        /// What the parser made of it (`true` for a flag).
        var value: Any
        /// Sets the value on a command.
        var set: (inout Command) -> Void
    }

    /// In the order first given; an option given again keeps its place and takes the later value, as the last
    /// of a repeated option wins on a command line.
    private(set) var settings: [Setting] = []

    init() {}

    mutating func add(_ setting: Setting) {
        if let index = settings.firstIndex(where: { $0.name == setting.name }) {
            settings[index] = setting
        } else {
            settings.append(setting)
        }
    }

    /// The long names of the options given, in the order first given.
    var names: [String] { settings.map(\.name) }

    /// Whether the option `name` was given (a flag: present).
    func has(_ name: String) -> Bool { settings.contains { $0.name == name } }

    /// The value given for the option `name`, as its parser read it; nil when it was not given.
    func value<Value>(_ name: String, as _: Value.Type = Value.self) -> Value? {
        settings.first { $0.name == name }?.value as? Value
    }

    /// Sets every value given on `command`, over what it holds.
    func apply(to command: inout Command) {
        for setting in settings { setting.set(&command) }
    }
}
