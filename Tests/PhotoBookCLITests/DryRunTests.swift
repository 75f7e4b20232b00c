import Foundation
import TestSupport
import Testing

/// `build --dry-run` against the build it predicts: the same pages with the same photos, captions that the PDF
/// shows, the same warnings, the same exit status, and nothing on disk.
@Suite(.serialized) struct DryRunTests {
    /// A page as a listing gives it: `2 photos, [1 / 2]` and its photos' file names.
    struct ListedPage: Equatable, CustomStringConvertible {
        var head: String
        var photos: [String]
        var captions: [String] = []
        var description: String { "\(head) \(photos)" }
        static func == (a: ListedPage, b: ListedPage) -> Bool { a.head == b.head && a.photos == b.photos }
    }

    /// The pages of a dry run's stdout, or of a `--verbose` build's stderr (whose lines start with `photobook: `).
    static func pages(_ text: String, verbose: Bool) -> [ListedPage] {
        var pages: [ListedPage] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            var line = raw
            if verbose {
                guard line.hasPrefix("photobook: ") else { continue }
                line.removeFirst("photobook: ".count)
            }
            if line.hasPrefix("page "), let colon = line.firstIndex(of: ":") {
                var head = String(line[line.index(colon, offsetBy: 2)...])
                if let section = head.range(of: ", section \"") { head = String(head[..<section.lowerBound]) }
                pages.append(ListedPage(head: head, photos: []))
            } else if line.hasPrefix("  "), !pages.isEmpty, let end = line.range(of: ": ") {
                let path = String(line[line.index(line.startIndex, offsetBy: 2)..<end.lowerBound])
                pages[pages.count - 1].photos.append(URL(fileURLWithPath: path).lastPathComponent)
                if let caption = line.range(of: ", caption \"") {
                    pages[pages.count - 1].captions.append(String(line[caption.upperBound...].dropLast()))
                }
            }
        }
        return pages
    }

    static func warnings(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").filter { $0.hasPrefix("photobook: warning: ") }.map(String.init).sorted()
    }

    /// Two folders (two sections), photos of many shapes, one too small for 300 dpi and one with a caption too
    /// long for three lines (its sidecar).
    static func photoFolders(_ scratch: Scratch) throws -> [String] {
        let shapes: [(width: Int, height: Int)] = [(900, 600), (600, 900), (800, 800), (1500, 500), (800, 600),
                                                    (600, 800), (900, 600), (120, 90), (600, 900), (1200, 400)]
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: shapes)
        for folder in ["Rome", "Venice"] { _ = try scratch.sub("trip/\(folder)") }
        var moved: [String] = []
        for (index, photo) in photos.enumerated() {
            let target = scratch.file("trip/\(index < 6 ? "Rome" : "Venice")/\(URL(fileURLWithPath: photo).lastPathComponent)")
            try FileManager.default.moveItem(atPath: photo, toPath: target)
            moved.append(target)
        }
        let long = Array(repeating: "a caption that goes on and on", count: 20).joined(separator: " ")
        try long.write(toFile: moved[2] + ".txt", atomically: true, encoding: .utf8)
        return [scratch.file("trip/Rome"), scratch.file("trip/Venice")]
    }

    @Test(arguments: [["--layout", "single"], ["--layout", "grid 2x2", "--pad-to", "4"],
                      ["--layout", "auto", "--title", "Italy", "--page-numbers"]])
    func theDryRunListsThePagesTheBuildMakes(layout: [String]) throws {
        let scratch = try Scratch()
        let inputs = try Self.photoFolders(scratch)
        let options = layout + ["--captions", "auto", "--sections", "folder"]
        let out = scratch.file("book.pdf")
        let dry = try Run.photobook(["build"] + inputs + ["-o", out, "--dry-run", "--verbose"] + options)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let build = try Run.photobook(["build"] + inputs + ["-o", out, "--verbose"] + options)
        #expect(build.status == 0, "\(build.stderr)")

        let predicted = Self.pages(dry.stdout, verbose: false)
        let built = Self.pages(build.stderr, verbose: true)
        #expect(!predicted.isEmpty)
        #expect(predicted == built, "dry run \(predicted)\nbuild \(built)")
        #expect(try PDFFacts(out).pages == predicted.count)
        // Each caption the dry run lists is on its page of the PDF, and each section heading.
        for (number, page) in predicted.enumerated() {
            let text = try WordsTests.text(out, page: number + 1).joined(separator: " ")
            for caption in page.captions {
                let words = caption.replacingOccurrences(of: "…", with: "").split(separator: " ").prefix(3)
                #expect(text.contains(words.joined(separator: " ")), "page \(number + 1): \(caption) not in \(text)")
            }
        }
        let heads = dry.stdout.split(separator: "\n").filter { $0.hasPrefix("page ") }
        for (folder, first) in [("Rome", "img01.jpg"), ("Venice", "img07.jpg")] {
            let page = try #require(predicted.firstIndex { $0.photos.first == first })
            let line = heads[page]
            #expect(line.hasSuffix(", section \"\(folder)\""), "\(line)")
        }
        #expect(predicted.contains { $0.head.hasSuffix("blank") } == layout.contains("--pad-to"))
        // The warnings the build gives, the dry run gives: the small photo, the caption cut short.
        #expect(Self.warnings(dry.stderr) == Self.warnings(build.stderr), "\(dry.stderr)\n\(build.stderr)")
        #expect(Self.warnings(dry.stderr).contains { $0.contains("img08.jpg") && $0.contains("dpi") })
        #expect(Self.warnings(dry.stderr).contains { $0.contains("cut with an ellipsis") })
    }

    /// A caption that wraps: the dry run shows it as printed, with a space where a Latin caption broke at one and
    /// none where a Japanese one broke between characters (the page has none there); a cut one ends with "…".
    @Test func wrappedCaptionsAreShownAsPrinted() throws {
        let scratch = try Scratch()
        let photos = try LayoutBookTests.writePhotos(into: scratch, shapes: [(600, 900), (600, 900), (600, 900)])
        let japanese = "浅草寺にて、雨の午後。ちょっとコーヒーを飲んでから「仲見世」を歩いた"
        let latin = "a walk along the river in the evening light"
        let long = Array(repeating: "浅草寺にて、雨の午後。", count: 12).joined()
        for (photo, caption) in zip(photos, [japanese, latin, long]) {
            try caption.write(toFile: photo + ".txt", atomically: true, encoding: .utf8)
        }
        let dry = try Run.photobook(["build"] + photos + ["-o", scratch.file("b.pdf"), "--dry-run", "--layout", "grid 3x1",
                                                          "--captions", "auto", "--lang", "ja"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let captions = Self.pages(dry.stdout, verbose: false).flatMap(\.captions)
        #expect(captions.count == 3)
        #expect(captions.first == japanese, "\(captions)")
        #expect(captions.dropFirst().first == latin, "\(captions)")
        let cut = try #require(captions.last)
        #expect(cut.hasSuffix("…") && !cut.contains(" ") && long.hasPrefix(String(cut.dropLast())), "\(cut)")
        // They do wrap: the PDF has the Japanese caption on more than one line.
        let build = try Run.photobook(["build"] + photos + ["-o", scratch.file("b.pdf"), "--layout", "grid 3x1",
                                                            "--captions", "auto", "--lang", "ja"])
        #expect(build.status == 0, "\(build.stderr)")
        let lines = try WordsTests.text(scratch.file("b.pdf"), page: 1)
        #expect(lines.filter { japanese.contains($0) && !$0.isEmpty }.count >= 2, "\(lines)")
    }

    @Test func aDryRunCreatesNothingAndNeedsNoOutput() throws {
        let scratch = try Scratch()
        let inputs = try Self.photoFolders(scratch)
        let temporary = try scratch.sub("tmp")
        let before = Scratch.listing(scratch.path) + inputs.flatMap(Scratch.listing)
        for arguments in [["-o", scratch.file("book.pdf")], []] {
            let run = try Run.photobook(["build"] + inputs + ["--dry-run", "--layout", "auto"] + arguments,
                                        tmpdir: temporary)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.hasPrefix("page 1: "))
            #expect(run.stderr.contains("nothing was written"))
        }
        #expect(Scratch.listing(temporary).isEmpty)
        #expect(Scratch.listing(scratch.path) + inputs.flatMap(Scratch.listing) == before)
    }

    @Test func aDryRunExitsAsTheBuildWould() throws {
        let scratch = try Scratch()
        _ = try scratch.sub("bad")
        _ = try scratch.write("bad/one.jpg", Array("not a photo".utf8))
        _ = try scratch.write("bad/two.png", [0x89, 0x50, 0x4E, 0x47])
        let out = scratch.file("book.pdf")
        let dry = try Run.photobook(["build", scratch.file("bad"), "-o", out, "--dry-run"])
        let build = try Run.photobook(["build", scratch.file("bad"), "-o", out])
        #expect(dry.status == 1 && build.status == 1, "\(dry.stderr)")
        #expect(dry.stdout.isEmpty)
        #expect(dry.stderr.contains("no photo could be used"))
        // One good photo among bad ones: planned and built alike, the bad ones named; --strict fails both.
        let good = try LayoutBookTests.writePhotos(into: scratch, shapes: [(600, 400)])
        try FileManager.default.moveItem(atPath: good[0], toPath: scratch.file("bad/good.jpg"))
        let some = try Run.photobook(["build", scratch.file("bad"), "-o", out, "--dry-run"])
        #expect(some.status == 0)
        #expect(Self.pages(some.stdout, verbose: false).map(\.photos) == [["good.jpg"]])
        #expect(some.stderr.contains("one.jpg") && some.stderr.contains("left out"))
        let strict = try Run.photobook(["build", scratch.file("bad"), "-o", out, "--dry-run", "--strict"])
        #expect(strict.status == 1 && strict.stdout.isEmpty)
        // A usage error is one before and after a dry run alike.
        let folder = try Run.photobook(["build", scratch.file("bad"), "-o", scratch.file("missing/book.pdf"), "--dry-run"])
        #expect(folder.status == 2)
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
