import Foundation
import HTTPServer
import PhotoBook
import Platform
import Synchronization

/// `photobook edit BOOK.json [--port N] [--no-open]`, or `photobook edit INPUT... -o BOOK.json [init's options]`:
/// the book in the browser (docs/editor.md). The server listens on 127.0.0.1 only, until a signal.
struct EditCommand {
    var book: String?
    var port: UInt16 = 0
    var opens = true
    var help = false
    /// `init`'s arguments, when the book is to be described from photos first.
    var initArguments: [String]?

    static let editOptions: [OptionSpec] = [
        OptionSpec(long: "port", short: nil, metavar: "N", defaultText: "any free port",
                   help: "listen on this port of 127.0.0.1", allowed: "0 to 65535 (0: any free port)",
                   section: .running, completion: .none, description: .commandLineOnly),
        OptionSpec(long: "no-open", short: nil, metavar: nil, defaultText: nil,
                   help: "do not open the browser (the address is the first line on standard output)", allowed: nil,
                   section: .running, completion: .none, description: .commandLineOnly),
    ]

    static var document: CommandDocument {
        CommandDocument(
            name: "edit",
            synopsis: "photobook edit BOOK.json [--port N] [--no-open]  |  photobook edit INPUT... -o BOOK.json [init options]",
            summary: "see and change the book in the browser",
            description: [
                "Serves an editor of the book description BOOK.json on 127.0.0.1 and prints its address, with a fresh "
                    + "token, as the first line on standard output; opens it in the browser (xdg-open) when there is "
                    + "a display, unless --no-open. The pages are drawn from the proof's renders, as the PDF will place "
                    + "them. Move photos by dragging or with Alt+arrows, choose a page's arrangement, edit captions, "
                    + "click a photo to set its focus, remove and bring back photos, lock pages and arrange the rest "
                    + "again, undo and redo, and build the book (BOOK.pdf beside BOOK.json). Every change is saved "
                    + "to BOOK.json atomically; a change made to it by another program meanwhile is taken up.",
                "Given photos or folders and -o BOOK.json (a file that does not exist yet), it first writes the "
                    + "description as photobook init would, with any of init's options (--photos N, --pages N, "
                    + "--layout ...), then edits it. Ctrl-C or SIGTERM stops it (exit status 130) once a save in "
                    + "progress is finished. docs/editor.md describes the requests and the page's hooks.",
            ],
            operands: "BOOK.json | INPUT", operandCompletion: .filesAndFolders,
            options: editOptions + [RunGroup.help(\EditCommand.help).spec],
            examples: [
                ("photobook edit book.json", "edit a description in the browser"),
                ("photobook edit ./trip -o book.json --pages 24", "choose the photos of a 24-page book, then edit it"),
            ])
    }

