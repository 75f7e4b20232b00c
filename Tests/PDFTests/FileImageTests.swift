import Foundation
import Geometry
import Testing

@testable import PDF
import TestSupport

/// Images whose bytes stay in their files until the save (`loadJPEG(file:)`): the same PDF, byte for byte, as
/// from the bytes in memory; no descriptor held between embedding and saving; a file gone by then is named.
@Suite struct FileImageTests {
    static let adobeRGB = "/usr/share/color/icc/ghostscript/a98.icc"
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    /// Grey, RGB, CMYK and a progressive JPEG with an APP segment before its frame header.
    static func makeJPEGs(in dir: String) throws -> [String] {
        let recipes: [(String, [String])] = [
            ("grey.jpg", ["-size", "40x30", "gradient:black-white", "-colorspace", "Gray"]),
            ("rgb.jpg", ["-size", "64x48", "plasma:fractal", "-seed", "3"]),
            ("cmyk.jpg", ["-size", "30x40", "xc:orange", "-colorspace", "CMYK"]),
            ("progressive.jpg", ["-size", "300x200", "plasma:fractal", "-seed", "4", "-interlace", "JPEG",
                                 "-set", "comment", String(repeating: "c", count: 70_000)]),
        ]
        return try recipes.map { name, arguments in
            _ = try Tools.makeJPEG(arguments, in: dir, name: name)
            return dir + "/" + name
        }
    }

    /// The book made from files and the book made from bytes, each with one page per image.
    static func books(_ paths: [String], profile: [UInt8]?) throws -> (fromFiles: [UInt8], fromMemory: [UInt8]) {
        func book(_ embed: (PDFDocument, String) throws -> PDFImage) throws -> [UInt8] {
            let doc = try PDFDocument()
            try doc.setInfo(producer: "test", creator: "test", creationDate: date)
            for path in paths {
                let page = try doc.addPage(width: 200, height: 200)
                let image = try embed(doc, path)
                try page.draw(image, in: Rect(x: 10, y: 10, width: 100, height: 80), orientation: 1)
            }
            return try doc.saveToMemory()
        }
        let fromFiles = try book { doc, path in try doc.loadJPEG(file: path, iccProfile: profile) }
        let fromMemory = try book { doc, path in try doc.loadJPEG(try Fixtures.read(path), iccProfile: profile) }
        return (fromFiles, fromMemory)
    }

    @Test(arguments: [false, true])
    func aBookFromFilesIsByteForByteTheBookFromMemory(withProfile: Bool) throws {
        try Tools.withTempDirectory { dir in
            let paths = try Self.makeJPEGs(in: dir)
            let profile = withProfile ? try Fixtures.read(Self.adobeRGB) : nil
            // An RGB profile only fits the RGB images.
            let used = withProfile ? paths.filter { !$0.hasSuffix("grey.jpg") && !$0.hasSuffix("cmyk.jpg") } : paths
            let (fromFiles, fromMemory) = try Self.books(used, profile: profile)
            #expect(fromFiles.count > used.map { (try? Fixtures.read($0).count) ?? 0 }.reduce(0, +), "every image is in the PDF")
            #expect(fromFiles == fromMemory)

            try Data(fromFiles).write(to: URL(fileURLWithPath: dir + "/files.pdf"))
            #expect(try Tools.qpdfCheck(dir + "/files.pdf"))
            let listed = try Tools.pdfimagesList(dir + "/files.pdf")
            #expect(listed.map(\.encoding) == used.map { _ in "jpeg" })
            // Each image stream is the JPEG's bytes, unchanged.
            for (image, path) in zip(listed, used) {
                let result = try ExternalCommand.run("qpdf", ["--show-object=\(image.object)", "--raw-stream-data", dir + "/files.pdf"])
                #expect(result.status == 0)
                #expect(result.stdout == (try Fixtures.read(path)), "\(path)")
            }
        }
    }

    @Test func noDescriptorIsHeldBetweenEmbeddingAndSavingAndOneAtATimeWhileSaving() throws {
        try Tools.withTempDirectory { dir in
            let source = try Self.makeJPEGs(in: dir)[1]
            let paths = try (0..<200).map { n in
                let path = dir + "/page-\(n).jpg"
                try FileManager.default.copyItem(atPath: source, toPath: path)
                return path
            }
            let doc = try PDFDocument()
            for path in paths {
                let page = try doc.addPage(width: 100, height: 100)
                try page.draw(try doc.loadJPEG(file: path), in: Rect(x: 0, y: 0, width: 100, height: 100), orientation: 1)
            }
            #expect(Self.openDescriptors(in: dir) == 0, "no image file is open after embedding")
            var mostOpen = 0
            var asked: [Int] = []
            try doc.save(to: dir + "/book.pdf", beforeImageFile: { index, count in
                #expect(count == paths.count)
                asked.append(index)
                mostOpen = max(mostOpen, Self.openDescriptors(in: dir))
                return true
            })
            #expect(asked == Array(0..<paths.count))
            // The book being written, and no image file: the last one was closed at its end, the next is opened
            // after the callback.
            #expect(mostOpen == 1, "only the book is open when the next image file is about to be: \(mostOpen)")
            #expect(Self.openDescriptors(in: dir) == 0, "every image file is closed after the save")
            #expect(try Tools.pdfimagesList(dir + "/book.pdf").count == paths.count)
            #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "the files stay unless asked")
        }
    }

