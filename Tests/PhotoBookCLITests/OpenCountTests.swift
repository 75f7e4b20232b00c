import Foundation
import TestSupport
import Testing

/// How often a build opens each photo, as strace(1) sees the binary do it: once for its headers, attention and
/// content digest, once for its pixels (issue 32, "read once"); a rebuild whose renders are in the cache opens
/// it once. A name that promises a format is taken at its word by discovery and checked by the probe, so a
/// misnamed photo still goes in as what its bytes are. So too a multi-page TIFF (all its pages), a photo with
/// byte-identical copies (through the cache) and a photo chosen by --photos (through the cache).
struct OpenCountTests {
    /// Each photo of the folder, by file name, and how many times the run opened it (openat(2) calls naming it).
    static func opens(_ arguments: [String], folder: String, environment: [String: String]) throws -> [String: Int] {
        let scratch = try Scratch()
        let trace = scratch.file("trace")
        let run = try Run.command("/usr/bin/strace", ["-f", "-qq", "-e", "trace=open,openat,openat2", "-o", trace,
                                                      Run.binary] + arguments, environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        var counts: [String: Int] = [:]
        for name in Scratch.listing(folder) {
            counts[name] = lines.filter { $0.contains("\"\(folder)/\(name)\"") }.count
        }
        return counts
    }

    static func photos(in scratch: Scratch) throws -> String {
        let folder = try scratch.sub("photos")
        _ = try FileManager.default.copyItem(atPath: Run.fixture("exif-orientation/Portrait_6.jpg"), toPath: folder + "/a.jpg")
        _ = try FileManager.default.copyItem(atPath: Run.fixture("heif/photo.heic"), toPath: folder + "/b.heic")
        _ = try FileManager.default.copyItem(atPath: Run.fixture("pngsuite/basn2c08.png"), toPath: folder + "/c.png")
        _ = try FileManager.default.copyItem(atPath: Run.fixture("webp/alpha-lossy.webp"), toPath: folder + "/d.webp")
        // Misnamed, as downloads and exports are: a PNG called .jpg, and an iPhone photo renamed .jpg.
        _ = try FileManager.default.copyItem(atPath: Run.fixture("pngsuite/basn6a08.png"), toPath: folder + "/e.jpg")
        _ = try FileManager.default.copyItem(atPath: Run.fixture("heif/rotated.heic"), toPath: folder + "/f.jpg")
        // Camera raws: LibRaw reads them through the engine's open file (CRawStream), not by opening the path again
        // for each probe, thumbnail and decode (9 opens of one DNG before).
        _ = try FileManager.default.copyItem(atPath: Run.fixture("raw/bayer-640.dng"), toPath: folder + "/g.dng")
        _ = try FileManager.default.copyItem(atPath: Run.fixture("raw/sample_1mp.dng"), toPath: folder + "/h.dng")
        return folder
    }

    @Test func aBuildOpensEachPhotoAtMostTwice() throws {
        let scratch = try Scratch()
        let folder = try Self.photos(in: scratch)
        let cache = try scratch.sub("cache")
        let environment = ["XDG_CACHE_HOME": cache, "SOURCE_DATE_EPOCH": "1700000000"]
        let book = scratch.file("book.pdf"), report = scratch.file("report.json")
        let common = ["build", folder, "-o", book, "--layout", "grid 2x2", "--crop", "auto", "--report", report]

        let uncached = try Self.opens(common + ["--no-cache"], folder: folder, environment: environment)
        #expect(uncached.count == 8 && uncached.values.allSatisfy { $0 == 2 }, "without the cache: \(uncached)")
        let formats = try ReadReport(path: report).photos.map { $0.format?.split(separator: " ").first.map(String.init) }
        #expect(formats == ["JPEG", "HEIF", "PNG", "WebP", "PNG", "HEIF", "camera", "camera"],
                "misnamed photos go in by their bytes")

        let first = try Self.opens(common, folder: folder, environment: environment)
        #expect(first.values.allSatisfy { $0 == 2 }, "the digest is read with the headers: \(first)")
        // Whether or not the index trusts its digests yet (a second after they were recorded: DigestIndex), the
        // probe reads a digest from the file it opened for the headers: no second open either way.
        let again = try Self.opens(common, folder: folder, environment: environment)
        #expect(again.values.allSatisfy { $0 == 1 }, "a rebuild from the cache reads headers only: \(again)")
        // --verbose measures what a choice would look at, and says so; it opens no photo once more for that.
        let verbose = try Self.opens(common + ["--verbose"], folder: folder,
                                     environment: environment.merging(["XDG_CACHE_HOME": try scratch.sub("cache2")]) { $1 })
        #expect(verbose.values.allSatisfy { $0 == 2 }, "--verbose with an empty cache: \(verbose)")
    }

