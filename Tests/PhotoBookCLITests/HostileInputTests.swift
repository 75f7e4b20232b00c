import Foundation
import TestSupport
import Testing

/// A broken photo, made from a good one, and the reason photobook must give for it.
struct BrokenPhoto: Sendable, CustomTestStringConvertible {
    var name: String
    /// Part of the reason expected after `PATH: `: the words for the person who owns the file.
    var reason: String
    /// The report's `failureKind` for it: what a script that reads the report learns (docs/report.md), and what
    /// the tests of what became of the photo compare.
    var kind = "corrupt"
    /// Peak memory allowed, in MiB: a few hundred in general, little for a size refused from the header.
    var memoryLimitMiB = HostileInputTests.memoryLimitMiB
    var make: @Sendable () -> [UInt8]
    var testDescription: String { name }
}

/// Broken images given to the built binary: alone they fail the build by name, among good photos they are left
/// out with a warning, and with `--strict` they fail it with no output. Never a crash, a hang, a temporary file
/// left behind, or more than a few hundred MB of memory.
@Suite(.serialized) struct HostileInputTests {
    /// Peak memory allowed for one run on one bad photo. The largest legal PNG (100 megapixels, the
    /// `--max-pixels` default) needs a 300 MB buffer before libpng finds its body short.
    static let memoryLimitMiB = 512
    static let timeLimit = 20.0

    static let cases: [BrokenPhoto] = {
        let jpeg = HostileFiles.jpeg()
        let progressive = HostileFiles.jpeg(progressive: true)
        let png = HostileFiles.read(Run.fixture("pngsuite/basn2c08.png"))
        let interlaced = HostileFiles.read(Run.fixture("pngsuite/basi2c08.png"))
        let sof = JPEGStructure.frame(jpeg)
        let dht = JPEGStructure.first(0xC4, in: jpeg)!
        let scan = JPEGStructure.scans(jpeg)[0].end
        return [
            BrokenPhoto(name: "empty.jpg", reason: "empty file") { [] },
            BrokenPhoto(name: "few-bytes.jpg", reason: "corrupt JPEG") { [0xFF, 0xD8, 0xFF, 0xE0] },
            BrokenPhoto(name: "text.jpg", reason: "not an image photobook reads", kind: "unsupported") { Array("my holiday notes\n".utf8) },
            BrokenPhoto(name: "cut-before-frame.jpg", reason: "corrupt JPEG (truncated") { Array(jpeg.prefix(sof.offset)) },
            BrokenPhoto(name: "cut-in-frame.jpg", reason: "corrupt JPEG (truncated") { Array(jpeg.prefix(sof.offset + 7)) },
            BrokenPhoto(name: "cut-in-scan.jpg", reason: "corrupt JPEG (truncated") { Array(jpeg.prefix(scan + 2000)) },
            BrokenPhoto(name: "cut-progressive.jpg", reason: "corrupt JPEG") {
                Array(progressive.prefix(progressive.count * 2 / 3))
            },
            BrokenPhoto(name: "cut-fixture.jpg", reason: "corrupt JPEG (truncated") {
                let bytes = HostileFiles.read(HostileFiles.landscape)
                return Array(bytes.prefix(bytes.count / 2))
            },
            BrokenPhoto(name: "bad-huffman.jpg", reason: "Huffman") {
                // Every code-length count at 255: more codes than any table can hold.
                var bytes = jpeg
                for i in 0..<16 { bytes[dht.offset + 5 + i] = 0xFF }
                return bytes
            },
            BrokenPhoto(name: "dc-scan-with-ac-band.jpg", reason: "invalid progressive parameters") {
                HostileFiles.withScanParameters(progressive, scan: 0, ss: 5)
            },
            BrokenPhoto(name: "band-past-63.jpg", reason: "invalid progressive parameters") {
                HostileFiles.withScanParameters(progressive, scan: 1, se: 70)
            },
            BrokenPhoto(name: "band-backwards.jpg", reason: "invalid progressive parameters") {
                HostileFiles.withScanParameters(progressive, scan: 1, ss: 40, se: 5)
            },
            BrokenPhoto(name: "approximation-14.jpg", reason: "invalid progressive parameters") {
                HostileFiles.withScanParameters(progressive, scan: 0, ahal: 0xEE)
            },
            BrokenPhoto(name: "60000x60000.jpg", reason: "is 60000x60000 pixels, more than the limit", kind: "tooLarge",
                        memoryLimitMiB: 64) {
                JPEGStructure.withFrame(jpeg, width: 60000, height: 60000)
            },
            BrokenPhoto(name: "zero-width.jpg", reason: "corrupt JPEG") { JPEGStructure.withFrame(jpeg, width: 0) },
            BrokenPhoto(name: "twelve-bit.jpg", reason: "unsupported JPEG (12-bit", kind: "unsupported") {
                JPEGStructure.withFrame(jpeg, marker: 0xC1, precision: 12)
            },
            BrokenPhoto(name: "lossless.jpg", reason: "unsupported JPEG (lossless", kind: "unsupported") {
                JPEGStructure.withFrame(jpeg, marker: 0xC3)
            },
            BrokenPhoto(name: "100000x100000.png", reason: "is 100000x100000 pixels, more than the limit",
                        kind: "tooLarge", memoryLimitMiB: 64) {
                HostileFiles.png(width: 100_000, height: 100_000)
            },
            BrokenPhoto(name: "largest-legal-size-tiny-body.png", reason: "corrupt PNG") {
                HostileFiles.png(width: 10_000, height: 10_000)
            },
            BrokenPhoto(name: "largest-legal-interlaced.png", reason: "corrupt PNG") {
                HostileFiles.png(width: 10_000, height: 10_000, interlaced: true)
            },
            BrokenPhoto(name: "bad-idat-crc.png", reason: "corrupt PNG (IDAT: CRC error)") {
                HostileFiles.withBadCRC(png, in: "IDAT")
            },
            BrokenPhoto(name: "bad-ihdr-crc.png", reason: "corrupt PNG") { HostileFiles.withBadCRC(png, in: "IHDR") },
            BrokenPhoto(name: "no-idat.png", reason: "corrupt PNG") { HostileFiles.removingChunks(png, "IDAT") },
            BrokenPhoto(name: "no-iend.png", reason: "corrupt PNG") { HostileFiles.removingChunks(png, "IEND") },
            BrokenPhoto(name: "cut.png", reason: "corrupt PNG") { Array(png.prefix(png.count / 2)) },
            BrokenPhoto(name: "cut-interlaced.png", reason: "corrupt PNG") {
                Array(interlaced.prefix(interlaced.count * 3 / 4))
            },
            BrokenPhoto(name: "signature-only.png", reason: "corrupt PNG") { TestPNGEncoder.signature },
        ]
    }()

