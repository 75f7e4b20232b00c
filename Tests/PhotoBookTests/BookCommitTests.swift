#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import PhotoBook
import Platform

/// The commit on its own: the only code that writes the output path, and only by renaming a synced temporary file.
struct BookCommitTests {
    struct WriteFailed: Error, CustomStringConvertible { var description: String { "disk on fire" } }

    /// A folder holding an existing `book.pdf` with mode 0640.
    final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("commit-\(UUID().uuidString)").path
        var output: String { path + "/book.pdf" }
        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Data("old book".utf8).write(to: URL(fileURLWithPath: output))
            try #require(chmod(output, 0o640) == 0)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        var contents: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "<missing>" }
        var entries: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
        var mode: UInt32 {
            guard case .success(let status) = FileSystem.status(output) else { return 0 }
            return status.mode & 0o777
        }
    }

    /// Writes `text` to the path the commit hands over, as libharu does.
    static func writing(_ text: String) -> (String) throws -> Void {
        { path in try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
    }

    @Test func theBookReplacesTheOutputAndKeepsItsPermissions() throws {
        let folder = try Folder()
        let session = BuildSession()
        let outcome = BookCommit(outputPath: folder.output, session: session, hooks: BuildHooks())
            .commit(Self.writing("new book"))
        #expect(outcome == .succeeded)
        #expect(folder.contents == "new book")
        #expect(folder.mode == 0o640)
        #expect(folder.entries == ["book.pdf"], "no temporary file is left beside the book")
        #expect(session.state == .committed)
        #expect(session.temporaryPaths.isEmpty)
    }

    @Test func aFailedWriteLeavesTheOldBookAndNoTemporaryFile() throws {
        let folder = try Folder()
        let session = BuildSession()
        let outcome = BookCommit(outputPath: folder.output, session: session, hooks: BuildHooks())
            .commit { _ in throw WriteFailed() }
        #expect(outcome == .failed(.outputFailed("cannot write the book: disk on fire")))
        #expect(folder.contents == "old book")
        #expect(folder.entries == ["book.pdf"])
        #expect(session.state == .running)
        #expect(session.temporaryPaths.isEmpty)
    }

    @Test func aCancelledBuildNeverRenames() throws {
        let folder = try Folder()
        let session = BuildSession()
        session.cancel()
        let announced = Counter()
        let hooks = BuildHooks(afterCommit: { announced.increment() })
        let outcome = BookCommit(outputPath: folder.output, session: session, hooks: hooks).commit(Self.writing("new book"))
        #expect(outcome == .cancelled)
        #expect(folder.contents == "old book")
        #expect(folder.entries == ["book.pdf"])
        #expect(announced.value == 0)
        #expect(session.temporaryPaths.isEmpty)
    }

    @Test func aCancellationDuringTheWriteStillWins() throws {
        let folder = try Folder()
        let session = BuildSession()
        let outcome = BookCommit(outputPath: folder.output, session: session, hooks: BuildHooks()).commit { path in
            try Self.writing("new book")(path)
            session.cancel()
        }
        #expect(outcome == .cancelled)
        #expect(folder.contents == "old book")
        #expect(folder.entries == ["book.pdf"])
    }
}
