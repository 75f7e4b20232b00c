import EXIF
import Foundation

/// One file of the trip folder (`photobook-corpus --trip`): what it shows, when and with what it was taken, and
/// what is wrong with it. The plan is made before any pixel, from the seed alone, so TRUTH.json says exactly what
/// each file is.
struct TripShot: Sendable {
    /// The ground truth's names (TRUTH.json).
    enum Kind: String, Sendable {
        case good, burstSharp, burstBlurred, retake, blurred, dark, blown, screenshot, document
    }

    enum Blur: Sendable {
        case none
        /// Camera shake: a line kernel `length` pixels long at `angle` radians.
        case motion(length: Int, angle: Float)
        /// Out of focus: three box passes of `radius` each way (close to a Gaussian of sigma about radius).
        case focus(radius: Int)

        var truth: String? {
            switch self {
            case .none: return nil
            case .motion(let length, let angle): return "motion \(length) px at \(Int((angle * 180 / .pi).rounded())) deg"
            case .focus(let radius): return "focus, 3 box passes of radius \(radius) px"
            }
        }
    }

    enum Document: String, Sendable { case page, receipt, whiteboard }

    struct Camera: Sendable {
        var make: String
        var model: String
    }

    static let cameras = [Camera(make: "Apple", model: "iPhone 13"), Camera(make: "Google", model: "Pixel 7")]
    /// Phone screens: iPhone 12-14, 12-14 Pro Max, 14 Pro, and two Android sizes.
    static let screens = [(1170, 2532), (1284, 2778), (1179, 2556), (1080, 2400), (1080, 2340)]

    var index = 0
    var name = ""
    var kind: Kind
    /// Burst or retake pair: the frames of one shot share it.
    var group: Int?
    /// 1-based day of the trip, and the outing (event) it was taken on, numbered over the whole trip.
    var day = 1
    var event = 0
    /// Local time of capture in seconds since 1970 as if the wall clock were UTC, and its milliseconds.
    var localSeconds = 0
    var milliseconds = 0
    /// nil for a screenshot (no camera EXIF).
    var camera: Int?
    var orientation = 1
    var uprightWidth = 0
    var uprightHeight = 0
    /// The scene's seed (shared by the frames of a burst or pair) and the frame's shift in upright pixels.
    var sceneSeed: UInt64 = 0
    var shift = (x: 0, y: 0)
    /// How far the scene of a burst or pair is drawn past the frame on each side, so that frames can shift.
    var margin = 0
    var blur = Blur.none
    /// Exposure: pixels times `gain` plus `lift` (levels), clipped.
    var gain: Float = 1
    var lift: Float = 0
    var rating: Int?
    /// Where the rating is written: "sidecar" (NAME.jpg.xmp) or "photo" (an XMP packet in the JPEG).
    var ratingIn: String?
    /// For a retake pair: whether this frame is the better exposed one.
    var better: Bool?
    var document: Document?

    var isPNG: Bool { kind == .screenshot }
    /// The stored size: width and height exchanged when the orientation turns the photo a quarter.
    var storedSize: (width: Int, height: Int) {
        orientation >= 5 ? (uprightHeight, uprightWidth) : (uprightWidth, uprightHeight)
    }
}

/// The trip: shots of every kind spread over `days` days, in outings separated by hours and nights.
struct TripPlan {
    static let offsetMinutes = 120
    static let offsetText = "+02:00"
    /// 2025-06-14 00:00 local.
    static let firstDay = 1_749_859_200

    let shots: [TripShot]