    /// Alone: exit 1, the file named and failed for its kind of trouble, nothing written, nothing left in TMPDIR.
    /// (The words of each reason are checked once, in `allOfThemTogetherLeaveTheGoodPages`.)
    @Test(arguments: cases)
    func aloneItFailsTheBuildByName(_ photo: BrokenPhoto) throws {
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let path = try scratch.write(photo.name, photo.make())
        let out = scratch.file("book.pdf")
        let json = ReadReport.temporaryPath()
        let (run, peak) = try Run.photobookMeasured(["build", path, "-o", out, "--report", json], tmpdir: tmp,
                                                    timeout: Self.timeLimit, scratch: scratch)
        #expect(!run.diedFromSignal, "crashed: \(run.status) \(run.stderr)")
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: error: \(path): "), "expected \(path) named in:\n\(run.stderr)")
        let report = try ReadReport.take(json)
        #expect(report.kinds == [photo.name: photo.kind], "\(report.kinds): \(run.stderr)")
        #expect(report.book.outcome == "skipped" && report.book.failureKind == "refused" && report.book.pagesWritten == 0)
        #expect(Scratch.listing(scratch.path) == [photo.name, "tmp"].sorted(), "no output, no temporary file beside it")
        #expect(Scratch.listing(tmp).isEmpty, "nothing left in TMPDIR")
        if let peak { #expect(peak < photo.memoryLimitMiB, "peak memory \(peak) MiB") }
    }

    /// Every broken photo in one folder with two good ones, worked on four at a time: each is named, the book
    /// has the two good pages.
    @Test func allOfThemTogetherLeaveTheGoodPages() throws {
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(HostileFiles.landscape, to: "photos/a-good.jpg")
        _ = try scratch.copy(Run.fixture("pngsuite/basi2c08.png"), to: "photos/b-good.png")
        for photo in Self.cases { _ = try scratch.write("photos/\(photo.name)", photo.make()) }
        let out = scratch.file("book.pdf")
        let json = scratch.file("report.json")
        let (run, peak) = try Run.photobookMeasured(["build", photos, "-o", out, "-j", "4", "--report", json],
                                                    tmpdir: tmp, timeout: 60, scratch: scratch)
        #expect(run.status == 0, "\(run.stderr)")
        let kinds = Dictionary(uniqueKeysWithValues: try ReadReport(path: json).photos.map {
            (FileSystemName.base($0.path), $0.failureKind)
        })
        for photo in Self.cases {
            let line = run.stderr.split(separator: "\n").first { $0.hasPrefix("photobook: warning: \(photos)/\(photo.name): ") }
            #expect(line?.contains(photo.reason) == true, "\(photo.name) not named with '\(photo.reason)'")
            #expect(kinds[photo.name] == photo.kind, "\(photo.name): \(String(describing: kinds[photo.name]))")
        }
        #expect(run.stderr.contains("2 pages, \(Self.cases.count) photos left out"), "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 2)
        #expect(Scratch.listing(tmp).isEmpty)
        // Four 100-megapixel PNG buffers could be in flight at once; still bounded by --jobs, not by the folder.
        if let peak { #expect(peak < 4 * Self.memoryLimitMiB, "peak memory \(peak) MiB") }
    }

    /// Among good photos: left out with a warning naming it; the book has the good ones. With `--strict`:
    /// exit 1 and the old book untouched.
    @Test(arguments: cases)
    func amongGoodPhotosItIsLeftOutAndStrictFails(_ photo: BrokenPhoto) throws {
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(HostileFiles.landscape, to: "photos/a-good.jpg")
        _ = try scratch.copy(Run.fixture("pngsuite/basn2c08.png"), to: "photos/z-good.png")
        let bad = try scratch.write("photos/\(photo.name)", photo.make())
        let out = scratch.file("book.pdf")

        let (run, report) = try Run.photobookReporting(["build", photos, "-o", out], tmpdir: tmp, timeout: Self.timeLimit)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").contains { $0.hasPrefix("photobook: warning: \(bad): ") },
                "expected a warning naming \(bad) in:\n\(run.stderr)")
        #expect(report.kinds == ["a-good.jpg": "succeeded", "z-good.png": "succeeded", photo.name: photo.kind],
                "\(report.kinds)")
        #expect(try PDFFacts(out).pages == 2)
        #expect(Scratch.listing(tmp).isEmpty)

        let before = fileDigest(out)
        let (strict, strictReport) = try Run.photobookReporting(["build", photos, "-o", out, "--strict"], tmpdir: tmp,
                                                                timeout: Self.timeLimit)
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(strict.stderr.contains("photobook: error: \(bad): "), "\(strict.stderr)")
        #expect(strictReport.kinds[photo.name] == photo.kind, "\(strictReport.kinds)")
        #expect(strictReport.book.outcome == "skipped" && strictReport.book.failureKind == "refused")
        #expect(fileDigest(out) == before, "--strict leaves the old book untouched")
        #expect(Scratch.listing(scratch.path) == ["book.pdf", "photos", "tmp"])
        #expect(Scratch.listing(tmp).isEmpty)
    }

