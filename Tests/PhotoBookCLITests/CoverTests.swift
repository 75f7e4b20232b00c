#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Imaging
import JPEG
import PhotoBook
@testable import PhotoBookCLI
import TestSupport
import Testing

/// `photobook cover` as a user runs it: the page's boxes read back with pdfinfo against the spine formula, the
/// spine's words found by pdftotext where the spine is and running down it, the photos' pixels out to the bleed
/// edge, bad arguments and bad photos refused by name with nothing written, Ctrl-C leaving the old cover.
@Suite(.serialized) struct CoverTests {
    static let mm = 72.0 / 25.4
    /// A landscape and a portrait photo whose orientation tags are applied (Landscape_1 needs none).
    static let front = Run.fixture("exif-orientation/Landscape_1.jpg")
    static let back = Run.fixture("exif-orientation/Portrait_6.jpg")

    /// `pdfinfo -box`: each box of page 1 as [left, bottom, right, top].
    static func boxes(_ pdf: String) throws -> [String: [Double]] {
        let run = try Run.command("/usr/bin/pdfinfo", ["-box", pdf])
        #expect(run.status == 0, "pdfinfo: \(run.stderr)")
        var boxes: [String: [Double]] = [:]
        for line in run.stdout.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].hasSuffix("Box") else { continue }
            boxes[String(parts[0])] = parts[1].split(separator: " ").compactMap { Double($0) }
        }
        return boxes
    }

    static func expectBox(_ box: [Double]?, _ expected: [Double], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        // pdfinfo prints two decimals.
        #expect(box?.count == 4 && zip(box ?? [], expected).allSatisfy { abs($0 - $1) < 0.011 },
                "\(name): \(box ?? []) is not \(expected)", sourceLocation: sourceLocation)
    }

    /// The words pdftotext finds, with their boxes in points from the page's top left.
    static func words(_ pdf: String) throws -> [(text: String, xMin: Double, yMin: Double, xMax: Double, yMax: Double)] {
        let run = try Run.command("/usr/bin/pdftotext", ["-bbox", pdf, "-"])
        #expect(run.status == 0, "pdftotext: \(run.stderr)")
        return run.stdout.split(separator: "\n").compactMap { line in
            guard line.contains("<word ") else { return nil }
            func value(_ name: String) -> Double {
                guard let start = line.range(of: "\(name)=\"") else { return .nan }
                return Double(line[start.upperBound...].prefix { $0 != "\"" }) ?? .nan
            }
            guard let open = line.range(of: "\">"), let close = line.range(of: "</word>") else { return nil }
            return (String(line[open.upperBound..<close.lowerBound]), value("xMin"), value("yMin"), value("xMax"), value("yMax"))
        }
    }

    // MARK: geometry

    /// The spine from --spine or from --interior-pages / --paper-ppi, with and without bleed: MediaBox, BleedBox,
    /// TrimBox and ArtBox as the formula says.
    // Trap: written inline in @Test(arguments:), this literal is inferred [Any] (not Sendable); typed here it is not.
    static let spineCases: [(arguments: [String], spine: Double, bleed: Double)] = [
        (["--spine", "12mm"], 12 * mm, 0),
        (["--spine", "12mm", "--bleed", "3mm"], 12 * mm, 3 * mm),
        (["--interior-pages", "200", "--paper-ppi", "444"], 200.0 / 444 * 72, 0),
        (["--interior-pages", "200", "--paper-ppi", "444", "--bleed", "0.125in"], 200.0 / 444 * 72, 9),
        (["--interior-pages=500", "--paper-ppi=526", "--bleed=3mm"], 500.0 / 526 * 72, 3 * mm),
    ]

    @Test(arguments: spineCases)
    func theBoxesFollowTheSpineFormula(spineArguments: [String], spine: Double, bleed: Double) throws {
        let scratch = try Scratch()
        let out = scratch.file("cover.pdf")
        let run = try Run.photobook(["cover", Self.front, "-o", out, "--page-size", "a5", "--safety", "8mm"] + spineArguments)
        #expect(run.status == 0, "\(run.stderr)")
        let (w, h) = (148 * Self.mm, 210 * Self.mm)
        let boxes = try Self.boxes(out)
        let media = [0, 0, 2 * w + spine + 2 * bleed, h + 2 * bleed]
        Self.expectBox(boxes["MediaBox"], media, "MediaBox")
        Self.expectBox(boxes["BleedBox"], media, "BleedBox")
        Self.expectBox(boxes["TrimBox"], [bleed, bleed, bleed + 2 * w + spine, bleed + h], "TrimBox")
        let safety = 8 * Self.mm
        Self.expectBox(boxes["ArtBox"], [bleed + safety, bleed + safety, bleed + 2 * w + spine - safety, bleed + h - safety],
                       "ArtBox")
        #expect(try PDFFacts(out).pages == 1)
        #expect(Scratch.listing(scratch.path) == ["cover.pdf"])
    }

    // MARK: the spine's words

    /// The text matrices of a PDF's page content, read by qpdf (content streams uncompressed): each `a b c d e f Tm`.
    static func textMatrices(_ pdf: String) throws -> [[Double]] {
        let run = try Run.command("/usr/bin/qpdf", ["--qdf", "--object-streams=disable", pdf, "-"])
        #expect(run.status == 0, "qpdf: \(run.stderr)")
        return run.stdout.split(separator: "\n").filter { $0.hasSuffix(" Tm") }.map { line in
            line.split(separator: " ").dropLast().compactMap { Double($0) }
        }
    }

    /// The spine's title is found where the spine is, centred across it, running down the page (pdftotext sees
    /// words whose boxes are tall and narrow, the title's first word above its second); its text matrix turns text
    /// a quarter clockwise, and the letters' tops face the front (the baseline is on the back's side of the box).
    @Test func theSpineTitleReadsTopToBottomInsideTheSpine() throws {
        let scratch = try Scratch()
        let out = scratch.file("cover.pdf")
        let bleed = 3 * Self.mm, spine = 15 * Self.mm, w = 148 * Self.mm, h = 210 * Self.mm
        let run = try Run.photobook(["cover", Self.front, Self.back, "-o", out, "--page-size", "a5", "--spine", "15mm",
                                     "--bleed", "3mm", "--title", "Firstword Secondword", "--author", "Writer"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("warning: the spine"), "\(run.stderr)")
        let words = try Self.words(out)
        let spineLeft = bleed + w, spineRight = bleed + w + spine
        let onSpine = words.filter { $0.xMin >= spineLeft - 0.01 && $0.xMax <= spineRight + 0.01 }
        #expect(onSpine.map(\.text) == ["Firstword", "Secondword", "Writer"], "\(words)")
        guard onSpine.count == 3 else { return }
        for word in onSpine {
            // Turned: a word runs down the page, so its box is taller than wide.
            #expect(word.yMax - word.yMin > 2 * (word.xMax - word.xMin), "\(word)")
            #expect(abs((word.xMin + word.xMax) / 2 - (spineLeft + spineRight) / 2) < 2, "\(word) is not centred on the spine")
            #expect(word.yMin >= bleed + 10 * Self.mm - 0.5 && word.yMax <= bleed + h - 10 * Self.mm + 0.5, "\(word)")
        }
        // Read top to bottom: the first word above the second; the title at the head of the spine (the top of the
        // page, where pdftotext's y starts), the author at its foot.
        #expect(onSpine[0].yMax < onSpine[1].yMin && onSpine[1].yMax < onSpine[2].yMin)
        #expect(abs(onSpine[0].yMin - (bleed + 10 * Self.mm)) < 1, "\(onSpine[0])")
        #expect(abs(onSpine[2].yMax - (bleed + h - 10 * Self.mm)) < 1, "\(onSpine[2])")

        // Each spine line's matrix is [0 -1 1 0 x y]: reading down, letters up to the right; its baseline x lies
        // nearer the word box's left side (the descent) than its right (the ascent): the tops face the front.
        let matrices = try Self.textMatrices(out)
        let turned = matrices.filter { $0.count == 6 && $0[0] == 0 && $0[1] == -1 && $0[2] == 1 && $0[3] == 0 }
        #expect(turned.count == 2, "\(matrices)")
        for (matrix, word) in zip(turned, [onSpine[0], onSpine[2]]) {
            let baseline = matrix[4]
            #expect(baseline - word.xMin < word.xMax - baseline, "baseline \(baseline) in \(word)")
            // pdftotext measures from the top: the line starts at the top of its first word's box.
            #expect(abs((h + 2 * bleed - matrix[5]) - word.yMin) < 1, "start \(matrix[5]) for \(word)")
        }

        // Rendered, there is ink on the white spine where each word is, and none between the title and the author.
        let dpi = 144
        let page = try renderPageWithCairo(out, page: 1, dpi: dpi, scratch: scratch)
        let scale = Double(dpi) / 72
        func ink(fromY top: Double, toY bottom: Double) -> Int {
            var count = 0
            for y in Int(top * scale)..<Int(bottom * scale) {
                for x in Int((spineLeft + 1) * scale)..<Int((spineRight - 1) * scale) {
                    let i = (y * page.width + x) * 3
                    if Int(page.rgb[i]) + Int(page.rgb[i + 1]) + Int(page.rgb[i + 2]) < 3 * 100 { count += 1 }
                }
            }
            return count
        }
        for word in onSpine { #expect(ink(fromY: word.yMin, toY: word.yMax) > 50, "no ink for \(word)") }
        #expect(ink(fromY: onSpine[1].yMax + 2, toY: onSpine[2].yMin - 2) == 0, "ink between title and author")
    }

    @Test func aSpineTooNarrowForTextIsLeftBlankWithAWarning() throws {
        let scratch = try Scratch()
        let out = scratch.file("cover.pdf")
        let run = try Run.photobook(["cover", Self.front, "-o", out, "--interior-pages", "24", "--paper-ppi", "444",
                                     "--title", "Thin"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: the spine is 1.4 mm wide, too narrow for a line of text"),
                "\(run.stderr)")
        let words = try Self.words(out)
        // The title is on the front only.
        #expect(words.map(\.text) == ["Thin"], "\(words)")
        #expect(words[0].xMin > 210 * Self.mm + 24.0 / 444 * 72)
    }

    // MARK: the photos

    /// The front photo reaches the page's edges on the outside (the bleed) and stops at the fold; with no back
    /// photo, the back and the spine are paper.
    @Test func theFrontPhotoRunsToTheBleedEdgeAndStopsAtTheFold() throws {
        let scratch = try Scratch()
        let out = scratch.file("cover.pdf")
        let run = try Run.photobook(["cover", Self.front, "-o", out, "--page-size", "100x150mm", "--spine", "10mm",
                                     "--bleed", "5mm", "--dpi", "72"])
        #expect(run.status == 0, "\(run.stderr)")
        let dpi = 72
        let page = try renderPageWithCairo(out, page: 1, dpi: dpi, scratch: scratch)
        let px = { (millimetres: Double) in Int((millimetres * Self.mm * Double(dpi) / 72).rounded()) }
        #expect(page.width == px(220) && page.height == px(160), "\(page.width)x\(page.height)")
        func isPaper(_ x: Int, _ y: Int) -> Bool {
            let i = (y * page.width + x) * 3
            return page.rgb[i] > 250 && page.rgb[i + 1] > 250 && page.rgb[i + 2] > 250
        }
        let frontLeft = px(5 + 100 + 10)
        // Every pixel of the outermost column and of the top and bottom rows over the front is photo, not paper.
        let right = page.width - 1
        let photoEdge = (0..<page.height).filter { !isPaper(right, $0) }.count
        #expect(photoEdge == page.height, "\(page.height - photoEdge) paper pixels on the right bleed edge")
        for y in [0, page.height - 1] {
            let photo = (frontLeft + 1..<page.width).filter { !isPaper($0, y) }.count
            #expect(photo == page.width - frontLeft - 1, "row \(y): paper in the bleed over the front")
        }
        // Back and spine: paper all over.
        let paper = (0..<frontLeft - 1).allSatisfy { x in stride(from: 0, to: page.height, by: 7).allSatisfy { isPaper(x, $0) } }
        #expect(paper, "the back or the spine is not blank")
    }

    @Test func theBackPhotoCoversTheBackPanelAndTheSpineStaysBlank() throws {
        let scratch = try Scratch()
        let out = scratch.file("cover.pdf")
        let run = try Run.photobook(["cover", Self.front, Self.back, "-o", out, "--page-size", "100x150mm",
                                     "--spine", "10mm", "--bleed", "5mm", "--dpi", "72"])
        #expect(run.status == 0, "\(run.stderr)")
        let page = try renderPageWithCairo(out, page: 1, dpi: 72, scratch: scratch)
        let px = { (millimetres: Double) in Int((millimetres * Self.mm).rounded()) }
        func isPaper(_ x: Int, _ y: Int) -> Bool {
            let i = (y * page.width + x) * 3
            return page.rgb[i] > 250 && page.rgb[i + 1] > 250 && page.rgb[i + 2] > 250
        }
        let left = (0..<page.height).filter { !isPaper(0, $0) }.count
        #expect(left == page.height, "\(page.height - left) paper pixels on the left bleed edge")
        // The middle of the spine is paper from top to bottom.
        let middle = px(5 + 100 + 5)
        #expect((0..<page.height).allSatisfy { isPaper(middle, $0) })
        #expect(try PDFFacts(out).images.count == 2)
    }

    /// The title over a dark part of the front photo is white, over a light part black.
    @Test func theFrontTitleIsWhiteOverADarkPhotoAndBlackOverALightOne() throws {
        let scratch = try Scratch()
        for (name, level, expectLight) in [("dark", UInt8(20), true), ("light", UInt8(235), false)] {
            let image = RGBImage(width: 300, height: 400, red: level, green: level, blue: level)
            let photo = try scratch.write("\(name).jpg", try JPEGEncoder.encode(image, quality: 90))
            let out = scratch.file("\(name).pdf")
            let run = try Run.photobook(["cover", photo, "-o", out, "--page-size", "100x150mm", "--spine", "10mm",
                                         "--title", "WWWWWW"])
            #expect(run.status == 0, "\(run.stderr)")
            let page = try renderPageWithCairo(out, page: 1, dpi: 72, scratch: scratch)
            let word = try #require(try Self.words(out).first { $0.text == "WWWWWW" })
            var lightest = 0, darkest = 255
            for y in Int(word.yMin)..<Int(word.yMax) {
                for x in Int(word.xMin)..<Int(word.xMax) {
                    let value = Int(page.rgb[(y * page.width + x) * 3])
                    lightest = max(lightest, value)
                    darkest = min(darkest, value)
                }
            }
            if expectLight {
                #expect(lightest > 200, "\(name): no white letters (lightest \(lightest))")
            } else {
                #expect(darkest < 60, "\(name): no black letters (darkest \(darkest))")
            }
        }
    }

    // MARK: bad input

    static let badArguments: [(arguments: [String], message: String)] = [
        (["--spine", "10mm", "--interior-pages", "200", "--paper-ppi", "444"], "--spine: "),
        (["--spine", "10mm", "--paper-ppi", "444"], "--spine: "),
        ([] as [String], "--spine: no spine width given"),
        (["--interior-pages", "200"], "--interior-pages: needs --paper-ppi"),
        (["--paper-ppi", "444"], "--paper-ppi: needs --interior-pages"),
        (["--spine", "-3mm"], "--spine: "),
        (["--spine", "nan"], "--spine: "),
        (["--interior-pages", "0", "--paper-ppi", "444"], "--interior-pages: "),
        (["--interior-pages", "200", "--paper-ppi", "0"], "--paper-ppi: "),
        (["--interior-pages", "100000", "--paper-ppi", "1"], "--interior-pages: 100000 pages at 1 ppi"),
        (["--spine", "5000mm"], "--spine: 5000 mm makes the cover wider"),
        (["--spine", "10mm", "--page-size", "3000x200mm"], "--page-size: two panels"),
        (["--spine", "10mm", "--safety", "80mm", "--page-size", "a5"], "--safety: "),
        (["--spine", "10mm", "--author", "Me"], "--author: goes under the title, so it needs --title"),
        (["--spine", "10mm", "--subtitle", "Sub"], "--subtitle: "),
        (["--spine", "10mm", "--title", ""], "--title: "),
        (["--spine", "10mm", "--dpi", "0"], "--dpi: "),
        (["--spine", "10mm", "--quality", "101"], "--quality: "),
        (["--spine", "10mm", "--jobs", "2"], "unknown option '--jobs'"),
        (["--spine", "10mm", "--font", "/no/such/font.ttf", "--title", "T"], "--font: "),
        (["--spine", "10mm", "--bleed", "2340mm"], "--bleed: "),
    ]

    @Test(arguments: badArguments)
    func aBadArgumentExits2NamingTheOptionAndWritesNothing(arguments: [String], message: String) throws {
        let scratch = try Scratch()
        let run = try Run.photobook(["cover", Self.front, "-o", scratch.file("cover.pdf")] + arguments)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr.hasPrefix("photobook: error: \(message)"), "\(arguments): \(run.stderr)")
        #expect(Scratch.listing(scratch.path).isEmpty)
    }

    @Test func theInputsAreOneOrTwoPhotosNotAFolder() throws {
        let scratch = try Scratch()
        let out = scratch.file("cover.pdf")
        let none = try Run.photobook(["cover", "-o", out, "--spine", "1cm"])
        #expect(none.status == 2 && none.stderr.hasPrefix("photobook: error: no input given"), "\(none.stderr)")
        let three = try Run.photobook(["cover", Self.front, Self.back, Self.front, "-o", out, "--spine", "1cm"])
        #expect(three.status == 2 && three.stderr.hasPrefix("photobook: error: 3 photos given"), "\(three.stderr)")
        let folder = Run.fixture("exif-orientation")
        let run = try Run.photobook(["cover", folder, "-o", out, "--spine", "1cm"])
        #expect(run.status == 2 && run.stderr.hasPrefix("photobook: error: \(folder): is a folder"), "\(run.stderr)")
        let noOutput = try Run.photobook(["cover", Self.front, "--spine", "1cm"])
        #expect(noOutput.status == 2 && noOutput.stderr.hasPrefix("photobook: error: no output given"), "\(noOutput.stderr)")
        let overInput = try scratch.copy(Self.front, to: "front.jpg")
        let same = try Run.photobook(["cover", overInput, "-o", overInput, "--spine", "1cm"])
        #expect(same.status == 2 && same.stderr.contains("the output is one of the inputs"), "\(same.stderr)")
        #expect(Scratch.listing(scratch.path) == ["front.jpg"])
    }

    enum BadPhoto: String, CaseIterable, Sendable { case missing, truncated, text, empty }

    /// A front or back photo that is missing or cannot be decoded fails the cover: status 1, the file named with
    /// the reason, no cover and no temporary file; an existing cover stays as it was.
    @Test(arguments: BadPhoto.allCases, [true, false])
    func aBadPhotoExits1NamingItAndWritesNothing(_ bad: BadPhoto, asBack: Bool) throws {
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let path = scratch.file("bad.jpg")
        let good = try Fixtures.read(Self.front)
        switch bad {
        case .missing: break
        case .truncated: _ = try scratch.write("bad.jpg", Array(good.prefix(good.count / 2)))
        case .text: _ = try scratch.write("bad.jpg", Array("not a photo at all".utf8))
        case .empty: _ = try scratch.write("bad.jpg", [])
        }
        let old = Array("%PDF-1.4 the previous cover".utf8)
        let out = try scratch.write("cover.pdf", old)
        let photos = asBack ? [Self.front, path] : [path, Self.back]
        let run = try Run.photobook(["cover"] + photos + ["-o", out, "--spine", "10mm", "--title", "T"], tmpdir: tmp)
        #expect(run.status == 1, "\(bad) as \(asBack ? "back" : "front"): \(run.stderr)")
        #expect(run.stderr.contains("photobook: error: \(path): "), "\(run.stderr)")
        #expect(run.stderr.contains("nothing was written"), "\(run.stderr)")
        #expect(try Fixtures.read(out) == old, "the previous cover is untouched")
        let expected = (bad == .missing ? [] : ["bad.jpg"]) + ["cover.pdf", "tmp"]
        #expect(Scratch.listing(scratch.path) == expected)
        #expect(Scratch.listing(tmp).isEmpty, "\(Scratch.listing(tmp))")
    }

    // MARK: Ctrl-C

    /// Interrupted while its photo is decoded, while its page is drawn or just before the rename, the cover leaves
    /// the previous cover.pdf as it was and no temporary file; just after the rename, the new cover stays.
    @Test(arguments: ["decode", "page", "commit", "committed"])
    func ctrlCLeavesThePreviousCoverAndNoTemporaryFile(point: String) throws {
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let old = Array("%PDF-1.4 the previous cover".utf8)
        let out = try scratch.write("cover.pdf", old)
        let photo = SignalTests.largePhotos + "/photo1.jpg"
        let live = try LiveRun(Run.harness, ["cover", photo, "-o", out, "--interior-pages", "200", "--paper-ppi", "444",
                                            "--bleed", "3mm", "--title", "Interrupted"],
                               environment: ["TMPDIR": tmp, "PHOTOBOOK_TEST_PAUSE": point])
        #expect(live.waitForStderr(containing: "test: paused at \(point)", timeout: 120), "\(live.stderr)")
        kill(live.pid, SIGINT)
        let status = live.waitForExit(timeout: 60)
        if point == "committed" {
            #expect(status == 0, "\(live.stderr)")
            #expect(live.stderr.contains("wrote \(out)"), "\(live.stderr)")
            #expect(try Fixtures.read(out).starts(with: Array("%PDF-".utf8)) && (try Fixtures.read(out)) != old)
        } else {
            #expect(status == 130, "\(live.stderr)")
            #expect(live.stderr.contains("photobook: cancelling..."), "\(live.stderr)")
            #expect(live.stderr.contains("nothing was written"), "\(live.stderr)")
            #expect(try Fixtures.read(out) == old, "the previous cover is untouched")
        }
        #expect(Scratch.listing(scratch.path) == ["cover.pdf", "tmp"], "\(Scratch.listing(scratch.path))")
        #expect(Scratch.listing(tmp).isEmpty, "nothing left in TMPDIR: \(Scratch.listing(tmp))")
    }

    /// A second Ctrl-C while the first one is still being honoured stops the cover at once, as it does a book.
    @Test func aSecondCtrlCStopsAtOnceAndLeavesNothing() throws {
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let old = Array("%PDF-1.4 the previous cover".utf8)
        let out = try scratch.write("cover.pdf", old)
        let live = try LiveRun(Run.harness, ["cover", SignalTests.largePhotos + "/photo2.jpg", "-o", out, "--spine", "1cm"],
                               environment: ["TMPDIR": tmp, "PHOTOBOOK_TEST_PAUSE": "page", "PHOTOBOOK_TEST_PAUSE_HOLD": "1"])
        #expect(live.waitForStderr(containing: "test: paused at page", timeout: 120), "\(live.stderr)")
        kill(live.pid, SIGINT)
        #expect(live.waitForStderr(containing: "cancelling...", timeout: 30), "\(live.stderr)")
        kill(live.pid, SIGINT)
        #expect(live.waitForExit(timeout: 60) == 130, "\(live.stderr)")
        #expect(live.stderr.contains("interrupted again: stopped at once"), "\(live.stderr)")
        #expect(try Fixtures.read(out) == old)
        #expect(Scratch.listing(scratch.path) == ["cover.pdf", "tmp"], "\(Scratch.listing(scratch.path))")
        #expect(Scratch.listing(tmp).isEmpty, "\(Scratch.listing(tmp))")
    }

    @Test func verboseSaysWhereEachPartLiesAndHowDenseEachPhotoIs() throws {
        let scratch = try Scratch()
        let out = scratch.file("cover.pdf")
        let run = try Run.photobook(["cover", Self.front, "-o", out, "--page-size", "a5", "--spine", "12mm", "--bleed", "3mm",
                                     "--dpi", "72", "-v"])
        #expect(run.status == 0, "\(run.stderr)")
        for line in ["photobook: back: 148 x 210 mm, from 3 to 151 mm from the left edge of the page",
                     "photobook: spine: 12 x 210 mm, from 151 to 163 mm from the left edge of the page",
                     "photobook: front: 148 x 210 mm, from 163 to 311 mm from the left edge of the page",
                     "photobook: wrote \(out): a wrap cover of 308 x 210 mm with a 12 mm spine, 314 x 216 mm with the bleed"] {
            #expect(run.stderr.contains(line), "\(run.stderr)")
        }
        #expect(run.stderr.contains("photobook: \(Self.front): "), "\(run.stderr)")
        let quiet = try Run.photobook(["cover", Self.front, "-o", out, "--spine", "12mm", "-q"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    /// A share of the hostile values of the option-table tests, against the binary: every run ends in 0, 1 or 2,
    /// never a signal; a refusal names the option; only a success leaves a file, and no temporary file stays.
    @Test(arguments: CoverCommand.options.map(\.spec))
    func hostileValuesEndInAStatusWithAMessage(option: OptionSpec) throws {
        let scratch = try Scratch()
        let photo = Run.fixture("pngsuite/basn2c08.png")
        let values = ["", "0", "-1", "nan", "1e308", "9223372036854775808", "😀", "--", "/", "14401x14400pt", "a5",
                      "5e-324", "\u{1B}[31mred"]
        for form in ExtremeArguments.forms(of: option) {
            for value in values {
                let arguments = ["cover", photo, "-o", "cover.pdf", "-q", "--spine", "3mm"] + form(value)
                let run = try Run.command(Run.binary, arguments, directory: scratch.path, timeout: 60)
                #expect([0, 1, 2].contains(run.status), "\(arguments): status \(run.status)\n\(run.stderr)")
                if run.status == 2 {
                    let first = run.stderr.split(separator: "\n").first.map(String.init) ?? ""
                    #expect(first.hasPrefix("photobook: error: "), "\(arguments): \(run.stderr)")
                    #expect(first.contains(option.longName) || first.contains("--spine") || first.contains("--safety")
                                || first.contains("no output") || first.contains("photos given")
                                || first.contains("cannot write the book") || first.contains("the output")
                                || first.contains("is a folder"),
                            "\(arguments): \(run.stderr)")
                }
                let left = Scratch.listing(scratch.path)
                #expect(run.status == 0 ? left.count == 1 : left.isEmpty, "\(arguments) left \(left)")
                for name in left { try FileManager.default.removeItem(atPath: scratch.file(name)) }
            }
        }
    }

    @Test func helpListsEveryOptionAndTheCommandIsDocumented() throws {
        let run = try Run.photobook(["cover", "--help"])
        #expect(run.status == 0)
        for option in CoverCommand.options.map(\.spec) {
            #expect(run.stdout.contains(option.synopsis), "help lacks \(option.synopsis)")
        }
        for line in run.stdout.split(separator: "\n") { #expect(line.count <= HelpText.width, "\(line)") }
        #expect(try Run.photobook(["help", "cover"]).stdout == run.stdout)
        #expect(try Run.photobook(["--help"]).stdout.contains("cover"))
    }
}

/// The cover's option table in-process: its defaults are what help shows, and no value of any option, however
/// hostile, traps the parser; a refused one is named.
@Suite struct CoverOptionTests {
    @Test func theDefaultsShownAreTheDefaultsUsed() throws {
        let command = try CoverCommand.parse(["front.jpg", "-o", "c.pdf", "--spine", "1cm"])
        #expect(command.pageSize == .a4 && command.bleed == 0 && command.dpi == 300 && command.quality == 90)
        #expect(command.safety == nil && abs(command.geometry.safety - 10 * Length.pointsPerMillimetre) < 1e-9)
        #expect(abs(command.spineWidth - 10 * Length.pointsPerMillimetre) < 1e-9)
        let pages = try CoverCommand.parse(["f.jpg", "b.jpg", "-o", "c.pdf", "--interior-pages", "200", "--paper-ppi", "444"])
        #expect(pages.inputs == ["f.jpg", "b.jpg"])
        #expect(abs(pages.spineWidth - 200.0 / 444 * 72) < 1e-9)
        let long = Set(CoverCommand.options.map(\.spec.long))
        #expect(long.count == CoverCommand.options.count, "an option is declared twice")
    }

    @Test func noValueCrashesTheParser() {
        for option in CoverCommand.options.map(\.spec) {
            for form in ExtremeArguments.forms(of: option) {
                for value in ExtremeArguments.values {
                    let arguments = ["front.jpg", "-o", "c.pdf", "--spine", "5mm"] + form(value)
                    do {
                        _ = try CoverCommand.parse(arguments)
                    } catch {
                        #expect(error.status == .usage)
                        let named = error.message.hasPrefix(option.longName + ": ")
                            || error.message.hasPrefix("\(option.shortName ?? "-?") (\(option.longName)): ")
                            || error.message.hasPrefix("no output given") && option.long == "output"
                            // A spine given twice names --spine; a photo given as a value is one photo too many.
                            || error.message.hasPrefix("--spine: ") || error.message.contains("photos given")
                            // A panel too small for the default safety margin: the margin is what must change.
                            || error.message.hasPrefix("--safety: ") && option.long == "page-size"
                            || arguments.contains("--") || arguments.contains("-")
                        #expect(named, "\(arguments): \(error.message)")
                    }
                }
            }
        }
    }

    /// A front photo shown at its own resolution but cropped goes in as a lossless crop of its blocks, a few pixels
    /// wider than the crop: the page clips it to its cell, as a book's page does, instead of squeezing it in
    /// (it was drawn 848 pixels into an 839-pixel cell, 143 x 141 ppi).
    @Test func aLosslessCropOnTheFrontIsClippedNotSqueezed() throws {
        let scratch = try Scratch()
        let out = scratch.file("cover.pdf")
        let run = try Run.photobook(["cover", CoverTests.front, Run.fixture("exif-orientation/Portrait_1.jpg"), "-o", out,
                                     "--page-size", "a5", "--bleed", "3mm", "--interior-pages", "120", "--paper-ppi", "444"])
        try #require(run.status == 0, "\(run.stderr)")
        let list = try Run.command("/usr/bin/pdfimages", ["-list", out]).stdout
        let rows = list.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ").map(String.init) }
        try #require(rows.count == 2, "\(list)")
        for row in rows {
            let xppi = try #require(Int(row[12])), yppi = try #require(Int(row[13]))
            #expect(xppi == yppi, "image \(row[1]) drawn at \(xppi) x \(yppi) ppi:\n\(list)")
        }
    }
}
