import EXIF
import Foundation
import Platform
import Testing
import TestSupport
@testable import PhotoBook

/// A Google Photos Takeout export (Fixtures/takeout): each photo paired with its JSON however Takeout named it,
/// the JSON's date and caption taken where the photo has none of its own, and no JSON ever taken for a photo.
struct TakeoutTests {
    static let root = Fixtures.path("takeout/Takeout")
    static let year = root + "/Google Photos/Photos from 2019/"
    static let album = root + "/Google Photos/Trip to Paris/"
    static let long = "Marie and Pierre Curie in their laboratory in Paris.jpg"

    static func probed() throws -> [PhotoInfo] {
        let found = Discovery.discover([root], recursive: true)
        #expect(found.errors.isEmpty && found.warnings.isEmpty)
        return try found.photos.map { try Probe.probe($0, maxPixels: 100_000_000).get() }
    }

    @Test("every photo finds its JSON: old and new names, counters, a cut name, an edited copy")
    func pairing() throws {
        let found = Discovery.discover([Self.root], recursive: true)
        // Natural name order: "(" sorts before ".".
        let pairs = found.photos.map { ($0.path, $0.takeout) }
        let expected: [(String, String)] = [
            (Self.year + "IMG_0001(1).jpg", Self.year + "IMG_0001.jpg(1).json"),
            (Self.year + "IMG_0001.jpg", Self.year + "IMG_0001.jpg.json"),
            (Self.year + "IMG_0002-edited.jpg", Self.year + "IMG_0002.jpg.supplemental-metadata.json"),
            (Self.year + "IMG_0002.jpg", Self.year + "IMG_0002.jpg.supplemental-metadata.json"),
            (Self.year + "IMG_0003(1).jpg", Self.year + "IMG_0003.jpg.supplemental-metadata(1).json"),
            (Self.year + "IMG_0003.jpg", Self.year + "IMG_0003.jpg.supplemental-metadata.json"),
            (Self.year + Self.long, Self.year + "Marie and Pierre Curie in their laboratory in .json"),
            (Self.album + "IMG_0001.jpg", Self.album + "IMG_0001.jpg.json"),
        ]
        #expect(pairs.map(\.0) == expected.map(\.0))
        #expect(pairs.map(\.1) == expected.map(\.1))
        // The JSON files, the album's metadata.json among them, are mentioned with --verbose only.
        #expect(found.notes.count == 8 && found.notes.allSatisfy { $0.path.hasSuffix(".json") })
    }

    @Test("the JSON's date stands in for a photo without one; the photo's own date wins; its caption goes first")
    func datesAndCaptions() throws {
        let infos = try Self.probed()
        let byName = Dictionary(uniqueKeysWithValues: infos.map { (String($0.file.path.dropFirst(Self.root.count)), $0) })
        func utc(_ day: Int, _ month: Int, _ hour: Int, _ minute: Int = 0) -> CaptureDate? {
            CaptureDate(year: 2019, month: month, day: day, hour: hour, minute: minute, second: 0, utcOffsetMinutes: 0)
        }
        let y = "/Google Photos/Photos from 2019/"
        #expect(byName[y + "IMG_0001.jpg"]?.captureDate == utc(1, 6, 10))
        #expect(byName[y + "IMG_0001.jpg"]?.description == "Marie and Pierre in the laboratory")
        #expect(byName[y + "IMG_0001(1).jpg"]?.captureDate == utc(1, 6, 9))
        #expect(byName[y + "IMG_0001(1).jpg"]?.description == nil)
        // EXIF's date (no offset) over the JSON's 2019-07-01; the JSON's words over EXIF's ImageDescription.
        let own = try #require(byName[y + "IMG_0002.jpg"])
        #expect(own.captureDate == CaptureDate(exifDateTime: "2019:05:01 12:00:00") && !own.captureDateIsUTCOnly)
        #expect(own.description == "The laboratory in May")
        #expect(byName[y + "IMG_0002-edited.jpg"]?.captureDate == utc(1, 7, 12))
        #expect(byName[y + "IMG_0002-edited.jpg"]?.captureDateIsUTCOnly == true)
        #expect(byName[y + "IMG_0003(1).jpg"]?.captureDate == utc(1, 4, 8, 30))
        #expect(byName[y + Self.long]?.description == "Paris, 1904")
        #expect(infos.allSatisfy { $0.warnings.isEmpty })
    }

