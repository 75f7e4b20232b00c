#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Imaging
import JPEG
import TestSupport
import Testing

/// Ctrl-C, SIGTERM and a second Ctrl-C on the real binary. The test knows where the build is from the binary's
/// own test hook (`PHOTOBOOK_TEST_PAUSE`), never from timing; every wait has a timeout.
@Suite(.serialized) struct SignalTests {
    /// Six 12-megapixel camera-like photos, made once with our own encoder.
    static let largePhotos: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photobook-signal-photos").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for n in 1...6 {
            let path = "\(folder)/photo\(n).jpg"
            if FileManager.default.fileExists(atPath: path) { continue }
            let (w, h) = n % 2 == 0 ? (3000, 4000) : (4000, 3000)
            let bytes = try! JPEGEncoder.encode(TestImages.detailed(width: w, height: h, seed: UInt64(n)), quality: 92)
            try! Data(bytes).write(to: URL(fileURLWithPath: path + ".part"))
            try! FileManager.default.moveItem(atPath: path + ".part", toPath: path)
        }
        return folder
    }()

    struct Outcome {
        var status: Int32
        var stderr: String
        var secondsFromSignalToExit: Double
        /// The run's `--report`: what became of the book (`cancelled`, `succeeded`...), nil when none was written.
        var report: ReadReport?
    }

    /// Runs a build over an existing book, pauses at `point`, sends `signals` and checks what is left.
    func interrupt(at point: String, with signals: [Int32], expectBookKept: Bool = true,
                   holdAfterFirstSignal: Bool = false, extra: [String] = []) throws -> Outcome {
        let scratch = try Scratch()
        let tmp = try scratch.sub("tmp")
        let out = scratch.file("book.pdf")
        let oldBook = Array("%PDF-1.4 the previous book".utf8)
        _ = try scratch.write("book.pdf", oldBook)

        let json = ReadReport.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: json) }
        let live = try LiveRun(Run.harness, ["build", Self.largePhotos, "-o", out, "--jobs", "2", "--report", json] + extra,
                               environment: ["TMPDIR": tmp, "PHOTOBOOK_TEST_PAUSE": point,
                                             "PHOTOBOOK_TEST_PAUSE_HOLD": holdAfterFirstSignal ? "1" : "0"])
        #expect(live.waitForStderr(containing: "test: paused at \(point)", timeout: 120), "\(live.stderr)")
        let start = Date()
        for (index, signal) in signals.enumerated() {
            kill(live.pid, signal)
            // Two signals sent at once may reach the process as one (the kernel keeps one pending), as two quick
            // Ctrl-Cs would not: wait until the first was seen. The pause holds the build meanwhile if asked.
            if index == 0 && signals.count > 1 {
                let seen = point == "committed" ? "the book is already written" : "cancelling..."
                #expect(live.waitForStderr(containing: seen, timeout: 30), "\(live.stderr)")
            }
        }
        let status = live.waitForExit(timeout: 60)
        let seconds = Date().timeIntervalSince(start)

        if expectBookKept {
            #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))) == oldBook, "the previous book is untouched")
        }
        #expect(Scratch.listing(scratch.path) == ["book.pdf", "tmp"], "nothing beside the output: \(Scratch.listing(scratch.path))")
        #expect(Scratch.listing(tmp).isEmpty, "nothing left in TMPDIR: \(Scratch.listing(tmp))")
        return Outcome(status: status, stderr: live.stderr, secondsFromSignalToExit: seconds,
                       report: FileManager.default.fileExists(atPath: json) ? try ReadReport(path: json) : nil)
    }

    @Test func ctrlCDuringDecodingLeavesEverythingAsItWas() throws {
        let outcome = try interrupt(at: "decode", with: [SIGINT])
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("photobook: cancelling..."))
        #expect(outcome.report?.book.outcome == "cancelled" && outcome.report?.book.pagesWritten == 0, "\(outcome.stderr)")
        #expect(outcome.secondsFromSignalToExit < 5, "stopped in \(outcome.secondsFromSignalToExit) s")
        print("signal to exit during decoding: \(String(format: "%.3f", outcome.secondsFromSignalToExit)) s")
    }

    /// Choosing reads every photo before any render: Ctrl-C while it measures stops at once, the old book kept.
    @Test func ctrlCWhileChoosingThePhotos() throws {
        let outcome = try interrupt(at: "measure", with: [SIGINT], extra: ["--photos", "2"])
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("photobook: cancelling..."))
        #expect(outcome.report?.book.outcome == "cancelled" && outcome.report?.book.pagesWritten == 0, "\(outcome.stderr)")
        #expect(outcome.secondsFromSignalToExit < 5, "stopped in \(outcome.secondsFromSignalToExit) s")
    }

    @Test func ctrlCDuringThePDFBuild() throws {
        let outcome = try interrupt(at: "page", with: [SIGINT])
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(outcome.secondsFromSignalToExit < 5)
    }

    @Test func ctrlCJustBeforeTheRename() throws {
        let outcome = try interrupt(at: "commit", with: [SIGINT])
        #expect(outcome.status == 130, "\(outcome.stderr)")
    }

    @Test func ctrlCJustAfterTheRenameKeepsTheNewBook() throws {
        let outcome = try interrupt(at: "committed", with: [SIGINT], expectBookKept: false)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.report?.book.outcome == "succeeded" && outcome.report?.book.pagesWritten == 6, "\(outcome.stderr)")
    }

    @Test func twoRapidCtrlCsExitAtOnce() throws {
        let outcome = try interrupt(at: "page", with: [SIGINT, SIGINT], holdAfterFirstSignal: true)
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("interrupted again: stopped at once"), "\(outcome.stderr)")
        #expect(outcome.secondsFromSignalToExit < 5)
    }

    @Test func twoSignalsAfterTheRenameKeepTheBookAndSucceed() throws {
        let outcome = try interrupt(at: "committed", with: [SIGINT, SIGTERM], expectBookKept: false,
                                    holdAfterFirstSignal: true)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.report?.book.outcome == "succeeded" && outcome.report?.book.pagesWritten == 6, "\(outcome.stderr)")
    }

    @Test func sigtermIsLikeCtrlC() throws {
        let outcome = try interrupt(at: "decode", with: [SIGTERM])
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(outcome.report?.book.outcome == "cancelled" && outcome.report?.book.pagesWritten == 0, "\(outcome.stderr)")
    }
}

