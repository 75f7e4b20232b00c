import Foundation
import EXIF

/// How a book is divided into sections, each starting on a new page under a heading, with a bookmark.
public enum SectionMode: String, Sendable, CaseIterable {
    /// Each folder the photos come from (subfolders with `-r`), headed by the folder's name.
    case folder
    /// Each day the photos were taken, headed by the date written out; photos without a date come last.
    case day
    /// Each event of the trip (photos between long gaps, `Choice.events`; with `--sort date`), headed by its dates.
    case event
    case none

    /// The heading of the section `file` belongs to.
    public func heading(of file: PhotoFile, captureDate: CaptureDate?) -> String? {
        switch self {
        case .none:
            return nil
        case .folder:
            let parts = file.path.split(separator: "/", omittingEmptySubsequences: true)
            let folder = parts.count >= 2 ? String(parts[parts.count - 2]) : "."
            // `photobook build . --sections folder` (or *.jpg): the folder's own name, not ".".
            guard folder == "." || folder == ".." else { return folder }
            let directory = parts.count >= 2 ? String(file.path[..<file.path.lastIndex(of: "/")!]) : "."
            guard let real = realpath(directory, nil) else { return folder }
            defer { free(real) }
            let name = String(cString: real).split(separator: "/").last.map(String.init)
            return name ?? folder
        case .day:
            // The day on the camera's calendar, where the photo was taken.
            return captureDate.map(Captions.readableDay) ?? "Without a date"
        case .event:
            // An event's heading depends on the photos around it: `eventHeadings`.
            return nil
        }
    }

    /// The heading of each photo's event, `photos` in book order (by date): its first and last days on the
    /// camera's calendar, "12-15 March 2024", "30 March - 2 April 2024", or one day, "12 March 2024"; photos
    /// without a date are "Without a date".
    public static func eventHeadings(_ photos: [PhotoInfo]) -> [String] {
        let moments = PhotoOrder.moments(photos)
        let candidates = photos.indices.map { ChoiceCandidate(id: PhotoID($0), moment: moments[$0]) }
        let (event, count) = Choice.events(candidates)
        var first = [CaptureDate?](repeating: nil, count: count), last = first
        func day(_ date: CaptureDate) -> (Int, Int, Int) { (date.year, date.month, date.day) }
        for index in photos.indices {
            guard let date = photos[index].captureDate else { continue }
            let number = event[index]
            if first[number].map({ day(date) < day($0) }) ?? true { first[number] = date }
            if last[number].map({ day(date) > day($0) }) ?? true { last[number] = date }
        }
        let headings = (0..<count).map { number -> String in
            guard let start = first[number], let end = last[number] else { return "Without a date" }
            return dateRange(start, end)
        }
        return photos.indices.map { headings[event[$0]] }
    }

    /// "12 March 2024", "12-15 March 2024", "30 March - 2 April 2024", "30 December 2024 - 2 January 2025".
    static func dateRange(_ start: CaptureDate, _ end: CaptureDate) -> String {
        if start.year == end.year, start.month == end.month, start.day == end.day { return Captions.readableDay(start) }
        let month = { (date: CaptureDate) in Captions.months[date.month - 1] }
        if start.year != end.year { return "\(Captions.readableDay(start)) - \(Captions.readableDay(end))" }
        if start.month != end.month { return "\(start.day) \(month(start)) - \(Captions.readableDay(end))" }
        return "\(start.day)-\(end.day) \(month(start)) \(start.year)"
    }
}
