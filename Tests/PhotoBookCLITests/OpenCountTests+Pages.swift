import Foundation
import TestSupport
import Testing

/// A multi-page TIFF where something names photos by their place in the list before the probe runs (a dry run,
/// `init`, a book description, `--cover-photo`, `photobook cover`): discovery counts the file's pages there, by
/// the probe's own read of it, which it hands on to the probe (`Probe.EarlyRead`). Before, it opened the file to
/// count them and the probe opened it again: three opens with the decode's (more for a description listing each
/// page, or a cover photo counted twice), two for a dry run or `init`, which decode nothing. Now once for the
/// headers and once for the pixels, as in a plain build (`aMultiPageTIFFIsOpenedTwice`).
extension OpenCountTests {
    /// A 3-page TIFF and a JPEG, in a folder of their own.
    static func scans(in scratch: Scratch, folder name: String = "photos") throws -> String {
        let folder = try scratch.sub(name)
        _ = try FileManager.default.copyItem(atPath: Run.fixture("tiff/multipage.tif"), toPath: folder + "/scan.tif")
        _ = try FileManager.default.copyItem(atPath: Run.fixture("exif-orientation/Landscape_1.jpg"), toPath: folder + "/z.jpg")
        return folder
    }

    static func pageEnvironment(_ scratch: Scratch) throws -> [String: String] {
        ["XDG_CACHE_HOME": try scratch.sub("cache"), "SOURCE_DATE_EPOCH": "1700000000"]
    }

    /// The photos a `--report` lists, by file name, and whether each went in.
    static func reported(_ report: String) throws -> [String] {
        try ReadReport(path: report).photos.map { "\(FileSystemName.base($0.path)) \($0.outcome)" }
    }

    /// A dry run reads headers only: each photo once, the TIFF's pages too (with `--crop auto`, whose attention
    /// map is made on the same open file). Twice before: discovery's count, then the probe.
    @Test func aDryRunOpensAMultiPageTIFFOnce() throws {
        let scratch = try Scratch()
        let folder = try Self.scans(in: scratch)
        let opens = try Self.opens(["build", folder, "--dry-run", "--layout", "grid 2x2", "--crop", "auto"], folder: folder,
                                   environment: try Self.pageEnvironment(scratch))
        #expect(opens == ["scan.tif": 1, "z.jpg": 1], "\(opens)")
    }

    /// `init` plans as a dry run does, and writes each page by its name, in order. Twice before.
    @Test func initOpensAMultiPageTIFFOnce() throws {
        let scratch = try Scratch()
        let folder = try Self.scans(in: scratch)
        let description = scratch.file("book.json")
        let opens = try Self.opens(["init", folder, "-o", description], folder: folder,
                                   environment: try Self.pageEnvironment(scratch))
        #expect(opens == ["scan.tif": 1, "z.jpg": 1], "\(opens)")
        let text = try String(contentsOfFile: description, encoding: .utf8)
        let named = ["scan.tif (page 1 of 3)", "scan.tif (page 2 of 3)", "scan.tif (page 3 of 3)", "z.jpg"]
            .map { text.range(of: "photos/\($0)\"")?.lowerBound }
        #expect(named.allSatisfy { $0 != nil } && named.map { $0! } == named.map { $0! }.sorted(), "\(text)")
    }

