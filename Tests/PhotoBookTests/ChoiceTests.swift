@testable import PhotoBook
import Imaging
import Testing
import TestSupport

/// `Choice`, the pure part of `--photos` and `--pages`: moments, looks, events and the share of each event, on
/// candidates made by hand (their traits as the probe would measure them).
struct ChoiceTests {
    /// Traits of a plain, sharp, well-exposed photo whose hash is `hash` (distinct scenes differ in many bits).
    static func traits(hash: UInt64, blur: Double = 0.15, mean: Double = 120, low: Int = 20, high: Int = 230,
                       dark: Double = 0, blown: Double = 0, flat: Double = 0.001, paper: Double = 0,
                       stroke: Double = 0, grey: Double = 0.05) -> PhotoTraits {
        PhotoTraits(hash: (hash, ~hash), blur: blur, meanLuma: mean, darkShare: dark, blownShare: blown, lowLuma: low,
                    highLuma: high, flatShare: flat, paperShare: paper, strokeShare: stroke, greyShare: grey,
                    measuredSide: 500)
    }

    /// A scene's hash: scenes 0, 1, 2... are far apart (about half of 112 bits).
    static func scene(_ number: Int) -> UInt64 {
        var generator = SplitMix64(seed: UInt64(number) &+ 1)
        return generator.next()
    }

    static func candidate(_ index: Int, at seconds: Double?, _ traits: PhotoTraits?, camera: String? = "Apple iPhone 13",
                          rating: Int? = nil) -> ChoiceCandidate {
        var candidate = ChoiceCandidate(id: PhotoID(index), moment: seconds, camera: camera, traits: traits)
        candidate.marks = OwnerMarks(rating: rating)
        return candidate
    }

    @Test func aBurstKeepsItsSharpFrameAndNamesItForTheOthers() {
        let base = Self.scene(1)
        let photos = [
            Self.candidate(0, at: 0, Self.traits(hash: base ^ 0b1, blur: 0.5)),
            Self.candidate(1, at: 0.4, Self.traits(hash: base ^ 0b110, blur: 0.42)),
            Self.candidate(2, at: 0.8, Self.traits(hash: base, blur: 0.12)),
            Self.candidate(3, at: 1.2, Self.traits(hash: base ^ 0b1000, blur: 0.47)),
            Self.candidate(4, at: 600, Self.traits(hash: Self.scene(2))),
        ]
        let analysis = Choice.analyse(photos, byEvent: false)
        #expect(analysis.moments == [[0, 1, 2, 3]])
        let decisions = Choice.decisions(analysis, chosen: Choice.pick(analysis, count: 2))
        #expect(decisions.map(\.chosen) == [false, false, true, false, true])
        for index in [0, 1, 3] {
            #expect(decisions[index].reason == .nearDuplicate)
            #expect(decisions[index].of == PhotoID(2))
            #expect(decisions[index].moment == 0)
        }
        #expect(decisions[4].moment == nil)
    }

    @Test func theSameSceneFromAnotherCameraOrMinutesLaterIsAnotherMoment() {
        let base = Self.scene(3)
        let photos = [
            Self.candidate(0, at: 0, Self.traits(hash: base)),
            Self.candidate(1, at: 5, Self.traits(hash: base), camera: "Canon EOS R"),
            Self.candidate(2, at: 300, Self.traits(hash: base)),
            // Undated: next to each other and nearly the same picture.
            Self.candidate(3, at: nil, Self.traits(hash: Self.scene(4))),
            Self.candidate(4, at: nil, Self.traits(hash: Self.scene(4) ^ 0b11)),
        ]
        let analysis = Choice.analyse(photos, byEvent: false)
        #expect(analysis.moments == [[3, 4]])
    }

    @Test func anOwnersStarBeatsSharpnessAndARejectNeverGoesIn() {
        let base = Self.scene(5)
        let photos = [
            Self.candidate(0, at: 0, Self.traits(hash: base, blur: 0.1)),
            Self.candidate(1, at: 1, Self.traits(hash: base ^ 1, blur: 0.3), rating: 5),
            Self.candidate(2, at: 100, Self.traits(hash: Self.scene(6)), rating: -1),
        ]
        let analysis = Choice.analyse(photos, byEvent: false)
        let decisions = Choice.decisions(analysis, chosen: Choice.pick(analysis, count: 3))
        #expect(decisions.map(\.chosen) == [false, true, false])
        #expect(decisions[0].reason == .nearDuplicate && decisions[0].of == PhotoID(1))
        #expect(decisions[2].reason == .rejected)
        // Without a count every photo goes in but the reject.
        #expect(Choice.pick(analysis, count: nil) == [true, true, false])
    }