    enum Source: String, CaseIterable, Sendable {
        case baseline, progressive, arithmetic, fixture, png, interlacedPNG
        var bytes: [UInt8] {
            switch self {
            case .baseline: HostileFiles.jpeg()
            case .progressive: HostileFiles.jpeg(progressive: true)
            case .arithmetic: HostileFiles.jpeg(arithmetic: true)
            case .fixture: HostileFiles.read(HostileFiles.landscape)
            case .png: HostileFiles.read(Run.fixture("pngsuite/basn2c08.png"))
            case .interlacedPNG: HostileFiles.read(Run.fixture("pngsuite/basi2c08.png"))
            }
        }
        var fileName: String { self == .png || self == .interlacedPNG ? "photo.png" : "photo.jpg" }
    }

    /// Cut at a dozen places from the first bytes to the last: every cut fails by name, alone.
    @Test(arguments: Source.allCases)
    func everyCutFailsByName(_ source: Source) throws {
        let bytes = source.bytes
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let cuts = Set([1, 2, 3, 8, 20] + (1..<12).map { bytes.count * $0 / 12 } + [bytes.count - 13, bytes.count - 1])
        for cut in cuts.sorted() {
            let path = try scratch.write("cut-\(cut)-\(source.fileName)", Array(bytes.prefix(cut)))
            let json = scratch.file("report.json")
            let run = try Run.photobook(["build", path, "-o", scratch.file("book.pdf"), "--report", json], tmpdir: tmp,
                                        timeout: Self.timeLimit)
            #expect(!run.diedFromSignal && run.status == 1, "cut at \(cut) of \(bytes.count): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("photobook: error: \(path): "), "cut at \(cut): \(run.stderr)")
            #expect(try ReadReport(path: json).photos.map(\.failureKind) == ["corrupt"], "cut at \(cut): \(run.stderr)")
        }
        #expect(!Scratch.listing(scratch.path).contains("book.pdf"))
        #expect(Scratch.listing(tmp).isEmpty)
    }

