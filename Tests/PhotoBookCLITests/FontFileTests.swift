import Foundation
import Testing
import TestSupport

/// `--font` takes the fonts a Debian desktop has (issue 33, item 2): OpenType CFF (.otf) as CIDFontType0C, faces
/// of collections (.ttc) by index or name; a collection without a face lists its faces.
@Suite(.serialized) struct FontFileTests {
    static let notoCJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    static let wqy = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"
    static let nimbus = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"

    /// A book of one photo whose title page says `title` by `author` in `font`; the run, the PDF's path.
    static func titleBook(_ scratch: Scratch, _ name: String, font: String?, title: String = "東京の旅 2026",
                          author: String = "山田太郎", environment: [String: String] = [:]) throws -> (Run, String) {
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600)])
        let out = scratch.file(name)
        let run = try Run.command(Run.binary, ["build"] + photos + ["-o", out, "--title", title, "--author", author]
                                  + (font.map { ["--font", $0] } ?? []), environment: environment)
        return (run, out)
    }

    /// Dark pixels on the title page, rendered by pdftocairo.
    static func ink(_ pdf: String, _ scratch: Scratch) throws -> Int {
        let page = try renderPageWithCairo(pdf, page: 1, dpi: 50, scratch: scratch)
        return stride(from: 0, to: page.rgb.count, by: 3).filter { page.rgb[$0] < 128 && page.rgb[$0 + 1] < 128 }.count
    }

    /// The decoded length of every embedded font program (FontFile2/FontFile3), by pikepdf, a reader not ours.
    static func fontPrograms(_ pdf: String) throws -> [String] {
        let script = """
            import pikepdf, sys
            pdf = pikepdf.open(sys.argv[1])
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Dictionary) and obj.get('/Type') == '/FontDescriptor':
                    for key in ('/FontFile2', '/FontFile3'):
                        if key in obj:
                            print(key, obj[key].get('/Subtype', ''), len(obj[key].read_bytes()), obj['/FontName'])
            """
        let run = try Run.command("/usr/bin/python3", ["-c", script, pdf])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    @Test func aCJKCollectionFaceIsEmbeddedAsASmallCIDFontType0C() throws {
        try #require(FileManager.default.fileExists(atPath: Self.notoCJK), "fonts-noto-cjk")
        let scratch = try Scratch()
        let (run, out) = try Self.titleBook(scratch, "jp.pdf", font: Self.notoCJK + "#0")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("no installed font"), "\(run.stderr)")
        let fonts = try Run.command("/usr/bin/pdffonts", [out]).stdout
        let line = fonts.split(separator: "\n").first { $0.contains("NotoSansCJKjp") }
        #expect(line?.contains("CID Type 0C") == true && line?.contains("yes yes yes") == true, "\(fonts)")
        #expect(try WordsTests.text(out, page: 1) == ["東京の旅 2026", "山田太郎"])
        let programs = try Self.fontPrograms(out)
        let cff = programs.first { $0.hasPrefix("/FontFile3 /CIDFontType0C") }
        let size = cff.flatMap { Int($0.split(separator: " ")[2]) } ?? .max
        #expect(size < 10_000, "a dozen glyphs, not megabytes: \(programs)")
        let gs = try Run.command("/usr/bin/gs", ["-q", "-sDEVICE=nullpage", "-dBATCH", "-dNOPAUSE", out])
        #expect(gs.status == 0 && !gs.stdout.contains("Error") && !gs.stderr.contains("Error"), "\(gs.stdout)\(gs.stderr)")
    }

    @Test func aFaceIsChosenByItsName() throws {
        try #require(FileManager.default.fileExists(atPath: Self.notoCJK), "fonts-noto-cjk")
        let scratch = try Scratch()
        let (run, out) = try Self.titleBook(scratch, "sc.pdf", font: Self.notoCJK + "#Noto Sans CJK SC")
        #expect(run.status == 0, "\(run.stderr)")
        let fonts = try Run.command("/usr/bin/pdffonts", [out]).stdout
        #expect(fonts.contains("+NotoSansCJKsc-Regular"), "\(fonts)")
        #expect(try WordsTests.text(out, page: 1) == ["東京の旅 2026", "山田太郎"])
    }

    @Test func aTrueTypeCollectionFaceIsACIDTrueType() throws {
        try #require(FileManager.default.fileExists(atPath: Self.wqy), "fonts-wqy-zenhei")
        let scratch = try Scratch()
        let (run, out) = try Self.titleBook(scratch, "wqy.pdf", font: Self.wqy + "#0")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("no installed font"), "\(run.stderr)")
        let fonts = try Run.command("/usr/bin/pdffonts", [out]).stdout
        #expect(fonts.split(separator: "\n").contains { $0.contains("CID TrueType") && $0.contains("yes yes yes") }, "\(fonts)")
        #expect(try WordsTests.text(out, page: 1) == ["東京の旅 2026", "山田太郎"])
        #expect(try Self.ink(out, scratch) > 200)
    }

    /// A name-keyed CFF keeps its glyph ids: without them every reader draws wrong glyphs (research §3.1).
    @Test func aNameKeyedCFFDrawsLatinText() throws {
        try #require(FileManager.default.fileExists(atPath: Self.nimbus), "fonts-urw-base35")
        let scratch = try Scratch()
        let (run, out) = try Self.titleBook(scratch, "nimbus.pdf", font: Self.nimbus, title: "Summer in Crete",
                                            author: "Anna Müller")
        #expect(run.status == 0, "\(run.stderr)")
        let fonts = try Run.command("/usr/bin/pdffonts", [out]).stdout
        #expect(fonts.split(separator: "\n").contains { $0.contains("NimbusSans") && $0.contains("CID Type 0C") }, "\(fonts)")
        #expect(try WordsTests.text(out, page: 1) == ["Summer in Crete", "Anna Müller"])
        let gs = try Run.command("/usr/bin/gs", ["-q", "-sDEVICE=nullpage", "-dBATCH", "-dNOPAUSE", out])
        #expect(gs.status == 0 && !(gs.stdout + gs.stderr).contains("Error"), "\(gs.stdout)\(gs.stderr)")
        #expect(try Self.ink(out, scratch) > 200)
    }

    @Test func aCollectionWithoutAFaceOrWithABadOneIsAUsageErrorListingItsFaces() throws {
        try #require(FileManager.default.fileExists(atPath: Self.notoCJK), "fonts-noto-cjk")
        let scratch = try Scratch()
        let faces = "(0 Noto Sans CJK JP, 1 Noto Sans CJK KR, 2 Noto Sans CJK SC, 3 Noto Sans CJK TC, 4 Noto Sans CJK HK, "
        let cases = [
            ("", "--font: \(Self.notoCJK): a collection of 10 fonts: give one as PATH#INDEX or PATH#NAME \(faces)"),
            ("#99", "--font: \(Self.notoCJK)#99: no font #99 in this collection of 10 fonts \(faces)"),
            ("#Noto Sans CJK XX", "--font: \(Self.notoCJK)#Noto Sans CJK XX: no font named 'Noto Sans CJK XX' in this collection of 10 fonts \(faces)"),
        ]
        for (selector, message) in cases {
            let (run, _) = try Self.titleBook(scratch, "bad.pdf", font: Self.notoCJK + selector)
            #expect(run.status == 2, "\(selector): \(run.stderr)")
            #expect(run.stderr.hasPrefix("photobook: error: " + message), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: scratch.file("bad.pdf")))
        }
    }

    @Test func twoBuildsWithACJKFaceAreByteIdentical() throws {
        try #require(FileManager.default.fileExists(atPath: Self.notoCJK), "fonts-noto-cjk")
        let scratch = try Scratch()
        let epoch = ["SOURCE_DATE_EPOCH": "1767225600"]
        let (first, a) = try Self.titleBook(scratch, "a.pdf", font: Self.notoCJK + "#0", environment: epoch)
        let (second, b) = try Self.titleBook(scratch, "b.pdf", font: Self.notoCJK + "#0", environment: epoch)
        #expect(first.status == 0 && second.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)))
    }

    // `--font FAMILY` (issue 33, item 2): through fontconfig, taken only when the face it gives is the family asked.

    @Test func aFamilyNameIsTheInstalledFace() throws {
        try #require(FileManager.default.fileExists(atPath: Self.notoCJK), "fonts-noto-cjk")
        let scratch = try Scratch()
        let (run, out) = try Self.titleBook(scratch, "family.pdf", font: "Noto Sans CJK JP")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("no installed font"), "\(run.stderr)")
        let fonts = try Run.command("/usr/bin/pdffonts", [out]).stdout
        #expect(fonts.contains("+NotoSansCJKjp-Regular"), "\(fonts)")
        #expect(try WordsTests.text(out, page: 1) == ["東京の旅 2026", "山田太郎"])
        #expect(try Self.ink(out, scratch) > 200)
    }

    /// Case does not matter; the family picks the face of the collection (SC is face 2 of Noto's).
    @Test(arguments: [("noto sans cjk sc", "+NotoSansCJKsc-Regular"), ("DejaVu Sans", "+DejaVuSans"),
                      ("DejaVuSans", "+DejaVuSans"), ("Noto Sans CJK JP:bold", "+NotoSansCJKjp-Bold")])
    func aFamilyNameInAnyCaseOrWithAStyle(name: String, baseFont: String) throws {
        try #require(FileManager.default.fileExists(atPath: Self.notoCJK), "fonts-noto-cjk")
        let scratch = try Scratch()
        let (run, out) = try Self.titleBook(scratch, "family.pdf", font: name, title: "Summer 2026", author: "Anna")
        #expect(run.status == 0, "\(run.stderr)")
        let fonts = try Run.command("/usr/bin/pdffonts", [out]).stdout
        #expect(fonts.contains(baseFont), "\(name): \(fonts)")
    }

    /// fontconfig answers Noto Sans (or WenQuanYi) for a family it lacks: that is refused, not used.
    @Test func aFamilyNotInstalledIsAUsageError() throws {
        let scratch = try Scratch()
        let (run, out) = try Self.titleBook(scratch, "none.pdf", font: "Source Han Serif")
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("photobook: error: --font: no installed font family \"Source Han Serif\" "
                                     + "(fc-list : family lists those installed)"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A file in the current directory named like a family is the file, not the family.
    @Test func aFileWinsOverAFamilyOfTheSameName() throws {
        try #require(FileManager.default.fileExists(atPath: Self.nimbus), "fonts-urw-base35")
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600)])
        try FileManager.default.copyItem(atPath: Self.nimbus, toPath: scratch.file("DejaVu Sans"))
        let run = try Run.command(Run.binary, ["build"] + photos + ["-o", "book.pdf", "--title", "Summer",
                                  "--font", "DejaVu Sans"], directory: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        let fonts = try Run.command("/usr/bin/pdffonts", [scratch.file("book.pdf")]).stdout
        #expect(fonts.contains("NimbusSans") && !fonts.contains("DejaVu"), "\(fonts)")
    }

    /// `init` writes the family as typed, and `build` of that description finds it again.
    @Test func aDescriptionKeepsTheFamilyAsTyped() throws {
        try #require(FileManager.default.fileExists(atPath: Self.notoCJK), "fonts-noto-cjk")
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(900, 600)])
        // In a folder of its own: a family must not become a path relative to it ("../Noto Sans CJK JP").
        let description = try scratch.sub("descriptions") + "/book.json"
        let made = try Run.command(Run.binary, ["init"] + photos + ["-o", description, "--title", "東京の旅",
                                   "--font", "Noto Sans CJK JP"])
        #expect(made.status == 0, "\(made.stderr)")
        let text = try String(contentsOfFile: description, encoding: .utf8)
        #expect(text.contains("Noto Sans CJK JP") && !text.contains(".ttc"), "\(text)")
        let out = scratch.file("book.pdf")
        let run = try Run.command(Run.binary, ["build", "descriptions/book.json", "-o", out], directory: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        let fonts = try Run.command("/usr/bin/pdffonts", [out]).stdout
        #expect(fonts.contains("+NotoSansCJKjp-Regular"), "\(fonts)")
    }
}
