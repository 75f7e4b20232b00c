import PhotoBook

/// The text group: the title's words and the font they are set in, on a book's title page or on its cover
/// (`build`, `init` and `cover`). Declared once; the including command names the field.
enum TextGroup {
    static func title<Command>(_ field: WritableKeyPath<Command, String?>,
                               report: [ReportField<Command>] = []) -> Option<Command> {
        .value("title", .words(what: "title"), section: .words, report: report,
               help: "the title, on a title page of its own (on a cover: at the top of the front and along the "
                   + "spine, reading top to bottom); also the PDF's Title", field)
    }

    static func subtitle<Command>(_ field: WritableKeyPath<Command, String?>,
                                  report: [ReportField<Command>] = []) -> Option<Command> {
        .value("subtitle", .words(what: "subtitle"), section: .words, report: report,
               help: "a line under the title (needs --title); also the PDF's Subject", field)
    }

    static func author<Command>(_ field: WritableKeyPath<Command, String?>,
                                report: [ReportField<Command>] = []) -> Option<Command> {
        .value("author", .words(what: "author"), section: .words, report: report,
               help: "the author, under the title (needs --title; on a cover also at the foot of the spine when it "
                   + "fits); also the PDF's Author", field)
    }

    static func font<Command>(_ field: WritableKeyPath<Command, String>,
                              report: [ReportField<Command>] = []) -> Option<Command> {
        // The metavar stays PATH and completion offers files: a family is typed, not completed.
        .value("font", .inputFile(extensions: ["ttf", "otf", "ttc", "otc"]), default: BookFont.defaultPath,
               section: .words, report: report,
               help: "the font for every word, embedded as a subset: a TrueType or OpenType (CFF) file, one font "
                   + "of a collection (.ttc, .otc) as PATH#INDEX (from 0) or PATH#NAME (\"...ttc#Noto Sans CJK JP\"), "
                   + "or an installed family (\"Noto Serif CJK JP\", \"Noto Sans CJK SC:bold\"; fc-list : family lists "
                   + "them), found by fontconfig; a file of that name wins, a family not installed is an error",
               field)
    }

    static func language<Command>(_ field: WritableKeyPath<Command, String?>,
                                  report: [ReportField<Command>] = []) -> Option<Command> {
        .value("lang", .language, section: .words, report: report,
               help: "the language of the words, as a BCP 47 tag (ja, zh-Hant, ko, ar, en-GB): which installed fonts "
                   + "draw the characters --font lacks, and which forms Chinese characters take (Japanese, Simplified "
                   + "or Traditional Chinese, Korean); without it the environment's (LC_ALL, LC_MESSAGES, LANG), "
                   + "else what the text shows (kana: Japanese, Hangul: Korean), else Simplified Chinese",
               field)
    }

    /// The title's three lines, in the order help lists them; `reported`: each shown in a report's options.
    static func titleLines<Command: TextFields>(reported: Bool = false) -> [Option<Command>] {
        [title(\.text.title, report: reported ? [.shows("title", \.text.title)] : []),
         subtitle(\.text.subtitle, report: reported ? [.shows("subtitle", \.text.subtitle)] : []),
         author(\.text.author, report: reported ? [.shows("author", \.text.author)] : [])]
    }

    /// `--font` and `--lang`, in the order help lists them; `reported`: each shown in a report's options.
    static func fontAndLanguage<Command: TextFields>(reported: Bool = false) -> [Option<Command>] {
        [font(\.text.fontPath, report: reported ? [.shows("font", \.text.fontPath)] : []),
         language(\.text.language, report: reported ? [.shows("lang", \.text.language)] : [])]
    }
}

/// What the text group sets on a command with words (build, init, cover): the title's three lines, the font every
/// word is set in, and the words' language. Declared once; each command includes it as `text`.
struct TextSettings {
    var title: String?
    var subtitle: String?
    var author: String?
    var fontPath = BookFont.defaultPath
    /// `--lang`, normalised (Words' `Language`): the words' language, before the environment's.
    var language: String?
}

/// A command whose words the text group sets, read as `command.title`, `.fontPath`...
protocol TextFields {
    var text: TextSettings { get set }
}

extension TextFields {
    var title: String? { text.title }
    var subtitle: String? { text.subtitle }
    var author: String? { text.author }
    var fontPath: String { text.fontPath }
    var language: String? { text.language }
}