/// A running process whose stderr is read as it comes.
final class LiveRun: @unchecked Sendable {
    private let child: ChildProcess

    init(_ path: String, _ arguments: [String], environment: [String: String]) throws {
        child = try ChildProcess(path, arguments, environment: environment)
    }

    var pid: Int32 { child.pid }
    var stderr: String { child.stderr }

    func waitForStderr(containing marker: String, timeout: Double) -> Bool {
        child.waitForStderr(containing: marker, timeout: timeout)
    }

    /// Waits for the process to end and returns its status; kills it and fails the test on timeout.
    func waitForExit(timeout: Double) -> Int32 {
        let (ending, timedOut) = child.wait(timeout: timeout)
        if timedOut { Issue.record("process did not exit within \(timeout) s") }
        return ending.status
    }
}

/// Photo-like test images: smooth gradients, edges and fine noise, so they compress like camera photos.
enum TestImages {
    static func detailed(width: Int, height: Int, seed: UInt64) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var state = seed &* 0x9E3779B97F4A7C15 | 1
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                let noise = Int(state & 31) - 16
                let i = (y * width + x) * 3
                let band = ((x / 97) + (y / 89)) % 2 == 0 ? 40 : 0
                pixels[i] = UInt8(clamping: x * 255 / width + noise + band)
                pixels[i + 1] = UInt8(clamping: y * 255 / height + noise)
                pixels[i + 2] = UInt8(clamping: (x + y) * 128 / (width + height) + noise + 60)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}

/// A photo that changes or vanishes after it was listed and probed, before it is decoded: named, left out,
/// the rest built. The binary pauses at its first decode (`--jobs 1`: the first photo) until SIGUSR1.
@Suite(.serialized) struct ChangedFileTests {
    enum Change: String, CaseIterable, Sendable {
        case deleted, truncated, replacedByAnotherShape, replacedByText
        /// The report's `failureKind` for the photo: gone, it cannot be read; cut short, or another picture or no
        /// picture where the probe found one, it changed during the run (a file of another size than the probe's
        /// is refused before its decoder would call what is left of it damaged).
        var kind: String {
            switch self {
            case .deleted: "unreadable"
            case .truncated, .replacedByAnotherShape, .replacedByText: "changedOnDisk"
            }
        }
    }

    @Test(arguments: Change.allCases)
    func aPhotoThatChangesBeforeItIsDecodedIsLeftOutByName(_ change: Change) throws {
        let scratch = try Scratch()
        let photos = try scratch.sub("photos")
        let first = try scratch.copy(Run.fixture("exif-orientation/Landscape_1.jpg"), to: "photos/a.jpg")
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_2.jpg"), to: "photos/b.jpg")
        let out = scratch.file("book.pdf"), json = scratch.file("report.json")
        let live = try LiveRun(Run.harness, ["build", photos, "-o", out, "--jobs", "1", "--report", json],
                               environment: ["PHOTOBOOK_TEST_PAUSE": "decode"])
        #expect(live.waitForStderr(containing: "test: paused at decode", timeout: 60), "\(live.stderr)")
        switch change {
        case .deleted:
            try FileManager.default.removeItem(atPath: first)
        case .truncated:
            let bytes = try Data(contentsOf: URL(fileURLWithPath: first))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: first))
        case .replacedByAnotherShape:
            try FileManager.default.removeItem(atPath: first)
            try FileManager.default.copyItem(atPath: Run.fixture("exif-orientation/Portrait_1.jpg"), toPath: first)
        case .replacedByText:
            try Data("no longer a photo".utf8).write(to: URL(fileURLWithPath: first))
        }
        kill(live.pid, SIGUSR1)
        let status = live.waitForExit(timeout: 60)
        #expect(status == 0, "\(live.stderr)")
        #expect(live.stderr.contains("photobook: warning: \(first): "), "\(live.stderr)")
        let kinds = try ReadReport(path: json).kinds
        #expect(kinds == ["a.jpg": change.kind, "b.jpg": "succeeded"], "\(kinds): \(live.stderr)")
        #expect(try PDFFacts(out).pages == 1)
    }
}
