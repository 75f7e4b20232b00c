import Foundation
import Testing
import TestSupport
@testable import PhotoBook
@testable import Platform

/// A photo as the probe would have read it: a path, its input group, and a capture date ("2024:05:01 14:00:00",
/// optionally with "+02:00" after it and ".25" fraction digits before that).
private func photo(_ path: String, _ date: String? = nil, group: Int = 0, named: Bool = true) -> PhotoInfo {
    var captureDate: CaptureDate?
    if let date {
        var text = date, offset: String?, fraction: String?
        if let sign = text.dropFirst(19).firstIndex(where: { $0 == "+" || $0 == "-" }) {
            offset = String(text[sign...]); text = String(text[..<sign])
        }
        if let dot = text.firstIndex(of: ".") { fraction = String(text[text.index(after: dot)...]); text = String(text[..<dot]) }
        captureDate = CaptureDate(exifDateTime: text, subSeconds: fraction, offset: offset)
        precondition(captureDate != nil, "bad test date \(date)")
    }
    let file = PhotoFile(path: path, format: ImageFormat(sniffing: [0xFF, 0xD8, 0xFF]), id: FileSystem.FileID(device: 1, inode: UInt64(abs(path.hashValue) % 1_000_000)),
                         inputGroup: group, isNamed: named)
    return PhotoInfo(file: file, storedWidth: 10, storedHeight: 10, orientation: .topLeft, captureDate: captureDate)
}

private func paths(_ photos: [PhotoInfo], _ sort: SortKey, reverse: Bool = false) -> [String] {
    PhotoOrder.arrange(photos, by: OrderOptions(sort: sort, reverse: reverse)).order.map { photos[$0].file.path }
}

@Suite("Photo order: name and given")
struct NameOrderTests {
    /// As discovery gives them for `photobook build img10.jpg img2.jpg Img1.jpg ./trip b.jpg a.jpg`.
    let photos = [photo("img10.jpg", group: 0), photo("img2.jpg", group: 0), photo("Img1.jpg", group: 0),
                  photo("trip/z2.jpg", group: 1, named: false), photo("trip/z10.jpg", group: 1, named: false),
                  photo("b.jpg", group: 2), photo("a.jpg", group: 2)]

    @Test func nameSortsEachRunOfNamedPhotosAndKeepsFoldersAndInputsInPlace() {
        // The folder's photos keep discovery's order (its natural order); here they were given reversed to show it.
        #expect(paths(photos, .name) == ["Img1.jpg", "img2.jpg", "img10.jpg", "trip/z2.jpg", "trip/z10.jpg", "a.jpg", "b.jpg"])
    }

    @Test func givenKeepsEverythingAsDiscovered() {
        #expect(paths(photos, .given) == photos.map(\.file.path))
    }

    @Test func reverseTurnsEachOrderRoundExactly() {
        for key in SortKey.allCases {
            #expect(paths(photos, key, reverse: true) == paths(photos, key).reversed(), "\(key)")
        }
    }

    @Test func namedPathsCompareWhole() {
        let named = [photo("b/1.jpg"), photo("a/2.jpg"), photo("a/10.jpg"), photo("a/2.JPG")]
        #expect(paths(named, .name) == ["a/2.JPG", "a/2.jpg", "a/10.jpg", "b/1.jpg"])
    }

    @Test func discoveryGroupsInputsAsNameNeedsThem() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/trip", withIntermediateDirectories: true)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0, 0, 0]
        for name in ["img10.jpg", "img2.jpg", "b.jpg", "a.jpg", "trip/x10.jpg", "trip/x9.jpg"] {
            try Data(jpeg).write(to: URL(fileURLWithPath: root + "/" + name))
        }
        let inputs = ["img10.jpg", "img2.jpg", "trip", "b.jpg", "missing.jpg", "a.jpg"].map { root + "/" + $0 }
        let found = Discovery.discover(inputs, recursive: false)
        #expect(found.photos.map(\.inputGroup) == [0, 0, 1, 1, 2, 2])
        #expect(found.photos.map(\.isNamed) == [true, true, false, false, true, true])
        let infos = found.photos.map { PhotoInfo(file: $0, storedWidth: 1, storedHeight: 1, orientation: .topLeft) }
        let base = { (path: String) in String(path.dropFirst(root.count + 1)) }
        #expect(paths(infos, .name).map(base) == ["img2.jpg", "img10.jpg", "trip/x9.jpg", "trip/x10.jpg", "a.jpg", "b.jpg"])
        #expect(paths(infos, .given).map(base) == ["img10.jpg", "img2.jpg", "trip/x9.jpg", "trip/x10.jpg", "b.jpg", "a.jpg"])
    }
}

