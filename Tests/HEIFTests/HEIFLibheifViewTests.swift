import Foundation
import Testing
@testable import HEIF
import ImageCodec
import Imaging
import TestSupport

/// The HEICs libheif 1.15 refuses as they are, read through the view of them it accepts (HEIFLibheifView): an
/// iOS 18 iPhone photo whose gain map and mattes name two targets, and a derived (`iden`) primary image with no
/// data of its own and its EXIF in `idat`.
@Suite struct HEIFLibheifViewTests {
    static let iOS18 = "metadata-extractor-images/iphone11pro-ios18-aux.heic"

    /// What the view mended in `bytes`; nil when it showed libheif the file itself.
    static func mended(_ bytes: [UInt8]) -> [String]? {
        (HEIFLibheifView.of(MemorySource(bytes)) as? HEIFLibheifView)?.mended
    }

    /// The gain map's and the four mattes' `auxl` name [primary, tmap]: each is cut to the primary image; nothing
    /// else is touched.
    @Test func theIOS18AuxiliaryReferencesAreCutToThePrimaryImage() throws {
        let mended = try #require(Self.mended(try HEIFFixtures.bytes(Self.iOS18)))
        #expect(mended == (53...57).map { "auxl of item \($0) cut to item 49" })
    }

    /// Files libheif 1.15 reads as they are are shown to it unchanged (not even the view's few KB).
    @Test(arguments: ["photo.heic", "grid.heic", "alpha.heic", "metadata-extractor-images/iphone-xr.heic"])
    func readableFilesAreLeftAsTheyAre(_ file: String) throws {
        #expect(Self.mended(try HEIFFixtures.bytes(file)) == nil)
    }

    /// The view reads the same bytes however libheif slices its reads: the file's own, but for the old meta box's
    /// type (now `free`), then the new meta box.
    @Test func theViewReadsAlikeInAnySlices() throws {
        let bytes = try HEIFFixtures.bytes("iden.heic")
        let view = try #require(HEIFLibheifView.of(MemorySource(bytes)) as? HEIFLibheifView)
        let whole = try view.read(from: 0, count: view.count)
        #expect(whole.count == view.count && view.count > bytes.count)
        #expect(Array(whole[28..<32]) == Array("free".utf8))  // the meta box after the 24-byte ftyp
        var pieces: [UInt8] = []
        var offset = 0, step = 1
        while offset < view.count {
            pieces += try view.read(from: offset, count: step)
            offset += step
            step = step % 37 + 3
        }
        #expect(pieces == whole)
        var expected = bytes
        expected.replaceSubrange(28..<32, with: Array("free".utf8))
        #expect(Array(whole.prefix(bytes.count)) == expected)
        #expect(Array(whole[(bytes.count + 4)..<(bytes.count + 8)]) == Array("meta".utf8))
    }

    /// libheif 1.15 itself refuses the fixtures (so that the tests below test the view, not a fixture it reads).
    @Test(arguments: [(iOS18, "Too many auxiliary image references"), ("iden.heic", "Item has no data")])
    func heifInfoRefusesTheFiles(_ file: String, _ message: String) throws {
        let run = try ExternalCommand.run("/usr/bin/heif-info", [Fixtures.path("heif/" + file)])
        #expect(run.status != 0)
        #expect((run.stderrText + run.stdoutText).contains(message), "\(run.stdoutText) \(run.stderrText)")
    }

    /// Upright (3024x4032, as the EXIF says), its EXIF and its Display P3 profile, and the picture heif-convert
    /// gives of the iPhone's original file (before the iOS 18 items were added), shrunk 16 times.
    @Test func theIOS18PhotoDecodesAsTheOriginalDid() throws {
        let source = try HEIFFixtures.source(Self.iOS18)
        let header = try HEIFFixtures.codec.probe(source)[0]
        #expect(header.width == 3024 && header.height == 4032)
        #expect(header.orientation == .fixed(.topLeft))
        let exif = try #require(header.exif)
        #expect(String(decoding: exif, as: UTF8.self).contains("2020:05:04 18:39:11"))
        #expect(HEIFFixtures.exifOrientation(exif) == 1)
        #expect(header.colorProfile != nil)
        #expect(header.warnings.isEmpty, "\(header.warnings)")  // no word of the gain map
        #expect(header.notes.isEmpty, "\(header.notes)")

        // Shrunk 8 times by the codec (its most), twice more here.
        let request = DecodeRequest(region: PixelRegion(x: 0, y: 0, width: 3024, height: 4032),
                                    minimumWidth: 189, minimumHeight: 252, maxPixels: 1 << 24)
        let decoded = try HEIFFixtures.codec.decode(source, request, pool: BufferPool(), shouldCancel: { false })
        #expect(decoded.image.width == 378 && decoded.image.height == 504)
        let shrunk = HEIFFixtures.boxShrunk(decoded.image.pixels, width: 378,
                                            region: PixelRegion(x: 0, y: 0, width: 378, height: 504), factor: 2)
        let reference = try HEIFFixtures.pillow(Fixtures.path("heif/metadata-extractor-images/iphone11pro-reference.png"))
        #expect(reference.width == 189 && reference.height == 252)
        // Measured 0.55: two HEVC decoders (libde265 for heif-convert, libavcodec here), two YCbCr conversions
        // and two roundings of the 16x16 means.
        let difference = meanAbsoluteDifference(shrunk, reference.pixels)
        #expect(difference < 1.5, "mean difference \(difference)")
    }

