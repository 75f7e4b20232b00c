import PhotoBook

/// The page group: the trim size and what lies round it, which a book and its wrap cover share (`build`, `init`
/// and `cover`). Each option is declared here once; a command that includes it names the field its value goes to.
enum PageGroup {
    static func pageSize<Command>(_ field: WritableKeyPath<Command, PageSize>,
                                  report: [ReportField<Command>] = []) -> Option<Command> {
        .value("page-size", .pageSize, default: "a4", section: .page, report: report,
               help: "the book's trim size, portrait as given: the size of every page, and of a cover's front and back",
               field)
    }

    static func bleed<Command>(_ field: WritableKeyPath<Command, Double>,
                               report: [ReportField<Command>] = []) -> Option<Command> {
        .value("bleed", .length(), default: "0", section: .page, report: report,
               help: "how far photos that touch the trim edge run past it (3mm or 0.125in are usual); the PDF page "
                   + "grows by it on every side, its TrimBox stays the trim size (a cover's: back + spine + front)",
               field)
    }

    /// Nil until given: a book's pages then keep their words inside the margin, a cover's front inside
    /// `CoverCommand.defaultSafety`.
    static func safety<Command>(_ field: WritableKeyPath<Command, Double?>,
                                report: [ReportField<Command>] = []) -> Option<Command> {
        .value("safety", .length(), defaultText: "the margin; on a cover, 10mm", section: .page, report: report,
               help: "how far inside the trim edges, and a cover's folds, the words must stay (the ArtBox)", field)
    }

    /// `--preset NAME`, for `build` and `cover`: each says in `help` which of the preset's figures it takes.
    static func preset<Command>(_ field: WritableKeyPath<Command, PrintPreset?>, report: [ReportField<Command>] = [],
                                help: String) -> Option<Command> {
        .value("preset", .preset, section: .page, report: report, help: help, field)
    }
}