@Suite("Photo order: capture date")
struct DateOrderTests {
    @Test func datedFirstThenUndatedInNameOrder() {
        let photos = [photo("d.jpg"), photo("c.jpg", "2024:05:02 10:00:00"), photo("b.jpg"), photo("a.jpg", "2024:05:01 10:00:00")]
        let arrangement = PhotoOrder.arrange(photos, by: OrderOptions(sort: .date))
        #expect(arrangement.order.map { photos[$0].file.path } == ["a.jpg", "c.jpg", "b.jpg", "d.jpg"])
        #expect(arrangement.undated.map { photos[$0].file.path } == ["b.jpg", "d.jpg"])
        #expect(PhotoOrder.arrange(photos, by: OrderOptions(sort: .name)).undated == [])
    }

    @Test func equalMomentsGoByName() {
        let photos = [photo("img10.jpg", "2024:05:01 10:00:00"), photo("img2.jpg", "2024:05:01 10:00:00"),
                      photo("img1.jpg", "2024:05:01 10:00:00+00:00")]
        // The two without an offset borrow +00:00: three photos of one moment.
        #expect(paths(photos, .date) == ["img1.jpg", "img2.jpg", "img10.jpg"])
    }

    @Test func fractionsOrderABurst() {
        let photos = [photo("a.jpg", "2024:05:01 10:00:00.9"), photo("b.jpg", "2024:05:01 10:00:00.25"),
                      photo("c.jpg", "2024:05:01 10:00:00"), photo("d.jpg", "2024:05:01 10:00:00.250")]
        #expect(paths(photos, .date) == ["c.jpg", "b.jpg", "d.jpg", "a.jpg"])
    }

    @Test func offsetsMakeMomentsComparableAcrossZones() {
        // 09:00 in Rome is 08:00 in London is 03:00 in New York: the London photo was taken last.
        let photos = [photo("london.jpg", "2024:05:01 08:30:00+01:00"), photo("rome.jpg", "2024:05:01 09:00:00+02:00"),
                      photo("newyork.jpg", "2024:05:01 03:10:00-04:00")]
        #expect(paths(photos, .date) == ["rome.jpg", "newyork.jpg", "london.jpg"])
    }

    @Test func aCameraWithoutOffsetInterleavesWithAPhoneOnTheSameTrip() {
        let photos = [photo("DSC_0001.jpg", "2024:07:10 14:05:00"), photo("DSC_0002.jpg", "2024:07:10 14:15:00"),
                      photo("IMG_1000.jpg", "2024:07:10 14:00:00+02:00"), photo("IMG_1001.jpg", "2024:07:10 14:10:00+02:00"),
                      photo("IMG_1002.jpg", "2024:07:10 14:20:00+02:00")]
        #expect(paths(photos, .date) == ["IMG_1000.jpg", "DSC_0001.jpg", "IMG_1001.jpg", "DSC_0002.jpg", "IMG_1002.jpg"])
    }

    @Test func aCameraBorrowsTheOffsetOfThePhonePhotoNearestInLocalTime() {
        // A flight from Rome (+02:00) to New York (-04:00): the phone's 17:00 in New York is after its 20:00 in Rome.
        // The camera, reset to local time on landing, took 19:55 in Rome and 16:50 in New York.
        let photos = [photo("cam-rome.jpg", "2024:07:10 19:55:00"), photo("cam-newyork.jpg", "2024:07:10 16:50:00"),
                      photo("phone-rome.jpg", "2024:07:10 20:00:00+02:00"),
                      photo("phone-newyork.jpg", "2024:07:10 17:00:00-04:00")]
        #expect(paths(photos, .date) == ["cam-rome.jpg", "phone-rome.jpg", "cam-newyork.jpg", "phone-newyork.jpg"])
    }

