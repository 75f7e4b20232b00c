import Foundation
import Testing

@testable import PDF
import TestSupport

/// A font file that is missing, not a TrueType font or damaged is a `.font` error naming the file and the
/// reason, from the metrics and from the document alike; never a crash, never a half-loaded font.
@Suite struct FontFileErrorTests {
    static let badFonts: [(name: String, reason: String, bytes: @Sendable () throws -> [UInt8])] = [
        ("empty.ttf", "too short to be a font file (0 bytes)", { [] }),
        ("text.ttf", "not a TrueType or OpenType font (it starts with 68 65 6C 6C", { Array("hello, this is not a font\n".utf8) }),
        ("image.ttf", "not a TrueType or OpenType font (it starts with 89 50 4E 47", { try Fixtures.bytes("pngsuite/basn2c08.png") }),
        ("head.ttf", "truncated: its table directory", { Array(try dejaVu().prefix(100)) }),
        ("half.ttf", "truncated: table '", { Array(try dejaVu().prefix(400_000)) }),
        ("collection.ttc", "damaged: a collection whose header lists 0 fonts", { Array("ttcf".utf8) + [UInt8](repeating: 0, count: 20) }),
        ("cff.otf", "no 'head' table, which a CFF font needs", { Array("OTTO".utf8) + [UInt8](repeating: 0, count: 20) }),
        ("half.otf", "truncated: table '", { Array(try nimbus().prefix(20_000)) }),
        ("broken-cff.otf", "damaged: its 'CFF ' table", { try nimbus(zeroing: "CFF ") }),
        ("collection.ttc#3", "no font #3 in this collection of 3 fonts (0 WenQuanYi Zen Hei, 1 WenQuanYi Zen Hei Mono, 2 WenQuanYi Zen Hei Sharp)",
         { try Fixtures.read(wqy) }),
        ("collection.ttc#Zen", "no font named 'Zen' in this collection of 3 fonts (0 WenQuanYi Zen Hei, 1 WenQuanYi", { try Fixtures.read(wqy) }),
        ("collection.ttc", "a collection of 3 fonts: give one as PATH#INDEX or PATH#NAME (0 WenQuanYi Zen Hei, 1 ", { try Fixtures.read(wqy) }),
        ("nocmap.ttf", "no 'cmap' table", { try renamingTable("cmap", to: "cmaq") }),
        ("restricted.ttf", "its licence forbids embedding it", { try settingFSType(0x0002) }),
    ]

    static func dejaVu() throws -> [UInt8] { try Fixtures.read(PDFFont.defaultPath) }

    /// fonts-urw-base35 (with ghostscript): a name-keyed CFF. fonts-wqy-zenhei: a TrueType collection of 3.
    static let nimbusPath = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"
    static let wqy = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"
    static func nimbus() throws -> [UInt8] { try Fixtures.read(nimbusPath) }

    /// Nimbus Sans with the first 64 bytes of one table zeroed.
    static func nimbus(zeroing tag: String) throws -> [UInt8] {
        var bytes = try nimbus()
        let count = Int(bytes[4]) << 8 | Int(bytes[5])
        for entry in (0..<count).map({ 12 + 16 * $0 }) where bytes[entry..<(entry + 4)].elementsEqual(tag.utf8) {
            let offset = (entry + 8..<entry + 12).reduce(0) { $0 << 8 | Int(bytes[$1]) }
            for index in offset..<(offset + 64) { bytes[index] = 0 }
        }
        return bytes
    }

    /// DejaVu Sans with one table's tag changed in the directory, so that the table is missing.
    static func renamingTable(_ tag: String, to other: String) throws -> [UInt8] {
        var bytes = try dejaVu()
        let count = Int(bytes[4]) << 8 | Int(bytes[5])
        for entry in (0..<count).map({ 12 + 16 * $0 }) where bytes[entry..<(entry + 4)].elementsEqual(tag.utf8) {
            bytes.replaceSubrange(entry..<(entry + 4), with: Array(other.utf8))
        }
        return bytes
    }

    /// DejaVu Sans with its OS/2 fsType (embedding licence) set to `value`.
    static func settingFSType(_ value: UInt16) throws -> [UInt8] {
        var bytes = try dejaVu()
        let count = Int(bytes[4]) << 8 | Int(bytes[5])
        for entry in (0..<count).map({ 12 + 16 * $0 }) where bytes[entry..<(entry + 4)].elementsEqual("OS/2".utf8) {
            let offset = (entry + 8..<entry + 12).reduce(0) { $0 << 8 | Int(bytes[$1]) }
            bytes[offset + 8] = UInt8(value >> 8)
            bytes[offset + 9] = UInt8(value & 0xFF)
        }
        return bytes
    }

    @Test(arguments: badFonts.indices)
    func badFontFileIsATypedErrorNamingTheFile(index: Int) throws {
        let (name, reason, makeBytes) = Self.badFonts[index]
        try Tools.withTempDirectory { dir in
            let path = dir + "/" + name
            let file = name.split(separator: "#").first.map { dir + "/" + $0 } ?? path
            try Data(try makeBytes()).write(to: URL(fileURLWithPath: file))

            let measuring = #expect(throws: PDFError.self, "\(name)") { _ = try PDFFontMetrics(path: path) }
            guard case .font(let errorPath, let errorReason) = measuring else {
                Issue.record("\(name): expected a .font error, got \(String(describing: measuring))")
                return
            }
            #expect(errorPath == path)
            #expect(errorReason.hasPrefix(reason), "\(name): \(errorReason)")
            #expect(measuring?.description.hasPrefix(path + ": ") == true)

            // The document gives the same error and carries on: the real font still loads and draws.
            let doc = try PDFDocument()
            let embedding = #expect(throws: PDFError.self) { _ = try doc.loadFont(path: path) }
            #expect(embedding == measuring)
            let page = try doc.addPage(width: 200, height: 100)
            try page.drawText("still fine", font: doc.loadFont(path: PDFFont.defaultPath), size: 12, x: 10, y: 50)
            try doc.save(to: dir + "/book.pdf")
            #expect(try Tools.run("pdftotext", [dir + "/book.pdf", "-"]).contains("still fine"))
        }
    }

    @Test func missingFileAndDirectorySayWhat() throws {
        try Tools.withTempDirectory { dir in
            #expect(throws: PDFError.font(path: dir + "/none.ttf", reason: "no such file")) {
                _ = try PDFFontMetrics(path: dir + "/none.ttf")
            }
            #expect(throws: PDFError.font(path: dir, reason: "is a directory, not a font file")) {
                _ = try PDFDocument().loadFont(path: dir)
            }
        }
    }

    /// Checked against the real thing: the fonts Debian installs load and measure, CFF and collections included.
    @Test(arguments: ["truetype/dejavu/DejaVuSans.ttf", "truetype/dejavu/DejaVuSans-Bold.ttf",
                      "truetype/dejavu/DejaVuSansMono.ttf", "truetype/dejavu/DejaVuSerif.ttf",
                      "opentype/urw-base35/NimbusSans-Regular.otf", "truetype/wqy/wqy-zenhei.ttc#0"])
    func everyDebianFontLoads(file: String) throws {
        let path = "/usr/share/fonts/" + file
        try #require(FileManager.default.fileExists(atPath: String(path.split(separator: "#")[0])))
        let metrics = try PDFFontMetrics(path: path)
        #expect(["DejaVu", "Nimbus", "WenQuanYi"].contains { metrics.name.hasPrefix($0) }, "\(metrics.name)")
        #expect(metrics.covers("A") && metrics.width(of: "A", size: 10) > 0)
    }
}
