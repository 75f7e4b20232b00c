import Dispatch
import Foundation
import Imaging
import JPEG
import Synchronization

/// Renders, encodes and writes every photo of the corpus, `jobs` at a time, then the MANIFEST.
struct CorpusWriter {
    struct Line { var name: String; var width: Int; var height: Int; var orientation: Int; var bytes: Int }

    let command: CorpusCommand

    func writeAll() throws -> [Line] {
        let directory = URL(fileURLWithPath: command.output)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let command = self.command
        let photos = (0..<command.count).map {
            CorpusPhoto(index: $0, longSide: command.longSide, shortSide: command.shortSide)
        }
        let results = Mutex([Line?](repeating: nil, count: photos.count))
        let failure = Mutex<String?>(nil)
        let jobs = min(command.jobs, photos.count)
        DispatchQueue.concurrentPerform(iterations: jobs) { worker in
            for index in stride(from: worker, to: photos.count, by: jobs) {
                if failure.withLock({ $0 != nil }) { return }
                do {
                    let line = try Self.write(photos[index], to: directory, command: command)
                    results.withLock { $0[index] = line }
                } catch {
                    failure.withLock { $0 = "\(photos[index].name): \(error)" }
                }
            }
        }
        if let message = failure.withLock({ $0 }) { throw CorpusError(message: message) }
        let lines = results.withLock { $0.compactMap { $0 } }
        let manifest = lines.map { "\($0.name) \($0.width)x\($0.height) orientation=\($0.orientation) \($0.bytes)" }
        try Data((["# photobook-corpus seed=\(command.seed) quality=\(command.quality)"] + manifest)
            .joined(separator: "\n").utf8 + [0x0A])
            .write(to: directory.appendingPathComponent("MANIFEST"), options: .atomic)
        return lines
    }

    private static func write(_ photo: CorpusPhoto, to directory: URL, command: CorpusCommand) throws -> Line {
        let seed = command.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(photo.index) &* 0xD1B5_4A32_D192_ED03
        let upright = SceneRenderer(width: photo.uprightWidth, height: photo.uprightHeight, seed: seed).render()
        // What the camera stores is the upright scene turned back: applying `orientation` brings it upright again.
        let stored = upright.applying(Orientation(exifValue: photo.orientation).inverse)
        let bytes: [UInt8]
        switch photo.format {
        case .png:
            bytes = try PNGWriter.encode(stored)
        case .jpeg:
            // 4:2:0, as phones and most cameras write their JPEGs.
            let options = JPEGEncoder.Options(quality: command.quality, chromaSubsampling: .both)
            bytes = CameraEXIF.inserting(orientation: photo.orientation,
                                         into: try JPEGEncoder.encode(stored, options: options))
        }
        let target = directory.appendingPathComponent(photo.name)
        let temporary = directory.appendingPathComponent(".\(photo.name).tmp")
        try Data(bytes).write(to: temporary)
        guard rename(temporary.path, target.path) == 0 else {
            throw CorpusError(message: "cannot rename \(temporary.path) to \(target.path): \(String(cString: strerror(errno)))")
        }
        return Line(name: photo.name, width: stored.width, height: stored.height, orientation: photo.orientation,
                    bytes: bytes.count)
    }
}

struct CorpusError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