    /// Flipped bits in the entropy-coded data: a page (libjpeg may not notice) or a failure by name, never a crash.
    @Test(arguments: [Source.baseline, .progressive, .arithmetic, .fixture])
    func flippedBitsEndInAPageOrAReason(_ source: Source) throws {
        let good = source.bytes
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        var outcomes: [Int32: Int] = [:]
        for seed in 1...24 {
            let path = try scratch.write("flip-\(seed).jpg", HostileFiles.withFlippedBits(good, count: seed % 6 + 1,
                                                                                         seed: UInt64(seed)))
            let out = scratch.file("book-\(seed).pdf")
            let (run, report) = try Run.photobookReporting(["build", path, "-o", out], tmpdir: tmp, timeout: Self.timeLimit)
            outcomes[run.status, default: 0] += 1
            switch run.status {
            case 0:
                #expect(try PDFFacts(out).pages == 1)
            case 1:
                #expect(report.kinds == ["flip-\(seed).jpg": "corrupt"], "\(report.kinds): \(run.stderr)")
                #expect(run.stderr.contains("photobook: error: \(path): "), "\(run.stderr)")
                #expect(!FileManager.default.fileExists(atPath: out))
            default:
                Issue.record("seed \(seed): exit \(run.status)\n\(run.stderr)")
            }
        }
        #expect(Scratch.listing(tmp).isEmpty)
        #expect(Scratch.listing(scratch.path).allSatisfy { !$0.hasPrefix(".") }, "no temporary PDF left")
    }

    /// Flipped bits inside a PNG's compressed data, with the CRC recomputed so that zlib, not the CRC, must
    /// notice: a page or a failure by name, never a crash.
    @Test(arguments: ["basn2c08.png", "basi2c08.png", "basn3p08.png", "basn6a16.png"])
    func flippedBitsInPNGDataEndInAPageOrAReason(_ name: String) throws {
        let good = HostileFiles.read(Run.fixture("pngsuite/\(name)"))
        let idat = try #require(TestPNGEncoder.chunks(of: good).first { $0.type == "IDAT" })
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        for seed in 1...16 {
            var data = Array(good[(idat.offset + 8)..<(idat.offset + 8 + idat.length)])
            var generator = SplitMix64(seed: UInt64(seed))
            for _ in 0..<(seed % 4 + 1) {
                data[Int.random(in: 0..<data.count, using: &generator)] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
            }
            let bytes = Array(good[..<idat.offset]) + TestPNGEncoder.chunk("IDAT", data) + Array(good[idat.end...])
            let path = try scratch.write("flip-\(seed).png", bytes)
            let out = scratch.file("book-\(seed).pdf")
            let (run, report) = try Run.photobookReporting(["build", path, "-o", out], tmpdir: tmp, timeout: Self.timeLimit)
            switch run.status {
            case 0: #expect(try PDFFacts(out).pages == 1)
            case 1:
                #expect(report.kinds == ["flip-\(seed).png": "corrupt"], "\(report.kinds): \(run.stderr)")
                #expect(run.stderr.contains("photobook: error: \(path): "), "\(run.stderr)")
            default: Issue.record("seed \(seed): exit \(run.status)\n\(run.stderr)")
            }
        }
        #expect(Scratch.listing(tmp).isEmpty)
    }

