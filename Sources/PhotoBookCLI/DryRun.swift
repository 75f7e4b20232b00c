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
                if let caption = photo.caption {
                    let given = preview.photos[photo.photo]?.caption
                    out += ", caption \(quote(printed(caption.lines, of: given)))"
                }
                out += "\n"
            }
        }
        return out
    }

    /// A caption's lines as one text, as printed: joined by a space where the caption had one at the break, and
    /// by nothing where it broke between characters (Japanese, Chinese, Thai, a long word), so that
    /// "浅草寺にて、雨の午後" wrapped after 、 is not shown with a space the page does not have. `given` is the
    /// caption as written; without it, or when the lines are not its words (an ellipsis), lines join by spaces.
    static func printed(_ lines: [String], of given: String?) -> String {
        guard let given, lines.count > 1 else { return lines.joined(separator: " ") }
        let words = given.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        let text = Array(words.joined(separator: " ").unicodeScalars)
        var out = String.UnicodeScalarView()
        var at = 0
        for (index, line) in lines.enumerated() {
            let scalars = Array(line.unicodeScalars)
            guard at + scalars.count <= text.count, Array(text[at..<(at + scalars.count)]) == scalars else {
                // The last line's ellipsis, or a line the wrap made otherwise: the rest as it is printed.
                out.append(contentsOf: lines[index...].joined(separator: " ").unicodeScalars)
                return String(out)
            }
            out.append(contentsOf: scalars)
            at += scalars.count
            if index < lines.count - 1, at < text.count, text[at] == " " {
                out.append(" ")
                while at < text.count && text[at] == " " { at += 1 }
            }
        }
        return String(out)
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
