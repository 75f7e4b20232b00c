import Foundation
import Testing

/// Where the book goes, and what the disk does meanwhile: every fault is named, the old book stays whole, and no
/// temporary file is left beside the output or in TMPDIR. The rendered pages wait in a hidden folder beside the
/// output (issue 14), so the output's filesystem is the one that must hold them; TMPDIR is not used. The disk faults use real tmpfs mounts (tests run as
/// root); where mounting is refused those tests are skipped.
@Suite(.serialized) struct OutputFaultTests {
    static let timeLimit = 60.0
    static let mountReason: Comment = "needs to mount a tmpfs (root, and a system that allows it)"
    let photo = HostileFiles.landscape
    let folder = Run.fixture("exif-orientation")

    @Test func aMissingOutputFolderIsNamedAndNotCreated() throws {
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let out = scratch.file("no/such/folder/book.pdf")
        let run = try Run.photobook(["build", photo, "-o", out], tmpdir: tmp, timeout: Self.timeLimit)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: error: \(out): cannot write the book: its folder \(scratch.file("no/such/folder")) does not exist"),
                "\(run.stderr)")
        #expect(Scratch.listing(scratch.path) == ["tmp"])
        #expect(Scratch.listing(tmp).isEmpty)
    }

    @Test(arguments: ["folder/", "new-name/", ".", "folder/.", "folder/.."])
    func anOutputThatIsAFolderIsRefused(_ name: String) throws {
        let scratch = try Scratch()
        _ = try scratch.sub("folder")
        let out = scratch.file(name)
        let run = try Run.photobook(["build", photo, "-o", out], timeout: Self.timeLimit)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: error: \(out): the output "), "\(run.stderr)")
        #expect(Scratch.listing(scratch.path) == ["folder"])
        #expect(Scratch.listing(scratch.file("folder")).isEmpty)
    }

    enum Alias: String, CaseIterable, Sendable {
        case symbolicLink, dotSlash, dotDot, doubleSlash, hardLink, throughLinkedFolder, namedInputFile
    }

    /// The output is an input however it is spelled: refused before any work, the photo untouched.
    @Test(arguments: Alias.allCases)
    func anOutputThatIsAnInputIsRefused(_ alias: Alias) throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        let input = try scratch.copy(photo, to: "photos/a.jpg")
        _ = try scratch.copy(Run.fixture("pngsuite/basn2c08.png"), to: "photos/b.png")
        let before = fileDigest(input)
        var inputs = [photos]
        let out: String
        switch alias {
        case .symbolicLink:
            out = scratch.file("book.pdf")
            try FileManager.default.createSymbolicLink(atPath: out, withDestinationPath: input)
        case .dotSlash: out = scratch.path + "/./photos/./a.jpg"
        case .dotDot: out = scratch.path + "/photos/../photos/a.jpg"
        case .doubleSlash: out = scratch.path + "//photos//a.jpg"
        case .hardLink:
            out = scratch.file("book.pdf")
            try FileManager.default.linkItem(atPath: input, toPath: out)
        case .throughLinkedFolder:
            try FileManager.default.createSymbolicLink(atPath: scratch.file("alias"), withDestinationPath: photos)
            out = scratch.file("alias/b.png")
        case .namedInputFile:
            inputs = [scratch.path + "/photos/../photos/a.jpg"]
            out = input
        }
        let run = try Run.photobook(["build"] + inputs + ["-o", out], timeout: Self.timeLimit)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: error: \(out): the output is one of the inputs"), "\(run.stderr)")
        #expect(fileDigest(input) == before, "the photo is untouched")
        #expect(Scratch.listing(photos) == ["a.jpg", "b.png"], "no temporary file among the photos")
    }

    @Test(.enabled(if: TemporaryMount.isAvailable, mountReason))
    func aReadOnlyOutputFolderIsRefusedBeforeAnyWork() throws {
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let readOnly = try scratch.sub("read-only")
        let mount = try #require(TemporaryMount(at: readOnly, size: "1m", readOnly: true))
        defer { mount.unmount() }
        let out = readOnly + "/book.pdf"
        let run = try Run.photobook(["build", photo, "-o", out], tmpdir: tmp, timeout: Self.timeLimit)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: error: \(out): cannot write the book: folder \(readOnly) is not writable"),
                "\(run.stderr)")
        #expect(Scratch.listing(tmp).isEmpty)
    }

    /// The whole book does not fit on the output's filesystem: its pages already do not, while they are rendered
    /// into the working folder beside it; the build fails naming that folder, the old book is whole, no temporary
    /// file stays beside it or in TMPDIR, and no photo is blamed for the full disk.
    @Test(.enabled(if: TemporaryMount.isAvailable, mountReason))
    func aFullOutputFilesystemFailsAndKeepsTheOldBook() throws {
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let small = try scratch.sub("small")
        let mount = try #require(TemporaryMount(at: small, size: "2m"))
        defer { mount.unmount() }
        let out = small + "/book.pdf"
        let old = [UInt8](repeating: 0x25, count: 300_000)  // the old book, 300 kB
        try Data(old).write(to: URL(fileURLWithPath: out))
        let before = fileDigest(out)

        // Eighteen photos make a book of about 5 MB.
        let (run, report) = try Run.photobookReporting(["build", folder, "-o", out], tmpdir: tmp, timeout: Self.timeLimit)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(report.book.outcome == "failed" && report.book.failureKind == "outputFailed",
                "\(report.book.outcome) \(String(describing: report.book.failureKind))")
        #expect(run.stderr.contains("photobook: error: \(out): cannot write a temporary file in \(small)/.book.pdf.photobook-pages-"),
                "\(run.stderr)")
        #expect(run.stderr.contains("no space left on device"), "\(run.stderr)")
        // No photo is blamed for the full disk: each was rendered, or not rendered for the book's own reason.
        #expect(report.photos.count == 18 && report.photos.allSatisfy {
            $0.outcome == "succeeded" || ($0.outcome == "skipped" && $0.failureKind == "outputFailed"
                                          && $0.reason?.hasPrefix("not rendered: cannot write") == true)
        }, "\(report.kinds)")
        #expect(fileDigest(out) == before, "the old book is intact")
        #expect(Scratch.listing(small) == ["book.pdf"], "no temporary file beside the output")
        #expect(Scratch.listing(tmp).isEmpty, "no temporary file in TMPDIR")
    }

    /// The pages fit but the book does not: the disk fills while the save copies them into the book (libharu
    /// writes into a pipe, a second thread writes the file). Named as the book's write, the old book stays.
    @Test(.enabled(if: TemporaryMount.isAvailable, mountReason))
    func aDiskThatFillsDuringTheSaveFailsAndKeepsTheOldBook() throws {
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let free = try scratch.sub("free")
        let probe = free + "/book.pdf"
        let first = try Run.photobook(["build", folder, "-o", probe], tmpdir: tmp, timeout: Self.timeLimit)
        try #require(first.status == 0, "\(first.stderr)")
        let bookSize = try #require(try FileManager.default.attributesOfItem(atPath: probe)[.size] as? Int)
        // Room for the old book and every page (together a little less than the book), not for one page more:
        // each page file goes only once it is copied, so the save needs the book and a page at its end.
        let small = try scratch.sub("small")
        let mount = try #require(TemporaryMount(at: small, size: "\(bookSize / 1024 + 64)k"))
        defer { mount.unmount() }
        let out = small + "/book.pdf"
        try Data("old".utf8).write(to: URL(fileURLWithPath: out))
        let (run, report) = try Run.photobookReporting(["build", folder, "-o", out], tmpdir: tmp, timeout: Self.timeLimit)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(report.book.outcome == "failed" && report.book.failureKind == "outputFailed",
                "\(report.book.outcome) \(String(describing: report.book.failureKind))")
        #expect(run.stderr.contains("photobook: error: \(out): cannot write the book: no space left on device"), "\(run.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "old")
        #expect(Scratch.listing(small) == ["book.pdf"], "no temporary file beside the output")
        #expect(Scratch.listing(tmp).isEmpty)
    }

    /// No inode left for the working folder beside the output: named, and the old book stays.
    @Test(.enabled(if: TemporaryMount.isAvailable, mountReason))
    func noRoomForTheTemporaryFileFailsByName() throws {
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let small = try scratch.sub("small")
        // Three inodes: the root, the old book, and nothing more (tmpfs counts one spare for itself).
        guard let mount = TemporaryMount(at: small, size: "4m,nr_inodes=2") else {
            withKnownIssue("this kernel refused nr_inodes=2", isIntermittent: true) { Issue.record("skipped") }
            return
        }
        defer { mount.unmount() }
        let out = small + "/book.pdf"
        try Data("old".utf8).write(to: URL(fileURLWithPath: out))
        let (run, report) = try Run.photobookReporting(["build", photo, "-o", out], tmpdir: tmp, timeout: Self.timeLimit)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(report.book.outcome == "failed" && report.book.failureKind == "outputFailed",
                "\(report.book.outcome) \(String(describing: report.book.failureKind))")
        #expect(run.stderr.contains("photobook: error: \(out): cannot create a temporary folder in \(small): no space left on device"),
                "\(run.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "old")
        #expect(Scratch.listing(small) == ["book.pdf"])
        #expect(Scratch.listing(tmp).isEmpty)
    }

    /// A TMPDIR too small for the pages (often RAM, a tmpfs) does not matter: they wait beside the output.
    @Test(.enabled(if: TemporaryMount.isAvailable, mountReason))
    func aSmallTMPDIRDoesNotMatter() throws {
        let scratch = try Scratch()
        let small = try scratch.sub("small-tmp")
        let mount = try #require(TemporaryMount(at: small, size: "600k"))
        defer { mount.unmount() }
        let out = scratch.file("book.pdf")
        try Data("old".utf8).write(to: URL(fileURLWithPath: out))
        let run = try Run.photobook(["build", folder, "-o", out, "-j", "1"], tmpdir: small, timeout: Self.timeLimit)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 18)
        #expect(Scratch.listing(small).isEmpty, "nothing in TMPDIR")
        #expect(Scratch.listing(scratch.path) == ["book.pdf", "small-tmp"], "no temporary file beside the output")
    }

    enum Placement: String, CaseIterable, Sendable { case outputOnTmpfs, temporaryFolderOnTmpfs }

    /// The rename stays within the output's filesystem: TMPDIR elsewhere does not matter.
    @Test(.enabled(if: TemporaryMount.isAvailable, mountReason), arguments: Placement.allCases)
    func anOutputOnAnotherFilesystemThanTMPDIRBuilds(_ placement: Placement) throws {
        let scratch = try Scratch()
        let mounted = try scratch.sub("mounted")
        let disk = try scratch.sub("disk")
        let mount = try #require(TemporaryMount(at: mounted, size: "64m"))
        defer { mount.unmount() }
        let (outFolder, tmp) = placement == .outputOnTmpfs ? (mounted, disk) : (disk, mounted)
        let out = outFolder + "/book.pdf"
        try Data("old".utf8).write(to: URL(fileURLWithPath: out))
        let run = try Run.photobook(["build", folder, "-o", out], tmpdir: tmp, timeout: Self.timeLimit)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 18)
        #expect(Scratch.listing(outFolder) == ["book.pdf"])
        #expect(Scratch.listing(tmp).isEmpty)
    }

    /// TMPDIR is not used at all: one that does not exist is no obstacle, and it is not created.
    @Test func aTMPDIRThatDoesNotExistDoesNotMatter() throws {
        let scratch = try Scratch()
        let out = scratch.file("book.pdf")
        let tmp = scratch.file("no-such-tmp")
        let run = try Run.photobook(["build", photo, "-o", out], tmpdir: tmp, timeout: Self.timeLimit)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Scratch.listing(scratch.path) == ["book.pdf"])
    }
}
