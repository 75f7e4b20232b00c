import Foundation
import Platform

/// Writes the `--report` document whole or not at all: to standard output for `-`, else to a temporary file
/// beside the report, synced and renamed over it. The temporary file is removed on every path that fails.
enum ReportWriter {
    /// The path that means standard output.
    static let standardOutput = "-"

    /// Why `path` cannot take the report of a build writing `output`, or nil when it can (checked before any work,
    /// as the output is).
    static func problem(with path: String, output: String?, inputs: Set<FileSystem.FileID>) -> String? {
        guard path != standardOutput else { return nil }
        if let output, Self.sameFile(path, output) { return "the report would overwrite the book (\(output)): give another name" }
        return OutputCheck.problem(with: path, inputs: inputs, writing: "the report", example: "report.json")
    }

    /// Writes `document` to `path`; returns why it could not, or nil.
    static func write(_ document: ReportDocument, to path: String) -> String? {
        let bytes: [UInt8]
        do {
            bytes = try document.encoded()
        } catch {
            return "cannot encode the report: \(error)"
        }
        if path == standardOutput {
            do { try FileDescriptor.standardOutput.writeAll(bytes) } catch { return "cannot write the report to standard output: \(error)" }
            return nil
        }
        // The report is the last thing the program does: a Ctrl-C from here on must not kill it between the
        // temporary file and its rename or removal (the build's own handler is gone by now).
        for signal in [ProcessSignal.interrupt, .terminate, .hangUp] { signal.ignore() }
        let directory = FileSystem.directoryName(path)
        let temporary: String, descriptor: FileDescriptor
        switch FileSystem.makeTemporaryFile(template: "\(directory)/.\(FileSystem.baseName(path)).photobook-XXXXXX") {
        case .failure(let failure): return "cannot create a temporary file in \(directory): \(failure)"
        case .success(let file): (temporary, descriptor) = file
        }
        do {
            try descriptor.closeAfter { (file) throws(FileSystem.Failure) in
                try file.writeAll(bytes)
                try file.setMode(FileSystem.modeForNewFile(replacing: path))
                try file.sync()
            }
        } catch {
            FileSystem.remove(temporary)
            return "cannot write the report: \(error)"
        }
        if case .failure(let failure) = FileSystem.rename(temporary, to: path) {
            FileSystem.remove(temporary)
            return "cannot write the report: \(failure)"
        }
        _ = FileSystem.sync(directory, directory: true)
        return nil
    }

    /// Whether two paths name one file: the same inode when both exist, else the same path once made absolute.
    private static func sameFile(_ a: String, _ b: String) -> Bool {
        if case .success(let first) = FileSystem.status(a), case .success(let second) = FileSystem.status(b) {
            return first.id == second.id
        }
        func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
        return absolute(a) == absolute(b)
    }
}
