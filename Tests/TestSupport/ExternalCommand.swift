import Dispatch
import Foundation

/// Runs the tools the tests compare against (djpeg, ImageMagick, poppler, qpdf, python3) and the built binary.
package enum ExternalCommand {
    /// What a finished command left behind.
    package struct Output: Sendable {
        package var status: Int32
        package var stdout: [UInt8]
        package var stderr: [UInt8]
        /// It did not end within the time allowed and was terminated.
        package var timedOut: Bool
        package var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        package var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// A command that could not be started, failed or hung.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Runs `executable` (a path, or a name looked up on PATH) with `environment` added to ours and standard
    /// input empty; both pipes are read while it runs so that a full pipe cannot stall it. After `timeout`
    /// seconds it is terminated and the output says so.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                            timeout: Double = 300) throws -> Output {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        let outData = Box(), errData = Box()
        let readers = DispatchGroup()
        for (pipe, sink) in [(out, outData), (err, errData)] {
            DispatchQueue.global().async(group: readers) { sink.set(pipe.fileHandleForReading.readDataToEndOfFile()) }
        }
        var timedOut = false
        if done.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.terminate()
            _ = done.wait(timeout: .now() + 10)
        }
        _ = readers.wait(timeout: .now() + 10)
        return Output(status: process.terminationStatus, stdout: [UInt8](outData.get()), stderr: [UInt8](errData.get()),
                      timedOut: timedOut)
    }

    /// The standard output of a command that must succeed; a non-zero exit throws with what it wrote to stderr.
    package static func output(_ executable: String, _ arguments: [String], timeout: Double = 300) throws -> [UInt8] {
        let result = try run(executable, arguments, timeout: timeout)
        guard result.status == 0, !result.timedOut else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) "
                + (result.timedOut ? "did not finish within \(timeout) s" : "exited \(result.status)")
                + ": \(result.stderrText)\(result.stdoutText.prefix(2000))")
        }
        return result.stdout
    }

    private final class Box: @unchecked Sendable {
        private var data = Data()
        private let lock = NSLock()
        func get() -> Data { lock.withLock { data } }
        func set(_ newValue: Data) { lock.withLock { data = newValue } }
    }
}