    @Test func onEqualDistanceTheEarlierPhonePhotoLendsItsOffset() {
        // 12:00 is an hour from both; borrowing +00:00 (the earlier) makes it 12:00Z, after 11:30Z.
        let photos = [photo("cam.jpg", "2024:07:10 12:00:00"), photo("p1.jpg", "2024:07:10 11:00:00+00:00"),
                      photo("p2.jpg", "2024:07:10 13:00:00+01:30")]
        #expect(paths(photos, .date) == ["p1.jpg", "p2.jpg", "cam.jpg"])
        #expect(PhotoOrder.nearestOffset(to: CaptureDate(exifDateTime: "2024:07:10 12:00:00")!.localInstant,
                                         in: [(CaptureDate(exifDateTime: "2024:07:10 11:00:00")!.localInstant, 0, 0),
                                              (CaptureDate(exifDateTime: "2024:07:10 11:00:00")!.localInstant, 60, 1),
                                              (CaptureDate(exifDateTime: "2024:07:10 13:00:00")!.localInstant, 90, 2)]) == 0)
    }

    @Test func withoutAnyOffsetLocalTimesCompareAsTheyAre() {
        let photos = [photo("b.jpg", "2024:01:01 00:00:01"), photo("a.jpg", "2023:12:31 23:59:59"),
                      photo("c.jpg", "2024:02:29 12:00:00")]
        #expect(paths(photos, .date) == ["a.jpg", "b.jpg", "c.jpg"])
    }

    @Test func reverseIsTheSameBookBackwards() {
        let photos = [photo("x.jpg"), photo("b.jpg", "2024:05:01 10:00:00"), photo("a.jpg", "2024:05:01 10:00:00"),
                      photo("c.jpg", "2024:05:01 09:00:00+02:00"), photo("w.jpg")]
        #expect(paths(photos, .date) == ["c.jpg", "a.jpg", "b.jpg", "w.jpg", "x.jpg"])
        #expect(paths(photos, .date, reverse: true) == ["x.jpg", "w.jpg", "b.jpg", "a.jpg", "c.jpg"])
        #expect(PhotoOrder.arrange(photos, by: OrderOptions(sort: .date, reverse: true)).undated.map { photos[$0].file.path }
                == ["x.jpg", "w.jpg"])
    }

    @Test func emptyAndSingle() {
        for key in SortKey.allCases {
            #expect(PhotoOrder.arrange([], by: OrderOptions(sort: key)).order == [])
            #expect(PhotoOrder.arrange([photo("a.jpg")], by: OrderOptions(sort: key)).order == [0])
        }
    }

    /// Random sets of named photos: every ordering is a permutation, does not depend on the order the photos came
    /// in, puts dated before undated, dated by moment (their own offset, or the borrowed one) then name.
    @Test(arguments: 0..<40)
    func invariantsOnRandomSets(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        let count = Int.random(in: 0...40, using: &generator)
        var photos: [PhotoInfo] = []
        for index in 0..<count {
            var date: String?
            if Int.random(in: 0..<5, using: &generator) > 0 {
                // Few distinct values, so that ties and equal distances happen.
                let hour = Int.random(in: 10...13, using: &generator), minute = 15 * Int.random(in: 0...3, using: &generator)
                date = String(format: "2024:05:01 %02d:%02d:00", hour, minute)
                if Bool.random(using: &generator) { date! += [".5", ".25"].randomElement(using: &generator)! }
                if Bool.random(using: &generator) { date! += ["+02:00", "+00:00", "-01:30"].randomElement(using: &generator)! }
            }
            photos.append(photo("p\(index).jpg", date))
        }
        let result = PhotoOrder.arrange(photos, by: OrderOptions(sort: .date))
        #expect(result.order.sorted() == Array(photos.indices))
        let datedCount = photos.filter { $0.captureDate != nil }.count
        #expect(result.order.prefix(datedCount).allSatisfy { photos[$0].captureDate != nil })
        #expect(result.undated == Array(result.order.dropFirst(datedCount)))
        // Undated ones in name order.
        let undatedNames = result.undated.map { photos[$0].file.path }
        #expect(undatedNames == undatedNames.sorted(by: NaturalOrder.less))
        // Dated ones: photos with their own offset are in order of their moment among themselves.
        let zoned = result.order.compactMap { photos[$0].captureDate?.utcOffsetMinutes == nil ? nil : photos[$0] }
        for (a, b) in zip(zoned, zoned.dropFirst()) {
            let x = a.captureDate!.instant(assumingOffsetMinutes: 0), y = b.captureDate!.instant(assumingOffsetMinutes: 0)
            #expect(x < y || x == y && NaturalOrder.less(a.file.path, b.file.path))
        }
        // The same set in another order gives the same book.
        let shuffled = photos.shuffled(using: &generator)
        #expect(paths(shuffled, .date) == result.order.map { photos[$0].file.path })
        #expect(paths(photos, .date, reverse: true) == result.order.map { photos[$0].file.path }.reversed())
    }
}
