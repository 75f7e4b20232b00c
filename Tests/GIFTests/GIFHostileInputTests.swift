import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import GIF

/// Files cut short, damaged or lying about their size fail with a reason, never a crash, a hang or a huge
/// allocation; a decode stops when asked to.
struct GIFHostileInputTests {
    @Test(arguments: ["hopper.gif", "hopper_zero_comment_subblocks.gif", "transparent.gif", "dispose_bgnd.gif"])
    func truncatedFileFails(name: String) throws {
        let bytes = try GIFTestSupport.bytes(name)
        let firstImage = GIFTestSupport.firstImage(bytes)
        // In the header, in the colour table, in the frame's descriptor, in its data.
        for length in [5, 12, 40, firstImage + 4, firstImage + 200, bytes.count / 2] {
            let cut = Array(bytes.prefix(length))
            do {
                _ = try GIFTestSupport.decodeWhole(cut)
                // Only an animation cut after its first frame is still a picture.
                #expect(name == "dispose_bgnd.gif" && length == bytes.count / 2, "\(name) cut at \(length) decoded")
            } catch {
                #expect(error.failure.kind == .corrupt || error.failure.kind == .unsupported, "\(error)")
                #expect(error.failure.message.contains("GIF"), "\(error)")
            }
        }
        #expect(throws: CodecError.corrupt("corrupt GIF (truncated file)")) {
            try GIFTestSupport.probe(Array(bytes.prefix(firstImage + 200)))
        }
    }

    /// Damaged bytes: a failure that names GIF, or a picture of the screen's size.
    @Test(arguments: ["hopper.gif", "text_mono.gif", "dispose_bgnd.gif"])
    func damagedBytesFailOrDecode(name: String) throws {
        let original = try GIFTestSupport.bytes(name)
        let header = try GIFTestSupport.probe(original)
        var random = SplitMix64(seed: UInt64(original.count))
        var failures = 0
        for _ in 0..<200 {
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 4)) {
                bytes[6 + Int(random.next() % UInt64(bytes.count - 6))] = UInt8(truncatingIfNeeded: random.next())
            }
            do {
                let decoded = try GIFTestSupport.decodeWhole(bytes)
                #expect(decoded.image.pixels.count == decoded.image.width * decoded.image.height * 3)
                _ = header
            } catch {
                guard case .failed(let reason) = error else { Issue.record("unexpected \(error)"); continue }
                #expect(reason.message.contains("GIF"), "\(reason)")
                failures += 1
            }
        }
        #expect(failures > 0)
    }

    @Test func screenWithoutPixelsAndFileWithoutColoursAreRefused() throws {
        #expect(throws: CodecError.corrupt("corrupt GIF (its screen is 0x32 pixels)")) {
            try GIFTestSupport.probe(try GIFTestSupport.bytes("zero_width.gif"))
        }
        #expect(throws: CodecError.corrupt("corrupt GIF (no colour table)")) {
            try GIFTestSupport.probe(try GIFTestSupport.bytes("no_palette.gif"))
        }
        #expect(throws: CodecError.unsupported("not a GIF file")) { try GIFTestSupport.probe(Array("GIF90a and more bytes".utf8)) }
        #expect(GIFTestSupport.codec.damageInSignature(Array("GIF89b\u{1}\u{0}\u{1}\u{0}\u{0}\u{0}\u{0}".utf8)) != nil)
    }

    /// Pillow's decompression bomb: 44 bytes, a 32x32 screen and a frame claiming 65535x1321 pixels far below
    /// it, the file cut in the frame's header: refused by the probe and by a decode.
    @Test func pillowsDecompressionBombIsRefused() throws {
        let bytes = try GIFTestSupport.bytes("decompression_bomb.gif")
        #expect(throws: CodecError.corrupt("corrupt GIF (truncated file)")) { try GIFTestSupport.probe(bytes) }
        #expect(throws: CodecError.corrupt("corrupt GIF (truncated file)")) {
            try GIFTestSupport.codec.decode(MemorySource(bytes), .whole(width: 32, height: 32, maxPixels: 100_000_000),
                                            pool: BufferPool(), shouldCancel: { false })
        }
    }

    /// A 32x32 screen whose frame claims 60000x1000 pixels with data for 64: over the pixel limit it is refused
    /// before any buffer exists; under it, its rows run out of data at once.
    @Test func frameClaimingAHugeSizeIsRefused() throws {
        let bytes = GIFTestSupport.make(screenWidth: 32, screenHeight: 32, frame: PixelRegion(x: 0, y: 0, width: 60000, height: 1000),
                                        colors: [[0, 0, 0], [255, 255, 255]], indices: [UInt8](repeating: 1, count: 64))
        let pool = BufferPool(minimumBytes: 1)
        #expect(throws: CodecError.tooLarge("its first frame is 60000x1000 pixels, more than the limit of 50000000")) {
            try GIFTestSupport.decodeWhole(bytes, maxPixels: 50_000_000, pool: pool)
        }
        #expect(pool.statistics.allocated == 0)
        do {
            _ = try GIFTestSupport.decodeWhole(bytes, pool: pool)
            Issue.record("decoded")
        } catch {
            #expect(error.failure.kind == .corrupt && error.failure.message.hasPrefix("corrupt GIF"), "\(error)")
        }
        #expect(pool.statistics.outstandingBytes == 0)
    }

    /// A header claiming a 65535x65535 screen: refused by the pixel limit before any buffer exists.
    @Test func pixelLimitIsCheckedBeforeAnyAllocation() throws {
        var bytes = try GIFTestSupport.bytes("hopper.gif")
        bytes[6] = 0xFF; bytes[7] = 0xFF; bytes[8] = 0xFF; bytes[9] = 0xFF
        #expect(try GIFTestSupport.probe(bytes).width == 65535)
        let pool = BufferPool(minimumBytes: 1)
        #expect(throws: CodecError.tooLarge("image is 65535x65535 pixels, more than the limit of 100000000")) {
            try GIFTestSupport.decodeWhole(bytes, pool: pool)
        }
        #expect(throws: CodecError.tooLarge("image is 128x128 pixels, more than the limit of 16383")) {
            try GIFTestSupport.decodeWhole(try GIFTestSupport.bytes("hopper.gif"), maxPixels: 16383, pool: pool)
        }
        #expect(pool.statistics.allocated == 0)
    }

    /// The frame count stops at its limit and says "at least".
    @Test func manyFramesAreCountedUpToALimit() throws {
        let frames = GIFCodec.frameCountLimit + 5
        let bytes = GIFTestSupport.make(screenWidth: 2, screenHeight: 1, frame: PixelRegion(x: 0, y: 0, width: 2, height: 1),
                                        colors: [[0, 0, 0], [255, 255, 255]], indices: [0, 1], minimumCodeSize: 2,
                                        frames: frames)
        let header = try GIFTestSupport.probe(bytes)
        #expect(header.warnings == ["animated GIF (at least \(GIFCodec.frameCountLimit + 1) frames): only the first frame is used"])
    }

    // MARK: - Cancellation

    @Test(arguments: ["test.colors.gif", "hopper_zero_comment_subblocks.gif"])
    func decodeStopsWhenCancelledAndGivesItsBuffersBack(name: String) throws {
        let bytes = try GIFTestSupport.bytes(name)
        for step in 1...3 {
            let pool = BufferPool(minimumBytes: 1)
            var asked = 0
            #expect(throws: CodecError.cancelled) {
                try GIFTestSupport.decodeWhole(bytes, pool: pool, shouldCancel: {
                    asked += 1
                    return asked >= step
                })
            }
            #expect(asked == step)
            #expect(pool.statistics.outstandingBytes == 0)
        }
        var asked = 0
        let header = try GIFTestSupport.probe(bytes)
        _ = try GIFTestSupport.decodeWhole(bytes, shouldCancel: { asked += 1; return false })
        #expect(asked >= header.height / 32)
    }

    /// The rows above a region are decoded too (LZW data is one stream): asked between them as well.
    @Test func rowsAboveTheRegionAreDecodedCancellably() throws {
        let bytes = try GIFTestSupport.bytes("test.colors.gif")
        var asked = 0
        let decoded = try GIFTestSupport.codec.decode(MemorySource(bytes),
                                                      DecodeRequest(region: PixelRegion(x: 0, y: 560, width: 807, height: 46),
                                                                    minimumWidth: 807, minimumHeight: 46, maxPixels: 1 << 30),
                                                      pool: BufferPool(), shouldCancel: { asked += 1; return false })
        #expect(decoded.image.height == 46)
        #expect(asked >= 560 / 32)
    }
}
