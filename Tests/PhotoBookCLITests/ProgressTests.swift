import Foundation
@testable import PhotoBookCLI
import TestSupport
import Testing

/// The progress line: on a terminal it says how many photos are done of how many, how fast and how long the rest
/// will take; in a pipe or with --quiet it never appears. The terminal is a real pseudo-terminal, from script(1).
@Suite struct ProgressTests {
    /// `photobook: 2 of 5 photos, 3.4 photos/s, about 1 s left` (or `less than a second left`).
    static var lineWithRate: Regex<(Substring, Substring, Substring, Substring, Substring)> { /photobook: ([0-9]+) of ([0-9]+) photos, ([0-9.]+) photos\/s, (about [0-9][0-9a-z ]* left|less than a second left)/ }

    /// Runs photobook with stdin, stdout and stderr on a new pseudo-terminal; returns its status and everything
    /// the terminal showed.
    func onATerminal(_ arguments: [String]) throws -> (status: Int32, shown: String) {
        let command = ([Run.binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            .joined(separator: " ")
        // -e: script exits with the command's status; -q: no "Script started" lines; /dev/null: no typescript file.
        let run = try Run.command("/usr/bin/script", ["-qec", command, "/dev/null"])
        return (run.status, run.stdout + run.stderr)
    }

    func photos(_ scratch: Scratch) throws -> String {
        let photos = try scratch.sub("photos")
        try DistinctPhotos.write(into: photos)
        return photos
    }

    @Test func onATerminalTheLineShowsTheRateAndTheTimeLeft() throws {
        let scratch = try Scratch()
        let photos = try photos(scratch)
        let (status, shown) = try onATerminal(["build", photos, "-o", scratch.file("book.pdf"), "--jobs", "1"])
        #expect(status == 0, "\(shown)")
        let lines = shown.matches(of: Self.lineWithRate)
        #expect(!lines.isEmpty, "no progress line with a rate and a time left in:\n\(shown.debugDescription)")
        for line in lines {
            let (done, total, rate) = (Int(line.output.1) ?? -1, Int(line.output.2) ?? -1, Double(line.output.3) ?? -1)
            #expect(total == DistinctPhotos.sizes.count && done >= 1 && done < total && rate > 0, "\(line.output.0)")
        }
        // Each redraw goes back to the start of the line and clears it; the next message clears it too.
        #expect(shown.contains("\r\u{1B}[Kphotobook: 0 of 5 photos\r\u{1B}[Kphotobook: 1 of 5 photos, "),
                "\(shown.debugDescription)")
        #expect(shown.contains("writing page 5 of 5\r\u{1B}[Kphotobook: "), "\(shown.debugDescription)")
        #expect(shown.contains("photobook: wrote "), "\(shown.debugDescription)")
    }

    @Test func withQuietThereIsNoProgressLineEvenOnATerminal() throws {
        let scratch = try Scratch()
        let photos = try photos(scratch)
        let (status, shown) = try onATerminal(["build", photos, "-o", scratch.file("book.pdf"), "--quiet"])
        #expect(status == 0, "\(shown)")
        #expect(!shown.contains(" of 5 photos") && !shown.contains("photos/s") && !shown.contains("\u{1B}[K"),
                "\(shown.debugDescription)")
    }

    @Test func inAPipeThereIsNoProgressLine() throws {
        let scratch = try Scratch()
        let photos = try photos(scratch)
        let run = try Run.photobook(["build", photos, "-o", scratch.file("book.pdf")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("photobook: wrote "), "\(run.stderr.debugDescription)")
        #expect(!run.stderr.contains("photos/s") && !run.stderr.contains("\r"), "\(run.stderr.debugDescription)")
    }

    /// The words themselves, for the cases a short build never shows.
    @Test func theLineReadsWell() {
        #expect(ProgressLine.text(done: 0, total: 12, seconds: 0) == "photobook: 0 of 12 photos")
        #expect(ProgressLine.text(done: 3, total: 12, seconds: 2) == "photobook: 3 of 12 photos, 1.5 photos/s, about 6 s left")
        #expect(ProgressLine.text(done: 30, total: 500, seconds: 2) == "photobook: 30 of 500 photos, 15 photos/s, about 31 s left")
        #expect(ProgressLine.text(done: 10, total: 500, seconds: 20) == "photobook: 10 of 500 photos, 0.5 photos/s, about 16 min 20 s left")
        #expect(ProgressLine.text(done: 1, total: 9000, seconds: 2) == "photobook: 1 of 9000 photos, 0.5 photos/s, about 4 h 59 min left")
        #expect(ProgressLine.text(done: 99, total: 100, seconds: 1) == "photobook: 99 of 100 photos, 99 photos/s, less than a second left")
        #expect(ProgressLine.text(done: 5, total: 5, seconds: 1) == "photobook: 5 of 5 photos, 5.0 photos/s")
    }
}
