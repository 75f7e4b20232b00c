import Foundation
import JPEG
import TestSupport
import Testing

/// A `--report` as a script reads it: decoded here with test-local types, not photobook's own, so that a field
/// renamed in the program fails the tests.
struct ReadReport: Decodable {
    struct Box: Decodable { var x, y, width, height: Double }
    struct Page: Decodable { var number: Int; var arrangement: String; var photos: [Int] }
    struct Book: Decodable {
        var output: String
        var outcome: String
        var reason: String?
        var failureKind: String?
        var pagesWritten: Int
        var blankPages: Int
        var pages: [Page]
        var pageCount: PageCount?
    }
    struct PageCount: Decodable, Equatable { var pages: Int; var minimum: Int?; var maximum: Int?; var short: Int; var over: Int }
    struct Photo: Decodable {
        var index: Int
        var path: String
        var outcome: String
        var reason: String?
        var failureKind: String?
        var page: Int?
        var cell: Box?
        var crop: Box?
        var cropShare: Double?
        var cropFrom: String?
        var regions: Int?
        var regionCut: Bool?
        var pixelWidth: Int?
        var pixelHeight: Int?
        var effectiveDPI: Double?
        var passThrough: Bool?
        var losslessCrop: Bool?
        var caption: String?
        var format: String?
        var duplicateOf: String?
        var warnings: [String]
    }
    struct Timings: Decodable { var probe, plan, render, pdf, total: Double }
    struct Options: Decodable { var layout: String; var output: String; var jobs: Int; var strict: Bool; var sourceDateEpoch: Int? }

    var schema: Int
    var exitStatus: Int32
    var book: Book
    var photos: [Photo]
    var timings: Timings
    var options: Options

    init(path: String) throws {
        self = try JSONDecoder().decode(ReadReport.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func photo(named name: String) -> Photo? { photos.first { $0.path.hasSuffix("/" + name) } }
}

/// docs/report.schema.json, applied by an implementation that is not ours: Debian's python3-jsonschema.
enum ReportSchema {
    static let path = Fixtures.packageRoot.appendingPathComponent("docs/report.schema.json").path

    /// Checks the schema itself against its metaschema, then the report against the schema; returns nil when
    /// both hold, else what the validator said.
    static func problems(in report: String) throws -> String? {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            validator = jsonschema.validators.validator_for(schema)
            validator.check_schema(schema)
            errors = sorted(validator(schema).iter_errors(json.load(open(sys.argv[2]))), key=lambda e: list(e.path))
            for error in errors: print("/".join(map(str, error.path)) + ": " + error.message)
            sys.exit(1 if errors else 0)
            """
        let run = try Run.command("/usr/bin/python3", ["-c", script, path, report])
        return run.status == 0 ? nil : run.stdout + run.stderr
    }

    /// Records an issue unless the report at `path` is valid.
    static func expectValid(_ report: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let problems = try problems(in: report)
        #expect(problems == nil, "\(report) breaks docs/report.schema.json:\n\(problems ?? "")", sourceLocation: sourceLocation)
    }
}

/// Small photos of different heights, so that every one is embedded at its own pixel size (below the target
/// density nothing is resampled up) and the PDF tells them apart by size alone.
enum DistinctPhotos {
    static let sizes = [(320, 240), (300, 400), (360, 260), (250, 250), (420, 300)]

    /// Writes `a.jpg`, `b.jpg`... into `folder`; returns the file names in order.
    @discardableResult
    static func write(into folder: String, count: Int = sizes.count) throws -> [String] {
        try (0..<count).map { n in
            let (width, height) = sizes[n]
            let name = "\(Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(n)))).jpg"
            let bytes = try JPEGEncoder.encode(TestImages.detailed(width: width, height: height, seed: UInt64(n + 1)),
                                               quality: 85)
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
            return name
        }
    }

    /// A JPEG whose header is fine and whose data stops early: probed as usable, fails when decoded.
    static func writeTruncated(into folder: String, name: String = "broken.jpg") throws {
        let bytes = try JPEGEncoder.encode(TestImages.detailed(width: 200, height: 150, seed: 99), quality: 85)
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: folder + "/" + name))
    }
}

extension ReadReport {
    /// What became of each photo, by file name: its `failureKind` when it was left out ("corrupt",
    /// "unsupported", "duplicate"...), else its outcome ("succeeded"). The kinds are what the tests of what
    /// happened to a photo compare: the words of a warning may change, the kinds are the report's contract.
    var kinds: [String: String] {
        Dictionary(photos.map { (FileSystemName.base($0.path), $0.failureKind ?? $0.outcome) }, uniquingKeysWith: { first, _ in first })
    }
}

extension ReadReport {
    /// A path for a `--report` outside the test's folders (in the test run's TMPDIR), for `take(_:)` to read.
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("photobook-report-\(UUID().uuidString).json").path
    }

    /// Reads the report at `path` and removes the file.
    static func take(_ path: String) throws -> ReadReport {
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try ReadReport(path: path)
    }
}

extension Run {
    /// Runs `photobook` with `--report` into a file of its own outside the test's folders, reads the report back
    /// and removes it (a test's listing of its folders sees only what the build made). A run that writes no
    /// report fails the test with what the program said.
    static func photobookReporting(_ arguments: [String], tmpdir: String? = nil, timeout: Double = 300,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws -> (run: Run, report: ReadReport) {
        let path = ReadReport.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Right after the command's name, so that it comes before a `--` that ends the options.
        let run = try photobook(Array(arguments.prefix(1)) + ["--report", path] + arguments.dropFirst(), tmpdir: tmpdir,
                                timeout: timeout)
        try #require(FileManager.default.fileExists(atPath: path), "no report: exit \(run.status)\n\(run.stderr)",
                     sourceLocation: sourceLocation)
        return (run, try ReadReport(path: path))
    }
}
