#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PhotoBook
import Synchronization

/// The command line: parses, checks inputs and output before any work, runs the build, reports, exits.
public enum PhotoBookCLI {
    static let usage = """
        Usage: photobook build INPUT... -o OUTPUT.pdf [options]
               photobook --help | --version

        Commands:
          build    make a print-ready PDF photo book from folders and files of photos

        Run 'photobook build --help' for the options and their defaults.

        """

    /// Runs the program and returns its exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        let args = Array(arguments.dropFirst())
        switch args.first {
        case nil:
            FileHandle.standardError.write(Data(usage.utf8))
            return ExitStatus.usage.rawValue
        case "-h", "--help", "help":
            Diagnostics.standardOutput(usage)
            return ExitStatus.success.rawValue
        case "--version", "-V":
            Diagnostics.standardOutput(PhotoBookVersion.string + "\n")
            return ExitStatus.success.rawValue
        case "build":
            return runBuild(Array(args.dropFirst())).rawValue
        case let other?:
            Diagnostics().error("unknown command '\(other)' (see 'photobook --help')")
            return ExitStatus.usage.rawValue
        }
    }

    static func runBuild(_ arguments: [String]) -> ExitStatus {
        let command: BuildCommand
        do {
            command = try BuildCommand.parse(arguments)
        } catch {
            Diagnostics().error(error.message)
            return error.status
        }
        if command.help {
            Diagnostics.standardOutput(BuildCommand.help + "\n")
            return .success
        }
        let say = Diagnostics(quiet: command.quiet, verbose: command.verbose)
        let output = command.output!

        let discovery = Discovery.discover(command.inputs, recursive: command.recursive)
        for (path, reason) in discovery.errors { say.error(reason, path: path) }
        if !discovery.errors.isEmpty { return .usage }
        if let problem = OutputCheck.problem(with: output, inputs: discovery.inputIDs) {
            say.error(problem, path: output)
            return .usage
        }
        for (path, reason) in discovery.warnings { say.warning(reason, path: path) }
        for (path, reason) in discovery.notes { say.note(reason, path: path) }
        guard !discovery.photos.isEmpty else {
            say.error("no JPEG or PNG photos found in \(command.inputs.joined(separator: ", ")), nothing was written")
            return .failure
        }

        let total = discovery.photos.count
        let done = Mutex(0)
        let environment = ProcessInfo.processInfo.environment
        let pause = TestPause(point: environment["PHOTOBOOK_TEST_PAUSE"],
                              holdFirstSignal: environment["PHOTOBOOK_TEST_PAUSE_HOLD"] == "1", say: say)
        let hooks = BuildHooks(
            decodeStarted: { _ in pause.reached("decode") },
            photoFinished: { _ in
                let count = done.withLock { $0 += 1; return $0 }
                say.progress("photobook: \(count) of \(total) photos")
            },
            pageStarted: { index in
                say.progress("photobook: all photos ready, writing page \(index + 1)")
                if index == min(1, total - 1) { pause.reached("page") }
            },
            beforeCommit: { pause.reached("commit") },
            afterCommit: { pause.reached("committed") })
        let builder = BookBuilder(files: discovery.photos, outputPath: output, options: command.options, hooks: hooks)
        let signals = SignalHandler(onFirst: { _ in
            // After the commit it is too late: the book stays and the run counts as a success.
            if builder.cancel() {
                say.status("cancelling...", evenWhenQuiet: true)
            } else {
                say.status("the book is already written; finishing", evenWhenQuiet: true)
            }
            pause.release()
        }, onSecond: { _ in
            // Decided under the session's lock: once the book is committed it stays and the run succeeds.
            guard builder.session.abandon() else {
                say.status("the book is already written; finishing", evenWhenQuiet: true)
                pause.release()
                return
            }
            say.status("interrupted again: stopped at once, nothing was written", evenWhenQuiet: true)
            _exit(ExitStatus.interrupted.rawValue)
        })
        say.progress("photobook: 0 of \(total) photos")
        let report = builder.run()
        signals.cancel()
        return Summary.report(report, output: output, options: command.options, say: say)
    }
}
