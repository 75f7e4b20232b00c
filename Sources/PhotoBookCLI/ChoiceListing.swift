import PhotoBook

/// What the choice of photos decided, in words: a line per moment of several photos, a line per photo left out
/// and for each photo in the book that looks worse, so that people see what `--photos` and `--pages` would do
/// (`--dry-run` on stdout, `--verbose` on stderr).
enum ChoiceListing {
    static func lines(_ report: BuildReport, request: ChoiceRequest?) -> [String] {
        let photos = report.photos.filter { $0.selection != nil }
        guard !photos.isEmpty else { return [] }
        var lines: [String] = []
        let chosen = photos.filter { $0.selection!.chosen }.count
        var counts: [ChoiceReason: Int] = [:]
        for photo in photos { if let reason = photo.selection!.reason { counts[reason, default: 0] += 1 } }
        let leftOut = ChoiceReason.allCases.compactMap { reason in counts[reason].map { "\($0) \(reason.rawValue)" } }
        switch request {
        case .photos(let count)?:
            lines.append("choice: \(chosen) of \(photos.count) photos chosen for --photos \(count)"
                         + (leftOut.isEmpty ? "" : "; left out: " + leftOut.joined(separator: ", ")))
        case .pages(let count)?:
            lines.append("choice: \(chosen) of \(photos.count) photos chosen to fill --pages \(count)"
                         + (leftOut.isEmpty ? "" : "; left out: " + leftOut.joined(separator: ", ")))
        case nil:
            lines.append("choice: every photo goes in" + (leftOut.isEmpty ? "" : " but " + leftOut.joined(separator: ", "))
                         + " (--photos N or --pages N choose the best, leaving out what is marked below)")
        }
        // Each moment of several photos: the one that stands for it first.
        var moments: [Int: [PhotoReport]] = [:]
        for photo in photos { if let moment = photo.selection!.moment { moments[moment, default: []].append(photo) } }
        for number in moments.keys.sorted() {
            let members = moments[number]!
            guard let keeper = members.first(where: { $0.selection!.of == nil }) else { continue }
            let others = members.filter { $0.path != keeper.path }.map(\.path)
            let state = keeper.selection!.chosen ? "kept" : "stands for it, not chosen: \(keeper.selection!.reason!.words)"
            lines.append("choice: one moment, \(members.count) photos: \(keeper.path) \(state); "
                         + (request == nil ? "also " : "left out ") + others.joined(separator: ", "))
        }
        for photo in photos {
            let selection = photo.selection!
            let looks = selection.looks.map(\.words)
            if let reason = selection.reason, reason != .nearDuplicate {
                lines.append("choice: \(photo.path): left out, \(reason.words)"
                             + (reason == .rankedOut ? String(format: " (score %.2f)", selection.score) : ""))
            } else if selection.chosen, !looks.isEmpty {
                lines.append("choice: \(photo.path): \(request == nil ? "looks" : "chosen, though it looks") "
                             + looks.joined(separator: " and "))
            }
        }
        return lines
    }
}
