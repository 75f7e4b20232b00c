import Foundation
import Geometry
import PhotoBook

/// The end of a build as the user hears it: one line per photo left out, then one summary line.
enum Summary {
    static func report(_ report: BuildReport, output: String, options: BuildOptions, say: Diagnostics) -> ExitStatus {
        let seconds = String(format: "%.1f s", report.seconds)
        if report.book == .succeeded {
            listPages(report, trim: options.layout.trimBox, say: say)
            if say.verbose { for line in ChoiceListing.lines(report, request: options.choice) { say.note(line) } }
            reportDensity(report, layout: options.layout, say: say)
        }
        for warning in report.warnings { say.warning(warning.message, path: warning.path) }
        let failed = report.leftOut
        switch report.book {
        case .succeeded:
            for photo in failed { say.warning("\(reason(photo)), left out of the book", path: photo.path) }
            var leftOut = failed.isEmpty ? "" : ", \(failed.count) photo\(failed.count == 1 ? "" : "s") left out"
            let copies = report.photos.filter { $0.duplicateOf != nil }.count
            if copies > 0 { leftOut += ", \(copies) cop\(copies == 1 ? "y" : "ies") of a photo left out" }
            let notChosen = report.photos.filter { $0.selection?.chosen == false }.count
            if notChosen > 0 {
                leftOut += options.choice == nil ? ", \(notChosen) rejected by their owner left out"
                    : ", \(notChosen) photo\(notChosen == 1 ? "" : "s") not chosen"
            }
            if report.blankPages > 0 {
                leftOut += " (\(report.blankPages) blank page\(report.blankPages == 1 ? "" : "s") added to make a multiple "
                    + "of \(options.layout.padTo))"
            }
            say.status("wrote \(output): \(report.pagesWritten) page\(report.pagesWritten == 1 ? "" : "s")\(leftOut), \(seconds)")
            return .success
        case .cancelled:
            say.status("interrupted after \(report.photos.filter { $0.outcome == .succeeded }.count) of \(report.photos.count) photos, \(seconds): nothing was written", evenWhenQuiet: true)
            return .interrupted
        case .failed(let why):
            for photo in failed { say.error(reason(photo), path: photo.path) }
            // A dry run has no output to name.
            say.error("\(why); nothing was written", path: output.isEmpty ? nil : output)
            return .failure
        case .skipped(let why):
            for photo in failed { say.error(reason(photo), path: photo.path) }
            say.error("\(why); nothing was written")
            return .failure
        }
    }

    /// With `--verbose`: each page, how its photos are arranged, and for each photo its cell (measured from the
    /// page's top left corner, as on paper), the share the crop leaves out and the density it prints at.
    /// `90x60 mm at 10, 20 mm from the top left`: a cell measured from the trim's top left corner, as on paper.
    static func place(of cell: Rect, trim: Rect) -> String {
        func mm(_ points: Double) -> String { Length.format(points / Length.pointsPerMillimetre) }
        return "\(mm(cell.width))x\(mm(cell.height)) mm at \(mm(cell.x - trim.x)), "
            + "\(mm(trim.y + trim.height - cell.y - cell.height)) mm from the top left"
    }

    private static func listPages(_ report: BuildReport, trim: Rect, say: Diagnostics) {
        guard say.verbose else { return }
        for (number, page) in report.pages.enumerated() {
            let count = page.photos.count
            say.note("page \(number + 1): \(count) photo\(count == 1 ? "" : "s"), \(page.arrangement)")
            for id in page.photos {
                let photo = report.photos[id.index]
                guard let cell = photo.cell else { continue }
                if let first = photo.page, first != number + 1 {
                    // The right-hand half of a spread: its photo was listed where the spread starts.
                    say.note("  \(photo.path): continued from page \(first)")
                    continue
                }
                let crop = photo.cropShare.map {
                    cropped($0, from: photo.cropSource ?? .centre, cutsRegion: photo.cutsRegion ?? false)
                } ?? "uncropped"
                let dpi = photo.effectiveDPI.map { "\(formatDPI($0)) dpi" } ?? ""
                say.note("  \(photo.path): \(place(of: cell, trim: trim)), \(crop), \(dpi)")
            }
        }
    }

