import Foundation
import TestSupport
import Testing

/// A photo's own ICC profile goes into the book as its ICCBased colour space; a photo without one, or with one
/// that cannot be used (a warning says why), stays DeviceRGB, which readers take as sRGB.
@Suite(.serialized) struct ColourTests {
    static let adobeRGB = "/usr/share/color/icc/ghostscript/a98.icc"
    static let cmykProfile = "/usr/share/color/icc/ghostscript/default_cmyk.icc"

    /// The colour space of each image in the book, in page order.
    static func colourSpaces(_ pdf: String) throws -> [PDFImageColorSpace] {
        let list = try Run.command("/usr/bin/pdfimages", ["-list", pdf])
        #expect(list.status == 0, "\(list.stderr)")
        return try list.stdout.split(separator: "\n").dropFirst(2).map { line in
            try PDFImageColorSpace.of(object: Int(line.split(separator: " ")[10])!, in: pdf)
        }
    }

    /// `jpeg` with APP2 "ICC_PROFILE" segments right after SOI, one per (sequence, count, bytes).
    static func withICCChunks(_ jpeg: [UInt8], _ chunks: [(Int, Int, ArraySlice<UInt8>)]) -> [UInt8] {
        var segments: [UInt8] = []
        for (sequence, count, bytes) in chunks {
            let payload = Array("ICC_PROFILE".utf8) + [0, UInt8(sequence), UInt8(count)] + bytes
            segments += [0xFF, 0xE2, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        return Array(jpeg[..<2]) + segments + jpeg[2...]
    }

    /// `profile` cut into as few chunks as APP2 segments can hold, or into `parts` nearly equal ones.
    static func chunks(_ profile: [UInt8], parts: Int? = nil) -> [(Int, Int, ArraySlice<UInt8>)] {
        let parts = parts ?? (profile.count + 65518) / 65519
        let size = (profile.count + parts - 1) / parts
        return (0..<parts).map { ($0 + 1, parts, profile[($0 * size)..<min(profile.count, ($0 + 1) * size)]) }
    }

    /// A 300x200 gradient made by ImageMagick; with `profile` it is assigned (embedded as is, not converted to).
    static func photo(in scratch: Scratch, name: String, profile: String? = nil, extra: [String] = []) throws -> String {
        let path = scratch.file(name)
        let run = try Run.command("/usr/bin/convert", ["-size", "300x200", "gradient:#c02040-#20a0c0"] + extra
                                  + (profile.map { ["-profile", $0] } ?? []) + ["-quality", "92", path])
        #expect(run.status == 0, "\(run.stderr)")
        return path
    }

    @Test func anAdobeRGBPhotoKeepsItsProfilePassedThroughAndRendered() throws {
        let scratch = try Scratch()
        let profile = try Fixtures.read(Self.adobeRGB)
        let tagged = try Self.photo(in: scratch, name: "adobe.jpg", profile: Self.adobeRGB)
        let plain = try Self.photo(in: scratch, name: "plain.jpg")
        let expected: [PDFImageColorSpace] = [.iccBased(components: 3, alternate: "DeviceRGB", profile: profile),
                                              .device("DeviceRGB")]
        // Kept: the photo's own bytes; a square page crops both, so they are rendered.
        for (name, options) in [("kept.pdf", ["--keep-originals"]), ("rendered.pdf", ["--page-size", "150x150mm"])] {
            let out = scratch.file(name)
            let run = try Run.photobook(["build", tagged, plain, "-o", out, "--sort", "given"] + options)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(!run.stderr.contains("ICC"), "\(run.stderr)")
            #expect(try Self.colourSpaces(out) == expected, "\(name)")
            #expect(try Run.command("/usr/bin/qpdf", ["--check", out]).status == 0)
        }
        let kept = scratch.file("kept-img")
        #expect(try Run.command("/usr/bin/pdfimages", ["-j", "-f", "1", "-l", "1", scratch.file("kept.pdf"), kept]).status == 0)
        #expect(try Fixtures.read(kept + "-000.jpg") == Fixtures.read(tagged), "the kept photo is its own bytes")
        let rendered = scratch.file("rendered-img")
        #expect(try Run.command("/usr/bin/pdfimages", ["-j", "-f", "1", "-l", "1", scratch.file("rendered.pdf"), rendered]).status == 0)
        #expect(try Fixtures.read(rendered + "-000.jpg") != Fixtures.read(tagged), "the cropped photo is re-encoded")
    }

    @Test func aProfileSplitOverThreeChunksIsPutTogether() throws {
        let scratch = try Scratch()
        let profile = try Fixtures.read(Self.adobeRGB)
        let plain = try Fixtures.read(try Self.photo(in: scratch, name: "plain.jpg"))
        var parts = Self.chunks(profile, parts: 3)
        parts.swapAt(0, 2)  // in any order in the file
        let split = try scratch.write("split.jpg", Self.withICCChunks(plain, parts))
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", split, "-o", out, "--keep-originals"])
        #expect(run.status == 0 && !run.stderr.contains("ICC"), "\(run.stderr)")
        #expect(try Self.colourSpaces(out) == [.iccBased(components: 3, alternate: "DeviceRGB", profile: profile)])
    }

    @Test(arguments: [
        ("bad-signature", "ICC profile has no 'acsp' signature"),
        ("truncated", "ICC profile is 400 bytes but its header says"),
        ("chunk-missing", "ICC profile chunk 2 of 3 is missing"),
        ("oversized", "ICC profile is larger than 4 MB"),
        ("cmyk-profile-on-rgb", "ICC profile is for 4-component colour ('CMYK') but the photo has 3 components"),
    ])
    func anUnusableProfileIsAWarningAndThePhotoIsSRGB(kind: String, reason: String) throws {
        let scratch = try Scratch()
        let plain = try Fixtures.read(try Self.photo(in: scratch, name: "plain.jpg"))
        var profile = try Fixtures.read(Self.adobeRGB)
        var parts: [(Int, Int, ArraySlice<UInt8>)]
        switch kind {
        case "bad-signature":
            profile[36] = UInt8(ascii: "x")
            parts = [(1, 1, profile[...])]
        case "truncated":
            parts = [(1, 1, profile[..<400])]
        case "chunk-missing":
            parts = Self.chunks(profile, parts: 3)
            parts.remove(at: 1)
        case "oversized":
            let chunk = [UInt8](repeating: 0x55, count: 65519)
            parts = (1...66).map { ($0, 66, chunk[...]) }
        default:
            parts = Self.chunks(try Fixtures.read(Self.cmykProfile))
        }
        let photo = try scratch.write("\(kind).jpg", Self.withICCChunks(plain, parts))
        let out = scratch.file("book.pdf")
        for options in [["--keep-originals"], ["--page-size", "150x150mm"]] {
            let run = try Run.photobook(["build", photo, "-o", out] + options)
            #expect(run.status == 0, "\(run.stderr)")
            let warnings = run.stderr.split(separator: "\n").filter { $0.contains("ICC") }
            #expect(warnings.count == 1 && warnings[0].hasPrefix("photobook: warning: \(photo): \(reason)")
                    && warnings[0].hasSuffix("; taken as sRGB"), "\(run.stderr)")
            #expect(try Self.colourSpaces(out) == [.device("DeviceRGB")])
        }
    }

    /// A CMYK JPEG tagged with the press profile it was separated for is converted to sRGB through that profile
    /// (Little CMS), so the book shows the colours the press would print: as Pillow converts it with the same
    /// profile, and not as the untagged file's naive formula does.
    @Test func aCMYKPhotoWithItsCMYKProfileIsConvertedThroughItAndLeftSRGBWithoutAWarning() throws {
        let scratch = try Scratch()
        let untagged = Run.fixture("cmyk-jpeg/pillow_pil_sample_cmyk.jpg")
        let profile = try Fixtures.read(Self.cmykProfile)
        let photo = try scratch.write("cmyk.jpg", Self.withICCChunks(try Fixtures.read(untagged), Self.chunks(profile)))
        // Pillow's conversion through the profile, relative colorimetric with black-point compensation, as a PNG.
        let converted = scratch.file("converted.png")
        _ = try ExternalCommand.output("/usr/bin/python3", ["-c", """
            import sys
            from PIL import Image, ImageCms
            transform = ImageCms.buildTransform(ImageCms.getOpenProfile(sys.argv[2]), ImageCms.createProfile("sRGB"),
                "CMYK", "RGB", renderingIntent=1, flags=ImageCms.FLAGS["BLACKPOINTCOMPENSATION"])
            ImageCms.applyTransform(Image.open(sys.argv[1]), transform).save(sys.argv[3])
            """, photo, Self.cmykProfile, converted])
        let out = scratch.file("book.pdf"), pillow = scratch.file("pillow.pdf"), naive = scratch.file("naive.pdf")
        let run = try Run.photobook(["build", photo, "-o", out])
        #expect(run.status == 0 && !run.stderr.contains("ICC"), "\(run.stderr)")
        #expect(try Self.colourSpaces(out) == [.device("DeviceRGB")])
        #expect(try Run.photobook(["build", converted, "-o", pillow]).status == 0)
        #expect(try Run.photobook(["build", untagged, "-o", naive]).status == 0)
        let ours = try renderPageWithCairo(out, page: 1, dpi: 36, scratch: scratch)
        let theirs = try renderPageWithCairo(pillow, page: 1, dpi: 36, scratch: scratch)
        let formula = try renderPageWithCairo(naive, page: 1, dpi: 36, scratch: scratch)
        #expect(meanAbsoluteDifference(ours.rgb, theirs.rgb) < 0.5)
        #expect(meanAbsoluteDifference(ours.rgb, formula.rgb) > 1.5)
    }

    @Test func aPNGsICCPProfileGoesIntoTheBookAndABrokenOneIsAWarning() throws {
        let scratch = try Scratch()
        let profile = try Fixtures.read(Self.adobeRGB)
        let tagged = try Self.photo(in: scratch, name: "adobe.png", profile: Self.adobeRGB)
        let grey = try Self.photo(in: scratch, name: "grey.png", profile: "/usr/share/color/icc/ghostscript/sgray.icc",
                                  extra: ["-colorspace", "Gray"])
        // The Adobe RGB PNG with its iCCP made unreadable: the zlib stream's first bytes overwritten.
        var bytes = try Fixtures.read(tagged)
        let iccp = bytes.indices.first { bytes[$0..<($0 + 4)].elementsEqual("iCCP".utf8) }!
        let method = bytes[(iccp + 4)...].firstIndex(of: 0)! + 1
        bytes.replaceSubrange((method + 1)...(method + 4), with: [0xFF, 0xFF, 0xFF, 0xFF])
        let broken = try scratch.write("broken.png", bytes)
        let out = scratch.file("book.pdf")
        let run = try Run.photobook(["build", tagged, grey, broken, "-o", out, "--sort", "given"])
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("ICC") || $0.contains("iCCP") }
        #expect(warnings == ["photobook: warning: \(broken): iCCP profile is not sound zlib data; taken as sRGB"],
                "\(run.stderr)")
        // The grey PNG is rendered as RGB: its grey profile no longer describes it, and it is not a fault.
        #expect(try Self.colourSpaces(out) == [.iccBased(components: 3, alternate: "DeviceRGB", profile: profile),
                                               .device("DeviceRGB"), .device("DeviceRGB")])
    }

    /// A colour-managing reader (Ghostscript; Debian's MuPDF is built without ICC support, poppler ignores
    /// profiles) shows the Adobe RGB photo as ImageMagick converts it to sRGB, passed through and rendered alike.
    @Test func aColourManagedRenderMatchesImageMagicksConversionToSRGB() throws {
        let scratch = try Scratch()
        let photo = scratch.file("adobe.jpg")
        #expect(try Run.command("/usr/bin/convert", ["-size", "200x200", "xc:rgb(30,200,60)", "-profile", Self.adobeRGB,
                                                     "-quality", "95", photo]).status == 0)
        let converted = scratch.file("srgb.ppm")
        #expect(try Run.command("/usr/bin/convert", [photo, "-profile", "/usr/share/color/icc/ghostscript/srgb.icc",
                                                     converted]).status == 0)
        let reference = try readPPM(converted)
        let expected = Array(reference.rgb[(100 * reference.width + 100) * 3 ..< (100 * reference.width + 100) * 3 + 3])
        #expect(expected[0] < 10 && expected[2] < 45, "Adobe RGB's green is more saturated than sRGB's: \(expected)")
        for (name, options) in [("kept.pdf", ["--keep-originals"]), ("rendered.pdf", ["--page-size", "60x80mm"])] {
            let out = scratch.file(name), page = scratch.file(name + ".ppm")
            #expect(try Run.photobook(["build", photo, "-o", out] + options).status == 0)
            let gs = try Run.command("/usr/bin/gs", ["-q", "-dSAFER", "-sDEVICE=ppmraw", "-r36", "-o", page, out])
            #expect(gs.status == 0, "\(gs.stderr)")
            let shown = try readPPM(page)
            let centre = (shown.height / 2 * shown.width + shown.width / 2) * 3
            let rgb = Array(shown.rgb[centre..<(centre + 3)])
            #expect(zip(rgb, expected).allSatisfy { abs(Int($0) - Int($1)) <= 3 }, "\(name): \(rgb), expected \(expected)")
        }
        // The same pixels without their profile are taken as sRGB: visibly not the colour the photo was.
        let stripped = scratch.file("stripped.jpg"), out = scratch.file("stripped.pdf"), page = scratch.file("stripped.ppm")
        let strip = try Run.command("/usr/bin/jpegtran", ["-copy", "none", "-outfile", stripped, photo])
        #expect(strip.status == 0, "\(strip.stderr)")
        #expect(try Run.photobook(["build", stripped, "-o", out, "--keep-originals"]).status == 0)
        #expect(try Self.colourSpaces(out) == [.device("DeviceRGB")])
        #expect(try Run.command("/usr/bin/gs", ["-q", "-dSAFER", "-sDEVICE=ppmraw", "-r36", "-o", page, out]).status == 0)
        let shown = try readPPM(page)
        let centre = (shown.height / 2 * shown.width + shown.width / 2) * 3
        let rgb = Array(shown.rgb[centre..<(centre + 3)])
        #expect(zip(rgb, expected).contains { abs(Int($0) - Int($1)) >= 20 },
                "without its profile the photo should look different: \(rgb) vs \(expected)")
    }

    /// A wide-gamut HEIC (an Adobe RGB profile in its `colr` box, as a phone's Display P3 one is) stays wide-gamut
    /// under colour management: Ghostscript shows its page as ImageMagick converts the same pixels to sRGB.
    @Test func aWideGamutHEICStaysWideGamutUnderColourManagement() throws {
        let scratch = try Scratch()
        let png = scratch.file("wide.png"), heic = scratch.file("wide.heic")
        // An RGB PNG (ImageMagick would write one flat colour as a 1-bit palette, which heif-enc 1.15 misreads).
        #expect(try Run.command("/usr/bin/convert", ["-size", "128x128", "xc:rgb(30,200,60)", "-profile", Self.adobeRGB,
                                                     "-define", "png:color-type=2", png]).status == 0)
        // heif-enc carries the PNG's iCCP profile into the HEIC's colr box.
        let encode = try Run.command("/usr/bin/heif-enc", ["-q", "95", png, "-o", heic])
        #expect(encode.status == 0, "\(encode.stderr)")
        let converted = scratch.file("srgb.ppm")
        #expect(try Run.command("/usr/bin/convert", [png, "-profile", "/usr/share/color/icc/ghostscript/srgb.icc",
                                                     converted]).status == 0)
        let reference = try readPPM(converted)
        let expected = Array(reference.rgb[(64 * reference.width + 64) * 3 ..< (64 * reference.width + 64) * 3 + 3])
        #expect(expected[0] < 10 && expected[2] < 45, "Adobe RGB's green is more saturated than sRGB's: \(expected)")
        let out = scratch.file("book.pdf"), page = scratch.file("page.ppm")
        let run = try Run.photobook(["build", heic, "-o", out, "--page-size", "60x80mm"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.colourSpaces(out).count == 1 && Self.colourSpaces(out) != [.device("DeviceRGB")])
        let gs = try Run.command("/usr/bin/gs", ["-q", "-dSAFER", "-sDEVICE=ppmraw", "-r36", "-o", page, out])
        #expect(gs.status == 0, "\(gs.stderr)")
        let shown = try readPPM(page)
        let centre = (shown.height / 2 * shown.width + shown.width / 2) * 3
        let rgb = Array(shown.rgb[centre..<(centre + 3)])
        // HEVC at q95 of a flat colour, YCbCr and back: a few levels.
        #expect(zip(rgb, expected).allSatisfy { abs(Int($0) - Int($1)) <= 5 }, "\(rgb), expected \(expected)")
    }
}
