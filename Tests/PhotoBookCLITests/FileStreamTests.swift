#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// The rendered pages wait in a hidden folder beside the output and are copied into the book when it is saved
/// (issue 14): the book equals the one embedded from memory, nothing goes to TMPDIR, and the save can be
/// interrupted or robbed of a page file without leaving anything behind.
@Suite(.serialized) struct FileStreamTests {
    static let timeLimit = 120.0

    /// Photos of every kind the PDF build embeds: rendered and kept originals, RGB, CMYK, PNG, an ICC profile.
    static func photos(in scratch: Scratch) throws -> [String] {
        let folder = Run.fixture("exif-orientation")
        var paths = ["Landscape_1", "Landscape_6", "Portrait_3", "Portrait_8"].map { "\(folder)/\($0).jpg" }
        paths.append(Run.fixture("cmyk-jpeg/pillow_pil_sample_cmyk.jpg"))
        paths.append(Run.fixture("pngsuite/basn2c08.png"))
        paths.append(try ColourTests.photo(in: scratch, name: "adobe.jpg", profile: ColourTests.adobeRGB))
        return paths
    }

    /// Every image stream of `pdf` as stored (qpdf --raw-stream-data), in object order.
    static func imageStreams(_ pdf: String) throws -> [[UInt8]] {
        let listing = try Run.command("/usr/bin/pdfimages", ["-list", pdf])
        let objects = listing.stdout.split(separator: "\n").dropFirst(2).map { line in
            Int(line.split(separator: " ")[10])!
        }
        return try objects.map { object in
            try ExternalCommand.run("/usr/bin/qpdf", ["--show-object=\(object)", "--raw-stream-data", pdf]).stdout
        }
    }

    @Test(arguments: [[], ["--keep-originals"], ["--layout", "grid 2x2"]])
    func aBookFromPageFilesEqualsTheBookFromMemory(_ options: [String]) throws {
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let photos = try Self.photos(in: scratch)
        let fromFiles = scratch.file("files.pdf"), fromMemory = scratch.file("memory.pdf")
        let files = try Run.command(Run.binary, ["build"] + photos + ["-o", fromFiles, "--sort", "given"] + options,
                                    environment: ["TMPDIR": tmp, "SOURCE_DATE_EPOCH": "1700000000"], timeout: Self.timeLimit)
        #expect(files.status == 0, "\(files.stderr)")
        let memory = try Run.command(Run.harness, ["build"] + photos + ["-o", fromMemory, "--sort", "given"] + options,
                                     environment: ["TMPDIR": tmp, "PHOTOBOOK_TEST_IMAGES_IN_MEMORY": "1", "SOURCE_DATE_EPOCH": "1700000000"],
                                     timeout: Self.timeLimit)
        #expect(memory.status == 0, "\(memory.stderr)")

        #expect(try Run.command("/usr/bin/qpdf", ["--check", fromFiles]).status == 0)
        let listed = try Run.command("/usr/bin/pdfimages", ["-list", fromFiles]).stdout
        #expect(listed == (try Run.command("/usr/bin/pdfimages", ["-list", fromMemory]).stdout))
        #expect(listed.split(separator: "\n").count - 2 == photos.count, "\(listed)")
        let streams = try Self.imageStreams(fromFiles)
        #expect(streams == (try Self.imageStreams(fromMemory)))
        #expect(streams.allSatisfy { $0.starts(with: [0xFF, 0xD8, 0xFF]) && $0.count > 300 }, "\(streams.map(\.count))")
        // And the whole file: with SOURCE_DATE_EPOCH set, the two ways give the same bytes.
        #expect(try Fixtures.read(fromFiles) == Fixtures.read(fromMemory))
        #expect(Scratch.listing(scratch.path) == ["adobe.jpg", "files.pdf", "memory.pdf", "tmp"])
        #expect(Scratch.listing(tmp).isEmpty, "nothing in TMPDIR")
    }

    /// A build paused at the start of its save, over an old book; `tmp` is its TMPDIR.
    struct PausedSave {
        let scratch: Scratch
        let tmp: String
        let out: String
        let oldBook = Array("%PDF-1.4 the previous book".utf8)
        let live: LiveRun
        let photos: [String]

