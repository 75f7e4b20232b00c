import Foundation
import Geometry
import PhotoBook

/// `photobook build --dry-run`: the book page by page on stdout, then on stderr what the build would say.
enum DryRun {
    static func report(_ preview: BookPreview, files: [PhotoFile], options: BuildOptions, say: Diagnostics) -> ExitStatus {
        guard let plan = preview.plan else {
            // The build would stop before its first pixel: it says so, and so does the dry run.
            return Summary.report(preview.report, output: "", options: options, say: say)
        }
        let choice = ChoiceListing.lines(preview.report, request: options.choice)
        Diagnostics.standardOutput(listing(plan, preview: preview, files: files, trim: options.layout.trimBox)
                                   + preflight(preview.report) + choice.map { $0 + "\n" }.joined())
        for path in preview.report.undatedPhotos { say.note("no capture date", path: path) }
        Summary.reportDensity(preview.report, layout: options.layout, say: say)
        for warning in preview.report.warnings { say.warning(warning.message, path: warning.path) }
        let leftOut = preview.report.leftOut
        for photo in leftOut {
            if case .failed(let why) = photo.outcome { say.warning("\(why), left out of the book", path: photo.path) }
        }
        // A spread's photo is on two pages but is one photo of the book.
        let placed = Set(plan.pages.flatMap { $0.photos.map(\.photo) }).count
        say.status("dry run: \(plan.pages.count) page\(plan.pages.count == 1 ? "" : "s"), \(placed) photo"
                   + "\(placed == 1 ? "" : "s")\(leftOut.isEmpty ? "" : ", \(leftOut.count) left out"); nothing was written")
        return .success
    }

    /// `page 2: 3 photos, [1 / [2 | 3]], section "Rome"`, then a line per photo: where it goes, the share cropped,
    /// the density, the caption as printed. The page line starts as `--verbose` lists the build's pages.
    static func listing(_ plan: BookPlan, preview: BookPreview, files: [PhotoFile], trim: Rect) -> String {
        var out = ""
        for page in plan.pages {
            let count = page.photos.count
            out += "page \(page.number): \(count) photo\(count == 1 ? "" : "s"), \(page.arrangement)"
            if let shown = page.heading {
                // The whole heading, when the page shows it wrapped (a description's pages give it whole).
                let heading = page.photos.first.flatMap { preview.photos[$0.photo]?.heading } ?? shown
                out += ", section \(quote(heading))"
            }
            out += "\n"
            for photo in page.photos {
                let path = files[photo.photo.index].path
                let cell = photo.cell
                out += "  \(path): \(Summary.place(of: cell, trim: trim)), "
                    + Summary.cropped(photo.cropShare, from: photo.cropSource, cutsRegion: photo.cutsRegion)
                    + ", \(photo.pixelWidth)x\(photo.pixelHeight) pixels at \(Int(photo.effectiveDPI.rounded())) dpi"
                if let caption = photo.caption { out += ", caption \(quote(caption.lines.joined(separator: " ")))" }
                out += "\n"
            }
        }
        return out
    }

    /// `preflight: 2 findings`, a line for each (as the report's `preflight.findings`), and what can be said of
    /// the file's size against the service's limit before any photo is rendered.
    static func preflight(_ report: BuildReport) -> String {
        let findings = report.preflight
        var out = "preflight: \(findings.isEmpty ? "nothing found" : "\(findings.count) finding\(findings.count == 1 ? "" : "s")")\n"
        for finding in findings { out += "preflight: \(finding.kind.rawValue): \(finding.message)\n" }
        if let limit = report.fileSizeLimit {
            // The JPEGs' sizes depend on the photos' content, known only once they are encoded.
            out += "preflight: file size: cannot be known before the photos are rendered; the build checks it against the "
                + "\(limit.described)\n"
        }
        return out
    }

    private static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
