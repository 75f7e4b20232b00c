#if canImport(Glibc)
import Glibc
#endif
import Foundation
import JPEG
import TestSupport
import Testing

/// `photobook edit` run as a person runs it, spoken to as the page speaks to it (docs/editor.md): the state, saves
/// through the description file, a change made outside, the photos it serves, the build, the signals. The page
/// itself is driven in Chromium by Tests/editor/test_editor.py.
@Suite(.serialized) struct EditorTests {
    /// A book of the orientation fixtures: a title, captions and page numbers.
    static func book(in scratch: Scratch) throws -> String {
        let photos = try scratch.sub("photos")
        for name in ["Landscape_1.jpg", "Landscape_3.jpg", "Portrait_2.jpg", "Portrait_5.jpg", "Landscape_6.jpg"] {
            _ = try scratch.copy(Run.fixture("exif-orientation/\(name)"), to: "photos/\(name)")
        }
        let book = scratch.file("book.json")
        let made = try Run.photobook(["init", photos, "-o", book, "--layout", "auto", "--captions", "name",
                                      "--page-numbers", "--title", "Trip"])
        #expect(made.status == 0, "\(made.stderr)")
        return book
    }

    @Test func itPrintsTheAddressFirstAndServesThePagesAsTheProofDrawsThem() throws {
        let scratch = try Scratch()
        let book = try Self.book(in: scratch)
        let editor = try EditorSession(book)
        #expect(editor.address.hasPrefix("http://127.0.0.1:\(editor.port)/?token="))
        #expect(editor.token.count == 32 && editor.token.allSatisfy(\.isHexDigit))
        let state = try editor.state()
        let pages = try #require(state["pages"] as? [[String: Any]])
        let dry = try Run.photobook(["build", book, "--dry-run"])
        #expect(pages.count == dry.stdout.split(separator: "\n").filter { $0.hasPrefix("page ") }.count, "\(dry.stdout)")
        #expect(pages.first?["kind"] as? String == "title")
        #expect((pages.first?["texts"] as? [[String: Any]])?.first?["lines"] as? [String] == ["Trip"])
        var photos = 0
        for page in pages.dropFirst() {
            for photo in page["photos"] as? [[String: Any]] ?? [] {
                photos += 1
                let cell = try #require(photo["cell"] as? [Double])
                let response = try editor.request("GET", try #require(photo["src"] as? String))
                #expect(response.status == 200)
                #expect(response.value("Content-Type") == "image/jpeg")
                // The proof's render: 96 dpi of the cell it fills.
                let header = try JPEGDecoder.readInfo(response.body)
                #expect(abs(Double(header.width) - cell[2] * 96 / 72) <= 2, "\(header.width) for \(cell)")
            }
            let captions = (page["texts"] as? [[String: Any]] ?? []).filter { $0["role"] as? String == "caption" }
            #expect(captions.count == (page["photos"] as? [Any])?.count, "a caption under every photo")
            #expect((page["texts"] as? [[String: Any]] ?? []).contains { $0["role"] as? String == "pageNumber" })
            #expect(!(page["layouts"] as? [String] ?? []).isEmpty)
        }
        #expect(photos == 5)
        #expect(try editor.request("GET", "/").value("Content-Security-Policy")?.contains("script-src 'self'") == true)
        let page = Fixtures.packageRoot.appendingPathComponent("Sources/PhotoBookCLI/Editor/Page").path
        for name in try FileManager.default.contentsOfDirectory(atPath: page) where !name.hasPrefix(".") {
            #expect(try editor.request("GET", "/\(name)").status == 200, "\(name)")
        }
        #expect(try editor.request("GET", "/render/0123.jpg").status == 404)
        editor.interrupt()
    }

    @Test func aSaveReplacesTheFileAtomicallyKeepingItsPermissionsAndRefusesAStaleRevision() throws {
        let scratch = try Scratch()
        let book = try Self.book(in: scratch)
        chmod(book, 0o640)
        let editor = try EditorSession(book)
        var state = try editor.state()
        let revision = try #require(state["revision"] as? Int)
        var description = try #require(state["description"] as? [String: Any])
        var pages = try #require(description["pages"] as? [[String: Any]])
        var photos = try #require(pages[0]["photos"] as? [[String: Any]])
        photos[0]["caption"] = "Kyōto 京都の朝 — شروق"
        pages[0]["photos"] = photos
        description["pages"] = pages
        let saved = try editor.save(description, revision: revision)
        #expect(saved.status == 200, "\(saved.text)")
        state = try JSONSerialization.jsonObject(with: Data(saved.body)) as! [String: Any]
        #expect(state["revision"] as? Int == revision + 1)
        let written = try String(contentsOfFile: book, encoding: .utf8)
        #expect(written.contains("\"caption\" : \"Kyōto 京都の朝 — شروق\""))
        var status = stat()
        stat(book, &status)
        #expect(status.st_mode & 0o777 == 0o640)
        #expect(Scratch.listing(scratch.path).filter { $0.hasPrefix(".") }.isEmpty, "no temporary file left")
        // The page drew the new caption.
        let captions = (state["pages"] as? [[String: Any]] ?? []).flatMap { $0["texts"] as? [[String: Any]] ?? [] }
        #expect(captions.contains { ($0["lines"] as? [String])?.joined(separator: " ").contains("京都") == true })

        // The old revision: 409 and the current state, the file untouched.
        let stale = try editor.save(description, revision: revision)
        #expect(stale.status == 409)
        #expect((try JSONSerialization.jsonObject(with: Data(stale.body)) as? [String: Any])?["revision"] as? Int == revision + 1)
        // A layout the page's photos do not fit: 422 with the build's words, the file untouched.
        pages[0]["layout"] = "[1 | 2 | 3 | 4]"
        description["pages"] = pages
        let wrong = try editor.save(description, revision: revision + 1)
        #expect(wrong.status == 422)
        #expect(wrong.text.contains("pages[0].layout"), "\(wrong.text)")
        #expect(try String(contentsOfFile: book, encoding: .utf8) == written)
        editor.interrupt()
    }

    @Test func aChangeMadeOutsideIsTakenUpAsANewRevision() throws {
        let scratch = try Scratch()
        let book = try Self.book(in: scratch)
        let editor = try EditorSession(book)
        let before = try #require(try editor.state()["revision"] as? Int)
        let text = try String(contentsOfFile: book, encoding: .utf8)
        try text.replacingOccurrences(of: "\"caption\" : \"Landscape_1\"", with: "\"caption\" : \"Changed in vi\"")
            .write(toFile: book, atomically: true, encoding: .utf8)
        let revision = try editor.request("GET", "/api/revision")
        #expect(revision.text == "{\"revision\":\(before + 1)}", "\(revision.text)")
        let state = try editor.state()
        let captions = (state["pages"] as? [[String: Any]] ?? []).flatMap { $0["texts"] as? [[String: Any]] ?? [] }
        #expect(captions.contains { $0["lines"] as? [String] == ["Changed in vi"] })
        // A save against the revision before the outside change is refused: nothing typed outside is lost.
        let refused = try editor.save(try #require(state["description"] as? [String: Any]), revision: before)
        #expect(refused.status == 409)
        #expect(try String(contentsOfFile: book, encoding: .utf8).contains("Changed in vi"))
        editor.interrupt()
    }

    /// Another program half way through writing the file (or with the file gone): the editor shows the last
    /// description it could read, refuses to write over the file, and takes the file up again once it is whole.
    @Test func aFileThatCannotBeReadIsNeverWrittenOverAndIsTakenUpWhenWhole() throws {
        let scratch = try Scratch()
        let book = try Self.book(in: scratch)
        let editor = try EditorSession(book)
        let first = try editor.state()
        let whole = try String(contentsOfFile: book, encoding: .utf8)
        try String(whole.prefix(100)).write(toFile: book, atomically: true, encoding: .utf8)
        let broken = try editor.state()
        let revision = try #require(broken["revision"] as? Int)
        #expect(revision == (first["revision"] as? Int ?? 0) + 1)
        #expect(broken["unreadable"] as? Bool == true)
        #expect((broken["error"] as? String)?.isEmpty == false)
        #expect((broken["description"] as? [String: Any])?["pages"] != nil, "the last description read is kept")
        let refused = try editor.save(try #require(first["description"] as? [String: Any]), revision: revision)
        #expect(refused.status == 409)
        #expect(try String(contentsOfFile: book, encoding: .utf8) == String(whole.prefix(100)))
        unlink(book)
        let gone = try editor.state()
        #expect(gone["unreadable"] as? Bool == true)
        #expect((gone["error"] as? String)?.contains("no such file") == true, "\(gone["error"] ?? "")")
        try whole.write(toFile: book, atomically: true, encoding: .utf8)
        let back = try editor.state()
        #expect(back["unreadable"] as? Bool == false)
        let saved = try editor.save(try #require(back["description"] as? [String: Any]), revision: try #require(back["revision"] as? Int))
        #expect(saved.status == 200)
        editor.interrupt()
    }

    /// A description that is a symbolic link (kept in a synced folder, say) is changed where it lies.
    @Test func aBookThatIsALinkIsSavedThroughIt() throws {
        let scratch = try Scratch()
        let book = try Self.book(in: scratch)
        let real = scratch.file("real.json")
        try FileManager.default.moveItem(atPath: book, toPath: real)
        symlink("real.json", book)
        let editor = try EditorSession(book)
        let state = try editor.state()
        var description = try #require(state["description"] as? [String: Any])
        var pages = try #require(description["pages"] as? [[String: Any]])
        var photos = try #require(pages[0]["photos"] as? [[String: Any]])
        photos[0]["caption"] = "through the link"
        pages[0]["photos"] = photos
        description["pages"] = pages
        #expect(try editor.save(description, revision: try #require(state["revision"] as? Int)).status == 200)
        #expect(FileManager.default.fileExists(atPath: book))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: book)) == "real.json")
        #expect(try String(contentsOfFile: real, encoding: .utf8).contains("through the link"))
        editor.interrupt()
    }

    /// The title page shows its photo where it prints; it is the cover-photo option's, not a photo to move.
    @Test func theTitlePageShowsItsCoverPhoto() throws {
        let scratch = try Scratch()
        let book = try Self.book(in: scratch)
        var description = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: book))) as? [String: Any])
        var options = description["options"] as? [String: Any] ?? [:]
        options["cover-photo"] = "photos/Landscape_6.jpg"
        description["options"] = options
        try JSONSerialization.data(withJSONObject: description).write(to: URL(fileURLWithPath: book))
        let editor = try EditorSession(book)
        let title = try #require((try editor.state()["pages"] as? [[String: Any]])?.first)
        #expect(title["kind"] as? String == "title")
        #expect((title["photos"] as? [Any])?.isEmpty == true)
        let cover = try #require(title["cover"] as? [String: Any])
        #expect(try editor.request("GET", try #require(cover["src"] as? String)).status == 200)
        #expect((cover["cell"] as? [Double])?.count == 4)
        editor.interrupt()
    }

