#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// `--pdfx 1a`: real books and covers read back by pikepdf against the PDF/X-1a:2003 rules of docs/research/pdfx.md
/// (Reference/pdfx_check.py --x1a), and rendered by Ghostscript against the RGB book of the same photos
/// (Reference/render_compare.py).
@Suite struct PDFX1aTests {
    static let comparer = Fixtures.packageRoot.appendingPathComponent("Tests/PhotoBookCLITests/Reference/render_compare.py").path
    static let outputProfile = Fixtures.packageRoot.appendingPathComponent("Resources/FOGRA39L-photobook.icc").path
    static let epoch = PDFXTests.epoch

    static func x1aVerdict(of pdf: String) throws -> PDFXTests.Verdict {
        let run = try Run.command("/usr/bin/python3", [PDFXTests.checker, "--x1a", pdf])
        #expect(run.status == 0, "the checker failed on \(pdf): \(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return PDFXTests.Verdict(problems: json["problems"] as? [String] ?? ["no problems list"],
                                 facts: json["facts"] as? [String: Any] ?? [:])
    }

    /// Photos of every kind a book takes: camera JPEGs without a profile, an Adobe RGB JPEG, a grey PNG (with
    /// a grey profile when `taggedGrey`), a CMYK JPEG.
    ///
    /// The RGB book leaves a rendered grey photo sRGB, its grey profile dropped (`ColorProfile.bytes(forPassThrough:)`),
    /// while the X-1a book converts it from that profile: Ghostscript's sGray is 18 levels lighter than sRGB in the
    /// middle, so the comparison of the two books takes a grey photo without a profile.
    static func photos(in scratch: Scratch, taggedGrey: Bool = true) throws -> [String] {
        let grey = taggedGrey
            ? try ColourTests.photo(in: scratch, name: "grey.png", profile: "/usr/share/color/icc/ghostscript/sgray.icc",
                                    extra: ["-colorspace", "Gray"])
            : Run.fixture("pngsuite/basn0g08.png")
        return [Run.fixture("exif-orientation/Landscape_1.jpg"), Run.fixture("exif-orientation/Landscape_6.jpg"),
                try ColourTests.photo(in: scratch, name: "adobe.jpg", profile: ColourTests.adobeRGB), grey,
                Run.fixture("cmyk-jpeg/pillow_pil_sample_cmyk.jpg")]
    }

    static func build(_ inputs: [String], _ out: String, _ extra: [String]) throws -> Run {
        let run = try Run.command(Run.binary, ["build"] + inputs + ["-o", out, "--sort", "given", "-q"] + extra,
                                  environment: epoch)
        #expect(run.status == 0, "\(run.stderr)")
        return run
    }

    /// A book with words everywhere, with and without bleed and crop marks: PDF 1.4, the output intent and its
    /// CMYK profile, the Info keys, an /ID, boxes, fonts embedded, every image an 8-bit DeviceCMYK DCT JPEG with
    /// Adobe's /Decode, only DeviceCMYK and DeviceGray in the whole file, nothing transparent.
    @Test(arguments: [["--bleed", "3mm", "--crop-marks"], []])
    func aBookIsPDFX1a(extra: [String]) throws {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf")
        _ = try Self.build(try Self.photos(in: scratch), out, [
            "--pdfx", "1a", "--layout", "auto", "--title", "Çà & <va>", "--author", "A. Tester", "--captions", "name",
            "--page-numbers",
        ] + extra)
        let verdict = try Self.x1aVerdict(of: out)
        #expect(verdict.problems == [], "\(verdict.problems)")
        #expect(verdict.fact("version") == "1.4")
        #expect(verdict.fact("info", "GTS_PDFXVersion") == "PDF/X-1a:2003")
        #expect(verdict.fact("info", "GTS_PDFXConformance") == "PDF/X-1a:2003")
        #expect(verdict.fact("xmp", "GTS_PDFXVersion") == "PDF/X-1a:2003")
        #expect(verdict.fact("outputIntent", "OutputConditionIdentifier") == "FOGRA39")
        #expect(verdict.fact("profileBytes") == (try Fixtures.read(Self.outputProfile)).count)
        let images: [String] = verdict.fact("images") ?? []
        #expect(images.count == 5 && images.allSatisfy { $0 == "/DeviceCMYK 8 /DCTDecode" }, "\(images)")
        let spaces: [String] = verdict.fact("colourSpaces") ?? []
        #expect(spaces.contains("/DeviceGray") && !spaces.contains("/ICCBased"), "\(spaces)")
        try PDFXTests.expectQPDFPasses(out)
    }

    /// The CMYK book drawn by Ghostscript through the output profile looks like the RGB book of the same photos
    /// drawn by Ghostscript: on each page, the mean difference of each channel is at most 10 levels of 255. What
    /// is left comes from colours FOGRA39 cannot print (clipped), 8-bit CMYK, a second JPEG encode, and the press's
    /// black: sRGB black goes to FOGRA39's darkest ink (black-point compensation), which Ghostscript draws back as
    /// about (10, 10, 14), so a page that is mostly black (the CMYK JPEG's) differs most. Measured: 0.7 to 4.2
    /// levels, 7.3 on that page. Read the wrong way round (Adobe's inversion undone), the same pages differ by 45
    /// and more; with the conversion skipped (device CMYK, no black), by 17 to 36 in the worst channel: the bound
    /// tells a right conversion from a wrong one.
    @Test func ghostscriptDrawsTheCMYKBookAsTheRGBBook() throws {
        let scratch = try Scratch()
        let photos = try Self.photos(in: scratch, taggedGrey: false)
        let cmyk = scratch.file("cmyk.pdf"), rgb = scratch.file("rgb.pdf")
        let same = ["--layout", "grid:1x1", "--page-numbers"]
        _ = try Self.build(photos, cmyk, same + ["--pdfx", "1a"])
        _ = try Self.build(photos, rgb, same)
        func differences(_ extra: [String]) throws -> [[Double]] {
            let run = try Run.command("/usr/bin/python3", [Self.comparer, cmyk, rgb, Self.outputProfile, "30"] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            #expect(json["counts"] as? [Int] == [5, 5], "\(json)")
            return (json["pages"] as? [[String: Any]] ?? []).map { $0["mean"] as? [Double] ?? [255, 255, 255] }
        }
        let right = try differences([])
        #expect(right.count == 5)
        for (page, mean) in right.enumerated() {
            #expect(mean.allSatisfy { $0 <= 10 }, "page \(page + 1) of \(photos[page]): \(mean)")
        }
        let wrong = try differences(["--undo-inversion"])
        #expect(wrong.allSatisfy { $0.max() ?? 0 > 40 }, "\(wrong)")
        // The conversion skipped (the RGB photos turned into CMYK by the device formula, no black ink) is caught too.
        let naive = try differences(["--naive"])
        #expect(naive.allSatisfy { $0.max() ?? 0 > 10 }, "\(naive)")
    }

    /// `--intent perceptual` gives other CMYK than the default relative colorimetric on a photo of a colour outside
    /// the press's gamut; both are said in --verbose and the report. Trap: photobook's FOGRA39L was made by colprof
    /// without a source gamut, so its perceptual table is nearly its colorimetric one: the photos differ by about a
    /// level (Little CMS gives the same), where an intent ignored gives the same bytes.
    @Test func perceptualIsAnotherConversion() throws {
        let scratch = try Scratch()
        let green = try scratch.write("saturated.png", PhotoMetadata.solidPNG(width: 200, height: 150, rgb: (0, 200, 255)))
        var means: [String: [Double]] = [:]
        for intent in ["relative", "perceptual"] {
            let out = scratch.file("\(intent).pdf"), report = scratch.file("\(intent).json")
            let run = try Run.command(Run.binary, ["build", green, "-o", out, "--pdfx", "1a", "--verbose",
                                                   "--report", report] + (intent == "relative" ? [] : ["--intent", intent]),
                                      environment: Self.epoch)
            #expect(run.status == 0, "\(run.stderr)")
            let said = intent == "relative" ? "relative colorimetric with black-point compensation" : "perceptual"
            #expect(run.stderr.contains("PDF/X-1a:2003 for FOGRA39") && run.stderr.contains("converted to CMYK, \(said)"),
                    "\(run.stderr)")
            #expect(String(decoding: try Fixtures.read(report), as: UTF8.self).contains("\"intent\" : \"\(intent)\""))
            let read = try Run.command("/usr/bin/python3", ["-c", """
                import sys, pikepdf
                from PIL import ImageStat
                pdf = pikepdf.open(sys.argv[1])
                image = pikepdf.PdfImage(next(iter(pdf.pages[0].images.values())))
                print(" ".join(str(v) for v in ImageStat.Stat(image.as_pil_image()).mean))
                """, out])
            #expect(read.status == 0, "\(read.stderr)")
            means[intent] = read.stdout.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        let relative = try #require(means["relative"]), perceptual = try #require(means["perceptual"])
        #expect(relative.count == 4 && perceptual.count == 4)
        #expect(zip(relative, perceptual).map { abs($0 - $1) }.max() ?? 0 >= 0.5, "\(relative) against \(perceptual)")
    }

    /// An intent that is not one, or one where no photo is converted, is a usage error before any photo is read.
    @Test(arguments: [
        (["--pdfx", "1a", "--intent", "vivid"], "'vivid' is not one of: relative, perceptual"),
        (["--pdfx", "4", "--intent", "perceptual"], "--intent: is for the photos converted to CMYK in a PDF/X-1a book"),
        (["--intent", "relative"], "so it needs --pdfx 1a"),
    ])
    func aBadIntentIsAUsageError(options: [String], message: String) throws {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf")
        for command in [["build", scratch.file("no-such-photo.jpg")], ["cover", scratch.file("front.jpg"), "--spine", "1cm"]] {
            let run = try Run.photobook(command + ["-o", out] + options)
            #expect(run.status == 2 && run.stderr.contains(message), "\(command[0]) \(options): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    /// IngramSpark asks for PDF/X of 2001 or 2003 in CMYK: its preset makes an X-1a book, unless --pdfx says other.
    @Test func theIngramSparkPresetMakesAnX1aBook() throws {
        let scratch = try Scratch()
        let photo = Run.fixture("exif-orientation/Landscape_1.jpg")
        let x1a = scratch.file("x1a.pdf"), x4 = scratch.file("x4.pdf")
        _ = try Self.build([photo], x1a, ["--preset", "ingramspark", "--page-size", "8x10in"])
        #expect(try Self.x1aVerdict(of: x1a).problems == [])
        _ = try Self.build([photo], x4, ["--pdfx", "4", "--preset", "ingramspark", "--page-size", "8x10in"])
        let verdict = try PDFXTests.verdict(of: x4)
        #expect(verdict.problems == [] && verdict.fact("version") == "1.6", "\(verdict.problems)")
    }

    /// A cover takes --pdfx 1a as a book does.
    @Test func aCoverIsPDFX1a() throws {
        let scratch = try Scratch()
        let out = scratch.file("cover.pdf")
        let run = try Run.command(Run.binary, [
            "cover", Run.fixture("cmyk-jpeg/pillow_pil_sample_cmyk.jpg"), "-o", out, "--spine", "12mm", "--bleed", "3mm",
            "--title", "Cover", "--pdfx", "1a", "--intent", "perceptual", "-q",
        ], environment: Self.epoch)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.x1aVerdict(of: out).problems == [])
        try PDFXTests.expectQPDFPasses(out)
    }

    /// A photo that cannot be read is left out by name, the book made of the rest; with --strict nothing is written.
    @Test func aBadPhotoIsLeftOutOrFailsTheBook() throws {
        let scratch = try Scratch()
        let good = Run.fixture("exif-orientation/Landscape_1.jpg")
        let bad = try scratch.write("broken.jpg", Array(try Fixtures.read(good).prefix(3000)))
        let out = scratch.file("book.pdf")
        let json = ReadReport.temporaryPath()
        let kept = try Run.command(Run.binary, ["build", good, bad, "-o", out, "--pdfx", "1a", "--report", json],
                                   environment: Self.epoch)
        #expect(kept.status == 0 && kept.stderr.contains("photobook: warning: \(bad): "), "\(kept.stderr)")
        let keptKinds = try ReadReport.take(json).kinds
        #expect(keptKinds == ["Landscape_1.jpg": "succeeded", "broken.jpg": "corrupt"], "\(keptKinds)")
        #expect(try Self.x1aVerdict(of: out).problems == [])
        try FileManager.default.removeItem(atPath: out)
        let strict = try Run.command(Run.binary, ["build", good, bad, "-o", out, "--pdfx", "1a", "--strict", "--report", json],
                                     environment: Self.epoch)
        #expect(strict.status == 1, "\(strict.stderr)")
        let strictBook = try ReadReport.take(json).book
        #expect(strictBook.outcome == "skipped" && strictBook.failureKind == "refused", "\(strict.stderr)")
        #expect(Scratch.listing(scratch.path) == ["broken.jpg"], "\(Scratch.listing(scratch.path))")
    }

    /// Ctrl-C while the photos are decoded and converted, or while the pages are drawn: the old book stays, no
    /// temporary file is left, exit status 130.
    @Test(arguments: ["decode", "page"])
    func ctrlCLeavesTheOldBook(point: String) throws {
        let outcome = try SignalTests().interrupt(at: point, with: [SIGINT], extra: ["--pdfx", "1a"])
        #expect(outcome.status == 130, "\(outcome.stderr)")
    }
}
