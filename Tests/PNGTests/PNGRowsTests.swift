import Testing
import Imaging
@testable import PNG
import TestSupport

/// photobook's own reader of 8-bit RGB and RGBA image data (png_rows.c) against the truth it encodes from and
/// against libpng reading the same files (`ownRows: false`).
@Suite struct PNGRowsTests {
    /// A PNG whose rows use filter `row % 5` (None, Sub, Up, Average, Paeth in turn), written from the
    /// specification's definitions (ISO/IEC 15948 section 9), in stored deflate blocks split over several IDATs.
    static func filteredPNG(width: Int, height: Int, channels: Int, pixels: [UInt8], firstFilter: Int = 0,
                            extraAfterIDAT: [(type: String, data: [UInt8])] = []) -> [UInt8] {
        let rowBytes = width * channels
        var raw: [UInt8] = []
        for y in 0..<height {
            let filter = (y + firstFilter) % 5
            raw.append(UInt8(filter))
            for i in 0..<rowBytes {
                let x = Int(pixels[y * rowBytes + i])
                let a = i >= channels ? Int(pixels[y * rowBytes + i - channels]) : 0
                let b = y > 0 ? Int(pixels[(y - 1) * rowBytes + i]) : 0
                let c = (y > 0 && i >= channels) ? Int(pixels[(y - 1) * rowBytes + i - channels]) : 0
                let predictor: Int
                switch filter {
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c
                    let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: predictor = 0
                }
                raw.append(UInt8((x - predictor) & 0xFF))
            }
        }
        var file = TestPNGEncoder.signature
        file += TestPNGEncoder.chunk("IHDR", TestPNGEncoder.ihdr(width: UInt32(width), height: UInt32(height), bitDepth: 8,
                                                                 colorType: channels == 4 ? 6 : 2, interlaced: false))
        let compressed = TestPNGEncoder.zlibStored(raw)
        var start = 0
        while start < compressed.count {
            let end = min(start + 997, compressed.count)  // odd-sized IDATs: rows and blocks straddle chunks
            file += TestPNGEncoder.chunk("IDAT", Array(compressed[start..<end]))
            start = end
        }
        for extra in extraAfterIDAT { file += TestPNGEncoder.chunk(extra.type, extra.data) }
        return file + TestPNGEncoder.chunk("IEND", [])
    }

    static func randomPixels(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        // Smooth runs with noise: every Paeth branch is taken, not just the one white noise favours.
        var value = 128
        return (0..<count).map { i in
            if i % 7 == 0 { value = Int(generator.next() % 256) }
            value = (value + Int(generator.next() % 9) - 4) & 0xFF
            return UInt8(value)
        }
    }

    /// RGBA over white, as the decoder promises: round((c * a + 255 * (255 - a)) / 255).
    static func overWhite(_ rgba: [UInt8]) -> [UInt8] {
        var rgb: [UInt8] = []
        for i in stride(from: 0, to: rgba.count, by: 4) {
            let a = Int(rgba[i + 3])
            for k in 0..<3 { rgb.append(UInt8((Int(rgba[i + k]) * a + 255 * (255 - a) + 127) / 255)) }
        }
        return rgb
    }

    @Test(arguments: [(1, 1), (2, 3), (5, 7), (33, 9), (64, 40), (257, 11)], [3, 4])
    func everyFilterDecodesToThePixelsEncoded(size: (Int, Int), channels: Int) throws {
        let (width, height) = size
        let pixels = Self.randomPixels(count: width * height * channels, seed: UInt64(width * 31 + height + channels))
        for first in 0..<5 {
            let file = Self.filteredPNG(width: width, height: height, channels: channels, pixels: pixels, firstFilter: first)
            #expect(PNGRows.handles(try PNGDecoder.readInfo(file)))
            let own = try PNGDecoder.decode(file, maxPixels: 1 << 20, ownRows: true)
            let libpng = try PNGDecoder.decode(file, maxPixels: 1 << 20, ownRows: false)
            let expected = channels == 4 ? Self.overWhite(pixels) : pixels
            #expect(own.pixels == expected, "\(width)x\(height)x\(channels), first filter \(first)")
            #expect(own == libpng)
        }
    }

    /// Every 8-bit RGB and RGBA file of PngSuite (filters, compression levels, chunk orders) reads the same
    /// through both readers.
    @Test func pngSuiteFilesReadTheSameThroughBothReaders() throws {
        var taken = 0
        for name in PngSuite.validNames {
            let bytes = try PngSuite.bytes(name)
            let info = try PNGDecoder.readInfo(bytes)
            guard PNGRows.handles(info) else { continue }
            taken += 1
            let own = try PNGDecoder.decode(bytes, maxPixels: 1 << 20, ownRows: true)
            let libpng = try PNGDecoder.decode(bytes, maxPixels: 1 << 20, ownRows: false)
            #expect(own == libpng, "\(name)")
        }
        #expect(taken >= 20, "only \(taken) PngSuite files are 8-bit RGB or RGBA, non-interlaced")
    }

