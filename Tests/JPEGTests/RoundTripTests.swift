import Imaging
import Testing
@testable import JPEG
import TestSupport

/// Our encoder's output, decoded by our decoder, is the picture we started from (up to JPEG's losses).
struct RoundTripTests {
    struct Variant: Sendable, CustomTestStringConvertible {
        let name: String
        let options: JPEGEncoder.Options
        let colorSpace: JPEGColorSpace
        let components: Int
        /// 4:2:0 and 4:2:2 lose colour detail at the test picture's hard saturated edges (a blue disc, colour
        /// checkerboard): about 31-34 dB at quality 95, against 38+ dB with full-resolution chroma.
        var minimumPSNR = 35.0
        var testDescription: String { name }
    }

    static let variants: [Variant] = [
        Variant(name: "baseline", options: .init(quality: 95), colorSpace: .ycbcr, components: 3),
        Variant(name: "baseline 4:2:0", options: .init(quality: 95, chromaSubsampling: .both),
                colorSpace: .ycbcr, components: 3, minimumPSNR: 30),
        Variant(name: "baseline 4:2:2 unoptimized", options: .init(quality: 95, optimizeCoding: false,
                                                                   chromaSubsampling: .horizontal),
                colorSpace: .ycbcr, components: 3, minimumPSNR: 32),
        Variant(name: "progressive", options: .init(quality: 95, progressive: true), colorSpace: .ycbcr, components: 3),
        Variant(name: "arithmetic", options: .init(quality: 95, arithmeticCoding: true), colorSpace: .ycbcr,
                components: 3),
        Variant(name: "progressive arithmetic", options: .init(quality: 95, progressive: true, arithmeticCoding: true),
                colorSpace: .ycbcr, components: 3),
        Variant(name: "greyscale", options: .init(quality: 95, colorModel: .grayscale), colorSpace: .grayscale,
                components: 1),
        Variant(name: "greyscale progressive", options: .init(quality: 95, progressive: true, colorModel: .grayscale),
                colorSpace: .grayscale, components: 1),
        Variant(name: "Adobe CMYK", options: .init(quality: 95, colorModel: .cmyk), colorSpace: .cmyk, components: 4),
        Variant(name: "Adobe YCCK", options: .init(quality: 95, chromaSubsampling: .none, colorModel: .ycck),
                colorSpace: .ycck, components: 4),
        Variant(name: "Adobe CMYK progressive", options: .init(quality: 95, progressive: true, colorModel: .cmyk),
                colorSpace: .cmyk, components: 4),
    ]

    @Test("round trip at quality 95 keeps the picture", arguments: variants)
    func roundTrip(_ variant: Variant) throws {
        let original = JPEGTestSupport.syntheticImage(width: 257, height: 191)  // not a multiple of any MCU size
        let jpeg = try JPEGEncoder.encode(original, options: variant.options)

        let info = try JPEGDecoder.readInfo(jpeg)
        #expect(info.width == 257 && info.height == 191)
        #expect(info.colorSpace == variant.colorSpace)
        #expect(info.components == variant.components)
        #expect(info.isProgressive == variant.options.progressive)
        #expect(info.exif == nil)

        let decoded = try JPEGDecoder.decode(jpeg, minimumWidth: 257, minimumHeight: 191, maxPixels: 1_000_000)
        #expect(decoded.width == 257 && decoded.height == 191)
        let expected = variant.options.colorModel == .grayscale ? JPEGTestSupport.grey(original) : original
        let psnr = JPEGTestSupport.psnr(decoded, expected)
        #expect(psnr > variant.minimumPSNR, "PSNR \(psnr) dB")
    }

    @Test("higher quality gives a closer picture and a larger file")
    func qualityOrdersFidelity() throws {
        let original = JPEGTestSupport.syntheticImage(width: 128, height: 96, seed: 3)
        var previous: (size: Int, psnr: Double) = (0, 0)
        for quality in [10, 50, 90, 100] {
            let jpeg = try JPEGEncoder.encode(original, quality: quality)
            let decoded = try JPEGDecoder.decode(jpeg, minimumWidth: 128, minimumHeight: 96, maxPixels: 1 << 20)
            let psnr = JPEGTestSupport.psnr(decoded, original)
            #expect(jpeg.count > previous.size && psnr > previous.psnr, "quality \(quality)")
            previous = (jpeg.count, psnr)
        }
    }

    @Test("quality outside 1...100 is clamped, not an error")
    func qualityIsClamped() throws {
        let image = JPEGTestSupport.syntheticImage(width: 32, height: 32)
        #expect(try JPEGEncoder.encode(image, quality: 0) == JPEGEncoder.encode(image, quality: 1))
        #expect(try JPEGEncoder.encode(image, quality: 500) == JPEGEncoder.encode(image, quality: 100))
    }

    @Test("a file larger than the first output buffer grows it correctly")
    func largeOutput() throws {
        // Noise compresses badly: at quality 100 this is several times the shim's first 64 KiB buffer.
        var generator = SeededBytes(state: 7)
        let pixels = (0..<(300 * 300 * 3)).map { _ in generator.next() }
        let image = RGBImage(width: 300, height: 300, pixels: pixels)
        let jpeg = try JPEGEncoder.encode(image, options: .init(quality: 100, chromaSubsampling: .none))
        #expect(jpeg.count > 4 * 65536)
        let decoded = try JPEGDecoder.decode(jpeg, minimumWidth: 300, minimumHeight: 300, maxPixels: 1 << 20)
        #expect(JPEGTestSupport.psnr(decoded, image) > 30)
    }

    @Test("the JFIF density is written when asked")
    func density() throws {
        let jpeg = try JPEGEncoder.encode(JPEGTestSupport.syntheticImage(width: 16, height: 16),
                                          options: .init(dotsPerInch: 300))
        let app0 = try #require(JPEGStructure.first(0xE0, in: jpeg)?.offset)
        #expect(Array(jpeg[(app0 + 4)..<(app0 + 9)]) == Array("JFIF\0".utf8))
        #expect(jpeg[app0 + 11] == 1)  // units: dots per inch
        #expect(Int(jpeg[app0 + 12]) << 8 + Int(jpeg[app0 + 13]) == 300)
        #expect(Int(jpeg[app0 + 14]) << 8 + Int(jpeg[app0 + 15]) == 300)
    }

    @Test("an empty image is refused")
    func emptyImage() {
        #expect(throws: JPEGError.self) {
            try JPEGEncoder.encode(RGBImage(width: 0, height: 10, pixels: []), quality: 90)
        }
    }
}

/// Separate decoders and encoders share nothing: several may run at once on different threads.
struct ConcurrencyTests {
    @Test("parallel decodes and encodes give the same bytes as serial ones")
    func parallel() async throws {
        let jpeg = try Fixtures.bytes("exif-orientation/Landscape_1.jpg")
        let expected = try JPEGDecoder.decode(jpeg, minimumWidth: 450, minimumHeight: 300, maxPixels: 10_000_000)
        let expectedEncoding = try JPEGEncoder.encode(expected, quality: 80)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let image = try JPEGDecoder.decode(jpeg, minimumWidth: 450, minimumHeight: 300,
                                                       maxPixels: 10_000_000)
                    return try image == expected && JPEGEncoder.encode(image, quality: 80) == expectedEncoding
                }
            }
            for try await same in group { #expect(same) }
        }
    }
}
