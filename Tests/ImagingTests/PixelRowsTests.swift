import Geometry
import Synchronization
import Testing
@testable import Imaging

/// An image read a row at a time, which records what it was asked for.
private final class RecordingRows: PixelRows {
    let image: RGBImage
    let asked = Mutex<[(y: Int, x: Int, count: Int)]>([])
    var width: Int { image.width }
    var height: Int { image.height }

    init(_ image: RGBImage) { self.image = image }

    func row(_ y: Int, from x: Int, count: Int, into rgb: UnsafeMutableBufferPointer<UInt8>) {
        asked.withLock { $0.append((y, x, count)) }
        for i in 0..<(count * 3) { rgb[i] = image.pixels[(y * width + x) * 3 + i] }
    }
}

/// `Resampler.resample(rows:)`, the path of a picture held as something smaller than its RGB (a HEIC's planes),
/// must give the very bytes of the resample of the same picture in one buffer, reading each row once.
@Suite struct PixelRowsTests {
    static let jobs: [(width: Int, height: Int, region: Rect, outWidth: Int, outHeight: Int)] = [
        (40, 30, Rect(x: 0, y: 0, width: 40, height: 30), 13, 9),
        (40, 30, Rect(x: 3.25, y: 2.5, width: 30.5, height: 20.75), 61, 47),
        (64, 48, Rect(x: 10, y: 4, width: 20, height: 40), 20, 11),
        (9, 120, Rect(x: 0, y: 0, width: 9, height: 120), 5, 17),
        (1, 1, Rect(x: 0, y: 0, width: 1, height: 1), 3, 2),
    ]

    @Test(arguments: Resampler.PassOrder.allCases)
    func rowsGiveTheBufferResamplesBytes(_ order: Resampler.PassOrder) throws {
        for (index, job) in Self.jobs.enumerated() {
            for orientation in [Orientation.topLeft, .rightTop, .bottomLeft] {
                let image = TestImages.noise(width: job.width, height: job.height, seed: UInt64(index + 3))
                let rows = RecordingRows(image)
                let expected = try Resampler.resample(image, region: job.region, width: job.outWidth,
                                                      height: job.outHeight, orientation: orientation, order: order,
                                                      shouldCancel: { false })
                let got = try Resampler.resample(rows: rows, region: job.region, width: job.outWidth,
                                                 height: job.outHeight, orientation: orientation, order: order,
                                                 shouldCancel: { false })
                #expect(got == expected, "\(job) \(orientation)")
                let asked = rows.asked.withLock { $0 }
                #expect(asked.map(\.y) == Array(Set(asked.map(\.y))).sorted(), "each row once, top to bottom")
            }
        }
    }

    @Test func aWholeImageIsItsRows() {
        let image = TestImages.noise(width: 23, height: 7)
        #expect(RGBImage(rows: RecordingRows(image), pool: BufferPool()) == image)
    }

    @Test func aCancelledResampleStops() {
        let rows = RecordingRows(TestImages.noise(width: 50, height: 400))
        #expect(throws: ImagingError.cancelled) {
            try Resampler.resample(rows: rows, region: Rect(x: 0, y: 0, width: 50, height: 400), width: 25,
                                   height: 200, shouldCancel: { true })
        }
        #expect(rows.asked.withLock { $0.isEmpty })
    }
}
