import Dispatch
import Foundation
import Imaging
import JPEG
import Synchronization

/// Writes the trip folder (`--trip`): every shot of the plan `jobs` at a time, the XMP sidecars, each file's
/// modification time set to its capture time, and TRUTH.json last (so a folder that has one is complete).
struct TripWriter {
    let command: CorpusCommand

    func writeAll() throws -> (files: Int, bytes: Int) {
        let directory = URL(fileURLWithPath: command.output)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let command = self.command
        let plan = TripPlan(count: command.count, days: command.days, longSide: command.longSide,
                            shortSide: command.shortSide, seed: command.seed)
        let shots = plan.shots
        let sizes = Mutex([Int](repeating: 0, count: shots.count))
        let failure = Mutex<String?>(nil)
        let next = Mutex(0)
        let jobs = min(command.jobs, shots.count)
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while true {
                let index = next.withLock { value -> Int in defer { value += 1 }; return value }
                if index >= shots.count || failure.withLock({ $0 != nil }) { return }
                do {
                    let bytes = try Self.write(shots[index], to: directory, quality: command.quality)
                    sizes.withLock { $0[index] = bytes }
                } catch {
                    failure.withLock { $0 = "\(shots[index].name): \(error)" }
                }
            }
        }
        if let message = failure.withLock({ $0 }) { throw CorpusError(message: message) }
        let truth = Self.truth(shots, command: command)
        try Data(truth.utf8).write(to: directory.appendingPathComponent("TRUTH.json"), options: .atomic)
        return (shots.count, sizes.withLock { $0.reduce(0, +) })
    }

    private static func write(_ shot: TripShot, to directory: URL, quality: Int) throws -> Int {
        let upright = TripRenderer.render(shot)
        let stored = upright.applying(Orientation(exifValue: shot.orientation).inverse)
        let bytes: [UInt8]
        if shot.isPNG {
            bytes = try PNGWriter.encode(stored)  // a screenshot: no camera, no EXIF
        } else {
            let camera = TripShot.cameras[shot.camera ?? 0]
            let exif = PhoneEXIF(camera: camera, orientation: shot.orientation,
                                 dateTime: TripPlan.exifDate(shot.localSeconds), milliseconds: shot.milliseconds,
                                 offset: TripPlan.offsetText)
            let options = JPEGEncoder.Options(quality: quality, chromaSubsampling: .both)
            let xmp = shot.ratingIn == "photo" ? shot.rating.map(Self.xmp) : nil
            bytes = exif.inserting(into: try JPEGEncoder.encode(stored, options: options), xmp: xmp)
        }
        let target = directory.appendingPathComponent(shot.name)
        let temporary = directory.appendingPathComponent(".\(shot.name).tmp")
        try Data(bytes).write(to: temporary)
        try setTime(of: temporary.path, shot)
        guard rename(temporary.path, target.path) == 0 else {
            throw CorpusError(message: "cannot rename \(temporary.path): \(String(cString: strerror(errno)))")
        }
        if shot.ratingIn == "sidecar", let rating = shot.rating {
            let sidecar = directory.appendingPathComponent(shot.name + ".xmp")
            try Data(xmp(rating: rating).utf8).write(to: sidecar, options: .atomic)
            try setTime(of: sidecar.path, shot)
        }
        return bytes.count
    }

    /// The file's times are the capture's, as a phone's export leaves them (a screenshot has nothing else).
    private static func setTime(of path: String, _ shot: TripShot) throws {
        let utc = shot.localSeconds - TripPlan.offsetMinutes * 60
        var times = [timespec(tv_sec: utc, tv_nsec: shot.milliseconds * 1_000_000),
                     timespec(tv_sec: utc, tv_nsec: shot.milliseconds * 1_000_000)]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else {
            throw CorpusError(message: "cannot set the time of \(path): \(String(cString: strerror(errno)))")
        }
    }

    static func xmp(rating: Int) -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="\(rating)"/>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>

        """
    }

    /// TRUTH.json: the trip's settings and, for every file in capture order, what it is.
    static func truth(_ shots: [TripShot], command: CorpusCommand) -> String {
        func quoted(_ text: String) -> String { "\"" + text + "\"" }
        func optional(_ value: Int?) -> String { value.map(String.init) ?? "null" }
        var lines: [String] = []
        for shot in shots {
            let stored = shot.storedSize
            var fields = [
                "\"name\": \(quoted(shot.name))", "\"kind\": \(quoted(shot.kind.rawValue))",
                "\"group\": \(optional(shot.group))", "\"day\": \(shot.day)", "\"event\": \(shot.event)",
                "\"rating\": \(optional(shot.rating))",
                "\"ratingIn\": \(shot.ratingIn.map(quoted) ?? "null")",
                "\"captured\": \(quoted(TripPlan.isoDate(shot.localSeconds, milliseconds: shot.milliseconds)))",
                "\"camera\": \(shot.camera.map { quoted(TripShot.cameras[$0].make + " " + TripShot.cameras[$0].model) } ?? "null")",
                "\"orientation\": \(shot.orientation)", "\"width\": \(stored.width)", "\"height\": \(stored.height)",
                "\"blur\": \(shot.blur.truth.map(quoted) ?? "null")",
            ]
            if let better = shot.better { fields.append("\"better\": \(better)") }
            if let document = shot.document { fields.append("\"document\": \(quoted(document.rawValue))") }
            if shot.kind == .dark || shot.kind == .blown || shot.kind == .retake {
                fields.append(String(format: "\"gain\": %.3f", shot.gain))
            }
            lines.append("    {" + fields.joined(separator: ", ") + "}")
        }
        let kinds = ["good", "burstSharp", "burstBlurred", "retake", "blurred", "dark", "blown", "screenshot", "document"]
        let counts = kinds.map { kind in "\(quoted(kind)): \(shots.filter { $0.kind.rawValue == kind }.count)" }
        return """
        {
          "generator": "photobook-corpus --trip",
          "seed": \(command.seed),
          "count": \(shots.count),
          "days": \(command.days),
          "size": "\(command.longSide)x\(command.shortSide)",
          "kinds": {\(counts.joined(separator: ", "))},
          "files": [
        \(lines.joined(separator: ",\n"))
          ]
        }

        """
    }
}
