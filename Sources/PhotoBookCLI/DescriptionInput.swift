import Foundation
import PhotoBook
import Words
import Platform

/// A description file read for `photobook build book.json`: its photos found, its pages as the engine takes them,
/// and its options, a layer over the defaults and a print preset and under the command line's, which therefore win
/// (`BuildCommand.layered`).
struct DescriptionInput {
    var path: String
    var description: BookDescription
    /// One file per photo listed, in the order listed (a photo listed twice is there twice).
    var photos: [PhotoFile]
    var inputIDs: Set<FileSystem.FileID>
    var given: GivenBook
    /// The file's options, each read once by the command line's own parser when the file was loaded.
    var options: OptionValues<BuildCommand>

    /// Whether the book needs its font for the file's words.
    var hasWords: Bool {
        description.pages.contains { $0.heading != nil || $0.photos.contains { $0.caption != nil } }
    }

    /// Options the file cannot hold, with what to do instead: the pages say what these would decide.
    static let notInDescription: [String: String] = Dictionary(uniqueKeysWithValues: BuildCommand.options.compactMap { option in
        option.spec.description.refusal.map { (option.spec.long, $0) }
    })

    /// True when `inputs` name a description rather than photos; a description mixed with photos is refused.
    static func names(_ inputs: [String]) throws(CLIError) -> Bool {
        let described = inputs.filter { $0.lowercased().hasSuffix(".json") }
        guard !described.isEmpty else { return false }
        guard inputs.count == 1 else {
            throw .usage("\(described[0]): a book description is built alone; list more photos in its pages")
        }
        return true
    }

    /// Reads, checks and resolves the description at `path`; any mistake is a usage error naming the file, the
    /// place in it and what was expected.
    /// `bytes`: the file's text when it is not to be read from `path` (the editor checks a version before it saves
    /// it); relative paths in it are still relative to `path`'s folder.
    static func load(_ path: String, bytes given: [UInt8]? = nil) throws(CLIError) -> DescriptionInput {
        func fail(_ place: String, _ message: String) -> CLIError { .usage("\(path): \(place): \(message)") }
        var bytes = given ?? []
        if given == nil {
            switch FileSystem.readFile(path, limit: 64 << 20) {
            case .failure(let failure): throw .usage("\(path): cannot read the book description: \(failure)")
            case .success(let read): bytes = read
            }
        }
        let description: BookDescription
        do {
            description = try BookDescription.decode(Data(bytes))
        } catch {
            throw fail(error.place, error.message)
        }
        guard !description.pages.isEmpty else { throw fail("pages", "expected at least one page") }

        var photos: [PhotoFile] = []
        var inputIDs: Set<FileSystem.FileID> = []
        var book = GivenBook(pages: [])
        // Each path is found once, however often it is listed (a multi-page file's pages, one by one).
        var paths = PathDiscovery()
        for (number, page) in description.pages.enumerated() {
            let place = "pages[\(number)]"
            guard !page.photos.isEmpty else {
                throw fail("\(place).photos", "expected at least one photo (delete the page to drop it)")
            }
            var layout: PageArrangement?
            if let typed = page.layout {
                guard let known = PageArrangement(typed) else {
                    throw fail("\(place).layout", "expected single, grid CxR or an arrangement such as \"[1 | 2]\" "
                               + "or \"[1 / [2 | 3]]\" (photos numbered in reading order), not \"\(typed)\"")
                }
                guard known.holds(page.photos.count) else {
                    throw fail("\(place).layout", "\"\(typed)\" holds \(known.capacity), the page has "
                               + "\(page.photos.count): fix it, or remove \"layout\" to let photobook choose")
                }
                layout = known
            } else if page.photos.count > LayoutLimits.maxPerPage {
                throw fail("\(place).photos", "at most \(LayoutLimits.maxPerPage) photos on a page without a \"layout\" "
                           + "(\(page.photos.count) given; pin a grid such as \"grid 3x3\" for more)")
            }
            var ids: [PhotoID] = []
            for (slot, photo) in page.photos.enumerated() {
                let at = "\(place).photos[\(slot)]"
                guard !photo.path.isEmpty else { throw fail("\(at).path", "expected the path of a photo") }
                let resolved = resolve(photo.path, from: path)
                var found = paths.discover(resolved)
                // A page of a multi-page file, named as discovery names it and as init writes it.
                let page = found.errors.isEmpty ? nil : Discovery.pageName(resolved)
                if let page, case .success = FileSystem.status(page.file) {
                    found = paths.discover(page.file)
                }
                if let (_, reason) = found.errors.first { throw fail("\(at).path", "\(resolved): \(reason)") }
                if (try? FileSystem.status(resolved).get())?.kind == .directory {
                    throw fail("\(at).path", "\(resolved) is a folder; list its photos one by one")
                }
                guard let first = found.photos.first, first.format != nil else {
                    throw fail("\(at).path", "\(resolved): not a photo photobook reads (\(ImageFormat.names))")
                }
                let file: PhotoFile
                if let page {
                    guard found.photos.count == page.count else {
                        throw fail("\(at).path", "\(page.file) holds \(found.photos.count) pictures now, not \(page.count)")
                    }
                    file = found.photos[page.picture]
                } else {
                    guard found.photos.count == 1 else {
                        throw fail("\(at).path", "\(resolved) holds \(found.photos.count) pictures: list each as "
                                   + "\"\(Discovery.pageName(photo.path, picture: 0, of: found.photos.count))\"")
                    }
                    file = first
                }
                if let focus = photo.focus {
                    guard focus.count == 2, focus.allSatisfy({ $0.isFinite && (0...1).contains($0) }) else {
                        let shown = focus.map { Length.format($0) }.joined(separator: ", ")
                        throw fail("\(at).focus", "expected two numbers from 0 to 1, [x, y] as fractions of the "
                                   + "photo's width and height, not [\(shown)]")
                    }
                    book.focus[PhotoID(photos.count)] = FocusPoint(x: focus[0], y: focus[1])
                }
                if let caption = photo.caption, !caption.isEmpty { book.captions[PhotoID(photos.count)] = caption }
                if let lang = photo.lang {
                    guard let language = Language(lang) else {
                        throw fail("\(at).lang", "\(ValueError.quote(lang)) is not a BCP 47 language tag: use one like ja, "
                                   + "zh-Hant, ko, ar or en-GB")
                    }
                    book.captionLanguages[PhotoID(photos.count)] = language
                }
                inputIDs.formUnion(found.inputIDs)
                ids.append(PhotoID(photos.count))
                photos.append(file)
            }
            book.pages.append(GivenPage(photos: ids, layout: layout,
                                             heading: page.heading.flatMap { $0.isEmpty ? nil : $0 }))
        }
        // The options are read now, so that a mistake in them is named before any photo is read.
        let options = try Self.options(of: description, at: path)
        return DescriptionInput(path: path, description: description, photos: photos, inputIDs: inputIDs, given: book,
                                options: options)
    }