    /// The primary image's own thumbnail (320x240 stored as the photo is, 240x320 upright), not a mattes' or
    /// the gain map's picture: its colours are the photo's.
    @Test func theIOS18PhotosOwnThumbnail() throws {
        let thumbnail = try #require(HEIFFixtures.codec.thumbnail(try HEIFFixtures.source(Self.iOS18), maxPixels: 1 << 20))
        #expect(thumbnail.width == 240 && thumbnail.height == 320)
        let reference = try HEIFFixtures.pillow(Fixtures.path("heif/metadata-extractor-images/iphone11pro-reference.png"))
        func mean(_ pixels: [UInt8], _ channel: Int) -> Double {
            stride(from: channel, to: pixels.count, by: 3).reduce(0.0) { $0 + Double(pixels[$1]) } / Double(pixels.count / 3)
        }
        for channel in 0..<3 {
            #expect(abs(mean(thumbnail.pixels, channel) - mean(reference.pixels, channel)) < 4)
        }
    }

    /// The `iden` primary image: the picture of its `dimg` turned by its own `irot` (90 degrees anticlockwise),
    /// with the EXIF in `idat`.
    @Test func aDerivedPrimaryImageWithoutDataDecodes() throws {
        let bytes = try HEIFFixtures.bytes("iden.heic")
        #expect(Self.mended(bytes) == ["iden item 2 given an empty iloc entry"])
        let header = try HEIFFixtures.codec.probe(MemorySource(bytes))[0]
        #expect(header.width == 106 && header.height == 160)
        let exif = try #require(header.exif)
        #expect(String(decoding: exif, as: UTF8.self).contains("2021:07:14 09:30:05"))
        let decoded = try HEIFFixtures.decodeWhole(bytes)
        #expect(decoded.image.width == 106 && decoded.image.height == 160)
        // heif-convert's picture of the same coded picture as a plain HEIC, turned here (measured: 0.0).
        let plain = try HEIFFixtures.reference("sources/iden-picture.heic")
        #expect(plain.width == 160 && plain.height == 106)
        var turned = [UInt8](repeating: 0, count: plain.pixels.count)
        for y in 0..<160 {
            for x in 0..<106 {  // anticlockwise: the output's (x, y) is the input's (159 - y, x)
                let from = (x * 160 + (159 - y)) * 3, to = (y * 106 + x) * 3
                turned[to..<(to + 3)] = plain.pixels[from..<(from + 3)]
            }
        }
        let difference = meanAbsoluteDifference(decoded.image.pixels, turned)
        #expect(difference < 1.5, "mean difference \(difference)")
    }

    /// A last box of size 0 (to the end of the file, as some writers leave their mdat) is given its size in the
    /// view, so that it does not swallow the new meta box: the picture is the same.
    @Test func anOpenEndedLastBoxKeepsItsData() throws {
        let bytes = try HEIFFixtures.bytes("iden.heic")
        var open = bytes
        let mdat = try Self.offset(of: "mdat", in: open) - 4
        open.replaceSubrange(mdat..<(mdat + 4), with: [0, 0, 0, 0])
        let view = try #require(HEIFLibheifView.of(MemorySource(open)) as? HEIFLibheifView)
        #expect(try view.read(from: mdat, count: 4) == HEIFLibheifView.bigEndian(bytes.count - mdat, 4))
        #expect(try HEIFFixtures.decodeWhole(open).image.pixels == HEIFFixtures.decodeWhole(bytes).image.pixels)
    }

    // Hostile variants of what the view reads.

    /// Where `type` first occurs in `bytes`.
    static func offset(of type: String, in bytes: [UInt8], from start: Int = 0) throws -> Int {
        let pattern = Array(type.utf8)
        return try #require((start..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == pattern })
    }

    /// The probe's reason, or nil when it succeeds.
    static func probeFailure(_ bytes: [UInt8]) -> String? {
        do throws(CodecError) {
            _ = try HEIFFixtures.codec.probe(MemorySource(bytes))
            return nil
        } catch {
            return error.description
        }
    }

    /// An `auxl` claiming 65535 targets in a box of two: the view leaves the iref as it is, libheif refuses it.
    @Test func anAbsurdTargetCountIsRefused() throws {
        var bytes = try HEIFFixtures.bytes(Self.iOS18)
        let auxl = try Self.offset(of: "auxl", in: bytes)
        bytes[auxl + 6] = 0xFF
        bytes[auxl + 7] = 0xFF
        #expect(Self.mended(bytes) == nil)
        let reason = try #require(Self.probeFailure(bytes))
        #expect(reason.hasPrefix("corrupt HEIC ("), "\(reason)")
    }

