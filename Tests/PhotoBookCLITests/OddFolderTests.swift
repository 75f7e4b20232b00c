import Foundation
import Testing

/// Folders as people really have them: links, loops, FIFOs, odd names, unreadable files. Each run is bounded in
/// time; none may hang, and each says what it did with every file that looks like a photo.
@Suite(.serialized) struct OddFolderTests {
    static let timeLimit = 20.0
    let landscape = HostileFiles.landscape
    let png = Run.fixture("pngsuite/basn2c08.png")

    private func link(_ target: String, at path: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    @Test func aFolderNamedLikeAPhotoIsAFolder() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(landscape, to: "photos/a.jpg")
        _ = try scratch.sub("photos/x.jpg")
        _ = try scratch.copy(png, to: "photos/x.jpg/inner.png")
        let out = scratch.file("book.pdf")
        let flat = try Run.photobook(["build", photos, "-o", out, "-v"], timeout: Self.timeLimit)
        #expect(flat.status == 0, "\(flat.stderr)")
        #expect(flat.stderr.contains("photobook: \(photos)/x.jpg: is a folder (use -r"), "\(flat.stderr)")
        #expect(try PDFFacts(out).pages == 1)
        let deep = try Run.photobook(["build", photos, "-r", "-o", out], timeout: Self.timeLimit)
        #expect(deep.status == 0, "\(deep.stderr)")
        #expect(try PDFFacts(out).pages == 2)
        // Named on the command line, it is a folder too.
        let named = try Run.photobook(["build", "\(photos)/x.jpg", "-o", out], timeout: Self.timeLimit)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(try PDFFacts(out).pages == 1)
    }

    @Test func linksToFilesAndFoldersAreFollowed() throws {
        let scratch = try Scratch()
        let elsewhere = try scratch.sub("elsewhere")
        _ = try scratch.copy(landscape, to: "elsewhere/far.jpg")
        _ = try scratch.copy(png, to: "elsewhere/far.png")
        let photos = try scratch.sub("photos")
        try link(elsewhere + "/far.jpg", at: photos + "/1-link.jpg")
        try link("../elsewhere", at: photos + "/2-folder")
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", photos, "-r", "-o", out], timeout: Self.timeLimit)
        #expect(run.status == 0, "\(run.stderr)")
        // far.jpg is reached twice (the link and the linked folder): one page.
        #expect(run.stderr.contains("photobook: warning: \(photos)/2-folder/far.jpg: same file as \(photos)/1-link.jpg, included once"),
                "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 2)
    }

