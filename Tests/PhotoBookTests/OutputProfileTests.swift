import Foundation
import Testing

@testable import PhotoBook
import TestSupport

/// An output profile is known by its header, and named by its own description, v2 or v4.
@Suite struct OutputProfileTests {
    static let ghostscript = "/usr/share/color/icc/ghostscript/"

    @Test func cmykOutputProfilesLoadWithTheirNames() throws {
        let shipped = Fixtures.packageRoot.appendingPathComponent("Resources/\(OutputProfile.defaultFileName)").path
        let cases = [
            (shipped, "Based on FOGRA39 (coated paper, ISO 12647-2): photobook build from icc-profiles-free FOGRA39L.ti3"),
            (Self.ghostscript + "default_cmyk.icc", "Artifex CMYK SWOP Profile"),  // ICC v2 'desc'
            (Self.ghostscript + "ps_cmyk.icc", "Artifex PS CMYK Profile"),  // ICC v4 'mluc'
        ]
        for (path, name) in cases {
            let profile = try OutputProfile.load(path).get()
            #expect(profile.description == name, "\(path)")
            #expect(profile.bytes == (try Fixtures.read(path)))
        }
    }

    /// A PDF/X request names its condition: the one given (registered at the ICC), else Custom with no registry.
    @Test func theConditionDecidesTheRegistry() throws {
        let profile = try OutputProfile.load(Self.ghostscript + "default_cmyk.icc").get()
        let named = PDFXRequest(profile: profile, condition: "FOGRA39"), custom = PDFXRequest(profile: profile, condition: nil)
        #expect(named.identifier == "FOGRA39" && named.registryName == "http://www.color.org")
        #expect(custom.identifier == "Custom" && custom.registryName == nil)
        #expect(custom.conditionText == "Artifex CMYK SWOP Profile")
    }

    @Test func aHeaderThatIsNotACMYKOutputProfileIsRefused() throws {
        var header = try Fixtures.read(Self.ghostscript + "default_cmyk.icc")
        header.replaceSubrange(12..<16, with: Array("scnr".utf8))
        #expect(OutputProfile.check(header).failureDescription?.hasPrefix("is a 'scnr' profile") == true)
        #expect(OutputProfile.check(Array(header.prefix(131))).failureDescription?.hasPrefix("is not an ICC profile") == true)
    }
}

extension Result where Failure == ProfileProblem {
    var failureDescription: String? {
        if case .failure(let problem) = self { return problem.description }
        return nil
    }
}
