import PhotoBook

/// `photobook presets [NAME]`: every print-service preset, or one, with each figure in millimetres and inches
/// and the address it was published at.
struct PresetsCommand: PrintingCommand {
    var name: String?
    var help = false

    static var document: CommandDocument {
        CommandDocument(
            name: "presets",
            synopsis: "photobook presets [NAME]",
            summary: "list the print-service presets for --preset, with their figures and sources",
            description: [
                "Lists every preset that photobook build --preset takes, or the one named: the print service and "
                    + "product, its trim size, bleed and safety margin in millimetres and inches, the step its page "
                    + "count goes in, the fewest and most pages it binds, the PDF/X level and colour it asks for "
                    + "(listed, not applied), and for each figure the address where the service published it. A "
                    + "figure the service does not publish is shown as such, and --preset leaves that option alone.",
            ],
            operands: "NAME", operandCompletion: .words(PrintPreset.all.map(\.name)),
            options: options.map(\.spec),
            examples: [("photobook presets", "every preset and its sources"),
                       ("photobook presets lulu-a4", "one preset"),
                       ("photobook build ./photos --preset lulu-a4 --margin 0 -o book.pdf",
                        "a Lulu A4 book, photos bleeding off every edge")])
    }

    mutating func take(_ operands: [String]) throws(CLIError) {
        guard operands.count <= 1 else { throw .usage("name one preset, not \(operands.count)") }
        if let name = operands.first {
            guard PrintPreset.named(name) != nil else {
                throw .usage("unknown preset \(ValueError.quote(name)): \(PrintPreset.suggestion(for: name))")
            }
            self.name = name
        }
    }

    /// The listing: one block per preset, a blank line between them.
    func render() -> String {
        let presets = name.flatMap(PrintPreset.named).map { [$0] } ?? PrintPreset.all
        return presets.map(Self.render).joined(separator: "\n")
    }

    /// `3.18 mm (0.125 in)`.
    static func both(_ points: Double) -> String {
        "\(Length.Unit.mm.describe(points)) (\(Length.Unit.in.describe(points)))"
    }

    static func render(_ preset: PrintPreset) -> String {
        typealias Row = (label: String, value: String, published: String, source: String)
        func row<Value>(_ label: String, _ figure: PrintPreset.Figure<Value>?, _ value: (Value) -> String,
                        none: String) -> Row {
            guard let figure else { return (label, none, "", "") }
            return (label, value(figure.value), figure.published, figure.source)
        }
        let rows: [Row] = [
            row("trim size", preset.trim, { size in
                "\(Length.Unit.mm.describe(size.width).dropLast(3)) x \(Length.Unit.mm.describe(size.height)) "
                    + "(\(Length.Unit.in.describe(size.width).dropLast(3)) x \(Length.Unit.in.describe(size.height)))"
            }, none: "not found published: --page-size is left as it is"),
            row("bleed", preset.bleed, both, none: "not found published: --bleed is left as it is"),
            row("safety margin", preset.safety, both, none: "not found published: --safety is left as it is"),
            row("page count", preset.pageStep, { "a multiple of \($0) (--pad-to \($0))" },
                none: "no step found published: --pad-to is left as it is"),
            row("fewest pages", preset.minimumPages, { "\($0), the book's pages as built (a warning below it)" },
                none: "not found published"),
            row("most pages", preset.maximumPages, { "\($0) (a warning above it)" }, none: "not found published"),
            // A preset sets --pdfx only where its figure names a level photobook writes (docs/presets.md).
            row("PDF/X", preset.pdfx, { figure in
                preset.writesPDFX.map { "\(figure) (--pdfx \($0.rawValue): \($0.standard.rawValue))" }
                    ?? "\(figure) (not applied: no level photobook writes)"
            }, none: "not found published"),
            row("colour", preset.colour, { colour in
                preset.writesPDFX == .x1a ? "\(colour) (the photos converted by --pdfx 1a)" : "\(colour) (not applied)"
            }, none: "not found published"),
            row("case wrap", preset.caseWrap, both, none: "no case: --wrap is left as it is"),
            row("case hinge", preset.caseHinge, both, none: "no case: --hinge is left as it is"),
            row("file size", preset.fileSize, { "at most \(Preflight.megabytes($0)) (a warning above it)" },
                none: "no limit found published"),
        ]
        var text = "\(preset.name): \(preset.service), \(preset.product)\n"
        for (label, value, published, source) in rows {
            text += "  " + label.padding(toLength: 14, withPad: " ", startingAt: 0) + value + "\n"
            guard !source.isEmpty else { continue }
            text += "  " + String(repeating: " ", count: 14) + "as published: \(published)\n"
            text += "  " + String(repeating: " ", count: 14) + "source: \(source)\n"
        }
        for note in preset.notes { text += "  note: \(note)\n" }
        return text
    }
}