    init(count: Int, days: Int, longSide: Int, shortSide: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed ^ 0x7121_9A5C_0FF1_CE00)
        func chance(_ p: Float) -> Bool { rng.float(in: 0...1) < p }
        func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(rng.next() % UInt64(range.count))
        }
        let scale = Float(longSide) / 4000

        // The units (a single photo, a burst, a retake pair) in the trip's proportions; good photos fill the rest.
        var units: [[TripShot.Kind]] = []
        for _ in 0..<max(1, count / 40) {
            let frames = int(3...8)
            units.append([.burstSharp] + Array(repeating: .burstBlurred, count: frames - 1))
        }
        units += Array(repeating: [.retake, .retake], count: max(1, count / 60))
        units += Array(repeating: [.blurred], count: max(1, count / 30))
        units += Array(repeating: [.dark], count: max(1, count / 60))
        units += Array(repeating: [.blown], count: max(1, count / 60))
        units += Array(repeating: [.screenshot], count: max(1, count / 30))
        units += Array(repeating: [.document], count: max(1, count / 35))
        // A small trip cannot hold them all: leave out units, largest first, until a quarter of it is good photos.
        while units.reduce(0, { $0 + $1.count }) > count * 3 / 4, let largest = units.indices.max(by: {
            units[$0].count < units[$1].count
        }), units.count > 1 {
            units.remove(at: largest)
        }
        units += Array(repeating: [.good], count: max(0, count - units.reduce(0) { $0 + $1.count }))
        for i in stride(from: units.count - 1, to: 0, by: -1) {
            units.swapAt(i, int(0...i))
        }

        // Days get shares of the units (0.7-1.3 of an even share); each day 2-4 outings.
        let weights = (0..<days).map { _ in rng.float(in: 0.7...1.3) }
        let total = weights.reduce(0, +)
        var perDay = weights.map { Int(Float(units.count) * $0 / total) }
        perDay[days - 1] += units.count - perDay.reduce(0, +)

        var shots: [TripShot] = []
        var group = 0, event = 0, unit = 0
        for day in 0..<days {
            let dayUnits = Array(units[unit..<(unit + perDay[day])])
            unit += perDay[day]
            guard !dayUnits.isEmpty else { continue }
            let outings = min(dayUnits.count, int(2...4))
            var clock = Self.firstDay + day * 86_400 + int(8 * 3600...10 * 3600)
            var start = 0
            for outing in 0..<outings {
                let end = outing == outings - 1 ? dayUnits.count : start + dayUnits.count / outings
                if outing > 0 { clock += int(2 * 3600...4 * 3600) }  // hours between outings
                var millis = int(0...999)
                for kinds in dayUnits[start..<end] {
                    clock += int(20...360)  // minutes at most between shots of one outing
                    let sceneSeed = rng.next()
                    let grouped = kinds.count > 1
                    if grouped { group += 1 }
                    let camera = kinds[0] == .screenshot ? nil : (grouped || chance(0.8) ? 0 : 1)
                    let portrait = chance(kinds[0] == .document ? 0.6 : 0.15)
                    let margin = grouped ? max(4, longSide / 60) : 0
                    let better = int(0...1)
                    // The sharp frame of a burst is anywhere in it.
                    let sharp = int(0...(kinds.count - 1))
                    for (frame, kind) in kinds.enumerated() {
                        var shot = TripShot(kind: kind == .burstBlurred && frame == sharp ? .burstSharp
                                            : kind == .burstSharp && frame != sharp ? .burstBlurred : kind)
                        if frame > 0 {
                            // 0.2-1 s between a burst's frames; 2-8 s before a retake.
                            let step = shot.kind == .retake ? int(2000...8000) : int(200...1000)
                            millis += step
                            clock += millis / 1000
                            millis %= 1000
                        } else {
                            millis = int(0...999)
                        }
                        shot.group = grouped ? group : nil
                        shot.day = day + 1
                        shot.event = event
                        shot.localSeconds = clock
                        shot.milliseconds = millis
                        shot.camera = camera
                        shot.sceneSeed = sceneSeed
                        if grouped {
                            shot.margin = margin
                            shot.shift = (int(-margin...margin), int(-margin...margin))
                        }
                        if kind == .screenshot {
                            (shot.uprightWidth, shot.uprightHeight) = TripShot.screens[int(0...(TripShot.screens.count - 1))]
                        } else {
                            shot.orientation = portrait ? 6 : 1
                            (shot.uprightWidth, shot.uprightHeight) = portrait ? (shortSide, longSide) : (longSide, shortSide)
                        }
                        switch shot.kind {
                        case .burstBlurred, .blurred:
                            // 8-40 px at 12 MP (a blurred single is among the worse); at least 2 px on small trips.
                            let strong = shot.kind == .blurred
                            if chance(0.6) {
                                let length = max(3, Int(Float(strong ? int(20...40) : int(8...40)) * scale))
                                shot.blur = .motion(length: length, angle: rng.float(in: -Float.pi / 2...Float.pi / 2))
                            } else {
                                // Three box passes of radius r: a bell of sigma about r, 13-49 px across at 12 MP.
                                let radius = max(1, Int(Float(strong ? int(5...8) : int(2...8)) * scale))
                                shot.blur = .focus(radius: radius)
                            }
                        case .retake:
                            shot.better = frame == better
                            shot.gain = frame == better ? 1 : rng.float(in: 0.72...0.82)
                        case .dark:
                            shot.gain = rng.float(in: 0.05...0.1)
                        case .blown:
                            shot.gain = rng.float(in: 2.4...3.2)
                            shot.lift = rng.float(in: 40...80)
                        case .document:
                            shot.document = [TripShot.Document.page, .page, .receipt, .whiteboard][int(0...3)]
                        case .good, .burstSharp:
                            shot.gain = rng.float(in: 0.95...1.05)
                        case .screenshot:
                            break
                        }
                        shots.append(shot)
                    }
                }
                start = end
                event += 1
            }
        }

        // Ratings: 5 stars on some good photos, -1 (rejected) on a couple of others; one rejection inside the photo.
        var goodIndices = shots.indices.filter { shots[$0].kind == .good }
        for i in stride(from: goodIndices.count - 1, to: 0, by: -1) {
            goodIndices.swapAt(i, int(0...i))
        }
        let fives = min(goodIndices.count / 3, max(1, count / 50))
        let rejects = min(goodIndices.count - fives, max(1, min(3, count / 100 + 1)))
        for (n, i) in goodIndices.prefix(fives + rejects).enumerated() {
            shots[i].rating = n < fives ? 5 : -1
            shots[i].ratingIn = n == fives + 1 ? "photo" : "sidecar"
        }

        // Names: the main phone counts its own photos; the second phone and screenshots carry their time.
        var next = 4127
        var taken = Set<String>()
        for i in shots.indices {
            shots[i].index = i
            let date = Self.components(shots[i].localSeconds)
            var name: String
            switch shots[i].camera {
            case 0?:
                name = "IMG_\(next)"
                next += 1
            case 1?:
                // Pixel names are in UTC, with milliseconds.
                let utc = Self.components(shots[i].localSeconds - Self.offsetMinutes * 60)
                name = "PXL_\(utc.date)_\(utc.time)" + String(String(shots[i].milliseconds + 1000).dropFirst())
            default:
                name = "Screenshot_\(date.date)-\(date.time)"
            }
            var unique = name, n = 1
            while taken.contains(unique) {
                unique = "\(name)_\(n)"
                n += 1
            }
            taken.insert(unique)
            shots[i].name = unique + (shots[i].isPNG ? ".png" : ".jpg")
        }
        self.shots = shots
    }

    /// "20250614" and "101512" for a local time.
    static func components(_ seconds: Int) -> (date: String, time: String) {
        let parts = civil(seconds)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return ("\(parts.year)\(two(parts.month))\(two(parts.day))", "\(two(parts.hour))\(two(parts.minute))\(two(parts.second))")
    }

    /// EXIF's "YYYY:MM:DD HH:MM:SS".
    static func exifDate(_ seconds: Int) -> String {
        let p = civil(seconds)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(p.year):\(two(p.month)):\(two(p.day)) \(two(p.hour)):\(two(p.minute)):\(two(p.second))"
    }

    /// ISO 8601 with milliseconds and the offset, for TRUTH.json.
    static func isoDate(_ seconds: Int, milliseconds: Int) -> String {
        let p = civil(seconds)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(p.year)-\(two(p.month))-\(two(p.day))T\(two(p.hour)):\(two(p.minute)):\(two(p.second))."
            + String(String(milliseconds + 1000).dropFirst()) + offsetText
    }

    /// Calendar fields of seconds since 1970, as EXIF's reader counts them (`CaptureDate(unixSeconds:)`).
    static func civil(_ seconds: Int) -> CaptureDate { CaptureDate(unixSeconds: Int64(seconds))! }
}
