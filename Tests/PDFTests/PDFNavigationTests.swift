import Foundation
import Testing

@testable import PDF

/// Bookmarks and page labels, read back from the file by qpdf (`--json`, version 2).
@Suite struct PDFNavigationTests {
    /// qpdf's JSON for `key` ("outlines", "pagelabels").
    static func qpdfJSON(_ pdf: String, _ key: String) throws -> Any? {
        let text = try Tools.run("qpdf", ["--json=2", "--json-key=" + key, pdf])
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return object?[key]
    }

    struct Bookmark: Equatable {
        var title: String, page: Int, open: Bool, kids: [Bookmark]
    }

    static func bookmarks(_ json: Any?) -> [Bookmark] {
        (json as? [[String: Any]] ?? []).map {
            Bookmark(
                title: $0["title"] as? String ?? "?", page: $0["destpageposfrom1"] as? Int ?? 0,
                open: $0["open"] as? Bool ?? false, kids: bookmarks($0["kids"]))
        }
    }

    @Test func bookmarksComeBackWithTheirTitlesAndPages() throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            let pages = try (0..<4).map { _ throws(PDFError) in try doc.addPage(width: 200, height: 100) }
            try doc.addOutline(title: "Title page", page: pages[0])
            let summer = try doc.addOutline(title: "Été à Zürich", page: pages[1])
            try doc.addOutline(title: "Ελληνικά", parent: summer, page: pages[1])
            try doc.addOutline(title: "Кириллица 😀", parent: summer, page: pages[2])
            try doc.addOutline(title: "東京", page: pages[3])
            try doc.save(to: dir + "/book.pdf")
            #expect(try Tools.qpdfCheck(dir + "/book.pdf"))

            let got = Self.bookmarks(try Self.qpdfJSON(dir + "/book.pdf", "outlines"))
            let expected = [
                Bookmark(title: "Title page", page: 1, open: true, kids: []),
                Bookmark(title: "Été à Zürich", page: 2, open: true, kids: [
                    Bookmark(title: "Ελληνικά", page: 2, open: false, kids: []),
                    Bookmark(title: "Кириллица \u{FFFD}", page: 3, open: false, kids: []),
                ]),
                Bookmark(title: "東京", page: 4, open: true, kids: []),
            ]
            #expect(got.map(\.title) == expected.map(\.title))
            #expect(got.map(\.page) == expected.map(\.page))
            #expect(got.map(\.open) == [true, true, true], "top-level bookmarks are open")
            #expect(got[1].kids.map(\.title) == expected[1].kids.map(\.title))
            #expect(got[1].kids.map(\.page) == [2, 3])
        }
    }

    @Test func aBookmarkShowsItsWholePage() throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            try doc.addOutline(title: "One", page: doc.addPage(width: 200, height: 100))
            try doc.save(to: dir + "/book.pdf")
            let first = try #require(Self.qpdfJSON(dir + "/book.pdf", "outlines") as? [[String: Any]]).first
            #expect((first?["dest"] as? [String])?.last == "/Fit")
        }
    }

    /// "Title" for the title page, then 1, 2, 3 from the second page; a roman-numbered preface in another test.
    @Test func pageLabelsComeBack() throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            for _ in 0..<4 { _ = try doc.addPage(width: 200, height: 100) }
            try doc.setPageLabels([
                PDFPageLabel(firstPage: 0, style: .none, prefix: "Title"),
                PDFPageLabel(firstPage: 1, style: .decimal),
            ])
            try doc.save(to: dir + "/book.pdf")
            #expect(try Tools.qpdfCheck(dir + "/book.pdf"))
            let labels = try #require(Self.qpdfJSON(dir + "/book.pdf", "pagelabels") as? [[String: Any]])
            #expect(labels.map { $0["index"] as? Int } == [0, 1])
            let title = try #require(labels[0]["label"] as? [String: Any])
            #expect(title["/S"] == nil && title["/P"] as? String == "u:Title")
            let body = try #require(labels[1]["label"] as? [String: Any])
            #expect(body["/S"] as? String == "/D" && body["/St"] as? Int == 1 && body["/P"] == nil)
        }
    }

    @Test func pageLabelsWithRomanNumbersAndAUnicodePrefix() throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            for _ in 0..<5 { _ = try doc.addPage(width: 200, height: 100) }
            try doc.setPageLabels([
                PDFPageLabel(firstPage: 0, style: .lowerRoman),
                PDFPageLabel(firstPage: 2, style: .decimal, prefix: "Été-", firstNumber: 5),
            ])
            try doc.save(to: dir + "/book.pdf")
            let labels = try #require(Self.qpdfJSON(dir + "/book.pdf", "pagelabels") as? [[String: Any]])
            let preface = try #require(labels[0]["label"] as? [String: Any])
            #expect(preface["/S"] as? String == "/r")
            let body = try #require(labels[1]["label"] as? [String: Any])
            #expect(body["/P"] as? String == "u:Été-", "the prefix is a UTF-16 text string, not raw UTF-8")
            #expect(body["/St"] as? Int == 5)
        }
    }
}