        init() throws {
            let scratch = try Scratch()
            self.scratch = scratch
            tmp = try scratch.sub("tmp")
            let folder = try scratch.sub("photos")
            photos = try ["Landscape_1", "Landscape_5", "Portrait_2", "Portrait_7"].map { name in
                try scratch.copy(Run.fixture("exif-orientation/\(name).jpg"), to: "photos/\(name).jpg")
            }
            let out = scratch.file("book.pdf")
            _ = try scratch.write("book.pdf", Array("%PDF-1.4 the previous book".utf8))
            let live = try LiveRun(Run.harness, ["build", folder, "-o", out, "--jobs", "2"],
                                   environment: ["TMPDIR": tmp, "PHOTOBOOK_TEST_PAUSE": "save"])
            let paused = live.waitForStderr(containing: "test: paused at save", timeout: FileStreamTests.timeLimit)
            (self.out, self.live) = (out, live)
            #expect(paused, "\(live.stderr)")
        }

        /// The hidden working folder beside the output, where the pages wait.
        var workingFolder: String? {
            Scratch.listing(scratch.path).first { $0.hasPrefix(".book.pdf.photobook-pages-") }.map(scratch.file)
        }

        /// Nothing stays beside the output or in TMPDIR, and the old book is whole.
        func expectNothingLeft(bookKept: Bool = true) throws {
            if bookKept {
                #expect(try Fixtures.read(out) == oldBook, "the previous book is untouched")
            }
            #expect(Scratch.listing(scratch.path) == ["book.pdf", "photos", "tmp"], "\(Scratch.listing(scratch.path))")
            #expect(Scratch.listing(tmp).isEmpty, "nothing in TMPDIR")
        }
    }

    @Test func thePagesWaitBesideTheOutputNotInTMPDIR() throws {
        let paused = try PausedSave()
        let folder = try #require(paused.workingFolder, "\(Scratch.listing(paused.scratch.path))")
        let pages = Scratch.listing(folder)
        #expect(pages.count == paused.photos.count && pages.allSatisfy { $0.hasSuffix(".jpg") }, "\(pages)")
        #expect(Scratch.listing(paused.tmp).isEmpty, "nothing in TMPDIR")
        // The temporary PDF being written sits beside it.
        #expect(Scratch.listing(paused.scratch.path).filter { $0.hasPrefix(".book.pdf.photobook-") }.count == 2,
                "\(Scratch.listing(paused.scratch.path))")
        kill(paused.live.pid, SIGUSR1)
        #expect(paused.live.waitForExit(timeout: Self.timeLimit) == 0, "\(paused.live.stderr)")
        #expect(try PDFFacts(paused.out).pages == paused.photos.count)
        try paused.expectNothingLeft(bookKept: false)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalDuringTheSaveLeavesNothingBehind(_ signal: Int32) throws {
        let paused = try PausedSave()
        #expect(paused.workingFolder != nil)
        kill(paused.live.pid, signal)
        let status = paused.live.waitForExit(timeout: Self.timeLimit)
        #expect(status == 130, "\(paused.live.stderr)")
        #expect(paused.live.stderr.contains("nothing was written"), "\(paused.live.stderr)")
        try paused.expectNothingLeft()
    }

    @Test func aPageFileGoneBeforeTheSaveFailsTheBuildByName() throws {
        let paused = try PausedSave()
        let folder = try #require(paused.workingFolder)
        let removed = Scratch.listing(folder).map { folder + "/" + $0 }
        for page in removed { try FileManager.default.removeItem(atPath: page) }
        kill(paused.live.pid, SIGUSR1)
        let status = paused.live.waitForExit(timeout: Self.timeLimit)
        let stderr = paused.live.stderr
        #expect(status == 1, "\(stderr)")
        // The first page's file: named with the photo it was rendered from and the reason.
        let named = removed.filter { stderr.contains("the page file \($0) rendered from ") }
        #expect(named.count == 1, "\(stderr)")
        #expect(stderr.contains("cannot be read: no such file or directory"), "\(stderr)")
        #expect(paused.photos.contains { stderr.contains("rendered from \($0) cannot") }, "\(stderr)")
        #expect(stderr.contains("nothing was written"), "\(stderr)")
        try paused.expectNothingLeft()
    }
}