    /// Reads the options of `description`, the file at `path`, each through the command line's own parser, with
    /// its messages; a path in them is relative to the file.
    static func options(of description: BookDescription, at path: String) throws(CLIError) -> OptionValues<BuildCommand> {
        var options = OptionValues<BuildCommand>()
        for (name, value) in description.options.sorted(by: { $0.key < $1.key }) {
            let place = "\(path): options.\(name)"
            guard let option = BuildCommand.options.first(where: { $0.spec.long == name }) else {
                let meant = BuildCommand.options.map(\.spec.long).filter {
                    notInDescription[$0] == nil && ArgumentScanner<BuildCommand>.editDistance($0, name) <= 2
                }
                throw .usage("\(place): unknown option" + (meant.isEmpty ? " (photobook build --help lists them)"
                                                            : ": did you mean \"\(meant.joined(separator: "\" or \""))\"?"))
            }
            if let instead = notInDescription[name] {
                throw .usage("\(place): not an option a book description holds: \(instead)")
            }
            var text: String?
            switch (value, option.spec.isFlag) {
            case (.flag(true), true): text = nil
            case (.flag(false), true): continue
            case (_, true): throw .usage("\(place): expected true (a flag)")
            case (.text(let typed), false): text = typed
            case (.number(let number), false):
                text = number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
            case (.flag, false): throw .usage("\(place): expected a value as typed on the command line, such as \"\(option.spec.defaultText ?? "...")\"")
            }
            if case .files = option.spec.completion, let given = text, !given.isEmpty {
                let resolved = resolve(given, from: path)
                // A font family is kept as written, unless a file of that name is beside the description.
                if name != "font" || RenderRun.fontFileExists(resolved) || RenderRun.looksLikeFontPath(given) {
                    text = resolved
                }
            }
            do {
                options.add(try option.parse(text))
            } catch {
                throw .usage("\(place): \(error.message)")
            }
        }
        return options
    }

    /// Options typed on the command line that a description decides itself.
    static func refuse(_ typed: [String]) throws(CLIError) {
        for name in typed {
            guard let option = BuildCommand.options.first(where: { $0.spec.long == name }) else { continue }
            if case .saidByThePages(let instead) = option.spec.description {
                throw .usage("--\(name): not used with a book description: \(instead)")
            }
        }
    }

    /// A path in the file at `file`: relative to the file's folder unless absolute.
    static func resolve(_ path: String, from file: String) -> String {
        if path.hasPrefix("/") { return path }
        let folder = FileSystem.directoryName(file)
        return folder == "." ? path : folder + "/" + path
    }

    /// `path` as seen from `folder`: `../photos/a.jpg`; both made absolute from the working folder first.
    static func relative(_ path: String, to folder: String) -> String {
        func parts(_ path: String) -> [String] {
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            var result: [String] = []
            for part in absolute.split(separator: "/") {
                if part == "." || part.isEmpty { continue }
                if part == ".." { _ = result.popLast() } else { result.append(String(part)) }
            }
            return result
        }
        let target = parts(path), base = parts(folder)
        var common = 0
        while common < min(target.count, base.count) && target[common] == base[common] { common += 1 }
        let up = Array(repeating: "..", count: base.count - common)
        let joined = (up + target[common...]).joined(separator: "/")
        return joined.isEmpty ? "." : joined
    }
}
