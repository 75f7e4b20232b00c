import Foundation
import PhotoBook
import Platform

/// `photobook init INPUT... -o book.json [build options]`: writes the description of the book `build` would make
/// with the same arguments, for a person to edit and `photobook build book.json -o book.pdf` to build.
struct InitCommand {
    /// The description file to write.
    var output: String
    /// The build options as typed (the defaults are not written: they may improve).
    var typed: OptionValues<BuildCommand>

    static var document: CommandDocument {
        CommandDocument(
            name: "init",
            synopsis: "photobook init INPUT... -o BOOK.json [build options]",
            summary: "write an editable description of the book build would make",
            description: [
                "Plans the book that photobook build would make from the same inputs and options, reading only the "
                    + "photos' headers, and writes it as a JSON file: the options given, and the pages in order, each "
                    + "with its layout, its photos (paths relative to the file), their captions and any section "
                    + "heading. Edit it (reorder, delete or add photos, set captions, pin a page's layout, move a "
                    + "crop with \"focus\": [x, y]) and build it with photobook build BOOK.json -o BOOK.pdf; options "
                    + "on that command line override the file's. docs/book-description.md describes the format.",
                "Every option of photobook build is accepted but --dry-run, --report and --spreads (a description "
                    + "cannot hold a spread yet); -o names the description, written atomically.",
            ],
            operands: "INPUT", operandCompletion: .filesAndFolders,
            options: options.map(\.spec),
            examples: [
                ("photobook init ./photos --layout auto --captions name -o book.json", "describe an automatic layout"),
                ("photobook build book.json -o book.pdf", "build the book the (edited) description says"),
            ])
    }

    /// The options `init --help` lists: build's, `-o` naming the description, without those `parse` refuses.
    /// (It reads its arguments with build's whole table, so that a refused option is refused with its reason.)
    static var options: [Option<BuildCommand>] {
        BuildCommand.options.filter { !["dry-run", "report", "spreads"].contains($0.spec.long) }.map { option in
            option.spec.long == "output" ? OutputGroup.output(.bookDescription, \.output) : option
        }
    }

    /// Parses `init`'s arguments into the build command that plans the book, and what to write.
    static func parse(_ arguments: [String]) throws(CLIError) -> (build: BuildCommand, command: InitCommand)? {
        let typed = try TypedOptions.scan(arguments, commandName: "init")
        if typed.help { return nil }
        // A print preset's figures under the options typed, as build merges them: init plans the pages build makes.
        var build = BuildCommand.layered(typed)
        guard let output = build.output else { throw .usage("no output given: add -o BOOK.json") }
        guard output.lowercased().hasSuffix(".json") else {
            throw .usage("--output: a book description is a .json file, not \(ValueError.quote(output)) "
                         + "(photobook build makes the PDF)")
        }
        if typed.options.has("dry-run") {
            throw .usage("--dry-run: init writes only the description; use photobook build --dry-run to see the pages")
        }
        for refused in ["report", "spreads"] where typed.options.has(refused) {
            // A description lists pages one by one; a spread's two halves are not yet a thing it can hold.
            throw .usage("--\(refused): not used by init" + (refused == "report" ? " (build --report reports a build)"
                                                                              : ": a description cannot hold spreads yet"))
        }
        if try DescriptionInput.names(build.inputs) {
            throw .usage("\(build.inputs[0]): init describes photos and folders, not a description")
        }
        try build.validate()
        build.dryRun = true
        return (build, InitCommand(output: output, typed: typed.options))
    }