    @Test func arrangingAgainKeepsLockedPagesAndTheirPhotos() throws {
        let scratch = try Scratch()
        let book = try Self.book(in: scratch)
        let editor = try EditorSession(book)
        // The pages init made (--layout auto, captions) arranged again are the same pages: captions keep their room.
        let before = try String(contentsOfFile: book, encoding: .utf8)
        let unchanged = try editor.request("POST", "/api/arrange", body: try JSONSerialization.data(withJSONObject: [
            "revision": try #require(try editor.state()["revision"] as? Int),
            "description": try #require(try editor.state()["description"] as? [String: Any])]))
        #expect(unchanged.status == 200)
        #expect(try String(contentsOfFile: book, encoding: .utf8) == before)
        let state = try editor.state()
        var description = try #require(state["description"] as? [String: Any])
        var pages = try #require(description["pages"] as? [[String: Any]])
        // Every photo on a page of its own, the last page locked.
        let all = pages.flatMap { $0["photos"] as? [[String: Any]] ?? [] }
        pages = all.map { ["photos": [$0]] }
        pages[pages.count - 1]["locked"] = true
        description["pages"] = pages
        let response = try editor.request("POST", "/api/arrange", body: try JSONSerialization.data(withJSONObject: [
            "revision": try #require(state["revision"] as? Int), "description": description]))
        #expect(response.status == 200, "\(response.text)")
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: book))) as? [String: Any])
        let arranged = try #require(saved["pages"] as? [[String: Any]])
        #expect(arranged.count < pages.count, "the four unlocked photos share pages again")
        #expect(arranged.last?["locked"] as? Bool == true)
        #expect((arranged.last?["photos"] as? [[String: Any]])?.count == 1)
        let paths = arranged.flatMap { ($0["photos"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String } }
        #expect(paths == all.compactMap { $0["path"] as? String }, "the order is kept")
        #expect(arranged.dropLast().allSatisfy { $0["layout"] is String })
        editor.interrupt()
    }

    /// `--proof` refuses `--pdfx`, but a print-shop book must open all the same: its proof is for the screen.
    @Test func aPDFXBookOpensWithItsPagesShownAsForTheScreen() throws {
        let scratch = try Scratch()
        let book = try Self.book(in: scratch)
        var description = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: book))) as? [String: Any])
        description["options"] = ["pdfx": "4", "page-numbers": true, "title": "Trip"]
        try JSONSerialization.data(withJSONObject: description).write(to: URL(fileURLWithPath: book))
        let editor = try EditorSession(book)
        let state = try editor.state()
        #expect(state["error"] is NSNull, "\(state["error"] ?? "")")
        #expect((state["pages"] as? [Any])?.count ?? 0 > 2)
        editor.interrupt()
    }

    @Test func onlyTheBooksOwnPhotosAreServed() throws {
        let scratch = try Scratch()
        let book = try Self.book(in: scratch)
        _ = try scratch.write("secret.jpg", Array("not for the browser".utf8))
        symlink(scratch.file("secret.jpg"), scratch.file("photos/link.jpg"))
        // The link is listed as a photo left out, so that only the folder rule stands between it and the page.
        var description = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: book))) as? [String: Any])
        description["photosLeftOut"] = [["path": "photos/link.jpg", "reason": "removed in the editor"]]
        try JSONSerialization.data(withJSONObject: description).write(to: URL(fileURLWithPath: book))
        // A folder link out of the book's folders, its photo listed as left out: refused as the file link is.
        _ = try scratch.sub("elsewhere")
        _ = try scratch.copy(Run.fixture("exif-orientation/Landscape_2.jpg"), to: "elsewhere/far.jpg")
        symlink(scratch.file("elsewhere"), scratch.file("photos/linkdir"))
        description["photosLeftOut"] = [["path": "photos/link.jpg", "reason": "removed in the editor"],
                                        ["path": "photos/linkdir/far.jpg", "reason": "removed in the editor"]]
        try JSONSerialization.data(withJSONObject: description).write(to: URL(fileURLWithPath: book))
        let editor = try EditorSession(book)
        #expect(try editor.request("GET", "/photo?path=photos/Landscape_1.jpg").status == 200)
        #expect(try editor.request("GET", "/photo?path=photos/linkdir/far.jpg").status == 404)
        #expect(try editor.request("GET", "/photo?path=photos/Landscape_1.jpg").value("Content-Type") == "image/jpeg")
        for refused in ["photos/link.jpg", "secret.jpg", "photos/../secret.jpg", "photos%2F..%2Fsecret.jpg",
                        "%2Fetc%2Fpasswd", "book.json"] {
            #expect(try editor.request("GET", "/photo?path=\(refused)").status == 404, "\(refused)")
        }
        #expect(try editor.request("GET", "/../book.json").status == 404)
        #expect(try editor.request("GET", "/%2e%2e/book.json").status == 404)
        editor.interrupt()
    }

    @Test func buildTheBookWritesThePDFBesideTheDescription() throws {
        let scratch = try Scratch()
        let book = try Self.book(in: scratch)
        let editor = try EditorSession(book)
        let started = try editor.request("POST", "/api/build", body: Array("{}".utf8))
        #expect(started.status == 202, "\(started.text)")
        var state = ""
        var messages: [String] = []
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let status = try JSONSerialization.jsonObject(with: Data(try editor.request("GET", "/api/build").body)) as? [String: Any]
            state = status?["state"] as? String ?? ""
            messages = status?["messages"] as? [String] ?? []
            if state != "running" { break }
            usleep(100_000)
        }
        #expect(state == "succeeded")
        // The build's own summary, and none of its progress lines among the messages.
        #expect(messages.contains { $0.hasPrefix("photobook: wrote ") && $0.contains("book.pdf") }, "\(messages)")
        #expect(!messages.contains { $0.contains(" of 5 photos") }, "\(messages)")
        let pdf = scratch.file("book.pdf")
        #expect(FileManager.default.fileExists(atPath: pdf))
        #expect(try PDFFacts(pdf).pages == (try editor.state()["pages"] as? [Any])?.count)
        editor.interrupt()
    }

    @Test func ctrlCStopsTheEditorWith130AndLeavesNothingBehind() throws {
        let scratch = try Scratch()
        let book = try Self.book(in: scratch)
        let before = Scratch.listing(scratch.path)
        // A save's temporary file an editor killed outright left an hour ago, and one another editor is writing.
        let stale = try scratch.write(".book.json.photobook-Ab12Cd", Array("{".utf8))
        var old = utimbuf(actime: time(nil) - 3600, modtime: time(nil) - 3600)
        utime(stale, &old)
        let fresh = try scratch.write(".book.json.photobook-Ef34Gh", Array("{".utf8))
        let editor = try EditorSession(book)
        #expect(!FileManager.default.fileExists(atPath: stale), "the killed editor's temporary file is removed")
        #expect(FileManager.default.fileExists(atPath: fresh), "a file another editor may be writing is left")
        unlink(fresh)
        _ = try editor.state()
        #expect(editor.interrupt() == 130, "\(editor.child.stderr)")
        #expect(Scratch.listing(scratch.path) == before)
    }

    @Test func editingPhotosWritesTheirDescriptionFirstAndNeverOverAnotherOne() throws {
        let scratch = try Scratch()
        let book = try Self.book(in: scratch)
        let refused = try Run.photobook(["edit", scratch.file("photos"), "-o", book, "--no-open"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("exists already"), "\(refused.stderr)")
        let fresh = scratch.file("new.json")
        let editor = try EditorSession(arguments: [scratch.file("photos"), "-o", fresh, "--photos", "3"])
        let state = try editor.state()
        let listed = (state["pages"] as? [[String: Any]] ?? []).flatMap { $0["photos"] as? [Any] ?? [] }
        // The fixtures are one picture in several orientations: the choice may keep fewer than asked, one a moment.
        let leftOut = ((state["description"] as? [String: Any])?["photosLeftOut"] as? [Any])?.count ?? 0
        #expect((1...3).contains(listed.count))
        #expect(listed.count + leftOut == 5)
        #expect((state["leftOut"] as? [Any])?.count == leftOut)
        editor.interrupt()
    }
}

