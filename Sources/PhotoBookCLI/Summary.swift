import PhotoBook

/// The end of a build as the user hears it: one line per photo left out, then one summary line.
enum Summary {
    static func report(_ report: BuildReport, output: String, options: BuildOptions, say: Diagnostics) -> ExitStatus {
        let seconds = String(format: "%.1f s", report.seconds)
        for photo in report.photos {
            if let dpi = photo.effectiveDPI, let w = photo.pixelWidth, let h = photo.pixelHeight,
               report.book == .succeeded, photo.outcome == .succeeded {
                if dpi < options.layout.dpi * 0.75 {
                    say.warning("only \(w)x\(h) pixels: prints at \(Int(dpi.rounded())) dpi, below the \(Int(options.layout.dpi)) dpi asked for", path: photo.path)
                } else {
                    say.note("\(w)x\(h) pixels at \(Int(dpi.rounded())) dpi", path: photo.path)
                }
            }
        }
        let failed = report.leftOut
        switch report.book {
        case .succeeded:
            for photo in failed { say.warning("\(reason(photo)), left out of the book", path: photo.path) }
            let leftOut = failed.isEmpty ? "" : ", \(failed.count) photo\(failed.count == 1 ? "" : "s") left out"
            say.status("wrote \(output): \(report.pagesWritten) page\(report.pagesWritten == 1 ? "" : "s")\(leftOut), \(seconds)")
            return .success
        case .cancelled:
            say.status("interrupted after \(report.photos.filter { $0.outcome == .succeeded }.count) of \(report.photos.count) photos, \(seconds): nothing was written", evenWhenQuiet: true)
            return .interrupted
        case .failed(let why):
            for photo in failed { say.error(reason(photo), path: photo.path) }
            say.error("\(why); nothing was written", path: output)
            return .failure
        case .skipped(let why):
            for photo in failed { say.error(reason(photo), path: photo.path) }
            say.error("\(why); nothing was written")
            return .failure
        }
    }

    private static func reason(_ photo: PhotoReport) -> String {
        if case .failed(let why) = photo.outcome { return why }
        return photo.outcome.description
    }
}