    @Test("ordered by date, the export reads as the photos were taken")
    func orderByDate() throws {
        let infos = try Self.probed()
        let order = PhotoOrder.arrange(infos, by: OrderOptions(sort: .date))
        #expect(order.undated.isEmpty)
        #expect(order.order.map { FileSystem.baseName(infos[$0].file.path) } == [
            "IMG_0003.jpg", "IMG_0003(1).jpg", "IMG_0002.jpg", "IMG_0001(1).jpg", "IMG_0001.jpg", "IMG_0001.jpg",
            "IMG_0002-edited.jpg", Self.long,
        ])
    }

    @Test("Takeout's naming rule", arguments: [
        ("IMG_1.jpg", ["IMG_1.jpg.json"], "IMG_1.jpg.json"),
        ("IMG_1.jpg", ["IMG_1.jpg.supplemental-metadata.json", "IMG_1.jpg.json"], "IMG_1.jpg.supplemental-metadata.json"),
        ("IMG_1(2).jpg", ["IMG_1.jpg.json", "IMG_1.jpg(2).json"], "IMG_1.jpg(2).json"),
        ("IMG_1(2).jpg", ["IMG_1.jpg.supplemental-metadata(2).json"], "IMG_1.jpg.supplemental-metadata(2).json"),
        ("IMG_1-edited.jpg", ["IMG_1.jpg.json"], "IMG_1.jpg.json"),
        ("IMG_1-bearbeitet(1).jpg", ["IMG_1.jpg(1).json"], "IMG_1.jpg(1).json"),
        // 30 characters: the supplemental part is cut at 46.
        ("PXL_20230101_101010123.jpg", ["PXL_20230101_101010123.jpg.supplemental-met.json"],
         "PXL_20230101_101010123.jpg.supplemental-met.json"),
        // Cut elsewhere than 46 (reports vary): the longest start that fits.
        ("PXL_20230101_101010123.jpg", ["PXL_20230101_101010123.jpg.supp.json"], "PXL_20230101_101010123.jpg.supp.json"),
        ("Urlaub in Knaufspesch in der Schneifel (38).JPG", ["Urlaub in Knaufspesch in der Schneifel (38).JP.json"],
         "Urlaub in Knaufspesch in der Schneifel (38).JP.json"),
        ("20030616.jpg", ["20030616.json"], "20030616.json"),
        // A name made by the owner with a counter of its own.
        ("scan(2).jpg", ["scan(2).jpg.json"], "scan(2).jpg.json"),
        // Not another photo's: IMG_10.jpg's JSON is not IMG_1.jpg's, nor is a copy's the original's.
        ("IMG_1.jpg", ["IMG_10.jpg.json", "IMG_1.jpg(1).json"], nil),
    ] as [(String, [String], String?)])
    func naming(photo: String, jsons: [String], expected: String?) {
        #expect(TakeoutNames(jsons).sidecar(ofPhotoNamed: photo) == expected)
    }

    /// A scratch folder with one photo and a JSON beside it.
    static func folder(json: String) throws -> (RegionProbeTests.Folder, PhotoInfo) {
        let folder = try RegionProbeTests.Folder()
        try folder.copy("curie.jpg", as: "IMG_1.jpg")
        try folder.write("IMG_1.jpg.json", json)
        return (folder, try RegionProbeTests.probe(folder.path + "/IMG_1.jpg"))
    }

    @Test("a photo starred in Google Photos is a favourite, for the choice of photos")
    func favourite() throws {
        let (_, starred) = try Self.folder(json: "{\"favorited\": true, \"photoTakenTime\": {\"timestamp\": \"1559383200\"}}")
        #expect(starred.isFavourite)
        let (_, plain) = try Self.folder(json: "{\"favorited\": false}")
        #expect(!plain.isFavourite)
        let (_, unsaid) = try Self.folder(json: "{\"photoTakenTime\": {\"timestamp\": \"1559383200\"}}")
        #expect(!unsaid.isFavourite)
    }

    @Test("a broken or oversized JSON is a warning naming it, and the photo still goes in")
    func broken() throws {
        let (_, info) = try Self.folder(json: "{\"photoTakenTime\": {\"timestamp\": \"15")
        #expect(info.warnings == ["its Takeout JSON IMG_1.jpg.json is not valid JSON; the photo's own metadata is used"])
        #expect(info.captureDate == nil)
        let (_, big) = try Self.folder(json: String(repeating: " ", count: (1 << 20) + 1))
        #expect(big.warnings == ["its Takeout JSON IMG_1.jpg.json is larger than 1 MB and was not read"])
        // A timestamp as a number is read; 0 (Takeout's unknown) and an empty description are nothing.
        let (_, number) = try Self.folder(json: "{\"photoTakenTime\": {\"timestamp\": 1559383200}, \"description\": \" \"}")
        #expect(number.captureDate?.localText == "2019-06-01 10:00:00" && number.description == nil)
        let (_, zero) = try Self.folder(json: "{\"photoTakenTime\": {\"timestamp\": \"0\"}}")
        #expect(zero.captureDate == nil && zero.warnings.isEmpty)
    }

    @Test("a JSON named on the command line is never a photo")
    func named() throws {
        let found = Discovery.discover([Self.year + "IMG_0001.jpg", Self.year + "IMG_0001.jpg.json", Self.album + "metadata.json"],
                                       recursive: false)
        #expect(found.photos.map(\.path) == [Self.year + "IMG_0001.jpg"])
        #expect(found.photos[0].takeout == Self.year + "IMG_0001.jpg.json")
        #expect(found.warnings.isEmpty && found.errors.isEmpty)
    }
}