    /// `12.5% cropped around its regions`: the share cropped away and where the crop was placed from (nothing
    /// when nothing is cropped), and whether a region the photo marks is not whole on the page.
    static func cropped(_ share: Double, from source: CropSource, cutsRegion: Bool) -> String {
        var text = String(format: "%.1f%% cropped", share * 100)
        if share > 0 {
            switch source {
            case .regions: text += " around its regions"
            case .attention: text += " around what draws the eye"
            case .description: text += " on its focus point"
            case .centre: text += " from the centre"
            }
        }
        return text + (cutsRegion ? ", not every marked region whole" : "")
    }

    /// Below this density online print shops warn or refuse (docs/research/print-shops.md): a photo printing below
    /// it gets a warning whatever --dpi asked for.
    static let printShopDPI = 200.0

    /// What a photo printing at `dpi` falls short of, for a warning: the density asked for (less a quarter of
    /// slack), else the print shops' 200 dpi; nil when it falls short of neither.
    static func shortfall(_ dpi: Double, target: Double) -> String? {
        if dpi < target * 0.75 { return "below the \(Int(target)) dpi asked for" }
        if dpi < printShopDPI { return "below the \(Int(printShopDPI)) dpi print shops ask for" }
        return nil
    }

    /// Names the photos that print well below the target density, and their pages: each one when there are a
    /// few, else a count and the worst, with every one listed under `--verbose`. In a proof (`layout.printDPI`),
    /// the density and the target are the print build's (`PhotoReport.printedDPI`).
    static func reportDensity(_ report: BuildReport, layout: LayoutOptions, say: Diagnostics) {
        let target = layout.printDPI ?? layout.dpi, proof = layout.printDPI != nil
        var low: [(path: String, text: String, dpi: Double, page: String, shortfall: String)] = []
        for photo in report.photos where photo.outcome == .succeeded {
            guard let dpi = photo.printedDPI ?? photo.effectiveDPI, let w = photo.pixelWidth, let h = photo.pixelHeight
            else { continue }
            let page = photo.page.map { " on page \($0)" } ?? ""
            // A proof's pixels are the screen's: its photos are told by the density the print build gives them.
            let text = proof ? "\(formatDPI(dpi)) dpi\(page) in the book for print"
                : "\(w)x\(h) pixels, prints at \(formatDPI(dpi)) dpi\(page)"
            if let shortfall = shortfall(dpi, target: target) {
                low.append((photo.path, text, dpi, page, shortfall))
            } else {
                say.note(text, path: photo.path)
            }
        }
        if low.count <= 3 {
            for photo in low { say.warning("only \(photo.text), \(photo.shortfall)", path: photo.path) }
        } else {
            for photo in low { say.note("only \(photo.text), \(photo.shortfall)", path: photo.path) }
            let worst = low.min { $0.dpi < $1.dpi }!
            // Mixed shortfalls happen only when a quarter below --dpi is under 200: then all are under 200.
            let shortfalls = Set(low.map(\.shortfall))
            let shortfall = shortfalls.count == 1 ? worst.shortfall : "below the \(Int(printShopDPI)) dpi print shops ask for"
            say.warning("\(low.count) photos print \(shortfall), the lowest \(worst.path) at "
                        + "\(formatDPI(worst.dpi)) dpi\(worst.page)" + (say.verbose ? "" : " (--verbose lists them)"))
        }
    }

    private static func formatDPI(_ dpi: Double) -> String {
        dpi < 10 ? String(format: "%.1f", dpi) : String(Int(dpi.rounded()))
    }

    private static func reason(_ photo: PhotoReport) -> String {
        if case .failed(let why) = photo.outcome { return why.message }
        return photo.outcome.description
    }
}
