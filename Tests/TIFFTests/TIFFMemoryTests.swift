import Foundation
import Imaging
import ImageCodec
import Testing
import TIFF
import TestSupport

/// Tests that measure the process's peak memory, one at a time (the measure is process-wide: run beside each
/// other they would see each other's memory).
@Suite(.serialized) struct TIFFMemoryTests {
    let codec = TIFFCodec()
    /// Each test's own (Swift Testing makes a suite value per test).
    let pool = BufferPool()

    /// The measure itself sees memory that is touched.
    @Test func measureSeesTouchedMemory() throws {
        let peak = try PeakMemory.measure {
            var block = [UInt8](repeating: 1, count: 48 << 20)
            block[block.count - 1] = 2
            #expect(block.reduce(0) { $0 &+ $1 } != 0)
        }
        #expect(peak > 40 << 20, "measured \(peak >> 20) MB")
    }

    /// 100,000 x 100,000 pixels claimed in a few hundred bytes: probe reads the claim, decode refuses it by
    /// the pixel limit, and with no limit fails on the first strip, before any pixel buffer.
    @Test(arguments: [1 as UInt16, 5 /* LZW */])
    func hugeClaimInATinyFileFailsFast(compression: UInt16) throws {
        var tiff = StripTIFF(width: 100_000, height: 100_000, rowsPerStrip: 100_000)
        tiff.samplesPerPixel = 1
        tiff.photometric = 1
        tiff.declaredByteCount = { _ in 100 }
        let bytes = Self.withCompression(compression, tiff) + [UInt8](repeating: 0x80, count: 100)
        #expect(bytes.count < 400)
        let source = MemorySource(bytes)
        let probed = try #require(try codec.probe(source).first)
        #expect(probed.width == 100_000 && probed.height == 100_000)
        #expect(throws: CodecError.tooLarge("image is 100000x100000 pixels, more than the limit of 100000000")) {
            try codec.decode(source, .whole(width: 100_000, height: 100_000, maxPixels: 100_000_000), pool: pool,
                             shouldCancel: { false })
        }
        let peak = try PeakMemory.measure {
            #expect {
                try codec.decode(source, .whole(width: 100_000, height: 100_000, maxPixels: .max), pool: pool,
                                 shouldCancel: { false })
            } throws: { error in
                guard case .failed(let reason) = error as? CodecError else { return false }
                return reason.kind == .corrupt
            }
        }
        #expect(pool.statistics.allocated == 0 && pool.statistics.outstandingBytes == 0)
        #expect(peak < 64 << 20, "peak memory grew by \(peak >> 20) MB")
    }

    static func withCompression(_ compression: UInt16, _ tiff: StripTIFF) -> [UInt8] {
        var header = tiff.header()
        // Compression is the fourth entry (after 256, 257, 258): its value at 8 + 2 + 3 * 12 + 8.
        header[8 + 2 + 3 * 12 + 8] = UInt8(compression)
        return header
    }

    static let width = 5000, height = 7000

    /// R = 13x, G = 9y, B = 40000 (16-bit), in strips of 8 rows, written to a file in /tmp.
    static func makeScan() throws -> String {
        let path = NSTemporaryDirectory() + "photobook-tiff-scan-\(UInt64.random(in: 0...UInt64.max)).tif"
        var tiff = StripTIFF(width: width, height: height, rowsPerStrip: 8)
        tiff.bitsPerSample = 16
        guard FileManager.default.createFile(atPath: path, contents: Data(tiff.header())) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        var row = [UInt8](repeating: 0, count: width * 6)
        for x in 0..<width {
            let r = UInt16(x * 13), b: UInt16 = 40000
            row[x * 6] = UInt8(r & 0xFF); row[x * 6 + 1] = UInt8(r >> 8)
            row[x * 6 + 4] = UInt8(b & 0xFF); row[x * 6 + 5] = UInt8(b >> 8)
        }
        var strip = Data(capacity: width * 6 * 8)
        for y in 0..<height {
            let g = UInt16(y * 9)
            row.withUnsafeMutableBufferPointer { row in
                for x in 0..<width { row[x * 6 + 2] = UInt8(g & 0xFF); row[x * 6 + 3] = UInt8(g >> 8) }
            }
            strip.append(contentsOf: row)
            if strip.count >= width * 6 * 8 || y == height - 1 {
                try handle.write(contentsOf: strip)
                strip.removeAll(keepingCapacity: true)
            }
        }
        return path
    }

    static func eight(_ value: Int) -> Int { (value + 128) / 257 }

    /// The rounded mean of an 8 x 8 box of the scan at output pixel (ox, oy).
    static func expected(_ ox: Int, _ oy: Int) -> [UInt8] {
        var r = 0, g = 0
        for i in 0..<8 { r += eight((ox * 8 + i) * 13); g += eight((oy * 8 + i) * 9) }
        return [UInt8((r * 8 + 32) / 64), UInt8((g * 8 + 32) / 64), UInt8(eight(40000))]
    }

    /// A 600-dpi A4 scan's worth of 16-bit RGB (5000 x 7000, 210 MB uncompressed) written at test time: decoded
    /// at 1/8 it is read band by band and never held whole; a region reads only its own strips.
    @Test func scanDecodedAtAScaleIsReadInBands() throws {
        let path = try Self.makeScan()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = CountingSource(try FileSource(path: path))
        let header = try #require(try codec.probe(source).first)
        #expect(header.width == Self.width && header.height == Self.height && header.detail == "16-bit RGB, uncompressed")
        let probeBytes = source.bytesRead
        #expect(probeBytes < 1 << 20)

        var decoded: DecodedImage?
        let request = DecodeRequest(region: PixelRegion(x: 0, y: 0, width: Self.width, height: Self.height),
                                    minimumWidth: 625, minimumHeight: 875, maxPixels: 40_000_000)
        let peak = try PeakMemory.measure {
            decoded = try codec.decode(source, request, pool: pool, shouldCancel: { false })
        }
        let image = try #require(decoded).image
        #expect(image.width == 625 && image.height == 875 && image.pixels.count == 625 * 875 * 3)
        #expect(decoded?.scale == 1.0 / 8)
        for (ox, oy) in [(0, 0), (100, 200), (624, 874), (313, 17)] {
            let i = (oy * 625 + ox) * 3
            #expect(Array(image.pixels[i..<(i + 3)]) == Self.expected(ox, oy), "pixel \(ox), \(oy)")
        }
        // The whole file was read once, in pieces; the process grew by far less than the 210 MB of pixels.
        let fileSize = Self.width * Self.height * 6
        #expect(source.bytesRead - probeBytes >= fileSize && source.bytesRead - probeBytes < fileSize + fileSize / 10)
        print("TIFF large banded decode: peak memory grew by \(max(0, peak) >> 20) MB for a \(fileSize >> 20) MB scan")
        #expect(peak < 100 << 20, "peak memory grew by \(peak >> 20) MB")
        pool.giveBack(image.pixels)

        // A region in the middle reads its own strips only.
        let before = source.bytesRead
        let region = PixelRegion(x: 1000, y: 3000, width: 2000, height: 700)
        let part = try codec.decode(source, DecodeRequest(region: region, minimumWidth: 500, minimumHeight: 175,
                                                          maxPixels: 40_000_000), pool: pool, shouldCancel: { false })
        #expect(part.image.width == 500 && part.image.height == 175)
        #expect(source.bytesRead - before < fileSize / 8, "read \((source.bytesRead - before) >> 20) MB")
    }
}