    /// A description lists a TIFF's pages one by one, in any order: the file is found once for them all, and its
    /// read goes to the probe. Before, each page listed opened it (3), then the probe and the decode: 5 opens.
    @Test func aDescriptionOpensAMultiPageTIFFTwice() throws {
        let scratch = try Scratch()
        let folder = try Self.scans(in: scratch)
        let description = scratch.file("book.json")
        let pages = ["scan.tif (page 3 of 3)", "z.jpg", "scan.tif (page 1 of 3)", "scan.tif (page 2 of 3)"]
        let listed = pages.map { "{ \"photos\" : [ { \"path\" : \"photos/\($0)\" } ] }" }.joined(separator: ", ")
        try "{ \"pages\" : [ \(listed) ], \"schema\" : 1 }".write(toFile: description, atomically: true, encoding: .utf8)
        let report = scratch.file("report.json")
        let environment = try Self.pageEnvironment(scratch)
        for extra in [["--no-cache", "--report", report], ["--report", report], ["--dry-run"]] {
            let opens = try Self.opens(["build", description, "-o", scratch.file("book.pdf")] + extra,
                                       folder: folder, environment: environment)
            let once = extra == ["--dry-run"]
            #expect(opens == ["scan.tif": once ? 1 : 2, "z.jpg": once ? 1 : 2], "\(extra): \(opens)")
            if !once { #expect(try Self.reported(report) == pages.map { "\($0) succeeded" }, "\(extra)") }
        }
    }

    /// `--cover-photo`, a TIFF among the book's photos: the folder's discovery counts its pages, and the cover is
    /// that photo (its first page), not counted again. Four opens before (both counts, the probe, the decode).
    /// A cover from elsewhere is counted on its own, by the read its probe takes: three opens before.
    @Test func aMultiPageCoverPhotoIsOpenedTwice() throws {
        let scratch = try Scratch()
        let folder = try Self.scans(in: scratch), elsewhere = try Self.scans(in: scratch, folder: "covers")
        // Not a copy of the book's TIFF, which would be proved equal to it by reading both once more (Duplicates).
        let cover = try FileHandle(forWritingTo: URL(fileURLWithPath: elsewhere + "/scan.tif"))
        try cover.seekToEnd()
        try cover.write(contentsOf: Data([0]))
        try cover.close()
        let environment = try Self.pageEnvironment(scratch)
        let report = scratch.file("report.json")
        let common = ["build", folder, "-o", scratch.file("book.pdf"), "--title", "Scans", "--report", report, "--no-cache"]
        let among = try Self.opens(common + ["--cover-photo", folder + "/scan.tif"], folder: folder, environment: environment)
        #expect(among == ["scan.tif": 2, "z.jpg": 2], "\(among)")
        let ours = ["scan.tif (page 1 of 3)", "scan.tif (page 2 of 3)", "scan.tif (page 3 of 3)", "z.jpg"]
        #expect(try Self.reported(report) == ours.map { "\($0) succeeded" })
        let warning = "--cover-photo: a TIFF of 3 pages: the title page shows page 1"
        #expect(try String(contentsOfFile: report, encoding: .utf8).contains(warning))

        let apart = try Self.opens(common + ["--cover-photo", elsewhere + "/scan.tif"], folder: elsewhere,
                                   environment: environment)
        #expect(apart == ["scan.tif": 2, "z.jpg": 0], "\(apart)")
        #expect(try Self.reported(report) == (ours + ["scan.tif (page 1 of 3)"]).map { "\($0) succeeded" })
        #expect(try String(contentsOfFile: report, encoding: .utf8).contains(warning))

        let dry = try Self.opens(["build", folder, "--title", "Scans", "--cover-photo", folder + "/scan.tif", "--dry-run"],
                                 folder: folder, environment: environment)
        #expect(dry == ["scan.tif": 1, "z.jpg": 1], "\(dry)")
    }

    /// `photobook cover` with a TIFF front, and the same TIFF behind: found once, its read taken by the probe,
    /// its first page decoded. Four opens before (found for the output check, then for the front, the probe,
    /// the decode), five with the same file on the back.
    @Test func aMultiPageCoverFrontIsOpenedTwice() throws {
        let scratch = try Scratch()
        let folder = try Self.scans(in: scratch)
        let environment = try Self.pageEnvironment(scratch)
        for back in [[], [folder + "/scan.tif"]] {
            let opens = try Self.opens(["cover", folder + "/scan.tif"] + back + ["-o", scratch.file("cover.pdf"),
                                        "--page-size", "a5", "--spine", "5mm"],
                                       folder: folder, environment: environment)
            #expect(opens == ["scan.tif": 2, "z.jpg": 0], "back \(back): \(opens)")
        }
    }
}
