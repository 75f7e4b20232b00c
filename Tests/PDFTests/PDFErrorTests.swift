import Foundation
import Geometry
import Testing

@testable import PDF
import TestSupport

/// Failures become `PDFError`s (never a crash, never a silent NULL), and the document stays usable after one.
@Suite struct PDFErrorTests {
    static let invalidJPEGData: UInt = 0x1031
    static let fileOpenError: UInt = 0x1017
    static let pageInvalidSize: UInt = 0x1054

    static let notJPEGs: [(name: String, bytes: @Sendable () throws -> [UInt8])] = [
        ("empty", { [] }),
        ("PNG", { try Fixtures.bytes("pngsuite/basn2c08.png") }),
        ("text", { Array("hello, this is not a photo".utf8) }),
        ("JPEG start marker and garbage", { [0xFF, 0xD8, 0xFF, 0x00, 0x01, 0x02, 0x03] }),
        ("first 100 bytes of a JPEG", { Array(try Fixtures.bytes("exif-orientation/Landscape_1.jpg").prefix(100)) }),
    ]

    @Test(arguments: notJPEGs.indices)
    func dataThatIsNotAJPEGThrowsAndTheDocumentCarriesOn(index: Int) throws {
        let (name, makeBytes) = Self.notJPEGs[index]
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            let page = try doc.addPage(width: 300, height: 200)
            let error = #expect(throws: PDFError.self, "\(name)") {
                try page.drawJPEG(try makeBytes(), in: Rect(x: 0, y: 0, width: 300, height: 200))
            }
            #expect(error?.status != 0x1025, "\(name): the error state leaked from an earlier call")
            #expect(error?.description.contains("embedding a JPEG") == true)
            if ["empty", "PNG", "text"].contains(name) { #expect(error?.status == Self.invalidJPEGData) }

            // Not sticky: the same document still takes a real photo and saves.
            try page.drawJPEG(Fixtures.bytes("exif-orientation/Landscape_1.jpg"), in: Rect(x: 0, y: 0, width: 300, height: 200))
            try doc.save(to: dir + "/book.pdf")
            #expect(try Tools.qpdfCheck(dir + "/book.pdf"))
            #expect(try Tools.pdfimagesList(dir + "/book.pdf").map(\.width).contains(1800))
        }
    }

    @Test func savingIntoAMissingDirectoryThrowsAndALaterSaveWorks() throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            _ = try doc.addPage(width: 100, height: 100)
            let missing = dir + "/no/such/dir/book.pdf"
            let error = #expect(throws: PDFError.self) { try doc.save(to: missing) }
            #expect(error?.status == Self.fileOpenError)
            #expect(error?.description.contains(missing) == true)
            #expect(!FileManager.default.fileExists(atPath: missing))

            try doc.save(to: dir + "/book.pdf")
            #expect(try Tools.pdfinfo(dir + "/book.pdf")["Pages"] == "1")
        }
    }

    @Test(arguments: [0, 2.9, 14_400.5, -595, .nan, .infinity])
    func pageSizeOutsideLibharusRangeThrowsAndAddsNoPage(side: Double) throws {
        try Tools.withTempDirectory { dir in
            let doc = try PDFDocument()
            let wide = #expect(throws: PDFError.self) { _ = try doc.addPage(width: side, height: 100) }
            let tall = #expect(throws: PDFError.self) { _ = try doc.addPage(width: 100, height: side) }
            #expect(wide?.status == Self.pageInvalidSize && tall?.status == Self.pageInvalidSize)

            _ = try doc.addPage(width: 3, height: 14_400)
            try doc.save(to: dir + "/book.pdf")
            let info = try Tools.pdfinfo(dir + "/book.pdf")
            #expect(info["Pages"] == "1")
            #expect(info["Page size"] == "3 x 14400 pts")
        }
    }

    @Test func errorsAreResetSoEveryFollowingCallStartsClean() throws {
        let doc = try PDFDocument()
        for _ in 0..<3 {
            #expect(throws: PDFError.self) { _ = try doc.loadJPEG([0xFF, 0xD8, 0xFF, 0xE0]) }
        }
        let image = try doc.loadJPEG(Fixtures.bytes("cmyk-jpeg/pillow_pil_sample_cmyk.jpg"))
        #expect(image.colorSpace == "DeviceCMYK")
        #expect(try doc.saveToMemory().starts(with: Array("%PDF-".utf8)))
    }

    /// A known limit, pinned so nobody relies on the opposite: libharu reads only the JPEG's headers.
    /// Callers must hand it JPEGs they produced or fully decoded (docs/design.md §4).
    @Test func truncatedJPEGWithIntactHeadersIsEmbeddedWithoutComplaint() throws {
        let jpeg = try Fixtures.bytes("exif-orientation/Landscape_1.jpg")
        let image = try PDFDocument().loadJPEG(Array(jpeg.prefix(jpeg.count / 2)))
        #expect(image.pixelWidth == 1800 && image.pixelHeight == 1200)
    }

    @Test func descriptionSaysWhatWeWereDoing() {
        let error = PDFError.libharu(status: 0x1017, detail: 2, during: "writing the PDF to '/x/book.pdf'")
        #expect(error.description == "PDF library error 0x1017 (detail 2) while writing the PDF to '/x/book.pdf'")
    }
}
