import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import BMP

/// Files cut short, damaged or lying about their size fail with a reason, never a crash, a hang or a huge
/// allocation; a decode stops when asked to.
struct BMPHostileInputTests {
    @Test(arguments: ["g/rgb24.bmp", "g/pal8v5.bmp", "g/pal8rle.bmp", "g/pal4rle.bmp", "q/rgba32.bmp"])
    func truncatedFileFails(name: String) throws {
        let bytes = try BMPTestSupport.bytes(name)
        // (Not the last 4: they may be the last row's padding, or an RLE file's end, which may be missing.)
        for length in [2, 17, 30, 60, 140, Int(BMPHeader.u32(bytes, 10)) + 10, bytes.count / 2, bytes.count - 5] {
            let cut = Array(bytes.prefix(length))
            do {
                _ = try BMPTestSupport.decodeWhole(cut)
                Issue.record("\(name) cut at \(length) decoded")
            } catch {
                #expect(error.failure.kind == .corrupt, "\(name) cut at \(length): \(error)")
                #expect(error.failure.message.contains("BMP"), "\(error)")
            }
        }
    }

    /// Damaged bytes anywhere: a failure that names BMP, or a picture of the size the header says.
    @Test(arguments: ["g/pal8rle.bmp", "g/pal4rle.bmp", "g/rgb16-565.bmp", "q/rgba32.bmp", "g/pal8v5.bmp", "g/pal8os2.bmp"])
    func damagedBytesFailOrDecode(name: String) throws {
        let original = try BMPTestSupport.bytes(name)
        var random = SplitMix64(seed: UInt64(original.count))
        var failures = 0
        for round in 0..<300 {
            var bytes = original
            // Half the rounds hit the headers and palette, half anywhere.
            let span = round % 2 == 0 ? min(bytes.count, 200) : bytes.count
            for _ in 0..<(1 + Int(random.next() % 3)) {
                bytes[2 + Int(random.next() % UInt64(span - 2))] = UInt8(truncatingIfNeeded: random.next())
            }
            do {
                let header = try BMPTestSupport.probe(bytes)
                let decoded = try BMPTestSupport.decodeWhole(bytes, maxPixels: 1 << 22)
                #expect(decoded.image.width == header.width && decoded.image.height == header.height)
            } catch {
                guard case .failed(let reason) = error else { Issue.record("unexpected \(error)"); continue }
                #expect(reason.message.contains("BMP") || reason.message.contains("pixels"), "\(reason)")
                failures += 1
            }
        }
        #expect(failures > 10)
    }

    /// A 60-byte uncompressed file claiming 100000x100000 pixels is truncated: the probe says so.
    @Test func headerClaimingAHugeSizeIsTruncated() throws {
        var bytes = try BMPTestSupport.bytes("g/rgb24.bmp")
        BMPTestSupport.put32(&bytes, at: 18, 100_000)
        BMPTestSupport.put32(&bytes, at: 22, 100_000)
        #expect(throws: CodecError.corrupt("corrupt BMP (truncated file)")) { try BMPTestSupport.probe(bytes) }
        BMPTestSupport.put32(&bytes, at: 18, 1 << 25)
        #expect(throws: CodecError.tooLarge("image is 33554432x100000 pixels, more than photobook reads")) {
            try BMPTestSupport.probe(bytes)
        }
        BMPTestSupport.put32(&bytes, at: 22, UInt32(bitPattern: Int32.min))
        #expect(throws: CodecError.self) { try BMPTestSupport.probe(bytes) }
    }

    /// RLE can say 100000x100000 of nothing in four bytes (a line end and the bitmap's end): refused by the
    /// pixel limit before any buffer exists.
    @Test func tinyRLEFileClaimingAHugeSizeIsRefusedByThePixelLimit() throws {
        let bytes = BMPTestSupport.makeRLE8(width: 100_000, height: 100_000, palette: [[0, 0, 0]], data: [0, 0, 0, 1])
        let header = try BMPTestSupport.probe(bytes)
        #expect(header.width == 100_000)
        let pool = BufferPool(minimumBytes: 1)
        #expect(throws: CodecError.tooLarge("image is 100000x100000 pixels, more than the limit of 100000000")) {
            try BMPTestSupport.decodeWhole(bytes, pool: pool)
        }
        #expect(pool.statistics.allocated == 0)
    }

    @Test func pixelLimitIsCheckedBeforeAnyAllocation() throws {
        let pool = BufferPool(minimumBytes: 1)
        for name in ["g/rgb24.bmp", "g/pal8rle.bmp", "q/rgba32.bmp"] {
            #expect(throws: CodecError.tooLarge("image is 127x64 pixels, more than the limit of 8000")) {
                try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes(name), maxPixels: 8000, pool: pool)
            }
        }
        #expect(pool.statistics.allocated == 0)
    }

    @Test func otherFilesAreNotBMP() {
        #expect(!BMPTestSupport.codec.recognises(Array("BMW is a car, not a picture".utf8)))
        let badHeader = try? BMPTestSupport.bytes("b/badheadersize.bmp")
        #expect(BMPTestSupport.codec.damageInSignature(Array(badHeader?.prefix(64) ?? [])) == "corrupt BMP (an info header of 66 bytes)")
        #expect(BMPTestSupport.codec.damageInSignature(Array((try? BMPTestSupport.bytes("g/rgb24.bmp"))?.prefix(64) ?? [])) == nil)
        #expect(throws: CodecError.unsupported("not a BMP file")) { try BMPTestSupport.probe(Array("GIF89a....".utf8)) }
        #expect(throws: CodecError.corrupt("corrupt BMP (truncated file)")) { try BMPTestSupport.probe([0x42, 0x4D, 0, 0]) }
    }

    // MARK: - Cancellation

    static func largeFiles() -> [(String, [UInt8])] {
        let width = 1500, height = 1000
        let rgb = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 / 7) }
        var rle: [UInt8] = []
        for y in 0..<height {
            for x in stride(from: 0, to: width, by: 3) { rle += [3, UInt8(truncatingIfNeeded: x ^ y)] }
            rle += [0, 0]
        }
        rle += [0, 1]
        let palette = (0..<256).map { [UInt8($0), UInt8(255 - $0), 128] }
        return [("24-bit", BMPTestSupport.make(width: width, height: height, rgb: rgb)),
                ("RLE8", BMPTestSupport.makeRLE8(width: width, height: height, palette: palette, data: rle))]
    }

    @Test func decodeStopsWhenCancelledAndGivesItsBuffersBack() throws {
        for (kind, bytes) in Self.largeFiles() {
            for step in 1...3 {
                let pool = BufferPool(minimumBytes: 1)
                var asked = 0
                #expect(throws: CodecError.cancelled, "\(kind)") {
                    try BMPTestSupport.decodeWhole(bytes, pool: pool, shouldCancel: {
                        asked += 1
                        return asked >= step
                    })
                }
                #expect(asked == step, "\(kind)")
                #expect(pool.statistics.outstandingBytes == 0, "\(kind)")
            }
            var asked = 0
            let decoded = try BMPTestSupport.decodeWhole(bytes, shouldCancel: { asked += 1; return false })
            #expect(decoded.image.width == 1500)
            #expect(asked >= 4, "\(kind): asked \(asked) times")
        }
    }
}
