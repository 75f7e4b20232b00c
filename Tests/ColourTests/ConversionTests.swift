import Colour
import Foundation
import Testing

/// Little CMS through the Colour module: CMYK through a real profile, and RGB profiles made from primaries.
struct ConversionTests {
    /// Ghostscript's CMYK characterisation (Debian's libgs-common, installed by `make test-deps`).
    static let cmykProfile = "/usr/share/color/icc/ghostscript/default_cmyk.icc"

    func convert(_ conversion: ConversionToSRGB, _ pixel: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 3)
        pixel.withUnsafeBytes { input in out.withUnsafeMutableBytes { conversion.convert(input.baseAddress!, into: $0.baseAddress!, pixels: 1) } }
        return out
    }

    @Test func noInkIsPaperWhiteAndFullBlackIsDark() throws {
        let profile = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.cmykProfile)))
        let plain = try ConversionToSRGB(profile: profile, layout: .cmyk(inverted: false))
        #expect(convert(plain, [0, 0, 0, 0]).allSatisfy { $0 >= 250 })
        #expect(convert(plain, [0, 0, 0, 255]).allSatisfy { $0 <= 60 })
        let cyan = convert(plain, [255, 0, 0, 0])
        #expect(cyan[0] < 60 && cyan[1] > 120 && cyan[2] > 200, "cyan ink: \(cyan)")
        // Adobe's inverted CMYK: 255 is no ink.
        let inverted = try ConversionToSRGB(profile: profile, layout: .cmyk(inverted: true))
        #expect(convert(inverted, [255, 255, 255, 255]).allSatisfy { $0 >= 250 })
    }

    @Test func aProfileForAnotherColourSpaceIsRefused() throws {
        let profile = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.cmykProfile)))
        #expect(throws: ColourError.self) { try ConversionToSRGB(profile: profile, layout: .rgb) }
        #expect(throws: ColourError.self) { try ConversionToSRGB(profile: [1, 2, 3], layout: .rgb) }
    }

    @Test func aDisplayP3ProfileMapsItsRedOutsideSRGB() throws {
        let p3 = try #require(RGBProfile.make(primaries: .displayP3, transfer: .sRGB, description: "Display P3"))
        #expect(Array(p3[36..<40]) == Array("acsp".utf8) && Array(p3[16..<20]) == Array("RGB ".utf8))
        let toSRGB = try ConversionToSRGB(profile: p3, layout: .rgb)
        // P3's red is more saturated than sRGB's: clipped to sRGB red, with no green or blue.
        let red = convert(toSRGB, [255, 0, 0])
        #expect(red[0] == 255 && red[1] < 20 && red[2] < 20, "P3 red: \(red)")
        // A P3 grey is the same grey in sRGB (same white, same curve).
        let grey = convert(toSRGB, [128, 128, 128])
        #expect(grey.allSatisfy { abs(Int($0) - 128) <= 1 }, "P3 grey: \(grey)")
        // A less saturated P3 colour comes out more saturated in sRGB numbers.
        let muted = convert(toSRGB, [200, 100, 100])
        #expect(muted[0] > 200 && muted[1] < 100, "P3 (200, 100, 100): \(muted)")
    }

    @Test func aMadeProfileIsTheSameBytesAtAnyTime() throws {
        // Little CMS stamps the clock's second; the fixed date below replaces it whenever the profile is made, so
        // two profiles agree without waiting for the clock to move.
        let first = try #require(RGBProfile.make(primaries: .displayP3, transfer: .sRGB, description: "Display P3"))
        let second = try #require(RGBProfile.make(primaries: .displayP3, transfer: .sRGB, description: "Display P3"))
        #expect(first == second)
        // 2026-01-01 00:00:00, as six big-endian numbers.
        #expect(Array(first[24..<36]) == [0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0])
    }

    @Test func theSRGBDescriptionGivesBackTheSameValues() throws {
        let srgb = try #require(RGBProfile.make(primaries: .bt709, transfer: .sRGB, description: "sRGB"))
        let identity = try ConversionToSRGB(profile: srgb, layout: .rgb)
        for value: UInt8 in [0, 17, 64, 128, 200, 255] {
            let out = convert(identity, [value, value / 2, 255 - value])
            #expect(zip(out, [value, value / 2, 255 - value]).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        }
    }
}
