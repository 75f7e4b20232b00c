import Foundation
import TestSupport
import Testing

/// A book made from a Google Takeout export as it is downloaded (Fixtures/takeout): dated and captioned from its
/// JSON files, no JSON taken for a photo, the album's copy of a photo in once; and a phone's two files of a shot.
@Suite(.serialized) struct TakeoutBookTests {
    struct Report: Decodable {
        struct Photo: Decodable { var path: String; var outcome: String; var reason: String?; var page: Int?
            var caption: String?; var duplicateOf: String? }
        struct Options: Decodable { var keepDuplicates: Bool }
        var photos: [Photo]
        var options: Options
        init(path: String) throws {
            self = try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        }
    }

    static let year = "Photos from 2019/", album = "Trip to Paris/"

    @Test func takeoutBook() throws {
        let scratch = try Scratch()
        let json = scratch.file("report.json")
        let run = try Run.photobook(["build", "-r", Fixtures.path("takeout/Takeout"), "--sort", "date",
                                     "--captions", "auto", "--dpi", "20", "-o", scratch.file("book.pdf"), "--report", json])
        #expect(run.status == 0, "\(run.stderr)")
        try ReportSchema.expectValid(json)
        let report = try Report(path: json)
        #expect(!report.options.keepDuplicates)
        // Every photo is in the book but the album's copy; no JSON is a photo, none is reported.
        #expect(report.photos.count == 8)
        let copy = try #require(report.photos.first { $0.path.hasSuffix(Self.album + "IMG_0001.jpg") })
        #expect(copy.outcome == "skipped" && copy.page == nil)
        #expect(copy.duplicateOf?.hasSuffix(Self.year + "IMG_0001.jpg") == true)
        #expect(copy.reason == "the same bytes as " + (copy.duplicateOf ?? ""))
        #expect(report.photos.filter { $0.outcome == "succeeded" }.count == 7)
        // The pages in the order the photos were taken, dated and captioned by their JSON.
        let pages = report.photos.filter { $0.page != nil }.sorted { $0.page! < $1.page! }
        #expect(pages.map { String($0.path.split(separator: "/").last!) } == [
            "IMG_0003.jpg", "IMG_0003(1).jpg", "IMG_0002.jpg", "IMG_0001(1).jpg", "IMG_0001.jpg",
            "IMG_0002-edited.jpg", "Marie and Pierre Curie in their laboratory in Paris.jpg",
        ])
        #expect(pages.map(\.caption) == [nil, nil, "The laboratory in May", nil, "Marie and Pierre in the laboratory",
                                         "The laboratory in May", "Paris, 1904"])
        // One line names both files; the summary counts the copy.
        let lines = run.stderr.split(separator: "\n").filter { $0.contains("left out (--keep-duplicates") }
        #expect(lines.count == 1 && lines.first?.contains(Self.year + "IMG_0001.jpg") == true
                && lines.first?.contains(Self.album + "IMG_0001.jpg") == true, "\(run.stderr)")
        #expect(run.stderr.contains(": 7 pages, 1 copy of a photo left out,"), "\(run.stderr)")

        let kept = try Run.photobook(["build", "-r", Fixtures.path("takeout/Takeout"), "--keep-duplicates", "--dpi", "20",
                                      "-o", scratch.file("all.pdf"), "--report", json])
        #expect(kept.status == 0, "\(kept.stderr)")
        let all = try Report(path: json)
        #expect(all.options.keepDuplicates && all.photos.allSatisfy { $0.outcome == "succeeded" })
        #expect(!kept.stderr.contains("left out"), "\(kept.stderr)")
    }

    @Test func oneShotTwoFiles() throws {
        let scratch = try Scratch()
        let folder = try scratch.sub("phone")
        _ = try scratch.copy(Fixtures.path("heif/metadata-extractor-images/iphone-xr.heic"), to: "phone/IMG_1234.HEIC")
        for name in ["IMG_1234.JPG", "IMG_1235.JPG", "IMG_1236.JPG"] {
            _ = try scratch.copy(Fixtures.path("takeout/shots/" + name), to: "phone/" + name)
        }
        let run = try Run.photobook(["build", folder, "--dry-run"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("IMG_1234.JPG: the same shot as \(folder)/IMG_1234.HEIC (3024x4032 pixels, this one "
                                    + "280x233): left out (--keep-duplicates keeps every copy)"), "\(run.stderr)")
        #expect(run.stderr.contains("dry run: 3 pages, 3 photos"), "\(run.stderr)")
        // A description's pages list each photo the person chose: copies included.
        let description = scratch.file("book.json")
        let made = try Run.photobook(["init", folder, "-o", description, "--keep-duplicates"])
        #expect(made.status == 0, "\(made.stderr)")
        let built = try Run.photobook(["build", description, "--dry-run"])
        #expect(built.stderr.contains("dry run: 4 pages, 4 photos") && !built.stderr.contains("same shot"), "\(built.stderr)")
    }
}
