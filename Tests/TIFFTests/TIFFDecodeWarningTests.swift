import Imaging
import ImageCodec
import Testing
@testable import TIFF
import TestSupport

/// What libtiff says while it reads a page's pixels: a harmless warning travels with the decoded picture as a
/// note (shown with `--verbose`), damage that would print as grey fails the photo by its reason, and a file
/// with nothing to say has no notes.
@Suite struct TIFFDecodeWarningTests {
    let codec = TIFFCodec()

    /// `rgb8-jpeg-ycbcr.tif` with its last strip's JPEG data changed by `change`.
    static func jpegTIFF(_ change: ([UInt8]) -> [UInt8]) throws -> [UInt8] {
        try TIFFStripEdit.replacingLastStrip(of: try Fixtures.bytes("tiff/rgb8-jpeg-ycbcr.tif"), change)
    }

    /// Sixteen stray bytes before the strip's end-of-image marker: a writer's padding, every pixel intact.
    static func padded(_ strip: [UInt8]) -> [UInt8] {
        Array(strip.dropLast(2)) + [UInt8](repeating: 0x12, count: 16) + [0xFF, 0xD9]
    }

    @Test func aCleanFileHasNoNotes() throws {
        for name in ["rgb8-jpeg-ycbcr.tif", "rgb8-lzw.tif", "grey1-g3.tif", "rgb8-tiled-lzw.tif"] {
            let decoded = try TIFFTestSupport.decodeWhole(try TIFFTestSupport.source(name))
            #expect(decoded.notes.isEmpty, "\(name): \(decoded.notes)")
        }
    }

    @Test func libjpegsHarmlessWarningIsANoteAndThePixelsAreAllThere() throws {
        let clean = try TIFFTestSupport.decodeWhole(try TIFFTestSupport.source("rgb8-jpeg-ycbcr.tif"))
        let padded = try TIFFTestSupport.decodeWhole(MemorySource(try Self.jpegTIFF(Self.padded)))
        #expect(padded.notes.count == 1, "\(padded.notes)")
        let note = try #require(padded.notes.first)
        #expect(note.hasPrefix("libtiff: JPEGLib: Corrupt JPEG data: ") && note.hasSuffix("extraneous bytes before marker 0xd9"),
                "\(note)")
        #expect(Array(padded.image.pixels) == Array(clean.image.pixels))
    }

    /// The directory's own warnings were said by the probe: a decode, which reads the directories again on
    /// its way to the page, does not say them a second time.
    @Test func directoryWarningsAreNotRepeatedByTheDecode() throws {
        var tiff = StripTIFF(width: 4, height: 4)
        tiff.extraEntries = [(tag: 65000, type: 4, count: 1, value: 7)]
        let source = MemorySource(tiff.file(pixels: [UInt8](repeating: 9, count: 48)))
        let header = try #require(try codec.probe(source).first)
        #expect(header.notes.contains { $0.contains("65000") }, "\(header.notes)")
        let decoded = try TIFFTestSupport.decodeWhole(source)
        #expect(decoded.notes.isEmpty, "\(decoded.notes)")
    }

    /// A cut JPEG strip: libjpeg only warns and fills the rest with grey, which nobody wants printed.
    @Test func aCutJPEGStripFailsAsACutJPEGDoes() throws {
        let cut = MemorySource(try Self.jpegTIFF { Array($0.prefix($0.count / 2)) })
        #expect(throws: CodecError.corrupt("corrupt TIFF (JPEG data: Premature end of JPEG file)")) {
            try TIFFTestSupport.decodeWhole(cut)
        }
    }

    /// libtiff's fax decoder warns of the cut line and then fails with no error of its own: the warning is the
    /// reason given.
    @Test func aCutFaxStripFailsWithTheLineItEndsAt() throws {
        let bytes = try Fixtures.bytes("tiff/grey1-g3.tif")
        let cut = MemorySource(try TIFFStripEdit.replacingLastStrip(of: bytes) { Array($0.prefix($0.count / 3)) })
        #expect {
            try TIFFTestSupport.decodeWhole(cut)
        } throws: { error in
            guard case .failed(let reason) = error as? CodecError else { return false }
            return reason.kind == .corrupt && (reason.message.hasPrefix("corrupt TIFF (Premature EOL at line ")
                                               || reason.message.hasPrefix("corrupt TIFF (Premature EOF"))
        }
    }

    @Test func jpegDamageTellsHarmlessWarningsFromDamage() {
        #expect(TIFFCodec.jpegDamage("libtiff: JPEGLib: Premature end of JPEG file") == "JPEG data: Premature end of JPEG file")
        #expect(TIFFCodec.jpegDamage("libtiff: JPEGLib: Corrupt JPEG data: premature end of data segment")
                == "JPEG data: Corrupt JPEG data: premature end of data segment")
        #expect(TIFFCodec.jpegDamage("libtiff: JPEGLib: Corrupt JPEG data: 3 extraneous bytes before marker 0xd9") == nil)
        #expect(TIFFCodec.jpegDamage("libtiff: JPEGLib: Corrupt JPEG data: 3 extraneous bytes before marker 0xd3") != nil)
        #expect(TIFFCodec.jpegDamage("libtiff: JPEGLib: Warning: unknown JFIF revision number 3.01") == nil)
        #expect(TIFFCodec.jpegDamage("libtiff: TIFFReadDirectory: Unknown field with tag 65000 (0xfde8) encountered") == nil)
    }
}
