@testable import PhotoBook

extension BookPhoto {
    /// Photos of these sizes numbered from 0, with the captions and section headings at the same positions (none
    /// past the end of either list).
    static func numbered(_ sizes: [(width: Int, height: Int)], captions: [String?] = [],
                         headings: [String?] = []) -> [BookPhoto] {
        numbered(sizes).enumerated().map { position, photo in
            var photo = photo
            photo.caption = position < captions.count ? captions[position] : nil
            photo.heading = position < headings.count ? headings[position] : nil
            return photo
        }
    }
}
