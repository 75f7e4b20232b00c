import Foundation
import PhotoBook
import Platform
import Synchronization

/// The small pictures of the photos left out of the book, whatever their format (a browser shows no HEIC, raw or
/// JPEG XL, and a 12-MP JPEG is megabytes): each made once, as the proof makes a page, upright, on a 40 mm square
/// page at the proof's density (151 px), through the render cache, and kept in memory.
final class EditorThumbnails: Sendable {
    let run: Run
    private let made = Mutex<[String: [UInt8]]>([:])
    /// A page of 90 left-out photos asks for them all at once: two are made at a time, each by one worker, so that
    /// memory stays what two photos' decodes hold.
    private let turns = DispatchSemaphore(value: 2)

    init(run: Run) { self.run = run }

    /// The JPEG of the photo at `path` (its real path, checked by `EditorBook.servablePhoto`); nil when it cannot
    /// be read.
    func jpeg(of path: String) -> [UInt8]? {
        if let known = made.withLock({ $0[path] }) { return known }
        turns.wait()
        defer { turns.signal() }
        if let known = made.withLock({ $0[path] }) { return known }
        guard let jpeg = make(path) else { return nil }
        made.withLock { $0[path] = jpeg }
        return jpeg
    }

    private func make(_ path: String) -> [UInt8]? {
        guard let scanned = try? TypedOptions.scan([path, "-o", EditorProof.proofOutput(run), "--proof", "--page-size",
                                                    "40x40mm", "--margin", "0", "--fit", "fit", "--layout", "single",
                                                    "--jobs", "1"], commandName: "build"),
              let command = try? BuildCommand.merge(scanned),
              case .success(var ready) = PhotoBookCLI.prepare(command, run, description: nil, say: .capturing())
        else { return nil }
        ready.options.temporaryDirectory = EditorProof.temporaryFolder(run)
        ready.photos = Array(ready.photos.prefix(1))
        return EditorProof.sheets(ready, run: run, running: { $0.run() })?.sheets.first?.photos.first?.jpeg
    }
}
