import Foundation
import PhotoBook
import Platform

extension PhotoBookCLI {
    /// `photobook cover FRONT [BACK] -o COVER.pdf [options]` (CoverCommand.swift).
    static func runCover(_ arguments: [String], _ run: Run) -> ExitStatus {
        reportingError { () throws(CLIError) in
            let command = try CoverCommand.parse(arguments)
            guard !command.help else {
                Diagnostics.standardOutput(HelpText.command(CoverCommand.document))
                return .success
            }
            return makeCover(command, run)
        }
    }

    /// Runs a parsed cover: checks everything before any photo is read, then hands the cover to the pipeline a
    /// book is made in, with the same set-up (`RenderRun`): dates, font, commit, signals and test pauses.
    static func makeCover(_ command: CoverCommand, _ run: Run) -> ExitStatus {
        let say = Diagnostics(quiet: command.quiet, verbose: command.verbose, progressAnyway: run.environment.progressAnyway)
        let output = command.output!
        var options = CoverOptions(geometry: command.geometry)
        options.dpi = command.dpi
        options.quality = command.quality
        options.crop = command.crop
        options.pdfx = command.pdfxRequest
        if let pdfx = options.pdfx { say.note(pdfx.verboseNote) }
        options.temporaryDirectory = run.environment.temporaryDirectory
        // The same reproducible dates as a book's (issue 12): the cover is printed beside it.
        let render: RenderRun
        do {
            render = try RenderRun.prepare("cover", run, fontPath: command.fontPath, language: command.language,
                                           wantsFont: command.title != nil, colourEmoji: options.pdfx?.standard != .x1a)
        } catch {
            say.error(error.message)
            return error.status
        }
        options.creationDate = render.creationDate
        if let font = render.font, let title = command.title {
            options.text = CoverText(font: font, title: title, subtitle: command.subtitle, author: command.author)
            options.text?.spineText = command.spineText
        }

        // A folder is a mistake of the command line; a photo that is missing or unreadable fails the cover.
        for input in command.inputs {
            if case .success(let status) = FileSystem.status(input), status.kind == .directory {
                say.error("is a folder: name the photo itself (the front first, then the back)", path: input)
                return .usage
            }
        }
        // Only the inputs' identities and errors: their pictures are counted below, each input found on its own.
        let discovery = Discovery.discover(command.inputs, recursive: false, countsPages: false)
        if let problem = OutputCheck.problem(with: output, inputs: discovery.inputIDs) {
            say.error(problem, path: output)
            return .usage
        }
        for (path, reason) in discovery.errors { say.error(reason, path: path) }
        guard discovery.errors.isEmpty else {
            say.error("the cover needs every photo it names; nothing was written", path: output)
            return .failure
        }
        // The same file twice (front and back alike) is found once: find each input on its own, the same path once.
        var paths = PathDiscovery()
        let found = command.inputs.map { paths.discover($0).photos }
        let files = found.compactMap(\.first)
        guard files.count == command.inputs.count else {
            say.error("cannot read the photos named; nothing was written", path: output)
            return .failure
        }
        // A multi-page file (a TIFF of several scans) is one photo per page; a side of the cover shows one.
        for (side, (input, pages)) in zip(["front", "back"], zip(command.inputs, found)) where pages.count > 1 {
            say.warning("\(pages[0].format.map { "a \($0.name)" } ?? "a file") of \(pages.count) pages: the \(side) "
                        + "shows page 1 (to show another, save that page as a file of its own)", path: input)
        }

        let hooks = render.hooks(meter: nil, writing: { _, _ in "photobook: photos ready, writing the cover" },
                                 say: say, harness: run.harness)
        let pipeline = RenderPipeline(front: files[0], back: files.count > 1 ? files[1] : nil, outputPath: output,
                                      options: options, hooks: hooks)
        let report = render.run(pipeline, starting: "photobook: preparing the cover's photos", say: say,
                                harness: run.harness)
        return CoverSummary.report(report, output: output, options: options, say: say)
    }
}
