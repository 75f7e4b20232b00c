import EXIF
import ImageCodec
import Imaging
import TestSupport
import Testing
@testable import Raw

/// What the probe reads of real raws from several makers, without a pixel.
@Suite struct RawProbeTests {
    @Test func aPhonesDNGIsProbedWithItsSizeCameraDateAndPreview() throws {
        let header = try RawTestSupport.probe(FileSource(path: RawTestSupport.path(RawTestSupport.dng)))
        #expect(header.width == 600 && header.height == 338)
        #expect(header.orientation == .fixed(.topLeft))
        #expect(header.detail == "DNG, LG LG-H815, 256x144 preview")
        // The raw is a TIFF structure: the engine's EXIF reader finds the camera and the date in it.
        let exif = EXIFParser.parse(try #require(header.exif))
        #expect(exif.make == "LG Mobile" && exif.model == "LG-H815")
        #expect(exif.dateTimeOriginal == "2015:06:08 12:10:44")
        #expect(header.captureDate == nil, "EXIF's date (with its sub-second, if any) is the one used")
    }

    @Test func aFileAndTheSameBytesInMemoryProbeAlike() throws {
        let file = try RawTestSupport.probe(FileSource(path: RawTestSupport.path(RawTestSupport.dng)))
        let memory = try RawTestSupport.probe(MemorySource(RawTestSupport.bytes(RawTestSupport.dng)))
        #expect(file == memory)
    }

    /// exiftool's raw samples keep their makers' metadata (the image data is stripped): LibRaw reads each one's
    /// camera, sensor size and time the same way it does a whole file.
    @Test(arguments: [
        ("exiftool-Nikon.nef", "NEF", "Nikon", "D70", 3039, 2014, 2004, 6, 9, 16, 2, 35),
        ("exiftool-Panasonic.rw2", "RW2", "Panasonic", "DMC-LX3", 3664, 2754, 2008, 8, 6, 15, 21, 56),
        ("exiftool-FujiFilm.raf", "RAF", "Fujifilm", "S5Pro", 3030, 2036, 2007, 5, 22, 13, 58, 30),
        ("exiftool-CanonRaw.cr3", "CR3", "Canon", "EOS M50", 6024, 4020, 2018, 2, 21, 12, 8, 56),
        ("exiftool-DNG.dng", "DNG", "Canon", "EOS 350D", 3474, 2314, 2005, 8, 3, 18, 59, 18),
    ] as [(String, String, String, String, Int, Int, Int, Int, Int, Int, Int, Int)])
    func makersMetadataIsRead(_ sample: (String, String, String, String, Int, Int, Int, Int, Int, Int, Int, Int)) throws {
        let (name, kind, make, model, width, height, year, month, day, hour, minute, second) = sample
        let bytes = try RawTestSupport.bytes(name)
        let facts = try RawFacts.read(MemorySource(bytes), kind: RawSignature(bytes), handle: LibRawHandle())
        #expect((RawSignature(bytes) ?? .tiff).kind(make: facts.make, isDNG: facts.isDNG) == kind)
        #expect(facts.make == make && facts.model == model, "\(facts.make) \(facts.model)")
        #expect(facts.width == width && facts.height == height, "\(facts.width)x\(facts.height)")
        let date = try #require(facts.captureDate)
        #expect([date.year, date.month, date.day, date.hour, date.minute, date.second]
                == [year, month, day, hour, minute, second])
    }

    /// Their data stripped, the same files are refused by name at the probe: LibRaw would "decode" them to a
    /// black or white frame without a word.
    @Test(arguments: [("exiftool-Nikon.nef", "NEF"), ("exiftool-Panasonic.rw2", "RW2"),
                      ("exiftool-FujiFilm.raf", "RAF"), ("exiftool-CanonRaw.cr3", "CR3"), ("exiftool-DNG.dng", "DNG")])
    func aStrippedRawIsRefusedAtTheProbe(_ name: String, _ kind: String) throws {
        let bytes = try RawTestSupport.bytes(name)
        #expect(throws: CodecError.self) { try RawTestSupport.probe(MemorySource(bytes)) }
        do {
            _ = try RawTestSupport.probe(MemorySource(bytes))
        } catch {
            #expect(error.failure.kind == .corrupt)
            #expect(error.description.hasPrefix("corrupt \(kind) (\(bytes.count) bytes cannot hold the data of a "),
                    "\(error)")
            #expect(error.description.hasSuffix("sensor: truncated or stripped)"), "\(error)")
        }
    }

    @Test func aRAFsOrCR3sDateComesFromLibRawWhenThereIsNoTIFFStructure() throws {
        // RAF and CR3 are no TIFF structures: the codec hands out LibRaw's date as the header's own.
        let bytes = try RawTestSupport.bytes("exiftool-FujiFilm.raf")
        #expect(RawSignature(bytes) == .raf)
        #expect(RawSignature(bytes)?.isTIFFStructure == false)
        #expect(try RawCodec.tiffStructure(MemorySource(bytes)) == nil)
    }

    @Test func theRawsTurnIsLibRawsFlipNotTheEXIFTag() throws {
        for (value, orientation) in [(6, Orientation.rightTop), (8, .leftBottom), (3, .bottomRight), (1, .topLeft)] {
            let header = try RawTestSupport.probe(MemorySource(RawTestSupport.dngTurned(UInt16(value))))
            #expect(header.orientation == .fixed(orientation), "Orientation \(value)")
            // The size is the stored one, before the turn (as decode hands it out).
            #expect(header.width == 600 && header.height == 338)
        }
    }

    @Test func signaturesAreRecognised() {
        func bytes(_ text: String, _ extra: [UInt8] = []) -> [UInt8] { Array(text.utf8) + extra }
        #expect(RawSignature([0x49, 0x49, 0x2A, 0, 0x10, 0, 0, 0] + bytes("CR") + [2, 0]) == .cr2)
        #expect(RawSignature([0x49, 0x49, 0x2A, 0, 8, 0, 0, 0]) == .tiff)
        #expect(RawSignature([0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8]) == .tiff)
        #expect(RawSignature(bytes("IIRO", [8, 0, 0, 0])) == .orf)
        #expect(RawSignature([0x49, 0x49, 0x55, 0, 0x18, 0, 0, 0]) == .rw2)
        #expect(RawSignature(bytes("FUJIFILMCCD-RAW 0201")) == .raf)
        #expect(RawSignature([0, 0, 0, 0x18] + bytes("ftypcrx ")) == .cr3)
        #expect(RawSignature([0, 0, 0, 0x18] + bytes("ftypheic")) == nil)
        #expect(RawSignature([0xFF, 0xD8, 0xFF, 0xE1]) == nil)
        #expect(RawSignature([]) == nil)
    }
}
