import Foundation
import TestSupport

/// The PngSuite fixtures (Fixtures/pngsuite) and their reference pixels from pypng.
enum PngSuite {
    static let directory = URL(fileURLWithPath: Fixtures.path("pngsuite"))
    static let referenceScript = Fixtures.packageRoot.appendingPathComponent("Tests/PNGTests/Reference/png_reference.py")

    static let allNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".png") }.sorted()
    }()
    /// PngSuite names its broken files x*.png; every other file is valid.
    static let validNames = allNames.filter { !$0.hasPrefix("x") }
    static let invalidNames = allNames.filter { $0.hasPrefix("x") }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Reference RGB (over white) for each valid file, by name; computed once, in one Python process.
    static let reference: Result<[String: [UInt8]], ReferenceError> = computeReference()

    struct ReferenceError: Error, CustomStringConvertible {
        var description: String
    }

    private static func computeReference() -> Result<[String: [UInt8]], ReferenceError> {
        guard let python = pythonWithPyPNG() else {
            return .failure(ReferenceError(description:
                "no python3 with pypng found (install Debian's python3-png, or set PHOTOBOOK_PYTHON)"))
        }
        let fm = FileManager.default
        let outdir = fm.temporaryDirectory.appendingPathComponent("photobook-png-reference-\(UUID().uuidString)")
        do {
            try fm.createDirectory(at: outdir, withIntermediateDirectories: true)
            defer { try? fm.removeItem(at: outdir) }
            let paths = validNames.map { directory.appendingPathComponent($0).path }
            let run = try ExternalCommand.run(python, [referenceScript.path, outdir.path] + paths)
            guard run.status == 0, !run.timedOut else {
                return .failure(ReferenceError(description: "png_reference.py exited \(run.status): \(run.stderrText)"))
            }
            var result: [String: [UInt8]] = [:]
            for name in validNames {
                let stem = String(name.dropLast(4))
                let rgb = outdir.appendingPathComponent(stem + ".rgb")
                if let data = fm.contents(atPath: rgb.path) { result[name] = [UInt8](data) }
            }
            return .success(result)
        } catch {
            return .failure(ReferenceError(description: "could not run the reference script: \(error)"))
        }
    }

    /// Debian's python3-png installs for /usr/bin/python3, which is not always the first python3 on PATH.
    private static func pythonWithPyPNG() -> String? {
        var candidates = ["/usr/bin/python3", "/usr/local/bin/python3"]
        if let chosen = ProcessInfo.processInfo.environment["PHOTOBOOK_PYTHON"] { candidates.insert(chosen, at: 0) }
        for path in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(String(path) + "/python3")
        }
        return candidates.first { candidate in
            FileManager.default.isExecutableFile(atPath: candidate)
                && (try? ExternalCommand.run(candidate, ["-c", "import png"]))?.status == 0
        }
    }
}
