import Foundation
import Geometry
import ImageCodec
import Imaging
import Testing

/// Shrinking rows as they come, the byte sources codecs read from.
struct BoxShrinkTests {
    /// Feeds a `width` x `height` RGB picture's `region` row by row into a shrink by `factor`.
    func shrink(_ pixels: [UInt8], width: Int, region: PixelRegion, factor: Int) -> DecodedImage {
        var shrink = BoxShrink(region: region, factor: factor, pool: BufferPool())
        pixels.withUnsafeBufferPointer { all in
            for y in region.y..<region.y + region.height {
                let start = (y * width + region.x) * 3
                shrink.add(row: UnsafeBufferPointer(rebasing: all[start..<start + region.width * 3]))
            }
        }
        return shrink.finish(storedWidth: width, storedHeight: pixels.count / 3 / width)
    }

    @Test func eachPixelIsTheMeanOfItsBoxAndTheEdgesAverageWhatIsThere() {
        // 5 x 3, value = 10 * x + y in every channel.
        let width = 5, height = 3
        let pixels = (0..<width * height).flatMap { i -> [UInt8] in let v = UInt8(10 * (i % width) + i / width); return [v, v, v] }
        let out = shrink(pixels, width: width, region: PixelRegion(x: 0, y: 0, width: 5, height: 3), factor: 2)
        #expect(out.image.width == 3 && out.image.height == 2 && out.scale == 0.5)
        // Box (0..1, 0..1): (0 + 10 + 1 + 11) / 4 = 5.5 -> 6; the last column holds x = 4 alone: (40 + 41) / 2.
        #expect(out.image.pixel(x: 0, y: 0).red == 6)
        #expect(out.image.pixel(x: 2, y: 0).red == 41)
        // The last row holds y = 2 alone: (2 + 12) / 2 = 7; the corner is 42.
        #expect(out.image.pixel(x: 0, y: 1).red == 7 && out.image.pixel(x: 2, y: 1).red == 42)
        #expect(out.covers == Rect(x: 0, y: 0, width: 5, height: 3))
    }

    @Test func factorOneCopiesTheRegion() {
        let width = 4
        let pixels = (0..<width * 4 * 3).map { UInt8($0) }
        let region = PixelRegion(x: 1, y: 2, width: 2, height: 2)
        let out = shrink(pixels, width: width, region: region, factor: 1)
        let starts: [Int] = [9 * 3, 10 * 3, 13 * 3, 14 * 3]  // pixels (1, 2), (2, 2), (1, 3), (2, 3) of 4 across
        let expected: [UInt8] = starts.flatMap { (start: Int) -> [UInt8] in [UInt8(start), UInt8(start + 1), UInt8(start + 2)] }
        #expect(out.image.pixels == expected)
        #expect(out.covers == Rect(x: 1, y: 2, width: 2, height: 2) && out.scale == 1)
    }

    @Test(arguments: [(4000, 3000, 1000, 700, 4), (4000, 3000, 4000, 3000, 1), (4000, 3000, 1, 1, 8), (100, 100, 34, 34, 2)])
    func theFactorIsTheLargestThatStillCoversTheMinimum(w: Int, h: Int, minW: Int, minH: Int, expected: Int) {
        #expect(BoxShrink.factor(for: PixelRegion(x: 0, y: 0, width: w, height: h), minimumWidth: minW,
                                 minimumHeight: minH) == expected)
    }

    @Test func sourcesReadWhatIsThereAndNoMore() throws {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("source-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sources: [any ByteSource] = [MemorySource(bytes), try FileSource(path: path)]
        for source in sources {
            #expect(source.count == 1000)
            #expect(try source.read(from: 990, count: 50) == Array(bytes[990...]))
            #expect(try source.read(from: 10, count: 3) == Array(bytes[10..<13]))
            #expect(try source.read(from: 2000, count: 3).isEmpty)
            #expect(try source.readAll() == bytes && source.prefix(4) == Array(bytes[0..<4]))
        }
        #expect(throws: (any Error).self) { try FileSource(path: "/dev/null") }
    }
}