    @Test func filesAskedToGoAreRemovedOnceSaved() throws {
        try Tools.withTempDirectory { dir in
            let paths = try Self.makeJPEGs(in: dir)
            let expected = try paths.map { try Fixtures.read($0) }
            let doc = try PDFDocument()
            for path in paths {
                let page = try doc.addPage(width: 100, height: 100)
                try page.draw(try doc.loadJPEG(file: path, removeWhenSaved: true), in: Rect(x: 0, y: 0, width: 100, height: 100),
                              orientation: 1)
            }
            var presentWhenAsked: [Bool] = []
            try doc.save(to: dir + "/book.pdf", beforeImageFile: { index, _ in
                presentWhenAsked.append(FileManager.default.fileExists(atPath: paths[index]))
                return true
            })
            #expect(presentWhenAsked == paths.map { _ in true })
            #expect(paths.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
            let listed = try Tools.pdfimagesList(dir + "/book.pdf")
            for (image, bytes) in zip(listed, expected) {
                let result = try ExternalCommand.run("qpdf", ["--show-object=\(image.object)", "--raw-stream-data", dir + "/book.pdf"])
                #expect(result.stdout == bytes)
            }
        }
    }

    enum Mishap: String, CaseIterable { case removed, truncated, grown }

    @Test(arguments: Mishap.allCases)
    func aFileChangedBeforeTheSaveFailsItByName(_ mishap: Mishap) throws {
        try Tools.withTempDirectory { dir in
            let paths = try Self.makeJPEGs(in: dir)
            let doc = try PDFDocument()
            for path in paths {
                let page = try doc.addPage(width: 100, height: 100)
                try page.draw(try doc.loadJPEG(file: path), in: Rect(x: 0, y: 0, width: 100, height: 100), orientation: 1)
            }
            let victim = paths[2]
            let bytes = try Fixtures.read(victim)
            switch mishap {
            case .removed: try FileManager.default.removeItem(atPath: victim)
            case .truncated: try Data(bytes.prefix(bytes.count - 10)).write(to: URL(fileURLWithPath: victim))
            case .grown: try Data(bytes + [0, 0, 0]).write(to: URL(fileURLWithPath: victim))
            }
            do {
                try doc.save(to: dir + "/book.pdf")
                Issue.record("the save succeeded")
            } catch {
                guard case PDFError.imageFile(let path, let reason)? = error as? PDFError else {
                    Issue.record("not an image file error: \(error)")
                    return
                }
                #expect(path == victim)
                #expect(reason == (mishap == .removed ? "no such file or directory"
                                                     : "its size changed since it was embedded (\(bytes.count) bytes then)"))
            }
            // The document is usable again once the file is back.
            try Data(bytes).write(to: URL(fileURLWithPath: victim))
            try doc.save(to: dir + "/book.pdf")
            #expect(try Tools.qpdfCheck(dir + "/book.pdf"))
        }
    }

    @Test func theSaveStopsWhenTold() throws {
        try Tools.withTempDirectory { dir in
            let paths = try Self.makeJPEGs(in: dir)
            let doc = try PDFDocument()
            for path in paths {
                let page = try doc.addPage(width: 100, height: 100)
                try page.draw(try doc.loadJPEG(file: path), in: Rect(x: 0, y: 0, width: 100, height: 100), orientation: 1)
            }
            var asked = 0
            #expect(throws: PDFError.stopped) {
                try doc.save(to: dir + "/book.pdf", beforeImageFile: { index, _ in asked += 1; return index < 1 })
            }
            #expect(asked == 2)
        }
    }

    @Test(arguments: [
        ([UInt8](), "empty file"),
        (Array("%PDF-1.4".utf8), "not a JPEG (no FF D8 FF start)"),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A], "not a JPEG: it ends before its frame header"),
        ([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 0x3F, 0], "no frame header the PDF library can read before the scan"),
    ])
    func aFileThatIsNotAJPEGIsRefusedByName(bytes: [UInt8], reason: String) throws {
        try Tools.withTempDirectory { dir in
            let path = dir + "/bad.jpg"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let doc = try PDFDocument()
            #expect(throws: PDFError.imageFile(path: path, reason: reason)) { try doc.loadJPEG(file: path) }
            #expect(throws: PDFError.imageFile(path: dir + "/none.jpg", reason: "no such file or directory")) {
                try doc.loadJPEG(file: dir + "/none.jpg")
            }
        }
    }

    /// The descriptors of this process open on files in `dir` (other tests run meanwhile: only ours count).
    static func openDescriptors(in dir: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.filter { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name))?.hasPrefix(dir + "/") ?? false
        }.count
    }
}
