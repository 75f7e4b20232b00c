import Testing
import HEIF
import ImageCodec
import Imaging
import TestSupport

/// Truncated, damaged and lying files fail with a reason, never a crash, a hang or an allocation the size
/// of what they claim.
@Suite struct HEIFHostileInputTests {
    /// Probe then decode, as the engine does; the error of whichever fails.
    static func read(_ bytes: [UInt8], maxPixels: Int = 1 << 22) throws(CodecError) -> DecodedImage {
        let source = MemorySource(bytes)
        let header = try HEIFFixtures.codec.probe(source)[0]
        return try HEIFFixtures.codec.decode(source, .whole(width: header.width, height: header.height,
                                                             maxPixels: maxPixels),
                                             pool: BufferPool(), shouldCancel: { false })
    }

    static func reason(_ bytes: [UInt8]) -> String? {
        do throws(CodecError) {
            _ = try read(bytes)
            return nil
        } catch {
            return error.description
        }
    }

    /// Cut anywhere after the ftyp box: libheif 1.15 stops reading boxes at the first one cut short and then
    /// misses the meta box, or finds an item's extent past the end; both are told as a truncated file.
    @Test(arguments: ["photo.heic", "photo.avif", "alpha.heic", "rotated.heic", "iden.heic",
                      "metadata-extractor-images/iphone11pro-ios18-aux.heic"])
    func truncatedFilesSaySo(_ file: String) throws {
        let bytes = try HEIFFixtures.bytes(file)
        for length in [40, 100, 300, bytes.count / 3, bytes.count / 2, bytes.count - 100, bytes.count - 1] {
            let reason = Self.reason(Array(bytes.prefix(length)))
            #expect(reason?.contains("truncated file") == true, "\(file) cut at \(length): \(reason ?? "decoded")")
        }
    }

    @Test func tooShortForABrand() {
        #expect(Self.reason([0, 0, 0, 24, 0x66, 0x74, 0x79]) == "corrupt HEIF (truncated file: only 7 bytes)")
    }

