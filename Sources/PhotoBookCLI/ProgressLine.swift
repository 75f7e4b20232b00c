import Dispatch
import Foundation

/// The words of the progress line while photos are worked on: how many are done of how many, and once one is,
/// how fast they go and about how long the rest will take.
struct ProgressLine: Sendable {
    var total: Int
    private let start: UInt64

    init(total: Int, start: DispatchTime = .now()) {
        self.total = total
        self.start = start.uptimeNanoseconds
    }

    /// The line after `done` photos, `now` being the moment it is drawn.
    func text(done: Int, now: DispatchTime = .now()) -> String {
        let seconds = Double(now.uptimeNanoseconds &- start) / 1e9
        return Self.text(done: done, total: total, seconds: seconds)
    }

    /// `photobook: 3 of 12 photos, 1.5 photos/s, about 6 s left`.
    static func text(done: Int, total: Int, seconds: Double) -> String {
        var line = "photobook: \(done) of \(total) photos"
        guard done > 0, seconds > 0 else { return line }
        let rate = Double(done) / seconds
        line += ", " + (rate < 10 ? String(format: "%.1f", rate) : String(Int(rate.rounded()))) + " photos/s"
        if done < total { line += ", " + timeLeft(Double(total - done) / rate) }
        return line
    }

    /// `about 40 s left`, `about 3 min 05 s left`, `less than a second left`.
    static func timeLeft(_ seconds: Double) -> String {
        guard seconds >= 1 else { return "less than a second left" }
        let whole = Int(seconds.rounded())
        if whole < 60 { return "about \(whole) s left" }
        if whole < 3600 { return String(format: "about %d min %02d s left", whole / 60, whole % 60) }
        return String(format: "about %d h %02d min left", whole / 3600, whole / 60 % 60)
    }
}
