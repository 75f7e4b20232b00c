import Foundation
import Geometry
import Testing

@testable import PDF
import TestSupport

/// An image given an ICC profile reads back as [/ICCBased stream] holding those very bytes.
@Suite struct ICCTests {
    static let adobeRGB = "/usr/share/color/icc/ghostscript/a98.icc"
    static let grey = "/usr/share/color/icc/ghostscript/sgray.icc"

    @Test func rgbImageGetsTheProfileAndEqualProfilesAreSharedOnce() throws {
        let profile = try Fixtures.read(Self.adobeRGB)
        try Tools.withTempDirectory { dir in
            let jpeg = try Tools.makeJPEG(["-size", "40x30", "xc:orange"], in: dir, name: "a.jpg")
            let other = try Tools.makeJPEG(["-size", "30x40", "xc:teal"], in: dir, name: "b.jpg")
            let doc = try PDFDocument()
            let page = try doc.addPage(width: 200, height: 200)
            let image = try doc.loadJPEG(jpeg, iccProfile: profile)
            #expect(image.colorSpace == "ICCBased")
            try page.draw(image, in: Rect(x: 0, y: 0, width: 40, height: 30), orientation: 1)
            try page.draw(try doc.loadJPEG(other, iccProfile: profile), in: Rect(x: 50, y: 0, width: 30, height: 40), orientation: 1)
            try page.draw(try doc.loadJPEG(jpeg), in: Rect(x: 100, y: 0, width: 40, height: 30), orientation: 1)
            try doc.save(to: dir + "/book.pdf")
            #expect(try Tools.qpdfCheck(dir + "/book.pdf"))
            let images = try Tools.pdfimagesList(dir + "/book.pdf")
            #expect(images.map(\.color) == ["icc", "icc", "rgb"])
            let spaces = try images.map { try PDFImageColorSpace.of(object: $0.object, in: dir + "/book.pdf") }
            #expect(spaces == [.iccBased(components: 3, alternate: "DeviceRGB", profile: profile),
                               .iccBased(components: 3, alternate: "DeviceRGB", profile: profile), .device("DeviceRGB")])
            // One stream for both images: the object count says so (a second copy would add one).
            let text = String(decoding: try Fixtures.read(dir + "/book.pdf"), as: UTF8.self)
            #expect(text.components(separatedBy: "/ICCBased ").count - 1 == 2)
            let references = Set(text.components(separatedBy: "/ICCBased ").dropFirst().map { $0.prefix(8) })
            #expect(references.count == 1)
        }
    }

    @Test func greyImageGetsAGreyProfile() throws {
        let profile = try Fixtures.read(Self.grey)
        try Tools.withTempDirectory { dir in
            let jpeg = try Tools.makeJPEG(["-size", "20x20", "gradient:", "-colorspace", "Gray"], in: dir, name: "g.jpg")
            let doc = try PDFDocument()
            let page = try doc.addPage(width: 100, height: 100)
            try page.draw(try doc.loadJPEG(jpeg, iccProfile: profile), in: Rect(x: 0, y: 0, width: 20, height: 20), orientation: 1)
            try doc.save(to: dir + "/book.pdf")
            let images = try Tools.pdfimagesList(dir + "/book.pdf")
            #expect(images.map(\.components) == [1])
            #expect(try PDFImageColorSpace.of(object: images[0].object, in: dir + "/book.pdf")
                    == .iccBased(components: 1, alternate: "DeviceGray", profile: profile))
        }
    }
}
