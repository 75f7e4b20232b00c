import Testing
@testable import PNG
import TestSupport

/// Inputs made to hurt: nothing here may crash, hang or allocate what the header merely claims.
@Suite struct PNGHostileInputTests {
    static let signature = TestPNGEncoder.signature

    @Test func emptyDataIsNotAPNG() {
        #expect(throws: PNGError.notPNG) { try PNGDecoder.decode([], maxPixels: 1 << 20) }
        #expect(throws: PNGError.notPNG) { try PNGDecoder.readInfo([]) }
    }

    @Test func signatureAloneIsTruncated() {
        expectCorrupt(mentioning: "truncated") { try PNGDecoder.decode(Self.signature, maxPixels: 1 << 20) }
        expectCorrupt(mentioning: "truncated") { try PNGDecoder.readInfo(Self.signature) }
        expectCorrupt(mentioning: "truncated") { try PNGDecoder.readInfo(Array(Self.signature.prefix(5))) }
    }

    /// Every cut of a small file, from inside the signature to just before the end of IEND.
    @Test func everyPrefixOfASmallFileFails() throws {
        let bytes = try PngSuite.bytes("basn0g01.png")
        _ = try PNGDecoder.decode(bytes, maxPixels: 1 << 20)  // the whole file is fine
        for length in 0..<bytes.count {
            let prefix = Array(bytes.prefix(length))
            #expect(throws: PNGError.self, "prefix of \(length) bytes") {
                try PNGDecoder.decode(prefix, maxPixels: 1 << 20)
            }
        }
    }

    /// Cuts in every part of an interlaced file: header, each pass, the end.
    @Test(arguments: ["basi6a16.png", "basi3p01.png", "s39i3p04.png"])
    func cutsOfAnInterlacedFileFail(name: String) throws {
        let bytes = try PngSuite.bytes(name)
        for length in stride(from: 8, to: bytes.count, by: max(1, bytes.count / 200)) {
            expectCorrupt(mentioning: "") { try PNGDecoder.decode(Array(bytes.prefix(length)), maxPixels: 1 << 20) }
        }
        // Cutting only IEND away is still an error: the file did not end as a PNG must.
        expectCorrupt(mentioning: "truncated") { try PNGDecoder.decode(Array(bytes.dropLast(12)), maxPixels: 1 << 20) }
    }

    /// Cuts through a larger generated interlaced image, so that they land in later passes and bands.
    @Test func cutsOfALargeInterlacedImageFail() {
        let file = TestPNGEncoder.encode(width: 97, height: 131, colorType: 2,
                                         pixels: (0..<97 * 131 * 3).map { UInt8(truncatingIfNeeded: $0 &* 7) },
                                         interlaced: true)
        for length in stride(from: 40, to: file.count, by: file.count / 37) {
            expectCorrupt(mentioning: "truncated") { try PNGDecoder.decode(Array(file.prefix(length)), maxPixels: 1 << 20) }
        }
    }

    @Test func hugeDeclaredSizeIsRefusedFromTheHeaderAtOnce() throws {
        let body = TestPNGEncoder.zlibStored([UInt8](repeating: 0, count: 100))
        let file = Self.signature
            + TestPNGEncoder.chunk("IHDR", TestPNGEncoder.ihdr(width: 100_000, height: 100_000, bitDepth: 8,
                                                               colorType: 6, interlaced: false))
            + TestPNGEncoder.chunk("IDAT", body) + TestPNGEncoder.chunk("IEND", [])
        let info = try PNGDecoder.readInfo(file)
        #expect(info.width == 100_000 && info.height == 100_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(throws: PNGError.tooLarge(width: 100_000, height: 100_000, limit: 100_000_000)) {
                try PNGDecoder.decode(file, maxPixels: 100_000_000)
            }
        }
        // A guard against inflating 40 GB, not a speed figure: loose, so a loaded machine never fails it.
        #expect(elapsed < .seconds(10), "refusing took \(elapsed)")
    }

    /// The largest size PNG allows: the area must not overflow, even with no limit from the caller.
    @Test func largestLegalSizeDoesNotOverflow() {
        let file = Self.signature
            + TestPNGEncoder.chunk("IHDR", TestPNGEncoder.ihdr(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, bitDepth: 16,
                                                               colorType: 6, interlaced: true))
            + TestPNGEncoder.chunk("IDAT", TestPNGEncoder.zlibStored([0])) + TestPNGEncoder.chunk("IEND", [])
        #expect(throws: PNGError.tooLarge(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, limit: Int.max)) {
            try PNGDecoder.decode(file, maxPixels: Int.max)
        }
    }

    /// Past libpng's default per-dimension limit (1,000,000): still an honest size and a `.tooLarge`.
    @Test func veryWideImageIsTooLargeNotCorrupt() throws {
        let file = Self.signature
            + TestPNGEncoder.chunk("IHDR", TestPNGEncoder.ihdr(width: 2_000_000, height: 1, bitDepth: 8, colorType: 0,
                                                               interlaced: false))
            + TestPNGEncoder.chunk("IDAT", TestPNGEncoder.zlibStored([0, 0])) + TestPNGEncoder.chunk("IEND", [])
        #expect(try PNGDecoder.readInfo(file).width == 2_000_000)
        #expect(throws: PNGError.tooLarge(width: 2_000_000, height: 1, limit: 1_000_000)) {
            try PNGDecoder.decode(file, maxPixels: 1_000_000)
        }
    }

    /// An eXIf over the shim's 1 MiB limit is dropped with a warning, never allocated.
    @Test func oversizedExifIsDropped() throws {
        let exif = Array("MM\0*".utf8) + [UInt8](repeating: 0, count: 1 << 20)
        let file = TestPNGEncoder.encode(width: 1, height: 1, colorType: 0, pixels: [200],
                                         chunksBeforeIDAT: [("eXIf", exif)])
        #expect(try PNGDecoder.readInfo(file).exif == nil)
        #expect(try PNGDecoder.decode(file, maxPixels: 1).pixels == [200, 200, 200])
    }

    @Test func zeroWidthIsCorrupt() {
        let file = Self.signature
            + TestPNGEncoder.chunk("IHDR", TestPNGEncoder.ihdr(width: 0, height: 10, bitDepth: 8, colorType: 2,
                                                               interlaced: false))
            + TestPNGEncoder.chunk("IEND", [])
        expectCorrupt(mentioning: "IHDR") { try PNGDecoder.readInfo(file) }
    }

    @Test(arguments: [("IHDR", "IHDR: CRC error"), ("IDAT", "IDAT: CRC error")])
    func badCRCInACriticalChunkIsAnError(chunk: String, reason: String) throws {
        let bytes = try damagingCRC(of: chunk, in: try PngSuite.bytes("basn2c08.png"))
        #expect(throws: PNGError.corrupt(reason)) { try PNGDecoder.decode(bytes, maxPixels: 1 << 20) }
    }

    /// The CRC of the last IDAT is only read after the last row has been decoded.
    @Test func badCRCInTheLastIDATIsAnError() throws {
        let file = TestPNGEncoder.encode(width: 300, height: 300, colorType: 2,
                                         pixels: [UInt8](repeating: 90, count: 300 * 300 * 3))
        let idats = TestPNGEncoder.chunks(of: file).filter { $0.type == "IDAT" }
        #expect(idats.count > 1)
        var damaged = file
        let last = try #require(idats.last)
        damaged[last.offset + 8 + last.length] ^= 0x01
        #expect(throws: PNGError.corrupt("IDAT: CRC error")) { try PNGDecoder.decode(damaged, maxPixels: 1 << 20) }
    }

    /// libpng drops a damaged ancillary chunk with a warning: the image itself is intact, so it decodes.
    @Test(arguments: [("basn0g01.png", "gAMA"), ("ct1n0g04.png", "tEXt"), ("exif2c08.png", "eXIf")])
    func badCRCInAnAncillaryChunkIsOnlyAWarning(name: String, chunk: String) throws {
        let original = try PngSuite.bytes(name)
        let damaged = try damagingCRC(of: chunk, in: original)
        #expect(try PNGDecoder.decode(damaged, maxPixels: 1 << 20) == PNGDecoder.decode(original, maxPixels: 1 << 20))
        let warnings = try PNGReadSession.with(damaged) { (session) throws(PNGError) in
            _ = try session.readHeader()
            return session.warnings
        }
        #expect(warnings.count >= 1 && warnings.last.contains("CRC"), "\(warnings)")
        if chunk == "eXIf" { #expect(try PNGDecoder.readInfo(damaged).exif == nil) }
    }

    @Test func bytesAfterIENDAreIgnored() throws {
        let bytes = try PngSuite.bytes("basn2c08.png")
        #expect(try PNGDecoder.decode(bytes + [1, 2, 3, 4, 5], maxPixels: 1 << 20)
            == PNGDecoder.decode(bytes, maxPixels: 1 << 20))
    }

    /// libpng expands its palette to 256 entries of black and only warns about an index past the PLTE.
    @Test func paletteIndexPastThePaletteIsBlack() throws {
        let file = TestPNGEncoder.encode(width: 3, height: 1, colorType: 3, pixels: [0, 1, 200],
                                         chunksBeforeIDAT: [("PLTE", [255, 0, 0, 0, 255, 0])])
        let image = try PNGDecoder.decode(file, maxPixels: 100)
        #expect(image.pixels == [255, 0, 0, 0, 255, 0, 0, 0, 0])
    }

    /// Deterministic damage at random places: every outcome is a decoded image or a PNGError.
    @Test(arguments: ["basn6a16.png", "basi3p08.png", "tbrn2c08.png"])
    func randomDamageNeverCrashes(name: String) throws {
        let original = try PngSuite.bytes(name)
        var random = SplitMix64(seed: 0x5EED)
        for _ in 0..<300 {
            var damaged = original
            for _ in 0..<Int(random.next() % 4 + 1) {
                let at = 8 + Int(random.next() % UInt64(original.count - 8))
                damaged[at] = UInt8(truncatingIfNeeded: random.next())
            }
            do {
                let image = try PNGDecoder.decode(damaged, maxPixels: 1 << 16)
                #expect(image.pixels.count == image.width * image.height * 3)
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }

    // MARK: helpers

    private func damagingCRC(of type: String, in file: [UInt8]) throws -> [UInt8] {
        let chunk = try #require(TestPNGEncoder.chunks(of: file).first { $0.type == type }, "no \(type) chunk")
        var damaged = file
        damaged[chunk.offset + 8 + chunk.length + 3] ^= 0xFF
        return damaged
    }

    private func expectCorrupt(mentioning word: String, sourceLocation: SourceLocation = #_sourceLocation,
                               _ body: () throws -> Any) {
        do {
            _ = try body()
            Issue.record("no error", sourceLocation: sourceLocation)
        } catch {
            guard case .corrupt(let reason)? = error as? PNGError else {
                Issue.record("expected a corrupt PNG, got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(!reason.isEmpty && (word.isEmpty || reason.contains(word)), "\(reason)", sourceLocation: sourceLocation)
        }
    }
}