    @Test func worsePhotosFillOnlyWhatIsLeftScreenshotsLast() {
        let photos = [
            Self.candidate(0, at: 0, Self.traits(hash: Self.scene(10))),
            Self.candidate(1, at: 100, Self.traits(hash: Self.scene(11), blur: 0.7)),
            Self.candidate(2, at: 200, Self.traits(hash: Self.scene(12), mean: 8, high: 30, dark: 0.95)),
            Self.candidate(3, at: 300, Self.traits(hash: Self.scene(13), flat: 0.8), camera: nil),
            Self.candidate(4, at: 400, Self.traits(hash: Self.scene(14), mean: 200, paper: 0.7, stroke: 0.05,
                                                   grey: 0.8)),
            Self.candidate(5, at: 500, Self.traits(hash: Self.scene(15))),
        ]
        let analysis = Choice.analyse(photos, byEvent: false)
        #expect(analysis.looks.map { $0.first } == [nil, .blurred, .exposure, .screenshot, .document, nil])
        let two = Choice.decisions(analysis, chosen: Choice.pick(analysis, count: 2))
        #expect(two.map(\.chosen) == [true, false, false, false, false, true])
        #expect(two.map(\.reason) == [nil, .blurred, .exposure, .screenshot, .document, nil])
        // Room for four: the blurred and the dark photo, not the document or the screenshot.
        #expect(Choice.pick(analysis, count: 4) == [true, true, true, false, false, true])
        #expect(Choice.pick(analysis, count: 5) == [true, true, true, false, true, true])
        // A photo its owner starred is not held back by its looks.
        var starred = photos
        starred[1].marks = OwnerMarks(rating: 5)
        #expect(Choice.pick(Choice.analyse(starred, byEvent: false), count: 2) == [true, true, false, false, false, false])
    }

    @Test func aGoodPhotoLeftForBetterOnesIsRankedOut() {
        let photos = (0..<4).map { Self.candidate($0, at: Double($0) * 600, Self.traits(hash: Self.scene(20 + $0))) }
        var faces = photos
        faces[2].faces = 2
        let analysis = Choice.analyse(faces, byEvent: false)
        let decisions = Choice.decisions(analysis, chosen: Choice.pick(analysis, count: 1))
        #expect(decisions.map(\.chosen) == [false, false, true, false])
        #expect(decisions.filter { !$0.chosen }.allSatisfy { $0.reason == .rankedOut })
    }

    /// Three days, the second a long afternoon of 40 photos: every day gets a photo, the long one more, but not
    /// in proportion.
    @Test func everyEventGetsItsShareDampened() {
        var photos: [ChoiceCandidate] = []
        let day = 86_400.0
        func add(_ count: Int, from start: Double) {
            for index in 0..<count {
                photos.append(Self.candidate(photos.count, at: start + Double(index) * 120,
                                             Self.traits(hash: Self.scene(100 + photos.count))))
            }
        }
        add(5, from: 9 * 3600)
        add(40, from: day + 13 * 3600)
        add(5, from: 2 * day + 10 * 3600)
        let analysis = Choice.analyse(photos, byEvent: true)
        #expect(analysis.eventCount == 3)
        #expect(analysis.event[0] == 0 && analysis.event[5] == 1 && analysis.event[44] == 1 && analysis.event[45] == 2)
        let chosen = Choice.pick(analysis, count: 12)
        let perEvent = (0..<3).map { event in photos.indices.filter { analysis.event[$0] == event && chosen[$0] }.count }
        #expect(perEvent.reduce(0, +) == 12)
        #expect(perEvent.allSatisfy { $0 >= 1 })
        // 40 photos against 5: in proportion the afternoon would take 10 of 12; dampened, fewer.
        #expect(perEvent[1] > perEvent[0] && perEvent[1] <= 7, "\(perEvent)")
        // Fewer photos than events: the largest events.
        let one = Choice.pick(analysis, count: 1)
        #expect(photos.indices.filter { one[$0] }.map { analysis.event[$0] } == [1])
    }

    @Test func eventsSplitAtNightsAndAtGapsFarLongerThanThoseAround() {
        // Every 5 minutes for an hour, 90 minutes off, an hour again, then a night.
        var moments: [Double] = (0..<12).map { Double($0) * 300 }
        moments += (0..<12).map { 3300 + 5400 + Double($0) * 300 }
        moments += [moments.last! + 10 * 3600, moments.last! + 10 * 3600 + 60]
        let photos = moments.enumerated().map { Self.candidate($0.offset, at: $0.element, nil) }
        let (event, count) = Choice.events(photos + [Self.candidate(moments.count, at: nil, nil)])
        #expect(count == 4)
        #expect(event[11] == 0 && event[12] == 1 && event[23] == 1 && event[24] == 2 && event[26] == 3)
        // Photos every half hour all day: no gap stands out, one event.
        let steady = (0..<20).map { Self.candidate($0, at: Double($0) * 1800, nil) }
        #expect(Choice.events(steady).1 == 1)
    }

    @Test(arguments: [
        ("2024:03:12 10:00:00", "2024:03:12 18:00:00", "12 March 2024"),
        ("2024:03:12 10:00:00", "2024:03:15 18:00:00", "12-15 March 2024"),
        ("2024:03:30 10:00:00", "2024:04:02 18:00:00", "30 March - 2 April 2024"),
        ("2024:12:30 10:00:00", "2025:01:02 18:00:00", "30 December 2024 - 2 January 2025"),
    ])
    func eventHeadingsSayTheirDates(first: String, last: String, heading: String) {
        let start = CaptureDate(exifDateTime: first)!, end = CaptureDate(exifDateTime: last)!
        #expect(SectionMode.dateRange(start, end) == heading)
    }
}