    @Test func linkLoopsAreDetectedAndWarnedWithoutHanging() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(landscape, to: "photos/a.jpg")
        _ = try scratch.sub("photos/sub")
        _ = try scratch.copy(png, to: "photos/sub/b.png")
        try link("..", at: photos + "/sub/up")
        try link(photos, at: photos + "/sub/absolute")
        try link("self.jpg", at: photos + "/self.jpg")  // a link to itself: ELOOP
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", photos, "-r", "-o", out], timeout: Self.timeLimit)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/sub/up: symbolic link loop, not followed"), "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/sub/absolute: symbolic link loop, not followed"),
                "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/self.jpg: "), "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 2)
    }

    /// Two links per level to the next level, twenty levels deep: a million paths to one photo. Each folder is
    /// read once, so this takes a moment, not hours.
    @Test func manyPathsToOneFolderAreWalkedOnce() throws {
        let scratch = try Scratch()
        let levels = 20
        for level in 0...levels { _ = try scratch.sub("d\(level)") }
        _ = try scratch.copy(landscape, to: "d\(levels)/photo.jpg")
        for level in 0..<levels {
            try link("../d\(level + 1)", at: scratch.file("d\(level)/left"))
            try link("../d\(level + 1)", at: scratch.file("d\(level)/right"))
        }
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", scratch.file("d0"), "-r", "-o", out], timeout: Self.timeLimit)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 1)
        #expect(run.stderr.split(separator: "\n").count < 3 * levels, "one line per folder reached twice, at most")
    }

    @Test func aDanglingLinkNamedLikeAPhotoIsLeftOutByName() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(landscape, to: "photos/a.jpg")
        try link("gone.jpg", at: photos + "/b.jpg")
        try link("gone-too", at: photos + "/c")
        let out = scratch.file("book.pdf")
        let (run, report) = try Run.photobookReporting(["build", photos, "-o", out], timeout: Self.timeLimit)
        #expect(run.status == 0, "\(run.stderr)")
        // The photo is left out as one that cannot be read, and the warning says why: the link is broken.
        #expect(report.kinds == ["a.jpg": "succeeded", "b.jpg": "unreadable"], "\(report.kinds)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/b.jpg: cannot read: broken symbolic link"), "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/c: broken symbolic link"), "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 1)
        let (strict, strictReport) = try Run.photobookReporting(["build", photos, "-o", scratch.file("strict.pdf"), "--strict"],
                                                                timeout: Self.timeLimit)
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(strictReport.book.failureKind == "refused" && strictReport.kinds["b.jpg"] == "unreadable", "\(strictReport.kinds)")
        #expect(strict.stderr.contains("photobook: error: \(photos)/b.jpg: "), "\(strict.stderr)")
        // Named on the command line, a dangling link is an input that is not there.
        let named = try Run.photobook(["build", photos + "/b.jpg", "-o", scratch.file("named.pdf")], timeout: Self.timeLimit)
        #expect(named.status == 2, "\(named.stderr)")
        #expect(named.stderr.contains("photobook: error: \(photos)/b.jpg: broken symbolic link"), "\(named.stderr)")
        #expect(Scratch.listing(scratch.path) == ["book.pdf", "photos"])
    }

    @Test func theSamePhotoTwiceMakesOnePageWithANote() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        let a = try scratch.copy(landscape, to: "photos/a.jpg")
        try link("a.jpg", at: photos + "/b.jpg")
        try FileManager.default.linkItem(atPath: a, toPath: photos + "/c.jpg")  // a hard link
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", photos, a, photos + "/./a.jpg", photos, "-o", out], timeout: Self.timeLimit)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/b.jpg: same file as \(a), included once"), "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/c.jpg: same file as \(a), included once"), "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(a): listed twice, included once"), "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/./a.jpg: same file as \(a), included once"), "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(photos): listed twice, included once"), "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 1)
    }

    /// A FIFO named like a photo is never opened for reading (nobody writes to it: that would hang for ever).
    @Test func aFIFONamedLikeAPhotoDoesNotHang() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(landscape, to: "photos/a.jpg")
        #expect(mkfifo(photos + "/b.jpg", 0o644) == 0)
        #expect(mkfifo(photos + "/pipe", 0o644) == 0)
        let out = scratch.file("book.pdf")
        let (run, report) = try Run.photobookReporting(["build", photos, "-o", out, "-v"], timeout: Self.timeLimit)
        #expect(run.status == 0, "\(run.stderr)")
        // Left out as a file that cannot be read, and the warning says why.
        #expect(report.kinds == ["a.jpg": "succeeded", "b.jpg": "unreadable"], "\(report.kinds)")
        #expect(run.stderr.contains("photobook: warning: \(photos)/b.jpg: cannot read: not a regular file"), "\(run.stderr)")
        #expect(run.stderr.contains("photobook: \(photos)/pipe: not a regular file, skipped"), "\(run.stderr)")
        #expect(try PDFFacts(out).pages == 1)

        let (alone, aloneReport) = try Run.photobookReporting(["build", photos + "/b.jpg", "-o", out], timeout: Self.timeLimit)
        #expect(alone.status == 1, "\(alone.stderr)")
        #expect(aloneReport.kinds == ["b.jpg": "unreadable"], "\(aloneReport.kinds)")
        #expect(alone.stderr.contains("photobook: error: \(photos)/b.jpg: "), "\(alone.stderr)")
        let (device, deviceReport) = try Run.photobookReporting(["build", "/dev/zero", "-o", scratch.file("zero.pdf")],
                                                                timeout: Self.timeLimit)
        #expect(device.status == 1, "\(device.stderr)")
        #expect(deviceReport.kinds == ["zero": "unreadable"], "\(deviceReport.kinds)")
        #expect(device.stderr.contains("photobook: error: /dev/zero: cannot read: not a regular file"), "\(device.stderr)")
        #expect(Scratch.listing(scratch.path) == ["book.pdf", "photos"])
    }

    @Test(arguments: ["with space", "it's \"quoted\"", "été", "日本の写真", "tab\there", "new\nline"])
    func oddNamesWorkInInputsAndOutput(_ name: String) throws {
        let scratch = try Scratch()
        let folder = try scratch.sub("photos \(name)")
        let photo = try scratch.copy(landscape, to: "photos \(name)/\(name).jpg")
        let bad = try scratch.write("photos \(name)/\(name) broken.png", [0x89, 0x50, 0x4E, 0x47])
        let out = scratch.file("\(name) book.pdf")
        let (fixed, report) = try Run.photobookReporting(["build", "-o", out, "--", folder], timeout: Self.timeLimit)
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(report.kinds == ["\(name).jpg": "succeeded", "\(name) broken.png": "corrupt"], "\(report.kinds)")
        #expect(report.photo(named: "\(name) broken.png")?.path == bad)
        #expect(fixed.stderr.contains("photobook: warning: \(bad): "), "\(fixed.stderr)")
        #expect(fixed.stderr.contains("wrote \(out): 1 page"), "\(fixed.stderr)")
        #expect(try PDFFacts(out).pages == 1)
        let alone = try Run.photobook(["build", "-o", scratch.file("other.pdf"), "--", photo], timeout: Self.timeLimit)
        #expect(alone.status == 0, "\(alone.stderr)")
    }

    @Test func anOldBookInThePhotoFolderIsReplacedNotRefused() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(landscape, to: "photos/a.jpg")
        let out = photos + "/book.pdf"
        let first = try Run.photobook(["build", photos, "-o", out], timeout: Self.timeLimit)
        #expect(first.status == 0, "\(first.stderr)")
        let again = try Run.photobook(["build", photos, "-o", out], timeout: Self.timeLimit)
        #expect(again.status == 0, "rebuilding in place: \(again.stderr)")
        #expect(try PDFFacts(out).pages == 1)
        #expect(Scratch.listing(photos) == ["a.jpg", "book.pdf"])
    }

    /// Tests run as root, for whom permissions do not stop reads; the binary is then run as `nobody`.
    @Test func unreadableFilesAndFoldersAreNamed() throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        _ = try scratch.copy(landscape, to: "photos/a.jpg")
        let locked = try scratch.copy(landscape, to: "photos/b.jpg")
        let lockedFolder = try scratch.sub("photos/sub")
        _ = try scratch.copy(png, to: "photos/sub/c.png")
        let outFolder = try scratch.sub("out")
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: outFolder)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: locked)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: lockedFolder)

        func photobook(_ arguments: [String]) throws -> Run {
            guard geteuid() == 0 else { return try Run.photobook(arguments, tmpdir: outFolder, timeout: Self.timeLimit) }
            return try Run.command("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Run.binary]
                                   + arguments, environment: ["TMPDIR": outFolder], timeout: Self.timeLimit)
        }
        /// The report of a run, written where `nobody` may write and removed once read.
        func reporting(_ arguments: [String]) throws -> (run: Run, kinds: [String: String]) {
            let path = outFolder + "/report.json"
            defer { try? FileManager.default.removeItem(atPath: path) }
            let run = try photobook(arguments + ["--report", path])
            return (run, try ReadReport(path: path).kinds)
        }
        let probe = try photobook(["--version"])
        try #require(probe.status == 0, "cannot run the binary as nobody: \(probe.stderr)")

        let (run, kinds) = try reporting(["build", photos, "-r", "-o", outFolder + "/book.pdf"])
        #expect(run.status == 0, "\(run.stderr)")
        // Left out as a file that cannot be read, and the warning says why.
        #expect(kinds == ["a.jpg": "succeeded", "b.jpg": "unreadable"], "\(kinds)")
        #expect(run.stderr.contains("photobook: warning: \(locked): cannot read: permission denied"), "\(run.stderr)")
        #expect(run.stderr.contains("photobook: warning: \(lockedFolder): cannot read this folder (permission denied)"),
                "\(run.stderr)")
        #expect(try PDFFacts(outFolder + "/book.pdf").pages == 1)
        let (alone, aloneKinds) = try reporting(["build", locked, "-o", outFolder + "/alone.pdf"])
        #expect(alone.status == 1, "\(alone.stderr)")
        #expect(aloneKinds == ["b.jpg": "unreadable"], "\(aloneKinds)")
        #expect(alone.stderr.contains("photobook: error: \(locked): "), "\(alone.stderr)")
        let strict = try photobook(["build", photos, "-o", outFolder + "/strict.pdf", "--strict"])
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(Scratch.listing(outFolder) == ["book.pdf"])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: lockedFolder)
    }
}