    /// Writes the description of `preview`'s plan, atomically; the exit status is the build's when there is no plan.
    func write(_ preview: BookPreview, files: [PhotoFile], options: BuildOptions, say: Diagnostics) -> ExitStatus {
        guard let plan = preview.plan else { return Summary.report(preview.report, output: output, options: options, say: say) }
        let folder = FileSystem.directoryName(output)
        var written: [String: OptionValue] = [:]
        for setting in typed.settings {
            let name = setting.name
            guard let option = BuildCommand.options.first(where: { $0.spec.long == name }),
                  option.spec.description == .held else { continue }
            guard let value = setting.text else { written[name] = .flag(true); continue }
            // A font family ("Noto Sans CJK JP") is no path: written as typed.
            if case .files = option.spec.completion, name != "font" || RenderRun.namesFontFile(value) {
                written[name] = .text(DescriptionInput.relative(value, to: folder))
            } else {
                written[name] = .text(value)
            }
        }
        var pages: [BookDescription.Page] = []
        for page in plan.pages where !page.photos.isEmpty {
            // A title page and blank pages come from the options; init refuses spreads.
            guard case .photos(let arrangement) = page.kind else { continue }
            let photos = page.photos.map { placed in
                BookDescription.Photo(path: DescriptionInput.relative(files[placed.photo.index].path, to: folder),
                                      caption: preview.photos[placed.photo]?.caption)
            }
            let heading = page.heading == nil ? nil : preview.photos[page.photos[0].photo]?.heading
            pages.append(BookDescription.Page(heading: heading, layout: arrangement.description, photos: photos))
        }
        // What the choice left out, in the files' order, so that a person can bring one back by hand.
        let leftOut = preview.report.photos.compactMap { photo -> BookDescription.LeftOut? in
            guard let selection = photo.selection, !selection.chosen, let reason = selection.reason else { return nil }
            return BookDescription.LeftOut(path: DescriptionInput.relative(photo.path, to: folder), reason: reason.rawValue,
                                           of: selection.of.map { DescriptionInput.relative(files[$0.index].path, to: folder) })
        }
        let description = BookDescription(options: written, pages: pages, photosLeftOut: leftOut.isEmpty ? nil : leftOut)
        do {
            try Self.writeAtomically(try description.encoded(), to: output)
        } catch {
            say.error("cannot write the book description: \(error)", path: output)
            return .failure
        }
        for warning in preview.report.warnings { say.warning(warning.message, path: warning.path) }
        for photo in preview.report.leftOut {
            if case .failed(let why) = photo.outcome { say.warning("\(why), left out of the description", path: photo.path) }
        }
        let count = pages.reduce(0) { $0 + $1.photos.count }
        say.status("wrote \(output): \(pages.count) page\(pages.count == 1 ? "" : "s"), \(count) photo\(count == 1 ? "" : "s"); "
                   + "edit it, then photobook build \(output) -o BOOK.pdf")
        return .success
    }

    /// The name of `writeAtomically`'s temporary file beside `path`, before its six random characters
    /// (`.book.json.photobook-`): the editor removes one a killed editor left.
    static func temporaryPrefix(for path: String) -> String { "." + FileSystem.baseName(path) + ".photobook-" }

    /// A temporary file beside `path`, synced, then renamed over it: a reader sees the old file or the new one; a file
    /// replaced keeps its permissions and, where the user may, its owner.
    /// `unlessChanged`: asked just before the rename; true leaves the file as it is (the temporary one removed) and
    /// throws `EAGAIN` (the editor's check that nobody wrote the file meanwhile).
    static func writeAtomically(_ data: Data, to path: String,
                                unlessChanged changed: () -> Bool = { false }) throws(FileSystem.Failure) {
        let folder = FileSystem.directoryName(path)
        let (temporary, descriptor) = try FileSystem.makeTemporaryFile(
            template: folder + "/" + temporaryPrefix(for: path) + "XXXXXX").get()
        do throws(FileSystem.Failure) {
            try descriptor.closeAfter { (file) throws(FileSystem.Failure) in
                try file.setMode(FileSystem.modeForNewFile(replacing: path))
                // A file replaced keeps its owner (root editing a user's book); a user cannot give a file away, and
                // then the new one is theirs, as an editor's save would make it.
                if case .success(let old) = FileSystem.status(path), old.kind == .regular,
                   old.owner != getuid() || old.group != getgid() {
                    try? file.setOwner(old.owner, group: old.group)
                }
                try file.writeAll(Array(data))
                try file.sync()
            }
            if changed() { throw FileSystem.Failure(code: EAGAIN) }
            try FileSystem.rename(temporary, to: path).get()
        } catch {
            FileSystem.remove(temporary)
            throw error
        }
        _ = FileSystem.sync(folder, directory: true)
    }
}
