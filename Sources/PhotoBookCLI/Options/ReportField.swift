import PhotoBook

/// One field of a report's `options` (`--report`, docs/report.md) and where its value is read: declared with its
/// option in the command's table, so that the report shows what the table holds and an option added to the table
/// says there what the report shows of it (`ReportOptions`, OptionDeclarationTests).
struct ReportField<Command> {
    var name: String
    /// The value the build ran with: the command's, its defaults, preset, description and typed options merged,
    /// its `options` the build's own (`ReportOptions.init`); nil leaves the field out of the report.
    var value: (Command) -> OptionValue?

    /// The field `name` showing the value at `keyPath`, as a description file holds an option's value.
    static func shows<Value: ReportShown>(_ name: String, _ keyPath: KeyPath<Command, Value>) -> ReportField {
        ReportField(name: name) { $0[keyPath: keyPath].shown }
    }

    /// The field `name` showing what `value` makes of the command (a page size's width, the margin standing in
    /// for a safety margin not given).
    static func shows(_ name: String, _ value: @escaping (Command) -> OptionValue?) -> ReportField {
        ReportField(name: name, value: value)
    }
}

/// A value a report shows as it is: a number, a flag, words, or a choice by the word that names it.
protocol ReportShown {
    var shown: OptionValue? { get }
}

extension Bool: ReportShown { var shown: OptionValue? { .flag(self) } }
extension Int: ReportShown { var shown: OptionValue? { .number(Double(self)) } }
extension Double: ReportShown { var shown: OptionValue? { .number(self) } }
extension String: ReportShown { var shown: OptionValue? { .text(self) } }
extension Optional: ReportShown where Wrapped: ReportShown { var shown: OptionValue? { self?.shown } }

/// A choice among words is shown by its word, as it is typed (`--sort date`: "date").
protocol ReportShownByName: ReportShown, RawRepresentable where RawValue == String {}
extension ReportShownByName { var shown: OptionValue? { .text(rawValue) } }

extension SortKey: ReportShownByName {}
extension FitMode: ReportShownByName {}
extension ShotFile: ReportShownByName {}
extension CropMode: ReportShownByName {}
extension CaptionSource: ReportShownByName {}
extension SectionMode: ReportShownByName {}
extension RenderingIntent: ReportShownByName {}
