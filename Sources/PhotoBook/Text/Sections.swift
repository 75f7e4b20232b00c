import EXIF

/// How a book is divided into sections, each starting on a new page under a heading, with a bookmark.
public enum SectionMode: String, Sendable, CaseIterable {
    /// Each folder the photos come from (subfolders with `-r`), headed by the folder's name.
    case folder
    /// Each day the photos were taken, headed by the date written out; photos without a date come last.
    case day
    case none

    /// The heading of the section `file` belongs to.
    public func heading(of file: PhotoFile, captureDate: CaptureDate?) -> String? {
        switch self {
        case .none:
            return nil
        case .folder:
            let parts = file.path.split(separator: "/", omittingEmptySubsequences: true)
            guard parts.count >= 2 else { return "." }
            return String(parts[parts.count - 2])
        case .day:
            // The day on the camera's calendar, where the photo was taken.
            return captureDate.map(Captions.readableDay) ?? "Without a date"
        }
    }
}
