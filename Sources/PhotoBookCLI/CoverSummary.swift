import Foundation
import Geometry
import PhotoBook

/// The end of a cover as the user hears it: each photo's trouble, the warnings, then one summary line.
enum CoverSummary {
    static func report(_ report: BuildReport, output: String, options: CoverOptions, say: Diagnostics) -> ExitStatus {
        let seconds = String(format: "%.1f s", report.seconds)
        let geometry = options.geometry
        // What the codecs noticed of files they could read (libtiff's warnings), as `build --verbose` says it.
        for photo in report.photos { for note in photo.notes { say.note(note, path: photo.path) } }
        if report.book == .succeeded {
            listParts(geometry, say: say)
            for photo in report.photos {
                guard let dpi = photo.effectiveDPI, let w = photo.pixelWidth, let h = photo.pixelHeight else { continue }
                if let share = photo.cropShare {
                    say.note(Summary.cropped(share, from: photo.cropSource ?? .centre,
                                             cutsRegion: photo.regionCount > 0 && photo.cutsRegion == true),
                             path: photo.path)
                }
                let text = "\(w)x\(h) pixels, prints at \(Int(dpi.rounded())) dpi"
                if dpi < options.dpi * 0.75 {
                    say.warning("only \(text), below the \(Int(options.dpi)) dpi asked for", path: photo.path)
                } else {
                    say.note(text, path: photo.path)
                }
            }
        }
        for warning in report.warnings { say.warning(warning.message, path: warning.path) }
        let failed = report.photos.compactMap { photo -> (String, String)? in
            if case .failed(let why) = photo.outcome { return (photo.path, why.message) }
            return nil
        }
        switch report.book {
        case .succeeded:
            let media = geometry.mediaSize, trim = geometry.trimBox
            if geometry.isCase {
                say.status("wrote \(output): a hardcover case of \(mm(trim.width)) x \(mm(trim.height)) mm with a "
                           + "\(mm(geometry.spine)) mm spine and \(mm(geometry.hinge)) mm hinges, \(mm(media.width)) x "
                           + "\(mm(media.height)) mm with the \(mm(geometry.wrap)) mm wrap, \(seconds)")
                return .success
            }
            say.status("wrote \(output): a wrap cover of \(mm(trim.width)) x \(mm(trim.height)) mm with a "
                       + "\(mm(geometry.spine)) mm spine" + (geometry.bleed > 0
                           ? ", \(mm(media.width)) x \(mm(media.height)) mm with the bleed" : "") + ", \(seconds)")
            return .success
        case .cancelled:
            say.status("interrupted after \(seconds): nothing was written", evenWhenQuiet: true)
            return .interrupted
        case .failed(let why):
            for (path, reason) in failed { say.error(reason, path: path) }
            say.error("\(why); nothing was written", path: output)
            return .failure
        case .skipped(let why):
            for (path, reason) in failed { say.error(reason, path: path) }
            say.error("\(why); nothing was written", path: output)
            return .failure
        }
    }

    /// With `--verbose`: where the back, the spine and the front lie, measured from the page's left edge.
    private static func listParts(_ geometry: CoverGeometry, say: Diagnostics) {
        guard say.verbose else { return }
        for (name, part) in [("back", geometry.back), ("spine", geometry.spineStrip), ("front", geometry.front)]
            + (geometry.hinge > 0 ? [("back hinge", Rect(x: geometry.back.x + geometry.back.width, y: geometry.back.y,
                                                         width: geometry.hinge, height: geometry.back.height)),
                                     ("front hinge", Rect(x: geometry.front.x - geometry.hinge, y: geometry.front.y,
                                                          width: geometry.hinge, height: geometry.front.height))] : []) {
            say.note("\(name): \(mm(part.width)) x \(mm(part.height)) mm, from \(mm(part.x)) to "
                     + "\(mm(part.x + part.width)) mm from the left edge of the page")
        }
    }

    private static func mm(_ points: Double) -> String { Length.format(points / Length.pointsPerMillimetre) }
}