    static func parse(_ arguments: [String]) throws(CLIError) -> EditCommand {
        var command = EditCommand()
        var rest: [String] = []
        var index = 0
        func portValue(_ text: String) throws(CLIError) -> UInt16 {
            guard let value = UInt16(text) else {
                throw .usage("--port: '\(text)' is not a port number from 0 to 65535 (0: any free port)")
            }
            return value
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help": command.help = true
            case "--no-open": command.opens = false
            case "--port":
                guard index + 1 < arguments.count else { throw .usage("--port: needs a value, a port number") }
                command.port = try portValue(arguments[index + 1])
                index += 1
            case let option where option.hasPrefix("--port="):
                command.port = try portValue(String(option.dropFirst("--port=".count)))
            default: rest.append(argument)
            }
            index += 1
        }
        if command.help { return command }
        if rest.count == 1, rest[0].lowercased().hasSuffix(".json") {
            command.book = rest[0]
            return command
        }
        guard !rest.isEmpty else { throw .usage("no book given: photobook edit BOOK.json, or photobook edit ./photos -o BOOK.json") }
        // Photos: init writes the description first; -o names it.
        guard let output = try InitCommand.parse(rest)?.command.output else {
            throw .usage("no description named: add -o BOOK.json")
        }
        if (try? FileSystem.status(output).get()) != nil {
            throw .usage("\(output) exists already: edit it with photobook edit \(output) (or name another file with -o)")
        }
        command.book = output
        command.initArguments = rest
        return command
    }

    /// Runs the editor until a signal; returns the exit status.
    static func run(_ arguments: [String], _ run: Run) -> ExitStatus {
        let command: EditCommand
        do {
            command = try parse(arguments)
        } catch {
            Diagnostics().error(error.message)
            return error.status
        }
        if command.help {
            Diagnostics.standardOutput(HelpText.command(document))
            return .success
        }
        let say = Diagnostics()
        if let initArguments = command.initArguments {
            let status = PhotoBookCLI.runInit(initArguments, run)
            guard status == .success else { return status }
        }
        guard let path = command.book else { return .usage }
        EditorFiles.removeStaleTemporaries(beside: path)
        let book = EditorBook(path: path, run: run)
        // The signals are ours before the first proof: the first stops the editor once a save in progress is done
        // (a proof in progress is cancelled), a second at once.
        let done = DispatchSemaphore(value: 0)
        let signals = SignalHandler(onFirst: { _ in
            say.status("stopping...", evenWhenQuiet: true)
            book.stop()
            done.signal()
        }, onSecond: { _ in
            ProcessExit.now(ExitStatus.interrupted.rawValue)
        })
        defer { signals.cancel() }
        // The first proof of a big book with an empty render cache reads every photo: say so when it takes a while.
        let opened = Atomic<Bool>(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
            if !opened.load(ordering: .sequentiallyConsistent) {
                say.status("making the pages of \(path) from its photos (later the render cache has them)...")
            }
        }
        defer { opened.store(true, ordering: .sequentiallyConsistent) }
        do {
            try book.open()
            opened.store(true, ordering: .sequentiallyConsistent)
        } catch {
            if book.isStopping { return .interrupted }
            say.error(error.message)
            return error.status
        }
        if book.isStopping { return .interrupted }
        let builder = EditorBuild(book: book)
        let routes = EditorRoutes(book: book, builder: builder, thumbnails: EditorThumbnails(run: run))
        let server: HTTPServer
        do {
            server = try HTTPServer(HTTPServer.Configuration(port: command.port, token: EditorFiles.freshToken()),
                                    handler: routes.handle)
        } catch {
            say.error("cannot listen on 127.0.0.1: \(error)")
            return .failure
        }
        Diagnostics.standardOutput(server.address + "\n")
        say.status("editing \(path) at \(server.address) (Ctrl-C to stop)")
        if command.opens { EditorFiles.openBrowser(server.address) }
        run.harness.armed()
        done.wait()
        builder.stop()
        server.stop()
        return .interrupted
    }
}

/// The editor's small dealings with the system: its token, its browser, the temporary files a killed editor left.
enum EditorFiles {
    /// 32 hex digits from the kernel's random source.
    static func freshToken() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        if case .success(let read) = FileSystem.readFile("/dev/urandom", limit: 16), read.count == 16 {
            bytes = read
        } else {
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// `xdg-open ADDRESS` when there is a display; its failure changes nothing (the address is printed).
    static func openBrowser(_ address: String) {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdg-open")
        process.arguments = [address]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }

    /// A save's temporary file (`.BOOK.json.photobook-XXXXXX`, InitCommand.writeAtomically) more than a minute old:
    /// left by an editor that was killed (SIGKILL) between writing it and renaming it. A save takes milliseconds.
    static func removeStaleTemporaries(beside path: String) {
        let folder = FileSystem.directoryName(path)
        let prefix = InitCommand.temporaryPrefix(for: path)
        guard case .success(let names) = FileSystem.directoryEntries(folder) else { return }
        let now = FileSystem.now()
        for name in names where name.hasPrefix(prefix) && name.count == prefix.count + 6 {
            let stale = folder + "/" + name
            if case .success(let status) = FileSystem.status(stale, followLinks: false), status.kind == .regular,
               now / 1_000_000_000 - status.modified > 60 {
                FileSystem.remove(stale)
            }
        }
    }
}
