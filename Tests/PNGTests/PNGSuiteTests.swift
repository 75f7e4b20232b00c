import Testing
import Imaging
@testable import PNG

/// Decoding the real PngSuite, checked against pixels computed independently by pypng.
@Suite struct PNGSuiteTests {
    @Test func theSuiteIsComplete() {
        #expect(PngSuite.validNames.count == 161)
        #expect(PngSuite.invalidNames.count == 14)
    }

    @Test(arguments: PngSuite.validNames)
    func validFileDecodesToTheReferencePixels(name: String) throws {
        let reference = try PngSuite.reference.get()
        let expected = try #require(reference[name], "pypng could not read \(name)")
        let image = try PNGDecoder.decode(try PngSuite.bytes(name), maxPixels: 1 << 20)
        let info = try PNGDecoder.readInfo(try PngSuite.bytes(name))
        #expect(image.width == info.width && image.height == info.height)
        try #require(image.pixels.count == expected.count, "\(name): \(image.pixels.count) bytes, expected \(expected.count)")
        var mismatches = 0
        var first = ""
        for i in 0..<expected.count where abs(Int(image.pixels[i]) - Int(expected[i])) > 1 {
            if mismatches == 0 {
                let pixel = i / 3
                first = "x \(pixel % image.width) y \(pixel / image.width) channel \(i % 3): "
                    + "\(image.pixels[i]), expected \(expected[i])"
            }
            mismatches += 1
        }
        #expect(mismatches == 0, "\(name): \(mismatches) samples differ by more than 1, first at \(first)")
    }

    /// PngSuite's broken files, each with the reason the decoder must give.
    static let brokenFiles: [(name: String, error: PNGError)] = [
        ("xc1n0g08.png", .corrupt("IHDR: Invalid color type")),
        ("xc9n2c08.png", .corrupt("IHDR: Invalid color type")),
        ("xcrn0g04.png", .notPNG),
        ("xcsn0g01.png", .corrupt("IDAT: CRC error")),
        ("xd0n2c08.png", .corrupt("IHDR: Invalid color type/bit depth combination")),
        ("xd3n2c08.png", .corrupt("IHDR: Invalid color type/bit depth combination")),
        ("xd9n2c08.png", .corrupt("IHDR: Invalid bit depth")),
        ("xdtn0g01.png", .corrupt("no image data: IEND comes before any IDAT")),
        ("xhdn0g08.png", .corrupt("IHDR: CRC error")),
        ("xlfn0g04.png", .notPNG),
        ("xs1n0g01.png", .notPNG),
        ("xs2n0g01.png", .notPNG),
        ("xs4n0g01.png", .notPNG),
        ("xs7n0g01.png", .notPNG),
    ]

    @Test func everyBrokenFileIsListed() {
        #expect(Self.brokenFiles.map(\.name) == PngSuite.invalidNames)
    }

    @Test(arguments: brokenFiles)
    func brokenFileFailsWithAClearReason(name: String, error expected: PNGError) throws {
        let bytes = try PngSuite.bytes(name)
        do {
            let image = try PNGDecoder.decode(bytes, maxPixels: 1 << 20)
            Issue.record("\(name) decoded to \(image.width)x\(image.height) instead of failing")
        } catch {
            #expect(error == expected)
            // A reason a user can read: words, not a bare code.
            #expect(error.description.split(separator: " ").count >= 3, "\(error.description)")
        }
    }
}
