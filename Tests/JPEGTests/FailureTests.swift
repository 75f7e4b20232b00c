import Imaging
import Testing
@testable import JPEG
import TestSupport

/// Bad input fails with a clear error, never with half a picture and never with a crash.
struct FailureTests {
    static let picture = JPEGTestSupport.syntheticImage(width: 160, height: 120, seed: 5)
    static func encoded(_ options: JPEGEncoder.Options = .init(quality: 85)) -> [UInt8] {
        try! JPEGEncoder.encode(picture, options: options)
    }

    static func decodeFully(_ jpeg: [UInt8]) throws(JPEGError) -> RGBImage {
        try JPEGDecoder.decode(jpeg, minimumWidth: .max, minimumHeight: .max, maxPixels: 100_000_000)
    }

    @Test("data that is not a JPEG", arguments: [
        ("empty", [UInt8]()),
        ("one byte", [0xFF]),
        ("random bytes", { var g = SeededBytes(state: 1); return (0..<512).map { _ in g.next() } }()),
        ("PNG signature", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]),
        ("text", Array("hello, world".utf8)),
    ])
    func notJPEG(_ name: String, _ bytes: [UInt8]) {
        #expect(throws: JPEGError.notJPEG) { try JPEGDecoder.readInfo(bytes) }
        #expect(throws: JPEGError.notJPEG) { try Self.decodeFully(bytes) }
    }

    @Test("a real PNG file is not a JPEG")
    func pngFile() throws {
        let png = try Fixtures.bytes("pngsuite/basn2c08.png")
        #expect(throws: JPEGError.notJPEG) { try JPEGDecoder.readInfo(png) }
        #expect(throws: JPEGError.notJPEG) { try Self.decodeFully(png) }
    }

    @Test("an SOI followed by garbage is corrupt, with libjpeg's reason")
    func garbageAfterSOI() {
        var generator = SeededBytes(state: 2)
        let bytes: [UInt8] = [0xFF, 0xD8] + (0..<200).map { _ in generator.next() }
        #expect {
            try Self.decodeFully(bytes)
        } throws: { error in
            guard case .corrupt(let why) = error as? JPEGError else { return false }
            return !why.isEmpty
        }
    }

    enum Cut: String, CaseIterable, Sendable {
        case afterSOI, inTheHeaders, atTheFrameHeader, insideTheFrameHeader, atTheScan, earlyInTheScan,
             midScan, lateInTheScan, withoutEOI
        func offset(in jpeg: [UInt8]) -> Int {
            let sof = JPEGStructure.frame(jpeg).offset, scan = JPEGStructure.scans(jpeg)[0].end
            switch self {
            case .afterSOI: return 2
            case .inTheHeaders: return sof / 2
            case .atTheFrameHeader: return sof
            case .insideTheFrameHeader: return sof + 7
            case .atTheScan: return scan
            case .earlyInTheScan: return scan + 10
            case .midScan: return (scan + jpeg.count) / 2
            case .lateInTheScan: return jpeg.count - 40
            case .withoutEOI: return jpeg.count - 2
            }
        }
        var beforeFirstScan: Bool {
            [.afterSOI, .inTheHeaders, .atTheFrameHeader, .insideTheFrameHeader].contains(self)
        }
    }

    static let truncated = JPEGError.corrupt("truncated file: premature end of data")

    @Test("a truncated baseline file fails as truncated", arguments: Cut.allCases)
    func truncatedBaseline(_ cut: Cut) throws {
        let jpeg = Self.encoded()
        let bytes = Array(jpeg.prefix(cut.offset(in: jpeg)))
        if cut.beforeFirstScan {
            #expect(throws: Self.truncated) { try JPEGDecoder.readInfo(bytes) }
        } else {
            #expect(try JPEGDecoder.readInfo(bytes).width == 160)  // the header is whole
        }
        #expect(throws: Self.truncated) { try Self.decodeFully(bytes) }
    }

    @Test("a truncated progressive or arithmetic file fails as truncated", arguments: [
        JPEGEncoder.Options(progressive: true), JPEGEncoder.Options(arithmeticCoding: true),
        JPEGEncoder.Options(progressive: true, arithmeticCoding: true),
    ], [0.1, 0.5, 0.9, 0.995])
    func truncatedOthers(_ options: JPEGEncoder.Options, fraction: Double) {
        let jpeg = Self.encoded(options)
        let bytes = Array(jpeg.prefix(Int(Double(jpeg.count) * fraction)))
        #expect(throws: Self.truncated) { try Self.decodeFully(bytes) }
        #expect(throws: Self.truncated) {
            try JPEGDecoder.decode(bytes, minimumWidth: 0, minimumHeight: 0, maxPixels: 1 << 20)
        }
    }

    @Test("flipped bits in the entropy-coded data: an error or a whole picture, never a crash",
          arguments: [JPEGEncoder.Options(), JPEGEncoder.Options(progressive: true),
                      JPEGEncoder.Options(arithmeticCoding: true)])
    func flippedBits(_ options: JPEGEncoder.Options) {
        let jpeg = Self.encoded(options)
        let scan = JPEGStructure.scans(jpeg)[0].end
        var generator = SeededBytes(state: 3)
        var failures = 0
        for trial in 0..<40 {
            var bytes = jpeg
            for _ in 0...(trial % 4) {
                let position = scan + Int(generator.next()) * (jpeg.count - scan - 2) / 256
                bytes[position] ^= 1 << (generator.next() % 8)
            }
            do {
                let image = try Self.decodeFully(bytes)
                #expect(image.width == 160 && image.height == 120)
            } catch {
                failures += 1
                if case .corrupt(let why) = error { #expect(!why.isEmpty) } else { Issue.record("\(error)") }
            }
        }
        #expect(failures > 0)  // some of the damage is seen: libjpeg warns, and warnings are fatal
    }

    @Test("a header declaring 60000x60000 is refused from the header, at once")
    func tooLarge() {
        let jpeg = JPEGStructure.withFrame(Self.encoded(), width: 60000, height: 60000)
        #expect(throws: JPEGError.tooLarge(width: 60000, height: 60000, limit: 100_000_000)) {
            try JPEGDecoder.decode(jpeg, minimumWidth: 1, minimumHeight: 1, maxPixels: 100_000_000)
        }
        let info = try? JPEGDecoder.readInfo(jpeg)
        #expect(info?.width == 60000 && info?.height == 60000)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            _ = try? JPEGDecoder.decode(jpeg, minimumWidth: 60000, minimumHeight: 60000, maxPixels: 100_000_000)
        }
        // A guard against decoding, not a speed figure: 3.6 gigapixels would take minutes; a loaded machine may
        // hold a thread back for a good part of a second, so the bound is loose.
        #expect(elapsed < .seconds(10))
    }

    @Test("a frame header with a zero dimension is corrupt", arguments: [(0, 120), (160, 0)])
    func zeroDimension(_ size: (Int, Int)) {
        let jpeg = JPEGStructure.withFrame(Self.encoded(), width: size.0, height: size.1)
        let expected = JPEGError.corrupt("the frame header gives a zero width or height")
        #expect(throws: expected) { try JPEGDecoder.readInfo(jpeg) }
        #expect(throws: expected) { try Self.decodeFully(jpeg) }
    }

    @Test("12-bit samples are unsupported, from the header on")
    func twelveBit() {
        // cjpeg 2.1.5 cannot write 12-bit files: mark our own file as extended sequential (SOF1), 12-bit.
        var jpeg = Self.encoded(.init(optimizeCoding: false))
        let sof = JPEGStructure.frame(jpeg).offset
        jpeg[sof + 1] = 0xC1
        jpeg[sof + 4] = 12
        #expect(throws: JPEGError.unsupported("12-bit samples")) { try JPEGDecoder.readInfo(jpeg) }
        #expect(throws: JPEGError.unsupported("12-bit samples")) { try Self.decodeFully(jpeg) }
    }

    @Test("lossless and hierarchical processes are unsupported", arguments: [
        (UInt8(0xC3), "lossless JPEG"), (0xCB, "lossless JPEG"), (0xC7, "lossless JPEG"),
        (0xC5, "hierarchical JPEG"),
    ])
    func unsupportedProcess(_ marker: UInt8, _ reason: String) {
        // cjpeg 2.1.5 has no -lossless: relabel our frame header's SOF marker.
        var jpeg = Self.encoded()
        jpeg[JPEGStructure.frame(jpeg).offset + 1] = marker
        #expect(throws: JPEGError.unsupported(reason)) { try JPEGDecoder.readInfo(jpeg) }
        #expect(throws: JPEGError.unsupported(reason)) { try Self.decodeFully(jpeg) }
    }

    @Test("a progressive file with more scans than the limit is refused")
    func tooManyScans() throws {
        let jpeg = Self.encoded(.init(progressive: true))  // libjpeg's simple progression: 10 scans for YCbCr
        #expect(throws: JPEGError.corrupt("too many progressive scans (more than 4)")) {
            try JPEGDecoder.decode(jpeg, minimumWidth: 160, minimumHeight: 120, maxPixels: 1 << 20,
                                   maxProgressiveScans: 4, shouldCancel: { false })
        }
        #expect(try JPEGDecoder.decode(jpeg, minimumWidth: 160, minimumHeight: 120, maxPixels: 1 << 20,
                                       maxProgressiveScans: 10, shouldCancel: { false }).width == 160)
    }

    @Test("error descriptions read as a diagnostic")
    func descriptions() {
        #expect(Self.truncated.description == "corrupt JPEG (truncated file: premature end of data)")
        #expect(JPEGError.unsupported("12-bit samples").description == "unsupported JPEG (12-bit samples)")
        #expect(JPEGError.readable("Corrupt JPEG data: bad Huffman code") == "bad Huffman code")
        #expect(JPEGError.readable("JPEG datastream contains no image") == "JPEG datastream contains no image")
        #expect(JPEGError.readable("Bogus marker length") == "bogus marker length")
    }
}

/// Warnings that leave every pixel intact do not cost the user a photo; the others still fail.
struct HarmlessWarningTests {
    static let clean = FailureTests.encoded()

    @Test("stray bytes after the last scan, before the end marker, still give the whole picture")
    func paddingBeforeEndOfImage() throws {
        var padded = Self.clean
        #expect(padded.suffix(2) == [0xFF, 0xD9])
        padded.insert(contentsOf: [0x00, 0x13, 0x37, 0x42], at: padded.count - 2)
        let expected = try FailureTests.decodeFully(Self.clean)
        #expect(try FailureTests.decodeFully(padded) == expected)
    }

    @Test("stray bytes before a marker inside the image data still fail")
    func paddingBeforeAnotherMarker() throws {
        // Cut the file in the middle of the scan and close it with stray bytes and an RST marker: corrupt.
        var broken = Array(Self.clean.prefix(Self.clean.count * 2 / 3))
        broken += [0x00, 0x13, 0xFF, 0xD0, 0xFF, 0xD9]
        #expect(throws: JPEGError.self) { try FailureTests.decodeFully(broken) }
    }
}
