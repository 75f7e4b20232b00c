import EXIF
import Foundation

/// How many photos the book is to hold: the N best (`--photos N`), or as many as fill N pages (`--pages N`).
public enum ChoiceRequest: Sendable, Equatable {
    case photos(Int)
    case pages(Int)
}

/// Why a photo is not in the book, or what it looks like (the report's `selection.reason`, docs/report.md).
public enum ChoiceReason: String, Sendable, CaseIterable {
    /// One moment shot again (a burst, a retake): another photo of it stands for it (`PhotoChoice.of`).
    case nearDuplicate
    case blurred
    /// Mostly black, or blown out.
    case exposure
    case screenshot
    /// A photo of a sheet of paper, a receipt or a whiteboard.
    case document
    /// Its owner rated it -1 or labelled it rejected: never in the book.
    case rejected
    /// Below the density print shops ask for in the cell the layout gives it.
    case tooSmall
    /// Fine, but the book had room for better ones.
    case rankedOut

    /// "a near duplicate", "blurred", ...: as a dry run's line says it.
    public var words: String {
        switch self {
        case .nearDuplicate: return "the same moment as another"
        case .blurred: return "blurred"
        case .exposure: return "badly exposed (mostly black or blown out)"
        case .screenshot: return "a screenshot"
        case .document: return "a photo of a document"
        case .rejected: return "rejected by its owner"
        case .tooSmall: return "too small for its cell (below 200 dpi)"
        case .rankedOut: return "ranked below the photos chosen"
        }
    }
}

/// What the choice decided for one photo, and why.
public struct PhotoChoice: Sendable, Equatable {
    public var chosen: Bool
    /// How good the photo is for the book (higher is better): its owner's marks, faces, sharpness, exposure.
    public var score: Double
    /// Why it is left out; nil when chosen.
    public var reason: ChoiceReason?
    /// The photo that stands for its moment, when that is another (for `nearDuplicate`, the photo kept).
    public var of: PhotoID?
    /// What it looks like, chosen or not (blurred, exposure, screenshot, document, tooSmall): what `--dry-run` and
    /// `--verbose` say of it.
    public var looks: [ChoiceReason] = []
    /// Its moment (a burst or a retake) when the moment has more than one photo: the same number for each.
    public var moment: Int?
    /// Its event (a stretch of the trip between long gaps), numbered from 0 in book order.
    public var event: Int = 0
    /// What was measured of it (`PhotoTraits`), for the report to explain its looks; nil when not measured.
    public var traits: PhotoTraits?
}

/// What the choice knows of one photo: read by the probe (its traits, marks, camera and time) and worked out from
/// the layout (the density it would print at).
public struct ChoiceCandidate: Sendable {
    public var id: PhotoID
    /// When it was taken, in seconds on one clock for the whole book (`PhotoOrder.moments`); nil when unknown.
    public var moment: Double?
    public var camera: String?
    public var traits: PhotoTraits?
    public var marks = OwnerMarks()
    public var isFavourite = false
    /// The faces its metadata marks.
    public var faces = 0
    /// About the density it prints at in the cell the layout would give it; nil when not known.
    public var printDPI: Double?
    /// Its pixel size is a phone's, tablet's or computer's screen.
    public var isScreenSized = false

    public init(id: PhotoID, moment: Double? = nil, camera: String? = nil, traits: PhotoTraits? = nil) {
        self.id = id
        self.moment = moment
        self.camera = camera
        self.traits = traits
    }
}

/// Chooses the photos of a book: a pure function from what the probe read of each photo, in book order, to a
/// decision per photo with its reason (docs/research/choosing.md). One photo stands for each moment (photos of one
/// scene seconds apart), photos that look worse (blurred, badly exposed, screenshots, documents, too small) go in
/// only when nothing better is left, the owner's rejects never; with events, every stretch of the trip gets its
/// share.
public enum Choice {
    /// The thresholds, in one place (calibrated in docs/research/choosing.md).
    public enum Threshold {
        /// Two photos are one moment when taken at most this many seconds apart by one camera...
        public static let momentSeconds = 60.0
        /// ...and their hashes differ in at most this many of 112 bits (photos without a time: `undatedBits`, and
        /// only next to each other in the book's order).
        public static let momentBits = 22
        public static let undatedBits = 14
        /// Blur (0 to 1) from which a photo looks blurred whatever it shows, and by how much a photo blurrier
        /// than the median of the same camera's photos around it (`usualBlur`) looks blurred: the measure depends
        /// on what a picture shows (fine texture reads sharper than smooth skin), less so among one trip's photos.
        public static let blurred = 0.55
        public static let blurredOverUsual = 0.1
        public static let printDPI = 200.0
        /// A new event where two photos are this far apart, or `eventGapMinimum` and `eventGapFactor` times the
        /// gaps around it.
        public static let eventGap = 4.0 * 3600
        public static let eventGapMinimum = 3600.0
        public static let eventGapFactor = 12.0
    }

