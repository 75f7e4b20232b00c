import EXIF
import Imaging
import ImageCodec
import Testing
import TIFF
import TestSupport

/// What probe reads without pixels: every photo page in order, its size, orientation, colour and metadata.
@Suite struct TIFFProbeTests {
    let codec = TIFFCodec()

    @Test func recognisesClassicAndBigTIFFInBothByteOrders() {
        #expect(codec.recognises([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]))
        #expect(codec.recognises([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]))
        #expect(codec.recognises([0x49, 0x49, 0x2B, 0x00, 8, 0, 0, 0]))
        #expect(codec.recognises([0x4D, 0x4D, 0x00, 0x2B, 0, 8, 0, 0]))
        #expect(!codec.recognises([0x49, 0x4D, 0x2A, 0x00]))
        #expect(!codec.recognises([0x49, 0x49, 0x2A]))
        #expect(codec.damageInSignature([0x49, 0x49, 0x2C, 0x00]) == "corrupt TIFF (damaged signature)")
        #expect(codec.damageInSignature([0x89, 0x50, 0x4E, 0x47]) == nil)
        #expect(codec.name == "TIFF" && codec.fileExtensions == ["tif", "tiff"])
    }

    @Test("detail names depth, colour, layout and compression", arguments: [
        ("rgb8-none.tif", "8-bit RGB, uncompressed"), ("rgb16-lzw.tif", "16-bit RGB, LZW"),
        ("grey1-g4.tif", "1-bit grey, CCITT G4"), ("grey1-g3.tif", "1-bit grey, CCITT G3"),
        ("rgb8-tiled-lzw.tif", "8-bit RGB, tiled, LZW"), ("rgb8-planar-lzw.tif", "8-bit RGB, planar, LZW"),
        ("rgb8-jpeg-ycbcr.tif", "8-bit YCbCr, JPEG"), ("rgba8-unassociated.tif", "8-bit RGB with alpha, LZW"),
        ("cmyk8-icc.tif", "8-bit CMYK, LZW"), ("palette8.tif", "8-bit palette, PackBits"),
        ("rgb8-deflate-predictor.tif", "8-bit RGB, Deflate"), ("rgb8-bigtiff.tif", "8-bit RGB, LZW"),
    ])
    func detail(name: String, detail: String) throws {
        let headers = try codec.probe(try TIFFTestSupport.source(name))
        #expect(headers.count == 1)
        #expect(headers.first?.detail == detail)
        #expect(headers.first?.orientation == .fixed(.topLeft))
    }

    @Test("colour components the profile must describe", arguments: [
        ("grey8.tif", 1), ("grey1-g4.tif", 1), ("rgb8-lzw.tif", 3), ("palette8.tif", 3), ("rgb8-jpeg-ycbcr.tif", 3),
        ("cmyk8-plain.tif", 4),
    ])
    func colorComponents(name: String, components: Int) throws {
        #expect(try codec.probe(try TIFFTestSupport.source(name)).first?.colorComponents == components)
    }

    @Test func orientationTagIsFixedOrientation() throws {
        let header = try #require(try codec.probe(try TIFFTestSupport.source("orientation6.tif")).first)
        #expect(header.orientation == .fixed(.rightTop))
        #expect(header.width == 48 && header.height == 32)
    }

    /// Three pages; the reduced-resolution copy between the first two is no photo of its own.
    @Test func multiPageGivesOneHeaderAPageAndSkipsTheReducedCopy() throws {
        let headers = try codec.probe(try TIFFTestSupport.source("multipage.tif"))
        #expect(headers.map { [$0.width, $0.height] } == [[24, 16], [16, 24], [32, 32]])
        #expect(headers.map(\.detail) == ["8-bit RGB, LZW", "8-bit grey, LZW", "8-bit palette, LZW"])
        #expect(headers.map(\.colorComponents) == [3, 1, 3])
    }

    @Test func pagesDecodeByPictureIndexNotDirectoryIndex() throws {
        let source = try TIFFTestSupport.source("multipage.tif")
        // Pictures 0, 1, 2 are directories 0, 2, 3: directory 1 is the reduced copy.
        for (picture, directory) in [(0, 0), (1, 2), (2, 3)] {
            let decoded = try TIFFTestSupport.decodeWhole(source, picture: picture)
            let reference = try TIFFTestSupport.imageMagick(TIFFTestSupport.path("multipage.tif"), page: directory)
            #expect(decoded.image.width == reference.width && decoded.image.height == reference.height)
            #expect(meanAbsoluteDifference(decoded.image.pixels, reference.pixels) <= 0.5, "picture \(picture)")
        }
        #expect(throws: CodecError.changedOnDisk("the TIFF has no page 4")) {
            try codec.decode(source, .whole(width: 32, height: 32, maxPixels: 1 << 20, picture: 3),
                             pool: BufferPool(), shouldCancel: { false })
        }
    }

    @Test func metadataOfThePage() throws {
        let header = try #require(try codec.probe(try TIFFTestSupport.source("metadata.tif")).first)
        #expect(header.description == "Harbour at dawn")
        #expect(header.captureDate == CaptureDate(year: 2024, month: 6, day: 1, hour: 12, minute: 34, second: 56,
                                                  nanosecond: 250_000_000, utcOffsetMinutes: 120))
        let xmp = String(decoding: try #require(header.xmp), as: UTF8.self)
        #expect(xmp.contains("Harbour") && xmp.contains("x:xmpmeta"))
        let srgb = try Fixtures.read(TIFFTestSupport.srgbProfile)
        #expect(header.colorProfile == .profile(srgb))
        #expect(header.profileDescribesDecodedPixels)
        #expect(header.exif == nil)
    }

    @Test func cmykProfileIsConvertedThroughNotPassedOn() throws {
        let header = try #require(try codec.probe(try TIFFTestSupport.source("cmyk8-icc.tif")).first)
        let cmyk = try Fixtures.read(TIFFTestSupport.cmykProfile)
        #expect(header.colorProfile == .profile(cmyk))
        #expect(header.colorComponents == 4)
        #expect(!header.profileDescribesDecodedPixels)
    }

    /// libtiff's warnings go into the page's notes (shown with --verbose), never to stderr.
    @Test func libtiffWarningsBecomeNotes() throws {
        var tiff = StripTIFF(width: 4, height: 4)
        tiff.extraEntries = [(tag: 65000, type: 4, count: 1, value: 7)]
        let header = try #require(try codec.probe(MemorySource(tiff.file(pixels: [UInt8](repeating: 9, count: 48)))).first)
        #expect(header.notes.contains { $0.contains("65000") }, "\(header.notes)")
        #expect(header.warnings.isEmpty)
    }
}
