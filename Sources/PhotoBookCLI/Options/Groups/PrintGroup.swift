/// The print group: how densely the photos are printed and how they are compressed, for a book's pages and a
/// cover's alike (`build`, `init` and `cover`). Declared once; the including command names the field.
enum PrintGroup {
    static func dpi<Command>(_ field: WritableKeyPath<Command, Int>) -> Option<Command> {
        .value("dpi", .integer(10...2400), default: "300", section: .photos, report: ["dpi"],
               help: "target density of the printed photos in pixels per inch; photos are never upsampled", field)
    }

    static func quality<Command>(_ field: WritableKeyPath<Command, Int>) -> Option<Command> {
        .value("quality", .integer(1...100), default: "90", section: .photos, report: ["quality"],
               help: "JPEG quality of the photos embedded in the PDF", field)
    }
}
