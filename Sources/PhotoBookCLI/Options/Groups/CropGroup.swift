import PhotoBook

/// The crop group: where a photo's crop goes when its cell cuts part of it away, on a book's pages and a cover's
/// alike (`build`, `init` and `cover`). Declared once; the including command names the field.
enum CropGroup {
    static func crop<Command>(_ field: WritableKeyPath<Command, CropMode>,
                              report: [ReportField<Command>] = []) -> Option<Command> {
        .value("crop", .choice(metavar: "MODE", [
                   .auto: "keep whole the faces, pets and focus points the photo's XMP or its XMP sidecar marks (all "
                       + "of them when the cell leaves room, else as many faces as fit, the largest first), a "
                       + "description's focus point first; for photos that mark none, where their edges, skin tones and colour "
                       + "draw the eye when that is clearly off the centre, else the centre",
                   .centre: "always from the centre",
               ], aliases: ["center": .centre]), default: "auto", section: .photos, report: report,
               help: "where the crop goes when a photo's cell cuts part of it away (--fit fill)", field)
    }
}
