import Foundation
import HTTPServer
import PhotoBook
import Platform

/// The editor's requests (docs/editor.md "The requests"), each answered from the book, the build or the page's
/// files. The server's gate has already checked the token, the Host, the method, the body's type and size.
struct EditorRoutes: Sendable {
    let book: EditorBook
    let builder: EditorBuild
    let thumbnails: EditorThumbnails

    /// A save's body: the revision the page shows and the description it wants saved.
    struct Save: Decodable {
        var revision: Int
        var description: JSONValue
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let get = request.method == "GET" || request.method == "HEAD"
        switch (get, request.path) {
        case (true, "/"), (true, "/index.html"):
            return index(token: request.query["token"] ?? request.headers["x-photobook-token"] ?? "")
        case (true, "/api/book"):
            return Self.json(book.currentState())
        case (true, "/api/revision"):
            return Self.json(["revision": book.currentRevision()])
        case (true, "/api/build"):
            return Self.json(builder.status())
        case (false, "/api/book") where request.method == "PUT",
             (false, "/api/arrange") where request.method == "POST":
            guard let save = try? JSONDecoder().decode(Save.self, from: Data(request.body)) else {
                return Self.json(["error": "expected {\"revision\": N, \"description\": {...}}"], status: 400)
            }
            switch book.save(save.description, revision: save.revision, arrange: request.path == "/api/arrange") {
            case .saved(let state): return Self.json(state)
            case .conflict(let state): return Self.json(state, status: 409)
            case .refused(let message): return Self.json(["error": message], status: 422)
            }
        case (false, "/api/build") where request.method == "POST":
            return builder.start() ? Self.json(builder.status(), status: 202)
                                   : Self.json(builder.status(), status: 409)
        case (true, "/photo"):
            guard let written = request.query["path"], let real = book.servablePhoto(written),
                  let jpeg = thumbnails.jpeg(of: real) else { return notFound() }
            return HTTPResponse.bytes(jpeg, contentType: "image/jpeg")
        case (true, "/favicon.ico"):
            return HTTPResponse(status: 204)
        case (true, let path) where path.hasPrefix("/render/") && path.hasSuffix(".jpg"):
            let name = String(path.dropFirst("/render/".count).dropLast(".jpg".count))
            guard name.allSatisfy({ $0.isHexDigit }), let jpeg = book.render(named: name) else { return notFound() }
            var response = HTTPResponse.bytes(jpeg, contentType: "image/jpeg")
            // Named by their bytes: a name never stands for other bytes.
            response.headers.append(("Cache-Control", "private, max-age=31536000, immutable"))
            return response
        case (true, let path):
            return page(String(path.dropFirst()))
        default:
            return HTTPResponse.text("not found\n", status: 404)
        }
    }

    /// The page, each of its own files that it names (its scripts, its style) and its icon named with the token the
    /// page was asked with (the gate checked it): a browser sends no header of ours for them, and there is no cookie.
    private func index(token: String) -> HTTPResponse {
        guard let file = EditorPage.files["index.html"], token.allSatisfy(\.isHexDigit) else { return notFound() }
        // The icon too: else the browser asks for /favicon.ico without the token, and logs the 403.
        let names = EditorPage.files.keys.filter { $0 != "index.html" } + ["favicon.ico"]
        let text = names.reduce(file.text) { text, name in
            text.replacingOccurrences(of: "\"/\(name)\"", with: "\"/\(name)?token=\(token)\"")
        }
        return HTTPResponse.bytes(Array(text.utf8), contentType: file.type)
    }

    /// One of the page's own files, by its exact name; anything else is not found.
    private func page(_ name: String) -> HTTPResponse {
        guard let file = EditorPage.files[name] else { return notFound() }
        return HTTPResponse.bytes(Array(file.text.utf8), contentType: file.type)
    }

    private func notFound() -> HTTPResponse { HTTPResponse.text("not found\n", status: 404) }

    static func json<Value: Encodable>(_ value: Value, status: Int = 200) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return HTTPResponse.text("cannot encode\n", status: 500) }
        return HTTPResponse.json(data, status: status)
    }
}

/// "Build the book": `photobook build BOOK.json -o BOOK.pdf` as its own process, one at a time, its messages kept
/// for the page. A process of its own keeps the build's signals, commit and exit status exactly the command's.
final class EditorBuild: @unchecked Sendable {
    let book: EditorBook
    private let lock = NSLock()
    private var process: Process?
    private var state = "idle"
    private var messages: [String] = []
    private var exitStatus: Int32?
    /// The progress line as last drawn, and what came after the last newline.
    private var progress = ""
    private var pending = ""

    struct Status: Encodable {
        var state: String
        var progress: String
        var output: String
        var messages: [String]
        var exitStatus: Int32?
    }

    init(book: EditorBook) { self.book = book }

    func status() -> Status {
        lock.lock()
        defer { lock.unlock() }
        let shown = state == "running" && progress.isEmpty ? "building \(book.outputPath)" : progress
        return Status(state: state, progress: shown, output: book.outputPath, messages: messages, exitStatus: exitStatus)
    }

    /// Starts a build; false when one is running.
    func start() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard state != "running" else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["build", book.path, "-o", book.outputPath]
        process.environment = ProcessInfo.processInfo.environment.merging(["PHOTOBOOK_PROGRESS": "1"]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        messages = []
        exitStatus = nil
        (progress, pending) = ("", "")
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.lock()
            self.take(String(decoding: data, as: UTF8.self))
            self.lock.unlock()
        }
        process.terminationHandler = { [weak self] ended in
            errors.fileHandleForReading.readabilityHandler = nil
            let rest = errors.fileHandleForReading.readDataToEndOfFile()
            guard let self else { return }
            self.lock.lock()
            self.take(String(decoding: rest, as: UTF8.self) + "\n")
            self.exitStatus = ended.terminationStatus
            self.state = ended.terminationStatus == 0 ? "succeeded"
                : ended.terminationStatus == ExitStatus.interrupted.rawValue ? "cancelled" : "failed"
            self.progress = ""
            self.process = nil
            self.lock.unlock()
        }
        do {
            try process.run()
        } catch {
            messages = ["cannot start the build: \(error)"]
            state = "failed"
            return true
        }
        self.process = process
        state = "running"
        return true
    }

    /// Reads the build's stderr as it comes: each line is a message, and what follows the last carriage return of an
    /// unfinished line is the progress line as drawn (Diagnostics.progress: "\r", erase, text). Under the lock.
    private func take(_ text: String) {
        pending += text
        var lines = pending.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        pending = lines.removeLast()
        func shown(_ piece: String) -> String {
            String(piece.split(separator: "\r", omittingEmptySubsequences: false).last ?? "")
                .replacingOccurrences(of: "\u{1B}[K", with: "")
        }
        messages += lines.map(shown).filter { !$0.isEmpty }
        let drawn = shown(pending)
        if !drawn.isEmpty { progress = drawn }
    }

    /// Interrupts a build in progress (it removes its temporary files and keeps the old book) and waits for it.
    func stop() {
        lock.lock()
        let running = process
        lock.unlock()
        guard let running, running.isRunning else { return }
        running.interrupt()
        running.waitUntilExit()
    }

    /// This program's own file: the build runs the same photobook as the editor.
    static let executable: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0 ? String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                         : CommandLine.arguments[0]
    }()
}
