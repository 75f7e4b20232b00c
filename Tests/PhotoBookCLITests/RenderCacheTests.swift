import Foundation
import TestSupport
import Testing

/// The render cache (issue 23, docs/cache.md), end to end: each test has a cache folder of its own.
@Suite struct RenderCacheTests {
    static let layout = ["--layout", "2x2", "--crop", "auto"]

    /// A folder of real photos from Fixtures/: JPEGs of every orientation (lossless crops, aimed at render),
    /// faces, and a PNG, which is rendered from pixels.
    func photos(in scratch: Scratch) throws -> String {
        let photos = try scratch.sub("photos")
        for name in ["Landscape_1", "Landscape_6", "Portrait_3", "Portrait_8"] {
            _ = try scratch.copy(Run.fixture("exif-orientation/\(name).jpg"), to: "photos/\(name).jpg")
        }
        try DistinctPhotos.write(into: photos, count: 3)
        return photos
    }

    /// Builds into `name` with the cache at `cache`; returns the run and the book's bytes.
    func build(_ inputs: [String], _ name: String, scratch: Scratch, cache: String, extra: [String] = [],
               harness: Bool = false) throws -> (Run, [UInt8]) {
        let out = scratch.file(name)
        let run = try Run.command(harness ? Run.harness : Run.binary,
                                  ["build"] + inputs + ["-o", out, "-v"] + Self.layout + extra,
                                  environment: ["XDG_CACHE_HOME": cache, "SOURCE_DATE_EPOCH": "1700000000"])
        #expect(run.status == 0, "\(run.stderr)")
        return (run, (try? Fixtures.read(out)) ?? [])
    }

    static func hits(_ run: Run) -> Int { run.stderr.components(separatedBy: "render taken from the cache").count - 1 }

    static func entries(_ cache: String) -> [String] {
        Scratch.listing(cache + "/photobook/entries").filter { !$0.hasPrefix(".") }
    }

    @Test func aRebuildTakesEveryRenderFromTheCacheAndWritesTheSameBook() throws {
        let scratch = try Scratch()
        let photos = try photos(in: scratch)
        let cache = try scratch.sub("cache")
        let (first, book) = try build([photos], "first.pdf", scratch: scratch, cache: cache)
        #expect(Self.hits(first) == 0)
        #expect(Self.entries(cache).count == 7)
        let (again, rebuilt) = try build([photos], "again.pdf", scratch: scratch, cache: cache)
        #expect(Self.hits(again) == 7, "\(again.stderr)")
        let (_, uncached) = try build([photos], "uncached.pdf", scratch: scratch, cache: cache, extra: ["--no-cache"])
        #expect(book == rebuilt)
        #expect(book == uncached)
    }

