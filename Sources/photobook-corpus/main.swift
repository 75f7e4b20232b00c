// photobook-corpus: writes the benchmark's photos, the same bytes for the same seed on every machine.
//
//     photobook-corpus --out DIR [--count 96] [--seed 20250611] [--quality 92] [--jobs 2] [--size 4000x3000]
//
// Each file is written under a temporary name and renamed; MANIFEST is written last, so a folder that has
// one is complete.
//
//     photobook-corpus --trip --out DIR [--count 500] [--days 6] [--seed S] [--quality 92] [--jobs 2] [--size WxH]
//
// writes a week of phone photos instead (TripPlan, TripRenderer, TripWriter): outings over several days, bursts
// with one sharp frame, retaken pairs, blurred, dark and blown photos, screenshots (PNG, phone screen sizes, no
// EXIF), photos of documents, XMP ratings (sidecars NAME.jpg.xmp, one in a photo), capture times in EXIF and in
// the files' times; TRUTH.json, written last, says what each file is.
import Foundation

struct CorpusCommand {
    var output = ""
    var count = 96
    var seed: UInt64 = 20_250_611
    var quality = 92
    var jobs = 2
    var longSide = 4000
    var shortSide = 3000
    var trip = false
    var days = 6
    var countGiven = false

    static func parse(_ arguments: [String]) -> CorpusCommand {
        var command = CorpusCommand()
        var rest = arguments[...]
        func value(_ name: String) -> String {
            guard let value = rest.popFirst() else { fail("\(name) needs a value") }
            return value
        }
        func integer(_ name: String) -> Int {
            let text = value(name)
            guard let number = Int(text), number > 0 else { fail("\(name): '\(text)' is not a positive integer") }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--out": command.output = value(argument)
            case "--count": command.count = integer(argument); command.countGiven = true
            case "--trip": command.trip = true
            case "--days": command.days = integer(argument)
            case "--seed": command.seed = UInt64(integer(argument))
            case "--quality": command.quality = integer(argument)
            case "--jobs": command.jobs = integer(argument)
            case "--size":
                let text = value(argument)
                let parts = text.split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else { fail("--size: '\(text)' is not WxH") }
                command.longSide = max(parts[0], parts[1])
                command.shortSide = min(parts[0], parts[1])
            default: fail("unknown argument '\(argument)'")
            }
        }
        if command.output.isEmpty { fail("--out DIR is required") }
        if command.trip && !command.countGiven { command.count = 500 }
        if !command.trip && command.days != 6 { fail("--days is for --trip") }
        return command
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("photobook-corpus: error: \(message)\n".utf8))
        exit(2)
    }
}

let command = CorpusCommand.parse(Array(CommandLine.arguments.dropFirst()))
if command.trip {
    do {
        let started = Date()
        let (files, bytes) = try TripWriter(command: command).writeAll()
        print(String(format: "photobook-corpus: a trip of %d files over %d days, %.0f MB in %@ (%.1f s, %d jobs)",
                     files, command.days, Double(bytes) / 1e6, command.output, Date().timeIntervalSince(started),
                     command.jobs))
    } catch {
        CorpusCommand.fail("\(error)")
    }
    exit(0)
}
do {
    let started = Date()
    let lines = try CorpusWriter(command: command).writeAll()
    let seconds = Date().timeIntervalSince(started)
    print(String(format: "photobook-corpus: %d photos, %.0f MB in %@ (%.1f s, %d jobs)",
                 lines.count, Double(lines.reduce(0) { $0 + $1.bytes }) / 1e6, command.output, seconds, command.jobs))
} catch {
    CorpusCommand.fail("\(error)")
}
