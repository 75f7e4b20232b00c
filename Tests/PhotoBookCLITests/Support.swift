import Foundation
import TestSupport
import Testing

/// Runs the built `photobook` binary as a user would and captures what it says.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String

    static func fixture(_ relative: String) -> String { Fixtures.path(relative) }

    /// The `photobook` executable built next to the test bundle.
    static let binary: String = {
        if let override = ProcessInfo.processInfo.environment["PHOTOBOOK_BIN"] { return override }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("photobook").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return Fixtures.packageRoot.appendingPathComponent(".build/debug/photobook").path
    }()

    /// `photobook-harness`, built beside `photobook`: the same program with the test switches
    /// (PHOTOBOOK_TEST_PAUSE, PHOTOBOOK_TEST_IMAGES_IN_MEMORY...) that the shipped binary does not have.
    static let harness: String = {
        URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("photobook-harness").path
    }()

    /// Runs `photobook` with `arguments`, with `TMPDIR` pointing at `tmpdir` when given.
    @discardableResult
    static func photobook(_ arguments: [String], tmpdir: String? = nil, timeout: Double = 300) throws -> Run {
        try command(binary, arguments, environment: tmpdir.map { ["TMPDIR": $0] } ?? [:], timeout: timeout)
    }

    /// Runs `path` and records an issue when it does not finish within `timeout` seconds.
    static func command(_ path: String, _ arguments: [String], environment: [String: String] = [:],
                        directory: String? = nil, timeout: Double = 300) throws -> Run {
        let output = try ExternalCommand.run(path, arguments, environment: environment, directory: directory,
                                             timeout: timeout)
        if output.timedOut { Issue.record("\(path) \(arguments) did not finish within \(timeout) s") }
        return Run(status: output.status, stdout: output.stdoutText, stderr: output.stderrText)
    }
}

/// A fresh folder for one test, removed at the end.
final class Scratch {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("photobook-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func sub(_ name: String) throws -> String {
        let p = path + "/" + name
        try FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }
    func file(_ name: String) -> String { path + "/" + name }
    func copy(_ source: String, to name: String) throws -> String {
        let dest = file(name)
        try FileManager.default.copyItem(atPath: source, toPath: dest)
        return dest
    }
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let dest = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: dest))
        return dest
    }
    /// Every name in a folder, hidden ones included.
    static func listing(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}

/// What poppler says about a PDF.
struct PDFFacts {
    var pages: Int
    var pageSizes: [(width: Double, height: Double)]
    var producer: String
    var creator: String
    /// `pdfimages -list`: per image, page, width, height, colour space, encoding.
    var images: [(page: Int, width: Int, height: Int, color: String, encoding: String)]

    init(_ path: String) throws {
        let info = try Run.command("/usr/bin/pdfinfo", ["-l", "-1", path])
        #expect(info.status == 0, "pdfinfo: \(info.stderr)")
        func field(_ name: String) -> String {
            info.stdout.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) } ?? ""
        }
        pages = Int(field("Pages")) ?? -1
        producer = field("Producer")
        creator = field("Creator")
        pageSizes = info.stdout.split(separator: "\n").filter { $0.hasPrefix("Page") && $0.contains("size:") }.map { line in
            let parts = line.split(separator: " ").compactMap { Double($0) }
            // "Page    1 size: 595.276 x 841.89 pts (A4)" -> [1, 595.276, 841.89]
            return (parts.count >= 3 ? parts[1] : 0, parts.count >= 3 ? parts[2] : 0)
        }
        let list = try Run.command("/usr/bin/pdfimages", ["-list", path])
        images = list.stdout.split(separator: "\n").dropFirst(2).map { line in
            let f = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            return (Int(f[0]) ?? -1, Int(f[3]) ?? -1, Int(f[4]) ?? -1, f[5], f[8])
        }
    }
}

/// Renders page `page` (1-based) of a PDF to an RGB raster at `dpi` with pdftoppm.
func renderPage(_ pdf: String, page: Int, dpi: Int, scratch: Scratch) throws -> (width: Int, height: Int, rgb: [UInt8]) {
    let prefix = scratch.file("render-\(page)")
    let run = try Run.command("/usr/bin/pdftoppm", ["-r", "\(dpi)", "-f", "\(page)", "-l", "\(page)", "-singlefile", pdf, prefix])
    #expect(run.status == 0, "pdftoppm: \(run.stderr)")
    return try readPPM(prefix + ".ppm")
}

/// Renders a page with pdftocairo, which places rotated images exactly (poppler's default rasteriser, behind
/// pdftoppm, samples turned images differently enough to blur a comparison).
func renderPageWithCairo(_ pdf: String, page: Int, dpi: Int, scratch: Scratch) throws -> (width: Int, height: Int, rgb: [UInt8]) {
    let prefix = scratch.file("cairo-\(page)")
    let run = try Run.command("/usr/bin/pdftocairo", ["-png", "-r", "\(dpi)", "-f", "\(page)", "-l", "\(page)", "-singlefile", pdf, prefix])
    #expect(run.status == 0, "pdftocairo: \(run.stderr)")
    let convert = try Run.command("/usr/bin/convert", [prefix + ".png", "-depth", "8", "ppm:" + prefix + ".ppm"])
    #expect(convert.status == 0)
    return try readPPM(prefix + ".ppm")
}

/// Reads a binary PPM (P6, maxval 255).
func readPPM(_ path: String) throws -> (width: Int, height: Int, rgb: [UInt8]) {
    let ppm = try PPM.parse(Fixtures.read(path))
    return (ppm.width, ppm.height, ppm.pixels)
}
