import Foundation
import Testing
@testable import PhotoBook
import TestSupport

/// A profile is used only when its header says it is one for the photo's colour components.
struct ColorProfileTests {
    static func profile(space: String, size: Int = 200) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        bytes.replaceSubrange(0..<4, with: [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        bytes.replaceSubrange(16..<20, with: Array(space.utf8))
        bytes.replaceSubrange(36..<40, with: Array("acsp".utf8))
        return bytes
    }

    @Test(arguments: [("RGB ", 3, ColorProfile.Space.rgb), ("GRAY", 1, .grey), ("CMYK", 4, .cmyk)])
    func aProfileForThePhotosComponentsIsUsed(space: String, components: Int, expected: ColorProfile.Space) throws {
        let bytes = Self.profile(space: space)
        let checked = try ColorProfile.check(bytes, components: components).get()
        #expect(checked.space == expected && checked.bytes == bytes)
    }

    @Test func ghostscriptsAdobeRGBProfilePasses() throws {
        let bytes = try Fixtures.read("/usr/share/color/icc/ghostscript/a98.icc")
        #expect(try ColorProfile.check(bytes, components: 3).get().space == .rgb)
    }

    @Test func problems() {
        func reason(_ bytes: [UInt8], _ components: Int = 3) -> String? {
            if case .failure(let error) = ColorProfile.check(bytes, components: components) { return error.description }
            return nil
        }
        var badSignature = Self.profile(space: "RGB ")
        badSignature[36] = 0
        #expect(reason(badSignature) == "ICC profile has no 'acsp' signature")
        #expect(reason(Array(Self.profile(space: "RGB ").prefix(150)))
                == "ICC profile is 150 bytes but its header says 200")
        #expect(reason(Array(Self.profile(space: "RGB ").prefix(100)))
                == "ICC profile is truncated (100 bytes, shorter than its header)")
        #expect(reason(Self.profile(space: "Lab ")) == "ICC profile is for colour space 'Lab ', not the photo's")
        #expect(reason(Self.profile(space: "RGB "), 1)
                == "ICC profile is for 3-component colour ('RGB ') but the photo has 1 component")
        #expect(reason(Self.profile(space: "RGB ", size: (4 << 20) + 1)) == "ICC profile is larger than 4 MB")
    }

    @Test func onlyAnRGBProfileDescribesARenderedPhoto() throws {
        let rgb = try ColorProfile.check(Self.profile(space: "RGB "), components: 3).get()
        let cmyk = try ColorProfile.check(Self.profile(space: "CMYK"), components: 4).get()
        let grey = try ColorProfile.check(Self.profile(space: "GRAY"), components: 1).get()
        #expect(rgb.bytes(forPassThrough: false) == rgb.bytes)
        #expect(cmyk.bytes(forPassThrough: false) == nil && grey.bytes(forPassThrough: false) == nil)
        #expect(grey.bytes(forPassThrough: true) == grey.bytes)
    }
}
