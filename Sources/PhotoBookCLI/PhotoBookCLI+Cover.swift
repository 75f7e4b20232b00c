import Foundation
import PhotoBook
import Platform

extension PhotoBookCLI {
    /// `photobook cover`: checks everything before any photo is read, then makes the cover with the same commit,
    /// signals and test pauses as `build`.
    static func runCover(_ arguments: [String], _ run: Run) -> ExitStatus {
        let command: CoverCommand
        do {
            command = try CoverCommand.parse(arguments)
        } catch {
            Diagnostics().error(error.message)
            return error.status
        }
        if command.help {
            Diagnostics.standardOutput(HelpText.command(CoverCommand.document))
            return .success
        }
        let say = Diagnostics(quiet: command.quiet, verbose: command.verbose)
        let output = command.output!
        var options = CoverOptions(geometry: command.geometry)
        options.dpi = Double(command.dpi)
        options.quality = command.quality
        options.temporaryDirectory = run.environment.temporaryDirectory
        // The same reproducible dates as a book's (issue 12): the cover is printed beside it.
        switch SourceDateEpoch.date(from: run.environment.sourceDateEpoch) {
        case .success(let date): options.creationDate = date
        case .failure(let error):
            say.error(error.message)
            return error.status
        }
        if command.title != nil || command.fontPath != BookFont.defaultPath {
            do {
                let font = try BookFont(path: command.fontPath)
                if let title = command.title {
                    options.text = CoverText(font: font, title: title, subtitle: command.subtitle, author: command.author)
                }
            } catch {
                let hint = command.fontPath == BookFont.defaultPath
                    ? " (install Debian's fonts-dejavu-core, or name a TrueType font with --font)" : ""
                say.error("--font: \(error)\(hint)")
                return .usage
            }
        }

        // A folder is a mistake of the command line; a photo that is missing or unreadable fails the cover.
        for input in command.inputs {
            if case .success(let status) = FileSystem.status(input), status.kind == .directory {
                say.error("is a folder: name the photo itself (the front first, then the back)", path: input)
                return .usage
            }
        }
        let discovery = Discovery.discover(command.inputs, recursive: false)
        if let problem = OutputCheck.problem(with: output, inputs: discovery.inputIDs) {
            say.error(problem, path: output)
            return .usage
        }
        for (path, reason) in discovery.errors { say.error(reason, path: path) }
        guard discovery.errors.isEmpty else {
            say.error("the cover needs every photo it names; nothing was written", path: output)
            return .failure
        }
        // The same file twice (front and back alike) is found once: find each input on its own.
        let files = command.inputs.compactMap { Discovery.discover([$0], recursive: false).photos.first }
        guard files.count == command.inputs.count else {
            say.error("cannot read the photos named; nothing was written", path: output)
            return .failure
        }

        let harness = run.harness
        let hooks = BuildHooks(
            decodeStarted: { _ in harness.reached(.decode) },
            pageStarted: { _, _ in
                say.progress("photobook: photos ready, writing the cover")
                harness.reached(.page)
            },
            beforeCommit: { harness.reached(.commit) },
            afterCommit: { harness.reached(.committed) })
        let builder = RenderPipeline(front: files[0], back: files.count > 1 ? files[1] : nil, outputPath: output,
                                     options: options, hooks: hooks)
        let signals = SignalHandler(onFirst: { _ in
            if builder.cancel() {
                say.status("cancelling...", evenWhenQuiet: true)
            } else {
                say.status("the cover is already written; finishing", evenWhenQuiet: true)
            }
            harness.heardSignal()
        }, onSecond: { _ in
            guard builder.session.abandon() else {
                say.status("the cover is already written; finishing", evenWhenQuiet: true)
                harness.heardSignal()
                return
            }
            say.status("interrupted again: stopped at once, nothing was written", evenWhenQuiet: true)
            ProcessExit.now(ExitStatus.interrupted.rawValue)
        })
        harness.armed()
        say.progress("photobook: preparing the cover's photos")
        let report = builder.run()
        signals.cancel()
        return CoverSummary.report(report, output: output, options: options, say: say)
    }
}