    /// EXIF blocks that point into themselves, claim absurd counts or point past the end: the photo still makes
    /// a page, read as orientation 1 (a 600x400 landscape stays 600x400).
    @Test(arguments: ["self-referencing IFD0", "Exif pointer to itself", "absurd entry count", "orientation past the end",
                      "first IFD past the end", "orientation with a huge count", "truncated TIFF header"])
    func hostileEXIFIsIgnored(_ kind: String) throws {
        var tiff = TIFFWriter.afterHeader(.littleEndian)
        switch kind {
        case "self-referencing IFD0":
            tiff.u32(8); tiff.u16(2)
            tiff.entry(0x8769, type: 4, count: 1, value: 8)  // Exif IFD = IFD0
            tiff.entry(0x0112, type: 3, count: 1, value: 9)  // invalid orientation
            tiff.u32(8)                                     // next IFD = IFD0
        case "Exif pointer to itself":
            tiff.u32(8); tiff.u16(1)
            tiff.entry(0x8769, type: 4, count: 1, value: 10)
            tiff.u32(8)
        case "absurd entry count":
            tiff.u32(8); tiff.u16(0xFFFF)
            tiff.entry(0x0112, type: 3, count: 1, value: 0)
        case "orientation past the end":
            tiff.u32(8); tiff.u16(1)
            tiff.entry(0x0112, type: 3, count: 4, value: 0xFFFF_FFF0)
            tiff.u32(0)
        case "first IFD past the end":
            tiff.u32(0xFFFF_FFF0)
        case "orientation with a huge count":
            tiff.u32(8); tiff.u16(1)
            tiff.entry(0x0112, type: 3, count: 0xFFFF_FFFF, value: 20)
            tiff.u32(0)
        default:
            tiff.bytes = [0x49, 0x49, 42]
        }
        let scratch = try Scratch()
        let path = try scratch.write("exif.jpg", HostileFiles.withEXIF(HostileFiles.jpeg(), tiff: tiff.bytes))
        let out = scratch.file("book.pdf")
        let (run, peak) = try Run.photobookMeasured(["build", path, "-o", out, "--fit", "fit"], timeout: Self.timeLimit,
                                                    scratch: scratch)
        #expect(run.status == 0, "\(run.stderr)")
        let image = try #require(try PDFFacts(out).images.first)
        #expect(image.width == 600 && image.height == 400, "orientation 1 expected: \(image)")
        if let peak { #expect(peak < Self.memoryLimitMiB) }
    }

    /// A huge file that merely looks like a photo (a video renamed .jpg, zeros, or a real JPEG header with
    /// gigabytes of junk after it) is never loaded whole.
    @Test func aHugeFileNamedLikeAPhotoIsNotLoadedIntoMemory() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/a.jpg")
        // 300 MB of zeros named .jpg, and a small JPEG header followed by 300 MB of zeros.
        let zeros = scratch.file("photos/video.jpg")
        _ = FileManager.default.createFile(atPath: zeros, contents: nil)
        try FileHandle(forWritingAtPath: zeros)!.truncate(atOffset: 300 << 20)
        let header = Array(HostileFiles.read(Run.fixture("exif-orientation/Landscape_2.jpg")).prefix(4096))
        let padded = try scratch.write("photos/padded.jpg", header)
        try FileHandle(forWritingAtPath: padded)!.truncate(atOffset: 300 << 20)
        let json = ReadReport.temporaryPath()
        let (run, peak) = try Run.photobookMeasured(["build", photos, "-o", scratch.file("book.pdf"), "--report", json],
                                                    timeout: Self.timeLimit, scratch: scratch)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(zeros): "), "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(padded): "), "\(run.stderr)")
        // Zeros are no image; a JPEG header followed by 300 MB is far more bytes than its pixels need.
        let kinds = try ReadReport.take(json).kinds
        #expect(kinds == ["a.jpg": "succeeded", "video.jpg": "unsupported", "padded.jpg": "tooLarge"], "\(kinds)")
        #expect(try PDFFacts(scratch.file("book.pdf")).pages == 1)
        if let peak { #expect(peak < 150, "peak memory \(peak) MiB") }
    }
}