    /// An iref box whose size ends inside its last reference: the meta box's children no longer add up.
    @Test func aTruncatedIrefIsRefused() throws {
        var bytes = try HEIFFixtures.bytes(Self.iOS18)
        let iref = try Self.offset(of: "iref", in: bytes) - 4
        let size = bytes[iref..<(iref + 4)].reduce(0) { $0 << 8 | Int($1) } - 6
        bytes.replaceSubrange(iref..<(iref + 4), with: HEIFLibheifView.bigEndian(size, 4))
        #expect(Self.mended(bytes) == nil)
        let reason = try #require(Self.probeFailure(bytes))
        #expect(reason.hasPrefix("corrupt HEIC ("), "\(reason)")
    }

    /// `auxl` references to items that do not exist are dropped, and the photo is read.
    @Test func referencesToMissingItemsAreDropped() throws {
        var bytes = try HEIFFixtures.bytes(Self.iOS18)
        var at = 0
        for _ in 0..<5 {
            at = try Self.offset(of: "auxl", in: bytes, from: at + 4)
            bytes.replaceSubrange((at + 8)..<(at + 12), with: [0x03, 0xE7, 0x03, 0xE6])  // items 999, 998
        }
        #expect(Self.mended(bytes) == (53...57).map { "auxl of item \($0) dropped (no image among its targets)" })
        #expect(Self.probeFailure(bytes) == nil)
    }

    /// The `iden` item's `dimg` names an item that does not exist, or itself: refused by name before libheif 1.15
    /// decodes it (which aborts on an assertion for the first, and recurses without end for the second).
    @Test(arguments: [(UInt8(9), "corrupt HEIC (iden item 2 derives from item 9, which is no image)"),
                      (UInt8(2), "corrupt HEIC (iden item 2 derives from itself)")])
    func aDerivedImageOfNothingIsRefused(_ target: UInt8, _ message: String) throws {
        var bytes = try HEIFFixtures.bytes("iden.heic")
        let dimg = try Self.offset(of: "dimg", in: bytes)
        bytes[dimg + 9] = target  // dimg 2 -> [target]
        #expect(Self.probeFailure(bytes) == nil)  // the probe decodes nothing
        #expect(throws: CodecError.corrupt(message)) { try HEIFHostileInputTests.read(bytes) }
        #expect(HEIFFixtures.codec.thumbnail(MemorySource(bytes), maxPixels: 1 << 20) == nil)
    }

    /// Random bytes of the iOS 18 file's meta box changed: the probe, a decode (mostly refused by the pixel limit
    /// after the view, libheif's reading and the derivation checks, before libheif decodes) and the thumbnail give a
    /// picture or a reason, never a crash.
    @Test func damagedMetaBoxesNeverCrash() throws {
        let original = try HEIFFixtures.bytes(Self.iOS18)
        let meta = try Self.offset(of: "meta", in: original) - 4
        let end = meta + original[meta..<(meta + 4)].reduce(0) { $0 << 8 | Int($1) }
        var random = SplitMix64(seed: 0x694F_5331_38)
        for round in 0..<80 {
            var bytes = original
            for _ in 0..<(1 + round % 3) {
                bytes[Int.random(in: meta..<end, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            let source = MemorySource(bytes)
            _ = HEIFFixtures.codec.thumbnail(source, maxPixels: 1 << 20)
            guard let header = try? HEIFFixtures.codec.probe(source).first else { continue }
            do throws(CodecError) {
                // A damaged size may claim fewer pixels than the picture has: the picture is then still bounded.
                let decoded = try HEIFFixtures.codec.decode(source, .whole(width: header.width, height: header.height,
                                                                           maxPixels: 1 << 20),
                                                            pool: BufferPool(), shouldCancel: { false })
                #expect(decoded.image.width * decoded.image.height <= 1 << 20)
            } catch {
                guard case .failed(let reason) = error else { Issue.record("round \(round): \(error)"); continue }
                #expect(reason.kind == .corrupt || reason.kind == .unsupported || reason.kind == .tooLarge, "\(reason)")
            }
        }
    }

    /// Only `iden` items are given an entry: an `hvc1` item without data is still refused as libheif says.
    @Test func aCodedImageWithoutDataIsStillRefused() throws {
        var bytes = try HEIFFixtures.bytes("iden.heic")
        let iinf = try Self.offset(of: "iinf", in: bytes)
        let iden = try Self.offset(of: "iden", in: bytes, from: iinf)
        bytes.replaceSubrange(iden..<(iden + 4), with: Array("hvc1".utf8))
        #expect(Self.mended(bytes) == nil)
        let reason = try #require(Self.probeFailure(bytes))
        #expect(reason == "corrupt HEIC (Invalid input: No 'hvcC' box: No hvcC property in hvc1 type image)")
    }
}