    /// Damage anywhere, one byte at a time, and every truncation: both readers decode the same pixels or both
    /// refuse the file (their words may differ), and neither crashes.
    @Test(arguments: [3, 4])
    func damagedFilesAreRefusedOrReadAlikeByBothReaders(channels: Int) {
        let (width, height) = (23, 9)
        let pixels = Self.randomPixels(count: width * height * channels, seed: 99)
        let file = Self.filteredPNG(width: width, height: height, channels: channels, pixels: pixels,
                                    extraAfterIDAT: [("tEXt", Array("Comment\0after the pixels".utf8))])
        var generator = SplitMix64(seed: UInt64(channels))
        var damaged: [[UInt8]] = (8..<file.count).map { Array(file[..<$0]) }
        for _ in 0..<600 {
            var copy = file
            let at = 8 + Int(generator.next() % UInt64(file.count - 8))
            copy[at] ^= UInt8(1 + generator.next() % 255)
            damaged.append(copy)
        }
        var disagreements: [String] = []
        for (index, bytes) in damaged.enumerated() {
            let own = Result { () throws(PNGError) in try PNGDecoder.decode(bytes, maxPixels: 1 << 20, ownRows: true) }
            let libpng = Result { () throws(PNGError) in try PNGDecoder.decode(bytes, maxPixels: 1 << 20, ownRows: false) }
            switch (own, libpng) {
            case (.success(let a), .success(let b)) where a == b: continue
            case (.failure, .failure): continue
            default: disagreements.append("case \(index): own \(Self.describe(own)), libpng \(Self.describe(libpng))")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, first: \(disagreements.prefix(3))")
    }

    static func describe(_ result: Result<RGBImage, PNGError>) -> String {
        switch result {
        case .success(let image): return "decoded \(image.width)x\(image.height)"
        case .failure(let error): return "\(error)"
        }
    }

    /// The words a user sees for the commonest damage are libpng's.
    @Test func aBadIDATChecksumAndAShortFileAreNamed() throws {
        let pixels = Self.randomPixels(count: 40 * 30 * 3, seed: 5)
        let file = Self.filteredPNG(width: 40, height: 30, channels: 3, pixels: pixels)
        let idat = try #require(TestPNGEncoder.chunks(of: file).first { $0.type == "IDAT" })
        var damaged = file
        damaged[idat.offset + 8 + 20] ^= 0x40
        #expect(throws: PNGError.corrupt("IDAT: CRC error")) { try PNGDecoder.decode(damaged, maxPixels: 1 << 20) }
        #expect(throws: PNGError.corrupt("truncated: the file ends before the PNG does")) {
            try PNGDecoder.decode(Array(file[..<(file.count - 30)]), maxPixels: 1 << 20)
        }
    }

    /// A PLTE after the image data is out of place, but libpng only warns about it (a benign error): both readers
    /// decode the file. Any other critical chunk there is refused by both.
    @Test func aPaletteAfterTheImageDataIsToleratedAsByLibpng() throws {
        let pixels = Self.randomPixels(count: 6 * 4 * 3, seed: 11)
        let tolerated = Self.filteredPNG(width: 6, height: 4, channels: 3, pixels: pixels,
                                         extraAfterIDAT: [("PLTE", [1, 2, 3, 4, 5, 6])])
        let own = try PNGDecoder.decode(tolerated, maxPixels: 1 << 20, ownRows: true)
        #expect(own.pixels == pixels)
        #expect(own == (try PNGDecoder.decode(tolerated, maxPixels: 1 << 20, ownRows: false)))
        let refused = Self.filteredPNG(width: 6, height: 4, channels: 3, pixels: pixels,
                                       extraAfterIDAT: [("IHDR", TestPNGEncoder.ihdr(width: 6, height: 4, bitDepth: 8,
                                                                                   colorType: 2, interlaced: false))])
        #expect(throws: PNGError.self) { try PNGDecoder.decode(refused, maxPixels: 1 << 20, ownRows: true) }
        #expect(throws: PNGError.self) { try PNGDecoder.decode(refused, maxPixels: 1 << 20, ownRows: false) }
    }

    /// An RGB image with a tRNS colour key is left to libpng, which makes the keyed colour white.
    @Test func anRGBColourKeyGoesThroughLibpng() throws {
        let pixels: [UInt8] = [10, 20, 30, 200, 100, 50]
        let file = TestPNGEncoder.encode(width: 2, height: 1, colorType: 2, pixels: pixels,
                                         chunksBeforeIDAT: [("tRNS", [0, 10, 0, 20, 0, 30])])
        let image = try PNGDecoder.decode(file, maxPixels: 16)
        #expect(image.pixels == [255, 255, 255, 200, 100, 50])
    }
}