    /// Byte-identical copies (a Takeout album's of a year folder's photo) are found by the size and first 64 KB the
    /// probe read, then proved equal by reading each file whole once more, each opened once for that: a copy, left
    /// out, is opened twice, the photo kept three times (its probe, the comparison, its decode), the one photo
    /// that is; a photo no other shares a size with is not opened again.
    @Test func copiesAreProvedEqualWithOneMoreOpenEach() throws {
        let scratch = try Scratch()
        let folder = try Self.copies(in: scratch)
        let opens = try Self.opens(["build", folder, "-o", scratch.file("book.pdf"), "--no-cache"], folder: folder,
                                   environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(opens == ["a.jpg": 3, "b.jpg": 2, "c.jpg": 2, "d.jpg": 2], "\(opens)")
    }

    /// Three copies of one photo and another photo.
    static func copies(in scratch: Scratch) throws -> String {
        let folder = try scratch.sub("photos")
        for name in ["a.jpg", "b.jpg", "c.jpg"] {
            _ = try FileManager.default.copyItem(atPath: Run.fixture("exif-orientation/Portrait_6.jpg"), toPath: folder + "/" + name)
        }
        _ = try FileManager.default.copyItem(atPath: Run.fixture("exif-orientation/Landscape_1.jpg"), toPath: folder + "/d.jpg")
        return folder
    }

    /// Through the render cache the probe reads each file's content digest anyway: copies are proved equal by
    /// their digests, and none is opened again for it (the old binary opened them as without the cache: 3, 2, 2).
    @Test func copiesWithDigestsAreNotOpenedAgain() throws {
        let scratch = try Scratch()
        let folder = try Self.copies(in: scratch)
        let environment = ["XDG_CACHE_HOME": try scratch.sub("cache"), "SOURCE_DATE_EPOCH": "1700000000"]
        let book = scratch.file("book.pdf"), report = scratch.file("report.json")
        let opens = try Self.opens(["build", folder, "-o", book, "--report", report], folder: folder, environment: environment)
        #expect(opens == ["a.jpg": 2, "b.jpg": 1, "c.jpg": 1, "d.jpg": 2], "\(opens)")
        let left = try ReadReport(path: report).photos.filter { $0.outcome == "skipped" }.map { FileSystemName.base($0.path) }
        #expect(left == ["b.jpg", "c.jpg"], "the copies are still left out")
    }

    /// A build that chooses its photos (`--photos`) reads no digest in the probe (hashing every photo for the few
    /// chosen would cost more than it saves): each chosen photo's decode reads it from the file it opened for the
    /// pixels and looks the cache up there, so it is opened twice (three times before: probe, digest, decode), a
    /// photo left out once. A rebuild takes the chosen photos' renders from the cache, under the same keys.
    @Test func aChosenPhotoIsOpenedTwiceThroughTheCache() throws {
        let scratch = try Scratch()
        let folder = try scratch.sub("photos")
        for (name, fixture) in [("a.jpg", "Landscape_1"), ("b.jpg", "Portrait_6"), ("c.jpg", "Landscape_3"),
                                ("d.jpg", "Portrait_8")] {
            _ = try FileManager.default.copyItem(atPath: Run.fixture("exif-orientation/\(fixture).jpg"), toPath: folder + "/" + name)
        }
        let environment = ["XDG_CACHE_HOME": try scratch.sub("cache"), "SOURCE_DATE_EPOCH": "1700000000"]
        let report = scratch.file("report.json")
        let common = ["build", folder, "--photos", "2", "--report", report]
        let opens = try Self.opens(common + ["-o", scratch.file("first.pdf")], folder: folder, environment: environment)
        let chosen = Set(try ReadReport(path: report).photos.filter { $0.outcome == "succeeded" }.map { FileSystemName.base($0.path) })
        #expect(chosen.count == 2)
        #expect(opens == Dictionary(uniqueKeysWithValues: opens.keys.map { ($0, chosen.contains($0) ? 2 : 1) }), "\(opens)")

        func hits(_ book: String, _ arguments: [String], _ environment: [String: String]) throws -> Int {
            let run = try Run.command(Run.binary, arguments + ["-o", scratch.file(book), "--verbose"], environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("first.pdf")))
                    == Data(contentsOf: URL(fileURLWithPath: scratch.file(book))), "\(book)")
            return run.stderr.components(separatedBy: "render taken from the cache").count - 1
        }
        #expect(try hits("again.pdf", common, environment) == 2)
        // The key is the one the plan makes from the probe's digest: a build that chose nothing stored the renders.
        let other = ["XDG_CACHE_HOME": try scratch.sub("cache2"), "SOURCE_DATE_EPOCH": "1700000000"]
        #expect(try Run.command(Run.binary, ["build", folder, "-o", scratch.file("all.pdf")], environment: other).status == 0)
        #expect(try hits("chosen.pdf", common, other) == 2)
    }

    /// A multi-page TIFF: discovery leaves its pages to the probe, whose one read of the file gives every page's
    /// header, and the pages' decodes share one open of it (`SharedFiles`). Before, discovery opened it to count
    /// its pages, each page's probe opened it again and walked every directory, and each page's decode opened
    /// it: 7 opens of a 3-page file. Twice now, with or without the cache.
    @Test func aMultiPageTIFFIsOpenedTwice() throws {
        let scratch = try Scratch()
        let folder = try scratch.sub("photos")
        _ = try FileManager.default.copyItem(atPath: Run.fixture("tiff/multipage.tif"), toPath: folder + "/scan.tif")
        _ = try FileManager.default.copyItem(atPath: Run.fixture("exif-orientation/Landscape_1.jpg"), toPath: folder + "/z.jpg")
        let environment = ["XDG_CACHE_HOME": try scratch.sub("cache"), "SOURCE_DATE_EPOCH": "1700000000"]
        let report = scratch.file("report.json")
        for extra in [["--no-cache"], []] {
            let opens = try Self.opens(["build", folder, "-o", scratch.file("book.pdf"), "--layout", "grid 2x2", "--crop", "auto",
                                        "--report", report] + extra, folder: folder, environment: environment)
            #expect(opens == ["scan.tif": 2, "z.jpg": 2], "\(extra): \(opens)")
            let photos = try ReadReport(path: report).photos
            #expect(photos.map { FileSystemName.base($0.path) } == ["scan.tif (page 1 of 3)", "scan.tif (page 2 of 3)",
                                                                   "scan.tif (page 3 of 3)", "z.jpg"])
            #expect(photos.allSatisfy { $0.outcome == "succeeded" })
        }
    }
}
