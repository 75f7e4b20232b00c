import Foundation
import PhotoBook
import Platform

/// The command line: parses, checks inputs and output before any work, runs the build, reports, exits.
public enum PhotoBookCLI {
    /// Runs the program and returns its exit status. The environment is read here, once; `harness` is
    /// `photobook-harness`'s (the tests' and the benchmark's), the default does nothing.
    public static func main(_ arguments: [String], harness: RunHarness = RunHarness()) -> Int32 {
        let run = Run(harness: harness, environment: RunEnvironment(ProcessInfo.processInfo.environment))
        let args = Array(arguments.dropFirst())
        switch args.first {
        case nil:
            Diagnostics.standardError(HelpText.program())
            return ExitStatus.usage.rawValue
        case "-h", "--help":
            Diagnostics.standardOutput(HelpText.program())
            return ExitStatus.success.rawValue
        case "-V", "--version":
            Diagnostics.standardOutput(PhotoBookVersion.string + "\n")
            return ExitStatus.success.rawValue
        case "help":
            return help(Array(args.dropFirst())).rawValue
        case "build":
            return runBuild(Array(args.dropFirst()), run).rawValue
        case "init":
            return runInit(Array(args.dropFirst()), run).rawValue
        case "cover":
            return runCover(Array(args.dropFirst()), run).rawValue
        case "edit":
            return EditCommand.run(Array(args.dropFirst()), run).rawValue
        case "completions":
            return CompletionsCommand.run(Array(args.dropFirst())).rawValue
        case "presets":
            return PresetsCommand.run(Array(args.dropFirst())).rawValue
        case "docs":
            // For `make docs`, not listed: writes the documents kept in the repository from the option tables.
            return docs(Array(args.dropFirst())).rawValue
        case let other?:
            let names = ProgramDocument.commands.map(\.name)
            if other.hasPrefix("-") {
                let known = ProgramDocument.options.map(\.longName)
                let meant = known.first { $0.hasPrefix(other) && other.count > 2 }.map { ": did you mean \($0)?" }
                Diagnostics().error("unknown option \(ValueError.quote(other))\(meant ?? " (see 'photobook --help')")")
            } else {
                let meant = names.filter { $0.hasPrefix(other) || ArgumentScanner<BuildCommand>.editDistance($0, other) <= 2 }
                Diagnostics().error("unknown command \(ValueError.quote(other))"
                                    + (meant.isEmpty ? " (see 'photobook --help')" : ": did you mean \(meant.joined(separator: " or "))?"))
            }
            return ExitStatus.usage.rawValue
        }
    }

    /// `photobook help [COMMAND]`.
    static func help(_ arguments: [String]) -> ExitStatus {
        guard let name = arguments.first else {
            Diagnostics.standardOutput(HelpText.program())
            return .success
        }
        guard arguments.count == 1, let command = ProgramDocument.commands.first(where: { $0.name == name }) else {
            Diagnostics().error("no help for \(ValueError.quote(arguments.joined(separator: " "))) (see 'photobook --help')")
            return .usage
        }
        Diagnostics.standardOutput(HelpText.command(command))
        return .success
    }

    /// Runs a command's `body`; the error it throws (a bad command line, mostly) is said on stderr and gives the
    /// exit status: the one place a command's thrown `CLIError` becomes its message and status.
    static func reportingError(_ body: () throws(CLIError) -> ExitStatus) -> ExitStatus {
        do {
            return try body()
        } catch {
            Diagnostics().error(error.message)
            return error.status
        }
    }

    /// `photobook init INPUT... -o book.json [options]` (InitCommand.swift).
    static func runInit(_ arguments: [String], _ run: Run) -> ExitStatus {
        reportingError { () throws(CLIError) in
            guard let (build, command) = try InitCommand.parse(arguments) else {
                Diagnostics.standardOutput(HelpText.command(InitCommand.document))
                return .success
            }
            return execute(build, run, initialize: command)
        }
    }

    /// `photobook docs man|readme|bash|zsh|fish`: one document, on stdout.
    static func docs(_ arguments: [String]) -> ExitStatus {
        switch arguments.first {
        case "man"?: Diagnostics.standardOutput(ManPage.render())
        case "readme"?: Diagnostics.standardOutput(ReadmeTable.render())
        case let name? where CompletionScript.Shell(rawValue: name) != nil:
            Diagnostics.standardOutput(CompletionScript.render(CompletionScript.Shell(rawValue: name)!))
        default:
            Diagnostics().error("docs: name one of man, readme, bash, zsh, fish")
            return .usage
        }
        return .success
    }

    static func runBuild(_ arguments: [String], _ run: Run) -> ExitStatus {
        let command: BuildCommand
        var description: DescriptionInput?
        do {
            // The arguments are scanned once; a description file named among the inputs is read once, its
            // options a layer under them.
            let typed = try TypedOptions.scan(arguments, commandName: "build")
            if !typed.help, try DescriptionInput.names(typed.inputs) {
                let loaded = try DescriptionInput.load(typed.inputs[0])
                try DescriptionInput.refuse(typed.options.names)
                description = loaded
            }
            command = try BuildCommand.merge(typed, description: description?.options ?? OptionValues())
        } catch {
            Diagnostics().error(error.message)
            return error.status
        }
        if command.help {
            Diagnostics.standardOutput(HelpText.command(BuildCommand.document))
            return .success
        }
        return execute(command, run, description: description)
    }