/// Dates known only as a moment in UTC (Takeout's) against a camera's local readings.
struct TakeoutDateTests {
    static func photo(_ name: String, _ date: CaptureDate?, utcOnly: Bool = false) -> PhotoInfo {
        var info = PhotoInfo(file: PhotoFile(path: name, format: nil, id: FileSystem.FileID(device: 0, inode: 0)),
                             storedWidth: 1, storedHeight: 1, orientation: .topLeft, captureDate: date)
        info.captureDateIsUTCOnly = utcOnly
        return info
    }

    @Test("UTC seconds read as the calendar says, before 1970 too")
    func unixSeconds() {
        #expect(CaptureDate(unixSeconds: 1_559_383_200)?.localText == "2019-06-01 10:00:00")
        #expect(CaptureDate(unixSeconds: 1_559_383_200)?.utcOffsetMinutes == 0)
        #expect(CaptureDate(unixSeconds: -1)?.localText == "1969-12-31 23:59:59")
        #expect(CaptureDate(unixSeconds: 951_782_400)?.localText == "2000-02-29 00:00:00")
        #expect(CaptureDate(unixSeconds: 253_402_300_800) == nil)  // 10000-01-01
    }

    @Test("a camera without an offset borrows a phone's, never a UTC-only moment's")
    func noOffsetLent() throws {
        // A camera at 14:05 local; a Takeout moment at 14:00 UTC, the nearest reading; a phone at 16:30 +02:00.
        let camera = Self.photo("camera.jpg", CaptureDate(exifDateTime: "2019:06:01 14:05:00"))
        let takeout = Self.photo("takeout.jpg", CaptureDate(unixSeconds: 1_559_397_600), utcOnly: true)
        let phone = Self.photo("phone.jpg", CaptureDate(exifDateTime: "2019:06:01 16:30:00", offset: "+02:00"))
        // The camera is in the phone's zone (12:05 UTC); borrowing +00:00 would put it after the Takeout moment.
        let order = PhotoOrder.arrange([camera, takeout, phone], by: OrderOptions(sort: .date)).order
        #expect(order == [0, 1, 2])
    }
}