    /// What a photo looks like, worst first: what makes it worse for a book. `usual`: the blur of the camera's
    /// photos around it (`usualBlur`), against which a shaken or missed photo stands out.
    static func looks(_ candidate: ChoiceCandidate, usual: Double? = nil) -> [ChoiceReason] {
        var looks: [ChoiceReason] = []
        if let traits = candidate.traits {
            let screenshot = candidate.camera == nil
                && (traits.flatShare >= 0.3 || (candidate.isScreenSized && traits.flatShare >= 0.08))
            // Paper with writing on it, in a picture mostly without colour. Paper and strokes alone are not
            // enough: colour photos measured as much as receipts do. Trap: a black-and-white photo still passes
            // (docs/research/choosing.md).
            let document = !screenshot && traits.paperShare >= 0.35 && traits.strokeShare >= 0.02
                && traits.strokeShare <= 0.4 && traits.greyShare >= 0.6
            if screenshot { looks.append(.screenshot) }
            if document { looks.append(.document) }
            if !screenshot && !document
                && (traits.darkShare >= 0.7 || traits.highLuma < 60 || traits.blownShare >= 0.5 || traits.lowLuma > 180) {
                looks.append(.exposure)
            }
            if !screenshot, let blur = traits.blur,
               blur >= Threshold.blurred || (usual.map { blur >= $0 + Threshold.blurredOverUsual } ?? false) {
                looks.append(.blurred)
            }
        }
        if let dpi = candidate.printDPI, dpi < Threshold.printDPI { looks.append(.tooSmall) }
        return looks
    }

    /// The owner's mark as a level: 5 or 4 stars, a favourite or a pick (4.5 for the last two), else the stars.
    static func markLevel(_ candidate: ChoiceCandidate) -> Double {
        var level = Double(max(0, candidate.marks.rating ?? 0))
        if candidate.isFavourite || candidate.marks.isPicked { level = max(level, 4.5) }
        return level
    }

    /// How good a photo is for a book, whatever the others: the owner's marks first, then faces, sharpness and
    /// exposure.
    static func quality(_ candidate: ChoiceCandidate) -> Double {
        var score = 1.0
        let level = markLevel(candidate)
        score += level >= 5 ? 4 : level >= 4.5 ? 3 : level >= 4 ? 2.5 : level >= 3 ? 1 : level * 0.3
        score += 0.5 * Double(min(candidate.faces, 3))
        if let traits = candidate.traits {
            if let blur = traits.blur { score += 1.5 * min(1, max(0, (0.55 - blur) / 0.35)) }
            // Exposure: best near the middle of the range, worse as more of the picture is black or blown.
            score += 0.6 * (1 - min(1, abs(traits.meanLuma - 120) / 120)) - 0.8 * traits.darkShare - 0.8 * traits.blownShare
        }
        return score
    }

    /// Everything the choice works out before it counts: what each photo looks like, its score, its moment and
    /// its event.
    public struct Analysis: Sendable {
        public var candidates: [ChoiceCandidate]
        public var looks: [[ChoiceReason]]
        public var scores: [Double]
        /// Each photo's moment, as the index of the photo that stands for it (itself when alone).
        public var keeper: [Int]
        /// The photos of each moment of more than one photo, in book order.
        public var moments: [[Int]]
        /// Each photo's event, numbered from 0.
        public var event: [Int]
        public var eventCount: Int

        /// The photos that may go in: one per moment (its keeper), not rejected.
        var keepers: [Int] { candidates.indices.filter { keeper[$0] == $0 && !candidates[$0].marks.isRejected } }
        /// A keeper that looks worse and carries no mark of its owner's that says otherwise.
        func isWorse(_ index: Int) -> Bool { !looks[index].isEmpty && Choice.markLevel(candidates[index]) < 4 }
    }