    /// What a build needs once its command is checked: its photos, its options with the font read, and the
    /// warnings said before it starts. `execute` and the editor's proofs (`EditorBook`) start from it.
    struct ReadyBuild {
        var photos: [PhotoFile]
        var options: BuildOptions
        var render: RenderRun
        var early: [BuildWarning]
    }

    /// Runs a parsed build (or, with `initialize`, writes the description of the book it would build).
    static func execute(_ command: BuildCommand, _ run: Run, description: DescriptionInput? = nil,
                        initialize: InitCommand? = nil) -> ExitStatus {
        let say = Diagnostics(quiet: command.quiet, verbose: command.verbose, progressAnyway: run.environment.progressAnyway)
        let output = command.output
        let ready: ReadyBuild
        switch prepare(command, run, description: description, initializing: initialize != nil,
                       leavesPagesToProbe: initialize == nil && !command.dryRun, say: say) {
        case .failure(let stop): return stop.status
        case .success(let found): ready = found
        }
        var options = ready.options
        let (photos, render, early) = (ready.photos, ready.render, ready.early)
        let harness = run.harness
        let hooks = render.hooks(meter: ProgressLine(total: photos.count), writing: { index, pages in
            "photobook: all photos ready, writing page \(index + 1) of \(pages)"
        }, say: say, harness: harness)
        // The same book either way; only the harness compares them.
        options.imagesInMemory = harness.imagesInMemory
        options.losslessCrops = harness.losslessCrops
        if let bytes = harness.fileSizeLimit { options.fileSizeLimit?.bytes = bytes }
        if command.dryRun || initialize != nil {
            // Plan-only: nothing is decoded or written, so there is nothing for a signal to clean up, and no
            // progress to show.
            let preview = RenderPipeline(files: photos, outputPath: output ?? "", options: options).preview()
            if let initialize {
                return initialize.write(preview, files: photos, options: options, say: say)
            }
            return DryRun.report(preview, files: photos, options: options, say: say)
        }
        guard let output else { return .usage }
        let pipeline = RenderPipeline(files: photos, outputPath: output, options: options, hooks: hooks)
        let report = render.run(pipeline, starting: "photobook: 0 of \(photos.count) photos", say: say, harness: harness)
        let placed = command.options.order.reverse ? "before the dated photos, in reverse name order"
                                                   : "after the dated photos, in name order"
        for path in report.undatedPhotos { say.note("no capture date: placed \(placed)", path: path) }
        for photo in report.photos {
            if let format = photo.format { say.note(format, path: photo.path) }
            for note in photo.notes { say.note(note, path: photo.path) }
        }
        let status = Summary.report(report, output: output, options: options, say: say)
        return writeReport(report, command: command, options: options, status: status, say: say, early: early)
    }

    /// A stop before the build: its exit status, the error already said.
    struct Stopped: Error { var status: ExitStatus }