    /// A round of work on a book description (`photobook init`, then edits): after a caption edit and a swap of
    /// two pages every render comes from the cache, after a new layout for one page all but that page's; each
    /// time the book is the one a build without the cache writes, byte for byte.
    @Test func editsToADescriptionRenderOnlyWhatChanged() throws {
        let scratch = try Scratch()
        let photos = try photos(in: scratch)
        let cache = try scratch.sub("cache")
        let description = scratch.file("book.json")
        let environment = ["XDG_CACHE_HOME": cache, "SOURCE_DATE_EPOCH": "1700000000"]
        let initialised = try Run.command(Run.binary, ["init", photos, "--layout", "auto", "--captions", "name",
                                                       "-o", description], environment: environment)
        try #require(initialised.status == 0, "\(initialised.stderr)")
        /// The book, and how many renders --verbose and the report say came from the cache.
        func build(_ name: String, cached: Bool = true) throws -> (hits: Int, book: [UInt8]) {
            let out = scratch.file(name), report = scratch.file(name + ".json")
            let run = try Run.command(Run.binary, ["build", description, "-o", out, "-v", "--report", report]
                                          + (cached ? [] : ["--no-cache"]), environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
            let photos = try #require((json as? [String: Any])?["photos"] as? [[String: Any]])
            let fromCache = photos.compactMap { $0["fromCache"] as? Bool }
            #expect(fromCache.count == photos.filter { $0["passThrough"] as? Bool == false }.count)
            #expect(fromCache.filter { $0 }.count == Self.hits(run), "the report and --verbose disagree")
            return (Self.hits(run), (try? Fixtures.read(out)) ?? [])
        }
        func edit(_ change: (inout [[String: Any]]) -> Void) throws {
            var book = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: description)))
                                    as? [String: Any])
            var pages = try #require(book["pages"] as? [[String: Any]])
            change(&pages)
            book["pages"] = pages
            try JSONSerialization.data(withJSONObject: book).write(to: URL(fileURLWithPath: description))
        }
        func photoCount(_ page: [String: Any]) -> Int { (page["photos"] as? [Any])?.count ?? 0 }

        #expect(try build("first.pdf").hits == 0)
        let renders = Self.entries(cache).count
        #expect(renders == 7)
        #expect(try build("again.pdf").hits == renders)

        try edit { pages in
            var photos = pages[0]["photos"] as! [[String: Any]]
            photos[0]["caption"] = "A caption written after the first build"
            pages[0]["photos"] = photos
        }
        let captioned = try build("caption.pdf")
        #expect(captioned.hits == renders)
        #expect(captioned.book == (try build("caption-uncached.pdf", cached: false)).book)

        try edit { pages in pages.swapAt(0, pages.count - 1) }
        let swapped = try build("swap.pdf")
        #expect(swapped.hits == renders)
        #expect(swapped.book == (try build("swap-uncached.pdf", cached: false)).book)
        #expect(swapped.book != captioned.book)

        var changed = 0
        try edit { pages in
            let index = pages.firstIndex { photoCount($0) >= 2 }!
            changed = photoCount(pages[index])
            pages[index]["layout"] = "[" + (1...changed).map(String.init).joined(separator: " / ") + "]"
        }
        let relaid = try build("layout.pdf")
        #expect(changed >= 2 && relaid.hits == renders - changed)
        #expect(relaid.book == (try build("layout-uncached.pdf", cached: false)).book)
    }

    @Test func noCacheWritesNothing() throws {
        let scratch = try Scratch()
        let photos = try photos(in: scratch)
        let cache = try scratch.sub("cache")
        _ = try build([photos], "book.pdf", scratch: scratch, cache: cache, extra: ["--no-cache"])
        #expect(Scratch.listing(cache).isEmpty)
    }

    /// A photo replaced under its own name and given back its old mtime is rendered again: the key holds the
    /// file's content, and the digest index trusts no entry recorded within a second of the file's ctime.
    @Test func aPhotoReplacedWithItsOldMTimeIsRenderedAgain() throws {
        let scratch = try Scratch()
        let photos = try photos(in: scratch)
        let cache = try scratch.sub("cache")
        let target = photos + "/Landscape_1.jpg"
        let (_, _) = try build([photos], "first.pdf", scratch: scratch, cache: cache)
        let mtime = try FileManager.default.attributesOfItem(atPath: target)[.modificationDate] as! Date
        try FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: Run.fixture("exif-orientation/Landscape_3.jpg"), toPath: target)
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: target)
        let (again, book) = try build([photos], "again.pdf", scratch: scratch, cache: cache)
        #expect(Self.hits(again) == 6, "\(again.stderr)")
        let (_, uncached) = try build([photos], "uncached.pdf", scratch: scratch, cache: cache, extra: ["--no-cache"])
        #expect(book == uncached)
    }

    /// Every entry damaged (one byte flipped) or cut short: each photo is rendered again, --verbose says so for
    /// each, and the book is the same.
    @Test(arguments: [false, true]) func damagedEntriesAreRenderedAgain(truncate: Bool) throws {
        let scratch = try Scratch()
        let photos = try photos(in: scratch)
        let cache = try scratch.sub("cache")
        let (_, book) = try build([photos], "first.pdf", scratch: scratch, cache: cache)
        for name in Self.entries(cache) {
            let path = cache + "/photobook/entries/" + name
            var bytes = try Fixtures.read(path)
            if truncate { bytes.removeLast(bytes.count / 3) } else { bytes[bytes.count - 100] ^= 0x40 }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        let (again, rebuilt) = try build([photos], "again.pdf", scratch: scratch, cache: cache)
        #expect(Self.hits(again) == 0)
        #expect(again.stderr.components(separatedBy: "failed its checksum").count - 1 == 7, "\(again.stderr)")
        #expect(book == rebuilt)
        let (third, _) = try build([photos], "third.pdf", scratch: scratch, cache: cache)
        #expect(Self.hits(third) == 7)
    }

    /// Ctrl-C while photos are decoded, and once every render is stored: the build stops with nothing written,
    /// the cache holds only whole entries (no temporary name left, none that fails its checksum), and the next
    /// build writes the book a build without the cache writes. Another build's entry being written (a
    /// temporary name) is never read.
    @Test(arguments: ["decode", "page"]) func ctrlCLeavesOnlyWholeEntries(point: String) throws {
        let scratch = try Scratch()
        let photos = try photos(in: scratch)
        let cache = try scratch.sub("cache")
        _ = try scratch.sub("cache/photobook/entries")
        let junk = try scratch.write("cache/photobook/entries/.tmp-0123abcd-XXXXXX", Array("half an entry".utf8))
        let live = try LiveRun(Run.harness, ["build", photos, "-o", scratch.file("book.pdf"), "-v"] + Self.layout,
                               environment: ["XDG_CACHE_HOME": cache, "SOURCE_DATE_EPOCH": "1700000000",
                                             "PHOTOBOOK_TEST_PAUSE": point])
        #expect(live.waitForStderr(containing: "test: paused at \(point)", timeout: 120), "\(live.stderr)")
        kill(live.pid, SIGINT)
        #expect(live.waitForExit(timeout: 60) == 130, "\(live.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("book.pdf")))
        let entries = Self.entries(cache)
        if point == "page" { #expect(entries.count == 7, "every render was stored before the PDF: \(entries)") }
        #expect(Scratch.listing(cache + "/photobook/entries").filter { $0.hasPrefix(".tmp-") } == [".tmp-0123abcd-XXXXXX"])
        // The harness again: the key holds the executable, and the photobook binary is another one.
        let (again, book) = try build([photos], "again.pdf", scratch: scratch, cache: cache, harness: true)
        #expect(Self.hits(again) == entries.count && !again.stderr.contains("checksum"), "\(again.stderr)")
        let (_, uncached) = try build([photos], "uncached.pdf", scratch: scratch, cache: cache, extra: ["--no-cache"])
        #expect(book == uncached)
        #expect(try Fixtures.read(junk) == Array("half an entry".utf8), "a fresh temporary name is another build's")
    }

    @Test func theLimitHoldsAfterTheBuild() throws {
        let scratch = try Scratch()
        let photos = try photos(in: scratch)
        let cache = try scratch.sub("cache")
        _ = try build([photos], "book.pdf", scratch: scratch, cache: cache, extra: ["--cache-limit", "400K"])
        let sizes = try Self.entries(cache).map {
            try FileManager.default.attributesOfItem(atPath: cache + "/photobook/entries/" + $0)[.size] as! Int
        }
        #expect(sizes.reduce(0, +) <= 400 * 1024)
        #expect(!sizes.isEmpty, "the newest entries that fit stay")
    }

    /// A cache that cannot be written (a read-only folder, or XDG_CACHE_HOME naming a file) only makes the build
    /// slower: it succeeds with the same book.
    @Test func anUnwritableCacheStillBuilds() throws {
        let scratch = try Scratch()
        let photos = try photos(in: scratch)
        let (_, reference) = try build([photos], "ref.pdf", scratch: scratch, cache: scratch.path, extra: ["--no-cache"])
        let file = try scratch.write("not-a-folder", [1, 2, 3])
        let (_, underFile) = try build([photos], "file.pdf", scratch: scratch, cache: file)
        #expect(underFile == reference)
        let readOnly = try scratch.sub("readonly")
        _ = try scratch.sub("readonly/photobook/entries")
        _ = try scratch.sub("readonly/photobook/digests")
        for folder in ["/photobook/entries", "/photobook/digests", "/photobook", ""] {
            chmod(readOnly + folder, 0o555)
        }
        defer { for folder in ["", "/photobook", "/photobook/entries", "/photobook/digests"] { chmod(readOnly + folder, 0o755) } }
        let (_, unwritable) = try build([photos], "ro.pdf", scratch: scratch, cache: readOnly)
        #expect(unwritable == reference)
    }

    /// A cache on a full disk (a 64 KB tmpfs: no entry fits) and on one remounted read-only after a build filled
    /// it: each build succeeds with the book a build without the cache writes; the read-only one still reads
    /// its entries (it cannot touch them for the LRU order, which only costs the order).
    @Test(.enabled(if: TemporaryMount.isAvailable, OutputFaultTests.mountReason))
    func aCacheOnAFullOrReadOnlyDiskStillBuilds() throws {
        let scratch = try Scratch()
        let photos = try photos(in: scratch)
        let (_, reference) = try build([photos], "ref.pdf", scratch: scratch, cache: scratch.path, extra: ["--no-cache"])
        let full = try #require(TemporaryMount(at: try scratch.sub("full"), size: "64k"))
        defer { full.unmount() }
        let (_, onFull) = try build([photos], "full.pdf", scratch: scratch, cache: full.path)
        #expect(onFull == reference)
        #expect(Scratch.listing(full.path + "/photobook/entries").allSatisfy { !$0.hasPrefix(".tmp-") })

        let disk = try #require(TemporaryMount(at: try scratch.sub("disk"), size: "64m"))
        defer { disk.unmount() }
        _ = try build([photos], "first.pdf", scratch: scratch, cache: disk.path)
        let stored = Self.entries(disk.path).count
        let remount = try Run.command("/usr/bin/mount", ["-o", "remount,ro", disk.path], timeout: 20)
        try #require(remount.status == 0, "\(remount.stderr)")
        let (readOnly, onReadOnly) = try build([photos], "ro.pdf", scratch: scratch, cache: disk.path)
        #expect(onReadOnly == reference)
        #expect(stored == 7 && Self.hits(readOnly) == stored, "\(readOnly.stderr)")
    }

    @Test func twoBuildsAtOnceShareOneCache() throws {
        let scratch = try Scratch()
        let photos = try photos(in: scratch)
        let cache = try scratch.sub("cache")
        let environment = ["XDG_CACHE_HOME": cache, "SOURCE_DATE_EPOCH": "1700000000"]
        let children = try ["a.pdf", "b.pdf"].map { name in
            try ChildProcess(Run.binary, ["build", photos, "-o", scratch.file(name), "-q"] + Self.layout,
                             environment: environment)
        }
        for child in children {
            let (ending, timedOut) = child.wait(timeout: 120)
            #expect(!timedOut && ending.status == 0, "\(child.stderr)")
        }
        let a = try Fixtures.read(scratch.file("a.pdf")), b = try Fixtures.read(scratch.file("b.pdf"))
        #expect(a == b)
        let (_, third) = try build([photos], "c.pdf", scratch: scratch, cache: cache)
        #expect(third == a)
        #expect(Scratch.listing(cache + "/photobook/entries").allSatisfy { !$0.hasPrefix(".tmp-") })
    }

    /// A proof's photos are at the screen's 96 dpi, but what it says of their density is for the book it stands
    /// for: a photo good for print is not warned of and passes --min-dpi, a small one is warned of and refused,
    /// as in the build for print.
    @Test func aProofSpeaksOfThePrintBooksDensity() throws {
        let scratch = try Scratch()
        let good = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "good.jpg")  // 1800x1200
        let small = scratch.file("small.png")
        _ = try ExternalCommand.output("/usr/bin/convert", ["-size", "300x200", "gradient:red-blue", small])
        let environment = ["XDG_CACHE_HOME": try scratch.sub("cache")]
        func warnings(_ inputs: [String], _ extra: [String]) throws -> (status: Int32, density: [String]) {
            let options = ["-o", scratch.file("book.pdf"), "--layout", "single", "--fit", "fit", "--sort", "given"]
            let run = try Run.command(Run.binary, ["build"] + inputs + options + extra, environment: environment)
            let lines = run.stderr.split(separator: "\n").map(String.init)
            return (run.status, lines.filter { $0.contains("dpi") && !$0.contains("a proof") })
        }
        let print = try warnings([good, small], [])
        let proof = try warnings([good, small], ["--proof"])
        #expect(print.status == 0 && proof.status == 0)
        #expect(print.density.count == 1 && print.density[0].contains("small.png") && print.density[0].contains("40 dpi"),
                "\(print.density)")
        #expect(proof.density == ["photobook: warning: \(small): only 40 dpi on page 2 in the book for print, below the "
                                  + "300 dpi asked for"], "\(proof.density)")
        #expect(try warnings([good], ["--proof", "--min-dpi", "200"]).status == 0)
        let refused = try warnings([good, small], ["--proof", "--min-dpi", "200"])
        #expect(refused.status != 0 && refused.density.contains { $0.contains("small.png would print at 40 dpi") },
                "\(refused.density)")
    }

    @Test func aProofIsMarkedAndRefusedWithPDFX() throws {
        let scratch = try Scratch()
        let photos = try photos(in: scratch)
        let cache = try scratch.sub("cache")
        let (run, _) = try build([photos], "proof.pdf", scratch: scratch, cache: cache, extra: ["--proof"])
        #expect(run.stderr.contains("a proof for the screen"))
        let info = try Run.command("/usr/bin/pdfinfo", [scratch.file("proof.pdf")])
        #expect(info.stdout.contains("Keywords:        proof"), "\(info.stdout)")
        let refused = try Run.command(Run.binary, ["build", photos, "-o", scratch.file("x.pdf"), "--proof", "--pdfx", "1a"],
                                      environment: ["XDG_CACHE_HOME": cache])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--proof"))
    }
}
