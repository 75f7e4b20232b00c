/// Runs the tools the tests compare against (djpeg, ImageMagick, poppler, qpdf, python3) and the built binary.
package enum ExternalCommand {
    /// What a finished command left behind.
    package struct Output: Sendable {
        package var status: Int32
        package var stdout: [UInt8]
        package var stderr: [UInt8]
        /// It did not end within the time allowed and was killed.
        package var timedOut: Bool
        package var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        package var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// A command that could not be started, failed or hung.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Runs `executable` (a path, or a name looked up on PATH through env(1)) with `environment` added to ours,
    /// in `directory` when given, with standard input empty. After `timeout` seconds it is killed and the output
    /// says so. It is started by `ChildProcess` (posix_spawn), never by Foundation's `Process`: see there why.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                            directory: String? = nil, timeout: Double = 300) throws -> Output {
        let child = executable.contains("/")
            ? try ChildProcess(executable, arguments, environment: environment, directory: directory)
            : try ChildProcess("/usr/bin/env", [executable] + arguments, environment: environment, directory: directory)
        let (ending, timedOut) = child.wait(timeout: timeout)
        return Output(status: ending.status, stdout: child.stdoutBytes, stderr: child.stderrBytes, timedOut: timedOut)
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
}
