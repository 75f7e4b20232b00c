/// How the photos are ordered in the book (`--sort`, `--reverse`).
public struct OrderOptions: Sendable, Equatable {
    public var sort: SortKey = .name
    /// The chosen order turned round, as a whole (see `PhotoOrder.arrange`).
    public var reverse = false
    public init(sort: SortKey = .name, reverse: Bool = false) {
        self.sort = sort
        self.reverse = reverse
    }
}

/// What the photos are ordered by.
public enum SortKey: String, Sendable, CaseIterable {
    /// Inputs in the order given; a folder's photos in natural name order; photos named one after another on
    /// the command line (no folder between them, as a shell's `*.jpg` gives them) in natural order of their paths.
    case name
    /// Capture date, earliest first; photos without one after the dated ones, in `name` order.
    case date
    /// Exactly as given: inputs in command-line order, a folder's photos in natural name order (a folder has no
    /// order of its own to keep).
    case given
}

/// Orders probed photos for the book: a pure function of what the probe read, between probe and plan.
public enum PhotoOrder {
    /// The photos in book order, as indices into the photos given, and which of them had no capture date
    /// (with `.date` only, in the order they appear in the book).
    public struct Arrangement: Sendable, Equatable {
        public var order: [Int]
        public var undated: [Int]
    }

    /// Orders `photos`, which must be in discovery order (`Discovery.discover` gives them so).
    ///
    /// `.date` compares the moments the photos were taken. A photo whose camera wrote no UTC offset (most
    /// cameras without a phone inside) is taken to be in the time zone of the photo with an offset whose local
    /// time is nearest to its own: the phone that was on the same trip, set to the same local time as the
    /// camera. So a camera and a phone interleave correctly, and a phone that crossed time zones still orders
    /// by the real moment. When no photo has an offset, local times are compared as they are. Equal moments,
    /// and equal distances when borrowing an offset, go by name order, so the result is deterministic.
    ///
    /// `reverse` turns the whole result round: newest first for `.date`, with the undated photos then coming
    /// first, in reverse name order. The promise is exact: the book is the same book read backwards.
    public static func arrange(_ photos: [PhotoInfo], by options: OrderOptions) -> Arrangement {
        var arrangement: Arrangement
        switch options.sort {
        case .given:
            arrangement = Arrangement(order: Array(photos.indices), undated: [])
        case .name:
            arrangement = Arrangement(order: nameOrder(photos.map(\.file)), undated: [])
        case .date:
            arrangement = dateOrder(photos)
        }
        if options.reverse {
            arrangement.order.reverse()
            arrangement.undated.reverse()
        }
        return arrangement
    }

    /// Natural path order within each run of photos named on the command line; every other photo keeps its
    /// place, which discovery already gave in natural name order folder by folder.
    static func nameOrder(_ files: [PhotoFile]) -> [Int] {
        files.indices.sorted { a, b in
            let x = files[a], y = files[b]
            if x.inputGroup != y.inputGroup { return x.inputGroup < y.inputGroup }
            if x.isNamed && y.isNamed {
                let order = NaturalOrder.compare(x.path, y.path)
                if order != 0 { return order < 0 }
                if x.path != y.path { return x.path < y.path }
            }
            return a < b
        }
    }

    static func dateOrder(_ photos: [PhotoInfo]) -> Arrangement {
        let byName = nameOrder(photos.map(\.file))
        // The rank of each photo in name order: the tie-breaker everywhere below.
        var rank = [Int](repeating: 0, count: photos.count)
        for (position, index) in byName.enumerated() { rank[index] = position }
        let moments = instants(photos, rank: rank)
        var dated: [(moment: CaptureDate.Instant, rank: Int, index: Int)] = []
        var undated: [Int] = []
        for index in byName {
            guard let moment = moments[index] else { undated.append(index); continue }
            dated.append((moment, rank[index], index))
        }
        dated.sort { ($0.moment, $0.rank) < ($1.moment, $1.rank) }
        return Arrangement(order: dated.map(\.index) + undated, undated: undated)
    }

    /// When each photo was taken, in seconds on one clock for all of them (UTC where the offsets are known, as
    /// `arrange` compares them); nil for a photo without a capture date. For the choice's moments and events.
    public static func moments(_ photos: [PhotoInfo]) -> [Double?] {
        let rank = nameOrder(photos.map(\.file))
        var ranks = [Int](repeating: 0, count: photos.count)
        for (position, index) in rank.enumerated() { ranks[index] = position }
        return instants(photos, rank: ranks).map { $0.map { Double($0.seconds) + Double($0.nanosecond) / 1e9 } }
    }

    /// Each photo's moment, a photo without an offset borrowing the one of the photo with an offset whose local
    /// reading is nearest (`rank`, its place in name order, breaks ties); nil for a photo without a date.
    static func instants(_ photos: [PhotoInfo], rank: [Int]) -> [CaptureDate.Instant?] {
        // Photos whose camera wrote an offset, by local reading then name: where the others borrow theirs.
        let zoned = photos.indices.compactMap { index -> (local: CaptureDate.Instant, offset: Int, rank: Int)? in
            // A moment known only in UTC (Takeout's) says nothing of the local time around it.
            guard let date = photos[index].captureDate, let offset = date.utcOffsetMinutes,
                  !photos[index].captureDateIsUTCOnly else { return nil }
            return (date.localInstant, offset, rank[index])
        }.sorted { ($0.local, $0.rank) < ($1.local, $1.rank) }
        return photos.map { photo in
            guard let date = photo.captureDate else { return nil }
            let assumed = date.utcOffsetMinutes ?? nearestOffset(to: date.localInstant, in: zoned) ?? 0
            return date.instant(assumingOffsetMinutes: assumed)
        }
    }

    /// The offset of the entry whose local reading is nearest to `local`; on equal distances the earlier one.
    /// `zoned` is sorted by local reading.
    static func nearestOffset(to local: CaptureDate.Instant,
                              in zoned: [(local: CaptureDate.Instant, offset: Int, rank: Int)]) -> Int? {
        guard !zoned.isEmpty else { return nil }
        // The first entry not earlier than a reading: entries with equal readings are in name order after it.
        func lowerBound(_ reading: CaptureDate.Instant) -> Int {
            var low = 0, high = zoned.count
            while low < high {
                let middle = (low + high) / 2
                if zoned[middle].local < reading { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let next = lowerBound(local)
        guard next > 0 else { return zoned[0].offset }
        let previous = lowerBound(zoned[next - 1].local)
        guard next < zoned.count else { return zoned[previous].offset }
        let before = distance(from: zoned[previous].local, to: local), after = distance(from: local, to: zoned[next].local)
        return after < before ? zoned[next].offset : zoned[previous].offset
    }

    /// `later - earlier`, for `earlier <= later`, as seconds and nanoseconds (exact, unlike a Double).
    static func distance(from earlier: CaptureDate.Instant, to later: CaptureDate.Instant) -> CaptureDate.Instant {
        var seconds = later.seconds - earlier.seconds, nanosecond = later.nanosecond - earlier.nanosecond
        if nanosecond < 0 { seconds -= 1; nanosecond += 1_000_000_000 }
        return CaptureDate.Instant(seconds: seconds, nanosecond: nanosecond)
    }
}