/// A running `photobook edit`, its address read from its first line, spoken to as the page does.
final class EditorSession {
    let child: ChildProcess
    let address: String
    let port: UInt16
    let token: String

    convenience init(_ book: String) throws {
        try self.init(arguments: [book])
    }

    init(arguments: [String]) throws {
        child = try ChildProcess(Run.binary, ["edit"] + arguments + ["--no-open"])
        let deadline = Date().addingTimeInterval(120)
        // The address comes once the first proof is made; an error ends the wait at once.
        while !child.stdout.contains("\n") && !child.stderr.contains("error:") && Date() < deadline { usleep(20_000) }
        address = String(child.stdout.split(separator: "\n").first ?? "")
        guard let match = address.firstMatch(of: /^http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+)$/) else {
            throw RawClientError(description: "no address on the first line: \(child.stdout) \(child.stderr)")
        }
        port = UInt16(match.1)!
        token = String(match.2)
    }

    func request(_ method: String, _ target: String, body: [UInt8]? = nil) throws -> RawResponse {
        var head = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1:\(port)", "X-Photobook-Token: \(token)"]
        if let body { head += ["Content-Type: application/json", "Content-Length: \(body.count)"] }
        return try RawClient.send(port: port, head, body: body ?? [])
    }

    func request(_ method: String, _ target: String, body: Data) throws -> RawResponse {
        try request(method, target, body: Array(body))
    }

    func state() throws -> [String: Any] {
        let response = try request("GET", "/api/book")
        guard response.status == 200, let state = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        else { throw RawClientError(description: "GET /api/book: \(response.status) \(response.text)") }
        return state
    }

    func save(_ description: [String: Any], revision: Int) throws -> RawResponse {
        try request("PUT", "/api/book", body: try JSONSerialization.data(withJSONObject: ["revision": revision,
                                                                                             "description": description]))
    }

    /// Ctrl-C; the exit status.
    @discardableResult
    func interrupt() -> Int32 {
        kill(child.pid, SIGINT)
        let (ending, timedOut) = child.wait(timeout: 30)
        if timedOut { Issue.record("the editor did not stop within 30 s") }
        return ending.status
    }
}
