import Foundation
import Geometry
import Testing

@testable import PDF
import TestSupport

/// The document as the real tools see it: structure, page sizes, metadata, embedded image streams.
@Suite struct PDFDocumentTests {
    static let landscape = "exif-orientation/Landscape_1.jpg"
    static let cmyk = "cmyk-jpeg/pillow_pil_sample_cmyk.jpg"

    @Test(arguments: [
        (595.28, 841.89, "595.28 x 841.89 pts (A4)"),
        (200 / 25.4 * 72, 200 / 25.4 * 72, "566.929 x 566.929 pts"),  // 200 x 200 mm
        (841.89, 595.28, "841.89 x 595.28 pts (A4)"),
    ])
    func pageSizeIsWhatWasAsked(width: Double, height: Double, expected: String) throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            let page = try doc.addPage(width: width, height: height)
            #expect(page.width == width && page.height == height)
            try doc.save(to: dir + "/book.pdf")
            #expect(try Tools.qpdfCheck(dir + "/book.pdf"))
            let info = try Tools.pdfinfo(dir + "/book.pdf")
            #expect(info["Pages"] == "1")
            #expect(info["Page size"] == expected)
        }
    }

    @Test func pagesComeInOrderWithTheirOwnSizes() throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            let sizes: [(Double, Double)] = [(595.28, 841.89), (300, 200), (1000, 500.5)]
            for (w, h) in sizes { _ = try doc.addPage(width: w, height: h) }
            try doc.save(to: dir + "/book.pdf")
            let info = try Tools.pdfinfo(dir + "/book.pdf", ["-f", "1", "-l", "3"])
            #expect(info["Pages"] == "3")
            #expect(info["Page    1 size"] == "595.28 x 841.89 pts (A4)")
            #expect(info["Page    2 size"] == "300 x 200 pts")
            #expect(info["Page    3 size"] == "1000 x 500.5 pts")
        }
    }

    @Test func infoDictionaryIsOursNotLibharus() throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            try doc.setInfo(producer: "photobook 1.0", creator: "photobook build", title: "Summer (2024) \\ best")
            _ = try doc.addPage(width: 100, height: 100)
            try doc.save(to: dir + "/book.pdf")
            let info = try Tools.pdfinfo(dir + "/book.pdf")
            #expect(info["Producer"] == "photobook 1.0")
            #expect(info["Creator"] == "photobook build")
            #expect(info["Title"] == "Summer (2024) \\ best")
            #expect(info["CreationDate"] != nil)
            #expect(try !Fixtures.read(dir + "/book.pdf").containsBytes(Array("Haru".utf8)))
        }
    }

    @Test func withoutSetInfoLibharuNamesItselfAndThereIsNoTitle() throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            _ = try doc.addPage(width: 100, height: 100)
            try doc.save(to: dir + "/book.pdf")
            let info = try Tools.pdfinfo(dir + "/book.pdf")
            #expect(info["Producer"]?.hasPrefix("Haru Free PDF Library") == true)
            #expect(info["Title"] == nil)
        }
    }

    @Test func nonASCIITitleBecomesUnicodeAndEmojiBecomeReplacementCharacters() throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            try doc.setInfo(producer: "photobook", creator: "photobook", title: "Köln – 東京 😀 Ende")
            _ = try doc.addPage(width: 100, height: 100)
            try doc.save(to: dir + "/book.pdf")
            #expect(try Tools.qpdfCheck(dir + "/book.pdf"))
            #expect(try Tools.pdfinfo(dir + "/book.pdf")["Title"] == "Köln – 東京 \u{FFFD} Ende")
        }
    }

    @Test(arguments: [
        ("Café à Zürich", "Élodie Müller", "naïve – “quotes” — …"),
        ("Ελληνικά", "Кириллица", "東京と世界"),
        ("Summer 2024", "Ann", "plain ASCII stays plain"),
    ])
    func titleAuthorSubjectAndKeywordsComeBackExactly(title: String, author: String, subject: String) throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            try doc.setInfo(
                producer: "photobook", creator: "photobook", title: title, author: author, subject: subject,
                keywords: subject + ", " + author)
            _ = try doc.addPage(width: 100, height: 100)
            try doc.save(to: dir + "/book.pdf")
            #expect(try Tools.qpdfCheck(dir + "/book.pdf"))
            let info = try Tools.pdfinfo(dir + "/book.pdf")
            #expect(info["Title"] == title)
            #expect(info["Author"] == author)
            #expect(info["Subject"] == subject)
            #expect(info["Keywords"] == subject + ", " + author)
        }
    }

    @Test func creationDateIsTheMomentGiven() throws {
        try Tools.withTempDirectory { dir in
            let moment = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z
            let doc = try PDFDocument()
            try doc.setInfo(producer: "p", creator: "c", creationDate: moment)
            _ = try doc.addPage(width: 100, height: 100)
            try doc.save(to: dir + "/book.pdf")
            let iso = try #require(try Tools.pdfinfo(dir + "/book.pdf", ["-isodates"])["CreationDate"])
            let parsed = try #require(ISO8601DateFormatter().date(from: iso.count == 22 ? iso + ":00" : iso))
            #expect(parsed == moment, "pdfinfo said \(iso)")
        }
    }

    @Test(arguments: [
        (TimeZone(identifier: "UTC")!, "D:20231114221320Z"),
        (TimeZone(secondsFromGMT: 5 * 3600 + 1800)!, "D:20231115034320+05'30'"),
        (TimeZone(secondsFromGMT: -8 * 3600)!, "D:20231114141320-08'00'"),
    ])
    func pdfDateCarriesTheZoneOffset(zone: TimeZone, expected: String) {
        #expect(PDFDate(Date(timeIntervalSince1970: 1_700_000_000), timeZone: zone).description == expected)
    }

    @Test(arguments: [
        (landscape, 1800, 1200, "rgb", 3),
        (cmyk, 100, 100, "cmyk", 4),
    ])
    func jpegIsEmbeddedVerbatimAsDCT(fixture: String, width: Int, height: Int, color: String, components: Int) throws {
        try Tools.withTempDirectory { dir in
            let jpeg = try Fixtures.bytes(fixture)
            let doc = try PDFDocument()
            let page = try doc.addPage(width: 300, height: 200)
            try page.drawJPEG(jpeg, in: Rect(x: 10, y: 10, width: 150, height: 100))
            try doc.save(to: dir + "/book.pdf")
            #expect(try Tools.qpdfCheck(dir + "/book.pdf"))

            let images = try Tools.pdfimagesList(dir + "/book.pdf")
            #expect(images.count == 1)
            let image = try #require(images.first)
            #expect(image.page == 1)
            #expect(image.width == width && image.height == height)
            #expect(image.color == color && image.components == components)
            #expect(image.encoding == "jpeg")

            try Tools.run("pdfimages", ["-j", dir + "/book.pdf", dir + "/extracted"])
            #expect(try Fixtures.read(dir + "/extracted-000.jpg") == jpeg, "image stream is not the JPEG we embedded")
        }
    }

    @Test(arguments: [(landscape, "DeviceRGB", 1800, 1200), (cmyk, "DeviceCMYK", 100, 100)])
    func loadedImageKnowsItsSizeAndColourSpace(fixture: String, colorSpace: String, width: Int, height: Int) throws {
        let image = try PDFDocument().loadJPEG(Fixtures.bytes(fixture))
        #expect(image.colorSpace == colorSpace)
        #expect(image.pixelWidth == width && image.pixelHeight == height)
    }

    @Test func imageLoadedOnceIsStoredOnceAndDrawnOnEveryPage() throws {
        try Tools.withTempDirectory { dir in
            let jpeg = try Fixtures.bytes(Self.landscape)
            let doc = try PDFDocument()
            let image = try doc.loadJPEG(jpeg)
            for _ in 0..<3 {
                try doc.addPage(width: 300, height: 200).draw(image, in: Rect(x: 0, y: 0, width: 300, height: 200))
            }
            try doc.save(to: dir + "/book.pdf")
            let images = try Tools.pdfimagesList(dir + "/book.pdf")
            #expect(images.map(\.page) == [1, 2, 3])
            #expect(Set(images.map(\.object)).count == 1)
            let size = try Fixtures.read(dir + "/book.pdf").count
            #expect(size < jpeg.count + 10_000, "PDF is \(size) bytes for a \(jpeg.count)-byte JPEG")
        }
    }

    @Test func contentStreamsAreCompressed() throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            try doc.addPage(width: 300, height: 200)
                .drawJPEG(Fixtures.bytes(Self.landscape), in: Rect(x: 0, y: 0, width: 300, height: 200))
            try doc.save(to: dir + "/book.pdf")
            let raw = try Fixtures.read(dir + "/book.pdf")
            #expect(raw.containsBytes(Array("/FlateDecode".utf8)))
            #expect(!raw.containsBytes(Array(" cm\n".utf8)), "the page's content stream is stored uncompressed")
            let expanded = try Tools.run("qpdf", ["--qdf", "--object-streams=disable", dir + "/book.pdf", "-"])
            #expect(expanded.contains("300 0 0 200 0 0 cm"))
        }
    }

    @Test func memoryCopyIsTheSameFileAsTheSavedOne() throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            try doc.setInfo(producer: "photobook", creator: "test", title: "Memory")
            try doc.addPage(width: 300, height: 200)
                .drawJPEG(Fixtures.bytes(Self.landscape), in: Rect(x: 0, y: 0, width: 300, height: 200))
            try doc.save(to: dir + "/book.pdf")
            let memory = try doc.saveToMemory()
            #expect(memory == (try Fixtures.read(dir + "/book.pdf")))
            #expect(try doc.saveToMemory() == memory, "a second copy differs")
        }
    }

    @Test func pagesAndImagesKeepTheirDocumentAlive() throws {
        try Tools.withTempDirectory { dir in
            var page: PDFPage? = try PDFDocument().addPage(width: 300, height: 200)
            let image = try page!.document.loadJPEG(Fixtures.bytes(Self.landscape))
            try page!.draw(image, in: Rect(x: 0, y: 0, width: 300, height: 200))
            try page!.document.save(to: dir + "/book.pdf")
            weak let document = page!.document
            page = nil
            #expect(document != nil, "the image still holds the document")
            #expect(try Tools.pdfimagesList(dir + "/book.pdf").count == 1)
        }
    }
}

extension Array where Element == UInt8 {
    func containsBytes(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
