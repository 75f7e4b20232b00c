/// The output group: the file a command writes (`build`, `init` and `cover`). Declared once; what the file is
/// comes from the command, the field its path goes to too.
enum OutputGroup {
    /// What `-o` names: the words help uses for it and the extensions a shell offers.
    enum File {
        case book, cover, bookDescription

        /// `PDF`: what help calls the file.
        var noun: String {
            switch self {
            case .book: "PDF"
            case .cover: "one-page PDF"
            case .bookDescription: "book description (.json)"
            }
        }

        /// What is ready when the file is replaced.
        var whole: String {
            switch self {
            case .book: "book"
            case .cover: "cover"
            case .bookDescription: "description"
            }
        }

        var extensions: [String] { self == .bookDescription ? ["json"] : ["pdf"] }
    }

    static func output<Command>(_ file: File, _ field: WritableKeyPath<Command, String?>,
                                report: [ReportField<Command>] = []) -> Option<Command> {
        .value("output", short: "o", .outputFile(extensions: file.extensions), required: true, section: .files,
               description: .commandLineOnly, report: report,
               help: "the \(file.noun) to write; replaced atomically when the whole \(file.whole) is ready", field)
    }
}
