import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import WebP

/// Files cut short, damaged or lying about their size fail with a reason, never a crash, a hang or a huge
/// allocation; a decode stops when asked to.
struct WebPHostileInputTests {
    static let truncated = CodecError.corrupt("corrupt WebP (truncated file)")

    /// Cut anywhere: the RIFF size then promises more than the file has, which is caught before libwebp runs.
    @Test(arguments: ["lossy.webp", "lossless.webp", "alpha-lossy.webp", "animated.webp", "icc.webp"])
    func truncatedFileFails(name: String) throws {
        let bytes = try WebPTestSupport.bytes(name)
        for length in [bytes.count * 2 / 3, bytes.count - 1, 40, 13] {
            let cut = Array(bytes.prefix(length))
            #expect(throws: Self.truncated) { try WebPTestSupport.probe(cut) }
            #expect(throws: Self.truncated) {
                try WebPTestSupport.codec.decode(MemorySource(cut), .whole(width: 10, height: 10, maxPixels: 1 << 30),
                                                 pool: BufferPool(), shouldCancel: { false })
            }
        }
        #expect(throws: Self.truncated) { try WebPTestSupport.probe(Array(bytes.prefix(10))) }
    }

    /// Cut, with the RIFF and chunk sizes mended to the cut: only libwebp can tell. Its incremental VP8 decoder
    /// says it wants more data (a cut); VP8L knows its chunk is all there and calls the data broken.
    @Test(arguments: [("lossy.webp", "corrupt WebP (truncated file)"), ("lossless.webp", "corrupt WebP (damaged image data)")])
    func truncatedImageDataWithConsistentSizesFails(name: String, reason: String) throws {
        var cut = Array(try WebPTestSupport.bytes(name).prefix(2000))
        Self.put32(&cut, at: 4, UInt32(cut.count - 8))
        Self.put32(&cut, at: 16, UInt32(cut.count - 20))
        #expect(throws: CodecError.corrupt(reason)) { try WebPTestSupport.decodeWhole(cut) }
    }

    @Test func damagedVP8StartCodeFails() throws {
        var bytes = try WebPTestSupport.bytes("lossy.webp")
        #expect(bytes[23..<26].elementsEqual([0x9D, 0x01, 0x2A]))
        bytes[24] = 0x77
        #expect(throws: CodecError.corrupt("corrupt WebP (damaged image data)")) { try WebPTestSupport.probe(bytes) }
    }

    /// Bytes of the image data overwritten: lossy data has no check (a damaged VP8 frame decodes to some
    /// picture), lossless data usually breaks its Huffman codes. Either way: a failure with a reason or a
    /// picture of the right size, and some lossless damage is caught.
    @Test(arguments: ["lossy.webp", "lossless.webp", "alpha-lossy.webp", "animated.webp", "xmp.webp"])
    func damagedBytesFailOrDecode(name: String) throws {
        let original = try WebPTestSupport.bytes(name)
        let header = try WebPTestSupport.probe(original)
        var random = SplitMix64(seed: UInt64(original.count))
        var failures = 0
        for _ in 0..<150 {
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 4)) {
                bytes[30 + Int(random.next() % UInt64(bytes.count - 30))] = UInt8(truncatingIfNeeded: random.next())
            }
            do {
                let decoded = try WebPTestSupport.decodeWhole(bytes)
                #expect(decoded.image.width == header.width && decoded.image.height == header.height)
            } catch {
                guard case .failed(let reason) = error else { Issue.record("unexpected \(error)"); continue }
                #expect(reason.kind == .corrupt || reason.kind == .unsupported, "\(reason)")
                #expect(reason.message.contains("WebP"), "\(reason)")
                failures += 1
            }
        }
        if name.hasPrefix("lossless") { #expect(failures > 10) }
    }

    /// A 4 KB lossy file whose frame header claims 16383x16383: less than a bit per macroblock, refused by the
    /// probe and by a decode with no pixel limit, before any buffer of that size exists.
    @Test func tinyLossyFileClaimingAHugeSizeIsRefused() throws {
        var bytes = try WebPTestSupport.bytes("lossy.webp")
        bytes[26] = 0xFF; bytes[27] = 0x3F; bytes[28] = 0xFF; bytes[29] = 0x3F
        let reason = CodecError.corrupt("corrupt WebP (4140 bytes of image data cannot hold 16383x16383 pixels)")
        #expect(throws: reason) { try WebPTestSupport.probe(bytes) }
        #expect(throws: reason) {
            try WebPTestSupport.codec.decode(MemorySource(bytes), .whole(width: 16383, height: 16383, maxPixels: .max),
                                             pool: BufferPool(), shouldCancel: { false })
        }
    }

    /// A lossless file may be that small for that size (one colour), so only the pixel limit refuses it.
    @Test func tinyLosslessFileClaimingAHugeSizeIsRefusedByThePixelLimit() throws {
        var bytes = try WebPTestSupport.bytes("lossless.webp")
        #expect(bytes[20] == 0x2F)
        let bits = UInt32(bytes[21]) | UInt32(bytes[22]) << 8 | UInt32(bytes[23]) << 16 | UInt32(bytes[24]) << 24
        Self.put32(&bytes, at: 21, (bits & 0xF000_0000) | 16383 | 16383 << 14)
        let header = try WebPTestSupport.probe(bytes)
        #expect(header.width == 16384 && header.height == 16384)
        #expect(throws: CodecError.tooLarge("image is 16384x16384 pixels, more than the limit of 100000000")) {
            try WebPTestSupport.decodeWhole(bytes)
        }
    }

    @Test func canvasDisagreeingWithItsImageFails() throws {
        var bytes = try WebPTestSupport.bytes("icc.webp")
        bytes[24] = 0xFE; bytes[25] = 0x3F; bytes[26] = 0; bytes[27] = 0xFE; bytes[28] = 0x3F; bytes[29] = 0
        #expect(throws: CodecError.self) { try WebPTestSupport.probe(bytes) }
    }

    @Test func pixelLimitIsCheckedBeforeDecoding() throws {
        #expect(throws: CodecError.tooLarge("image is 151x101 pixels, more than the limit of 15000")) {
            try WebPTestSupport.decodeWhole(try WebPTestSupport.bytes("lossy.webp"), maxPixels: 15000)
        }
    }

    @Test func otherFilesAreNotWebP() {
        #expect(throws: CodecError.unsupported("not a WebP file")) { try WebPTestSupport.probe(Array("RIFF\u{4}\u{0}\u{0}\u{0}AVI LIST".utf8)) }
        #expect(throws: CodecError.unsupported("not a WebP file")) { try WebPTestSupport.probe([]) }
    }

    // MARK: - Cancellation

    /// A 1600x1067 photo of ~200 KB: four steps of 64 KB, so `shouldCancel` is asked between them.
    static func largePhoto() throws -> [UInt8] {
        try Fixtures.read(try WebPTestSupport.madeLossy(width: 1600, height: 1067, quality: 95))
    }

    @Test(arguments: [1, 2, 3])
    func decodeStopsAtTheStepItIsCancelledAt(step: Int) throws {
        let bytes = try Self.largePhoto()
        #expect(bytes.count > 3 * WebPIncrementalDecoder.bytesPerStep)
        var asked = 0
        #expect(throws: CodecError.cancelled) {
            try WebPTestSupport.decode(bytes, region: PixelRegion(x: 0, y: 0, width: 1600, height: 1067),
                                       minimumWidth: 1600, minimumHeight: 1067, shouldCancel: {
                                           asked += 1
                                           return asked >= step
                                       })
        }
        #expect(asked == step)
    }

    @Test func uncancelledDecodeAsksBetweenEverySteps() throws {
        let bytes = try Self.largePhoto()
        var asked = 0
        let decoded = try WebPTestSupport.decode(bytes, region: PixelRegion(x: 0, y: 0, width: 1600, height: 1067),
                                                 minimumWidth: 400, minimumHeight: 267, shouldCancel: {
                                                     asked += 1
                                                     return false
                                                 })
        #expect(decoded.image.width >= 400)
        #expect(asked >= bytes.count / WebPIncrementalDecoder.bytesPerStep)
    }

    @Test func animationDecodeCanBeCancelled() throws {
        let bytes = try WebPTestSupport.bytes("animated.webp")
        for step in 1...3 {
            var asked = 0
            #expect(throws: CodecError.cancelled) {
                try WebPTestSupport.decode(bytes, region: PixelRegion(x: 0, y: 0, width: 64, height: 48),
                                           minimumWidth: 64, minimumHeight: 48, shouldCancel: {
                                               asked += 1
                                               return asked >= step
                                           })
            }
            #expect(asked == step)
        }
    }

    static func put32(_ bytes: inout [UInt8], at i: Int, _ value: UInt32) {
        for k in 0..<4 { bytes[i + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
    }
}
