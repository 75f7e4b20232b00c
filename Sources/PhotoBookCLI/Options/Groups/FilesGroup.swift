import PhotoBook

/// The files group: which of the photos found go into the book, for `build` and `init` (which plans with build's
/// table). Declared once; the including command names the field.
enum FilesGroup {
    static func keepDuplicates<Command>(_ field: WritableKeyPath<Command, Bool>,
                                        report: [ReportField<Command>] = []) -> Option<Command> {
        .flag("keep-duplicates", section: .files,
              description: .saidByThePages("the pages list every photo, copies included"),
              report: report,
              help: "keep every copy of a photo: without it, files with the same bytes (a Google Takeout export's "
                  + "album copies) and the two files of one shot (IMG_1.HEIC and IMG_1.JPG: the same camera and "
                  + "capture time to the sub-second) go in once, the one with the most pixels (on a tie the first "
                  + "found), and a warning names each file left out and the one kept", field)
    }

    static func prefer<Command>(_ field: WritableKeyPath<Command, ShotFile>,
                                report: [ReportField<Command>] = []) -> Option<Command> {
        .value("prefer", .choice(metavar: "FILE", [
                   .jpeg: "the camera's JPEG (or HEIC), its own rendering",
                   .raw: "the raw, rendered by LibRaw (white balance and colour as the camera set them)",
               ]), default: "jpeg", section: .files,
               description: .saidByThePages("the pages name each photo's file"), report: report,
               help: "which file of a camera raw and the camera's JPEG of one shot goes in (IMG_1.NEF and "
                   + "IMG_1.JPG in one folder, or the same camera and capture time): the other is left out with a "
                   + "warning naming both (--keep-duplicates keeps both)", field)
    }
}