    /// Checks the output and the report's place, reads the font and finds the photos, saying every mistake.
    /// `leavesPagesToProbe`: the photos go to a build's pipeline, whose probe counts a multi-page TIFF's pages.
    static func prepare(_ command: BuildCommand, _ run: Run, description: DescriptionInput?, initializing: Bool = false,
                        leavesPagesToProbe: Bool = false, say: Diagnostics) -> Result<ReadyBuild, Stopped> {
        let output = command.output
        // Warnings given before the build starts, which its report must list too ("every warning of the build").
        var early: [BuildWarning] = []
        if let preset = command.preset, let source = preset.refusesCropMarks, command.options.layout.cropMarks {
            early.append(BuildWarning(path: nil, message: "--crop-marks: \(preset.service) asks for files without crop "
                                                        + "marks (\(source))"))
            say.warning(early[early.count - 1].message)
        }
        var options = command.options
        // A proof's photos are rendered for the screen; init only plans the book, as it would be printed.
        if command.proof, !initializing { options.makeProof() }
        options.given = description?.given
        // What the photos look like (a burst, blurred, a screenshot) is said by the dry run and --verbose.
        options.describesChoice = command.dryRun || initializing || command.verbose
        options.choice = command.choice
        if !command.noCache { options.cacheDirectory = run.environment.cacheDirectory }
        if command.proof { say.warning("a proof for the screen (\(BuildCommand.proofDPI) dpi, JPEG quality \(BuildCommand.proofQuality)), not for print") }
        if let pdfx = options.pdfx { say.note(pdfx.verboseNote) }
        let render: RenderRun
        do {
            render = try RenderRun.prepare("book", run, fontPath: command.fontPath, language: command.language,
                                           wantsFont: command.hasWords || description?.hasWords == true,
                                           colourEmoji: options.pdfx?.standard != .x1a)
        } catch {
            say.error(error.message)
            return .failure(Stopped(status: error.status))
        }
        options.creationDate = render.creationDate
        options.text = render.font.map { TextOptions(font: $0) }

        // A description's photos were found when it was read, each as listed. A build's probe counts a multi-page
        // TIFF's pages from the read that gives their headers; the others (a dry run and init name the photos by
        // their place in this list, and so does a cover photo, one of them) count them here, by that same read,
        // which the photos hand on to the probe (`Discovery.discover`): the file is not opened again for it.
        let discovery = Discovery.discover(description == nil ? command.inputs : [], recursive: command.recursive,
                                           countsPages: !leavesPagesToProbe || command.coverPhoto != nil)
        for (path, reason) in discovery.errors { say.error(reason, path: path) }
        if !discovery.errors.isEmpty { return .failure(Stopped(status: .usage)) }
        var inputIDs = description?.inputIDs ?? discovery.inputIDs
        if let path = description?.path, let id = try? FileSystem.status(path).get().id { inputIDs.insert(id) }
        if let output, let problem = OutputCheck.problem(with: output, inputs: inputIDs) {
            say.error(problem, path: output)
            return .failure(Stopped(status: .usage))
        }
        if let report = command.report, let problem = ReportWriter.problem(with: report, output: output,
                                                                            inputs: inputIDs) {
            say.error("--report: \(problem)", path: report)
            return .failure(Stopped(status: .usage))
        }
        for (path, reason) in discovery.warnings {
            say.warning(reason, path: path)
            early.append(BuildWarning(path: path, message: reason))
        }
        for (path, reason) in discovery.notes { say.note(reason, path: path) }
        guard !discovery.photos.isEmpty || description != nil else {
            // A folder of folders (a Google Takeout, a year of months) is the usual way to get here: say so.
            var inSubfolders = ""
            if !command.recursive, description == nil {
                let deeper = Discovery.discover(command.inputs, recursive: true).photos.count
                if deeper > 0 { inSubfolders = " (\(deeper) in subfolders: add -r to include them)" }
            }
            say.error("no photos found in \(command.inputs.joined(separator: ", "))\(inSubfolders), nothing was written")
            let none = BuildReport(photos: [], book: .skipped(because: .refused("no photos found")), pagesWritten: 0,
                                   seconds: 0)
            return .failure(Stopped(status: writeReport(none, command: command, options: options, status: .failure, say: say, early: early)))
        }

        var photos = description?.photos ?? discovery.photos
        if var text = options.text {
            text.title = command.title
            text.subtitle = command.subtitle
            text.author = command.author
            text.captions = command.captions
            text.pageNumbers = command.pageNumbers
            text.sections = command.sections
            if let cover = command.coverPhoto {
                // Found first without counting its pictures: a cover among the book's photos was counted with
                // them, and counting it again would open it once more (issue 32, each photo opened twice at most).
                let found = Discovery.discover([cover], recursive: false, countsPages: false)
                for (path, reason) in found.errors { say.error("--cover-photo: \(reason)", path: path) }
                if !found.errors.isEmpty { return .failure(Stopped(status: .usage)) }
                guard let file = found.photos.first, let format = file.format else {
                    say.error("--cover-photo: not a photo photobook reads (\(ImageFormat.names))", path: cover)
                    return .failure(Stopped(status: .usage))
                }
                // A cover that is also among the book's photos is that photo, shown once, on the title page; any
                // other is found again, its pictures counted, and goes in after them (its first picture).
                let index = photos.firstIndex(where: { $0.id == file.id })
                let photo = index.map { photos[$0] } ?? Discovery.discover([cover], recursive: false).photos.first ?? file
                // A multi-page file (a TIFF of several scans) is one photo per page; the title page shows one.
                let pages = photo.path == photo.filePath ? 1 : Discovery.pageName(photo.path)?.count ?? 1
                if pages > 1 {
                    let why = "--cover-photo: a \(format.name) of \(pages) pages: the title page "
                        + "shows page 1 (to show another, save that page as a file of its own)"
                    say.warning(why, path: cover)
                    early.append(BuildWarning(path: cover, message: why))
                }
                if let index {
                    text.titlePhoto = PhotoID(index)
                } else {
                    text.titlePhoto = PhotoID(photos.count)
                    photos.append(photo)
                }
            }
            options.text = text
        }

        return .success(ReadyBuild(photos: photos, options: options, render: render, early: early))
    }

    /// Writes the `--report`, if one was asked for; returns the exit status, a failure if the report could not be
    /// written (the book, if written, stays).
    static func writeReport(_ report: BuildReport, command: BuildCommand, options: BuildOptions, status: ExitStatus,
                            say: Diagnostics, early: [BuildWarning] = []) -> ExitStatus {
        guard let path = command.report else { return status }
        var report = report
        report.warnings = early + report.warnings
        let document = ReportDocument(report, options: ReportOptions(command, options: options), exitStatus: status)
        guard let problem = ReportWriter.write(document, to: path) else { return status }
        say.error(problem, path: path)
        return status == .success ? .failure : status
    }
}
