import Colour
import Foundation
import Testing

/// RGB rows into a press's CMYK (PDF/X-1a's photos), written Adobe-inverted: 255 is no ink.
struct ConversionToCMYKTests {
    static let press = "/usr/share/color/icc/ghostscript/default_cmyk.icc"
    static let sRGB = "/usr/share/color/icc/ghostscript/srgb.icc"
    static let grey = "/usr/share/color/icc/ghostscript/sgray.icc"

    static func bytes(_ path: String) throws -> [UInt8] { try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The inks (0 none, 255 full) of each RGB pixel.
    func inks(_ conversion: ConversionToCMYK, _ pixels: [[UInt8]]) -> [[Int]] {
        let input = pixels.flatMap { $0 }
        var out = [UInt8](repeating: 0, count: 4 * pixels.count)
        input.withUnsafeBytes { rgb in
            out.withUnsafeMutableBytes { conversion.convert(rgb.baseAddress!, into: $0.baseAddress!, pixels: pixels.count) }
        }
        return stride(from: 0, to: out.count, by: 4).map { at in out[at..<at + 4].map { 255 - Int($0) } }
    }

    @Test func whiteIsNoInkBlackIsInkAndRedIsMagentaAndYellow() throws {
        let conversion = try ConversionToCMYK(from: .rgb(profile: Self.bytes(Self.sRGB)), to: Self.bytes(Self.press),
                                              intent: .relative)
        let result = inks(conversion, [[255, 255, 255], [0, 0, 0], [220, 20, 20]])
        #expect(result[0].allSatisfy { $0 <= 2 }, "white: \(result[0])")
        #expect(result[1][3] > 150 && result[1].reduce(0, +) > 500, "black: \(result[1])")
        let red = result[2]
        #expect(red[0] < 40 && red[1] > 180 && red[2] > 160, "red: \(red)")
    }

    /// A grey photo's profile reads the first of the three equal bytes; the other two are skipped.
    @Test func greyInRGBReadsOnlyTheFirstByte() throws {
        let conversion = try ConversionToCMYK(from: .greyInRGB(profile: Self.bytes(Self.grey)), to: Self.bytes(Self.press),
                                              intent: .relative)
        let result = inks(conversion, [[128, 128, 128], [128, 0, 255], [255, 255, 255], [40, 40, 40]])
        #expect(result[0] == result[1], "\(result)")
        #expect(result[2].allSatisfy { $0 <= 2 } && result[3].reduce(0, +) > result[0].reduce(0, +), "\(result)")
    }

    @Test func aProfileOfTheWrongSpaceIsRefused() throws {
        #expect(throws: ColourError.self) {
            try ConversionToCMYK(from: .rgb(profile: Self.bytes(Self.press)), to: Self.bytes(Self.press), intent: .relative)
        }
        #expect(throws: ColourError.self) {
            try ConversionToCMYK(from: .rgb(profile: Self.bytes(Self.sRGB)), to: Self.bytes(Self.sRGB), intent: .perceptual)
        }
    }
}