    /// Finds moments, looks, scores and events for `candidates`, which are in book order. `byEvent`: split the
    /// trip into events by the gaps between capture times (with `--sort date`); else one event.
    public static func analyse(_ candidates: [ChoiceCandidate], byEvent: Bool) -> Analysis {
        let usual = usualBlur(candidates)
        let looks = candidates.indices.map { Self.looks(candidates[$0], usual: usual[$0]) }
        let quality = candidates.map(Self.quality)
        var parent = Array(candidates.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        func join(_ a: Int, _ b: Int) {
            let (ra, rb) = (root(a), root(b))
            if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
        }
        // Dated photos: any two of one camera within a minute whose pictures look alike.
        let dated = candidates.indices.filter { candidates[$0].moment != nil && candidates[$0].traits != nil }
            .sorted { candidates[$0].moment! < candidates[$1].moment! }
        for (position, index) in dated.enumerated() {
            var back = position - 1
            while back >= 0, candidates[index].moment! - candidates[dated[back]].moment! <= Threshold.momentSeconds {
                let other = dated[back]
                if candidates[index].camera == candidates[other].camera,
                   candidates[index].traits!.distance(to: candidates[other].traits!) <= Threshold.momentBits {
                    join(index, other)
                }
                back -= 1
            }
        }
        // Undated photos: next to each other in the book and nearly the same picture.
        for index in candidates.indices.dropFirst() {
            let previous = index - 1
            guard candidates[index].moment == nil, candidates[previous].moment == nil,
                  let a = candidates[index].traits, let b = candidates[previous].traits,
                  candidates[index].camera == candidates[previous].camera,
                  a.distance(to: b) <= Threshold.undatedBits else { continue }
            join(index, previous)
        }
        var members: [Int: [Int]] = [:]
        for index in candidates.indices { members[root(index), default: []].append(index) }
        var keeper = Array(candidates.indices)
        var moments: [[Int]] = []
        for group in members.values.sorted(by: { $0[0] < $1[0] }) where group.count > 1 {
            moments.append(group)
            // The owner's mark first, then a frame that does not look worse, then the sharpest (against the
            // sharpest of the moment: a burst has one sharp frame), then the better score.
            let sharpest = group.compactMap { candidates[$0].traits?.blur }.min() ?? 0
            func key(_ i: Int) -> Double {
                let blur = candidates[i].traits?.blur ?? sharpest
                let sharpness = blur > 0 ? sharpest / blur : 1
                let rejected = candidates[i].marks.isRejected ? -1000.0 : 0
                return rejected + 100 * markLevel(candidates[i]) + (looks[i].isEmpty ? 20 : 0) + 6 * sharpness + quality[i]
            }
            let best = group.max { key($0) < key($1) || (key($0) == key($1) && $0 > $1) }!
            for index in group { keeper[index] = best }
        }
        // A moment shot many times is one its photographer cared about.
        var scores = quality
        for group in moments {
            let best = keeper[group[0]]
            scores[best] += 0.3 * log2(Double(group.count))
        }
        var event = [Int](repeating: 0, count: candidates.count)
        var eventCount = 1
        if byEvent { (event, eventCount) = events(candidates) }
        return Analysis(candidates: candidates, looks: looks, scores: scores, keeper: keeper, moments: moments,
                        event: event, eventCount: eventCount)
    }

    /// For each photo with a camera, the median blur of up to 10 photos of the same camera nearest to it in book
    /// order (itself left out); nil with fewer than 4 of them.
    static func usualBlur(_ candidates: [ChoiceCandidate]) -> [Double?] {
        var byCamera: [String: [Int]] = [:]
        for index in candidates.indices where candidates[index].traits?.blur != nil {
            if let camera = candidates[index].camera { byCamera[camera, default: []].append(index) }
        }
        var usual = [Double?](repeating: nil, count: candidates.count)
        for members in byCamera.values where members.count >= 5 {
            for (position, index) in members.enumerated() {
                let start = max(0, min(position - 5, members.count - 11))
                let around = members[start..<min(members.count, start + 11)].filter { $0 != index }
                    .compactMap { candidates[$0].traits?.blur }.sorted()
                guard around.count >= 4 else { continue }
                usual[index] = around[around.count / 2]
            }
        }
        return usual
    }

    /// Events in book order: a new one where the gap to the photo before is far longer than the gaps around it
    /// (`Threshold.eventGap`, or an hour and `eventGapFactor` times the median of the 10 gaps on each side).
    /// Photos without a time make an event of their own at the end (the date order puts them there).
    static func events(_ candidates: [ChoiceCandidate]) -> ([Int], Int) {
        var event = [Int](repeating: 0, count: candidates.count)
        let dated = candidates.indices.filter { candidates[$0].moment != nil }
        let gaps = zip(dated, dated.dropFirst()).map { max(0, candidates[$1].moment! - candidates[$0].moment!) }
        var current = 0
        for (position, index) in dated.enumerated() {
            if position > 0 {
                let gap = gaps[position - 1]
                let around = (max(0, position - 11)..<min(gaps.count, position + 10)).filter { $0 != position - 1 }
                    .map { gaps[$0] }.sorted()
                let median = around.isEmpty ? 0 : around[around.count / 2]
                if gap >= Threshold.eventGap
                    || (gap >= Threshold.eventGapMinimum && gap >= Threshold.eventGapFactor * median) {
                    current += 1
                }
            }
            event[index] = current
        }
        let undated = candidates.indices.filter { candidates[$0].moment == nil }
        if !undated.isEmpty {
            if !dated.isEmpty { current += 1 }
            for index in undated { event[index] = current }
        }
        return (event, candidates.isEmpty ? 0 : current + 1)
    }

    /// Which photos go in for a book of `count` photos; nil: every photo but the rejected, as without `--photos`.
    ///
    /// Photos that look better come first: every event that has one gets one, the rest are shared out in
    /// proportion to the square root of each event's number of moments (one long afternoon does not fill the
    /// book), each event's best by score. Photos that look worse fill what is left, best first, screenshots and
    /// documents last.
    public static func pick(_ analysis: Analysis, count: Int?) -> [Bool] {
        let candidates = analysis.candidates
        guard let count else { return candidates.map { !$0.marks.isRejected } }
        var chosen = [Bool](repeating: false, count: candidates.count)
        let keepers = analysis.keepers
        let better = keepers.filter { !analysis.isWorse($0) }
        let worse = keepers.filter { analysis.isWorse($0) }
        func byScore(_ a: Int, _ b: Int) -> Bool {
            analysis.scores[a] != analysis.scores[b] ? analysis.scores[a] > analysis.scores[b] : a < b
        }
        if count >= better.count {
            for index in better { chosen[index] = true }
            // Worse photos by how much worse: a blurred or dark photo before a document, a screenshot last.
            func penalty(_ i: Int) -> Int {
                let looks = analysis.looks[i]
                return looks.contains(.screenshot) ? 3 : looks.contains(.document) ? 2 : looks.count > 1 ? 1 : 0
            }
            let ordered = worse.sorted { penalty($0) != penalty($1) ? penalty($0) < penalty($1) : byScore($0, $1) }
            for index in ordered.prefix(count - better.count) { chosen[index] = true }
            return chosen
        }
        // Each event's better photos, best first.
        var byEvent: [Int: [Int]] = [:]
        for index in better { byEvent[analysis.event[index], default: []].append(index) }
        for key in byEvent.keys { byEvent[key]!.sort(by: byScore) }
        let events = byEvent.keys.sorted()
        var quota: [Int: Int] = [:]
        if count < events.count {
            // Not a photo for every event: the events with the most moments, then the best photos.
            let ranked = events.sorted { a, b in
                let (ca, cb) = (byEvent[a]!.count, byEvent[b]!.count)
                return ca != cb ? ca > cb : byScore(byEvent[a]![0], byEvent[b]![0])
            }
            for event in ranked.prefix(count) { quota[event] = 1 }
        } else {
            for event in events { quota[event] = 1 }
            var left = count - events.count
            // Largest remainders over the weights; again over the events with room while one runs out of photos.
            while left > 0 {
                let open = events.filter { quota[$0]! < byEvent[$0]!.count }
                if open.isEmpty { break }
                let weights = open.map { Double(byEvent[$0]!.count).squareRoot() }
                let total = weights.reduce(0, +)
                var shares: [(event: Int, fraction: Double)] = []
                var given = 0
                for (event, weight) in zip(open, weights) {
                    let exact = Double(left) * weight / total
                    let whole = min(byEvent[event]!.count - quota[event]!, Int(exact))
                    quota[event]! += whole
                    given += whole
                    shares.append((event, exact - Double(whole)))
                }
                for share in shares.sorted(by: { $0.fraction != $1.fraction ? $0.fraction > $1.fraction : $0.event < $1.event })
                where given < left && quota[share.event]! < byEvent[share.event]!.count {
                    quota[share.event]! += 1
                    given += 1
                }
                left -= given
            }
        }
        for (event, take) in quota {
            for index in byEvent[event]!.prefix(take) { chosen[index] = true }
        }
        return chosen
    }

    /// The decision for each photo, from `pick`'s answer.
    public static func decisions(_ analysis: Analysis, chosen: [Bool]) -> [PhotoChoice] {
        var momentNumber = [Int: Int]()
        for (number, group) in analysis.moments.enumerated() { for index in group { momentNumber[index] = number } }
        return analysis.candidates.indices.map { index in
            let candidate = analysis.candidates[index]
            var decision = PhotoChoice(chosen: chosen[index], score: (analysis.scores[index] * 1000).rounded() / 1000,
                                       looks: analysis.looks[index], moment: momentNumber[index],
                                       event: analysis.event[index], traits: candidate.traits)
            let keeper = analysis.keeper[index]
            if keeper != index { decision.of = analysis.candidates[keeper].id }
            guard !chosen[index] else { return decision }
            if candidate.marks.isRejected {
                decision.reason = .rejected
            } else if keeper != index {
                decision.reason = .nearDuplicate
            } else if analysis.isWorse(index) {
                decision.reason = analysis.looks[index].first
            } else {
                decision.reason = .rankedOut
            }
            return decision
        }
    }
}