    /// Random bytes changed in the boxes and in the image data: a reason or a picture, of the size probed.
    @Test(arguments: ["photo.heic", "photo.avif", "alpha.heic", "deep10.heic", "transposed.avif", "iden.heic"])
    func damagedBytesNeverCrash(_ file: String) throws {
        let original = try HEIFFixtures.bytes(file)
        var random = SplitMix64(seed: 0x4845_4946)
        for round in 0..<60 {
            var bytes = original
            // Half the rounds hit the boxes before the image data, where every byte matters to libheif.
            let end = round % 2 == 0 ? min(600, bytes.count) : bytes.count
            for _ in 0..<(1 + round % 4) {
                bytes[Int.random(in: 0..<end, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            do throws(CodecError) {
                let decoded = try Self.read(bytes)
                #expect(decoded.image.pixels.count == decoded.image.width * decoded.image.height * 3)
            } catch {
                guard case .failed(let reason) = error else {
                    Issue.record("\(file) round \(round): \(error)")
                    continue
                }
                #expect(reason.kind == .corrupt || reason.kind == .unsupported || reason.kind == .tooLarge, "\(reason)")
                #expect(!reason.message.isEmpty)
            }
        }
    }

    /// `bytes` with every ispe box saying `width` x `height`.
    static func withISPE(_ bytes: [UInt8], width: UInt32, height: UInt32) throws -> [UInt8] {
        var patched = bytes
        let boxes = bytes.indices.filter { bytes[$0...].starts(with: Array("ispe".utf8)) }
        try #require(!boxes.isEmpty)
        for at in boxes {
            for (i, v) in [width, height].enumerated() {
                for k in 0..<4 { patched[at + 8 + i * 4 + k] = UInt8(truncatingIfNeeded: v >> (24 - 8 * k)) }
            }
        }
        return patched
    }

    /// A file of a few hundred bytes (its boxes and a scrap of image data) that claims 60000x60000 pixels fails
    /// as truncated; whole, the probe gives the claimed size without allocating for it, and the decode refuses
    /// it by the pixel limit before libheif allocates anything.
    @Test func enormousClaimIsRefusedBeforeDecoding() throws {
        let whole = try Self.withISPE(try HEIFFixtures.bytes("p3.avif"), width: 60000, height: 60000)
        let mdat = try #require(whole.indices.first { whole[$0...].starts(with: Array("mdat".utf8)) }) - 4
        let small = Array(whole.prefix(mdat + 40))
        #expect(small.count < 500)
        // libheif 1.15 reads every item's data when it opens the file: cut, it fails as truncated.
        #expect(Self.reason(small)?.contains("truncated file") == true, "\(Self.reason(small) ?? "read")")
        let header = try HEIFFixtures.codec.probe(MemorySource(whole))[0]
        #expect(header.width == 60000 && header.height == 60000)
        let request = DecodeRequest.whole(width: 60000, height: 60000, maxPixels: 100_000_000)
        do throws(CodecError) {
            let decoded = try HEIFFixtures.codec.decode(MemorySource(whole), request,
                                                        pool: BufferPool(), shouldCancel: { false })
            Issue.record("decoded \(decoded.image.width)x\(decoded.image.height)")
        } catch {
            #expect(error == .tooLarge("AVIF image is 60000x60000 pixels, more than the limit of 100000000"))
        }
    }

    /// Past libheif's side limit (65535 here) the probe itself refuses the file.
    @Test func sidesPastTheLimitAreRefusedByTheProbe() throws {
        let whole = try Self.withISPE(try HEIFFixtures.bytes("alpha.heic"), width: 70000, height: 64)
        #expect(throws: CodecError.self) { try HEIFFixtures.codec.probe(MemorySource(whole)) }
        let reason = Self.reason(whole)
        #expect(reason?.hasPrefix("HEIC image is too large") == true, "\(reason ?? "read")")
    }

    /// A decode whose picture does not match its claimed ispe (the image data is still 64x64) fails or gives
    /// the decoded size, never a buffer of the claimed one.
    @Test func ispeThatLiesAboutTheCodedSize() throws {
        let lying = try Self.withISPE(try HEIFFixtures.bytes("alpha.heic"), width: 3000, height: 2000)
        do throws(CodecError) {
            let decoded = try Self.read(lying, maxPixels: 1 << 24)
            #expect(decoded.image.pixels.count == decoded.image.width * decoded.image.height * 3)
            #expect(decoded.storedWidth <= 3000 && decoded.storedHeight <= 2000)
        } catch {
            #expect(error != .cancelled)
            print("HEIF: an ispe of 3000x2000 over 64x64 image data: \(error)")
        }
    }

    @Test func otherISOMediaFilesAreNamed() {
        var movie: [UInt8] = [0, 0, 0, 20] + Array("ftypqt  ".utf8) + [0, 0, 2, 0] + Array("qt  ".utf8)
        movie += [UInt8](repeating: 0, count: 44)
        #expect(!HEIFFixtures.codec.recognises(movie))
        #expect(HEIFFixtures.codec.damageInSignature(movie) == "not a HEIF or AVIF image (an ISO media file of brand 'qt  ')")
    }

    /// Major or any compatible brand among the HEIF and AVIF ones.
    @Test(arguments: [("heic", [String]()), ("mif1", ["heic"]), ("isom", ["mif1"]), ("avif", []), ("avis", []),
                      ("msf1", []), ("hevc", []), ("3gp4", ["isom", "avif"])])
    func recognisedBrands(_ major: String, _ compatible: [String]) {
        var ftyp: [UInt8] = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
        ftyp = [0, 0, 0, UInt8(8 + ftyp.count)] + Array("ftyp".utf8) + ftyp
        #expect(HEIFFixtures.codec.recognises(ftyp + [UInt8](repeating: 0, count: 64 - ftyp.count)))
        #expect(HEIFFixtures.codec.damageInSignature(ftyp) == nil)
    }

    @Test func unrecognised() {
        #expect(!HEIFFixtures.codec.recognises([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 60)))
        #expect(!HEIFFixtures.codec.recognises(Array("\u{0}\u{0}\u{0}\u{10}ftypis".utf8)))
        #expect(!HEIFFixtures.codec.recognises(Array("\u{0}\u{0}\u{0}\u{10}moovheic    ".utf8)))
    }
}
