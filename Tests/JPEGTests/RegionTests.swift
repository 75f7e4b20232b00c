import Imaging
import Testing
@testable import JPEG
import TestSupport

/// A region decode is the matching part of a full decode at the same scale, and `covers` says exactly which part.
struct RegionTests {
    struct Source: Sendable, CustomTestStringConvertible {
        let name: String
        let options: JPEGEncoder.Options
        var testDescription: String { name }
    }

    static let sources: [Source] = [
        Source(name: "4:2:0", options: .init(quality: 90, chromaSubsampling: .both)),
        Source(name: "4:2:2", options: .init(quality: 90, chromaSubsampling: .horizontal)),
        Source(name: "4:4:4", options: .init(quality: 90, chromaSubsampling: .none)),
        Source(name: "grey", options: .init(quality: 90, colorModel: .grayscale)),
        Source(name: "Adobe CMYK", options: .init(quality: 90, colorModel: .cmyk)),
        Source(name: "Adobe YCCK 4:2:0", options: .init(quality: 90, chromaSubsampling: .both, colorModel: .ycck)),
        Source(name: "progressive 4:2:0", options: .init(quality: 90, progressive: true, chromaSubsampling: .both)),
        Source(name: "arithmetic 4:2:0", options: .init(quality: 90, arithmeticCoding: true, chromaSubsampling: .both)),
        Source(name: "progressive arithmetic 4:2:2",
               options: .init(quality: 90, progressive: true, arithmeticCoding: true, chromaSubsampling: .horizontal)),
        Source(name: "progressive grey", options: .init(quality: 90, progressive: true, colorModel: .grayscale)),
    ]

    /// Not a multiple of any iMCU size either way, so the right and bottom edges are partial blocks.
    static let width = 301, height = 203

    static let regions: [(String, JPEGRegion)] = [
        ("whole image", JPEGRegion(x: 0, y: 0, width: width, height: height)),
        ("left strip", JPEGRegion(x: 0, y: 0, width: 90, height: height)),
        ("right strip", JPEGRegion(x: 211, y: 0, width: 90, height: height)),
        ("centre", JPEGRegion(x: 100, y: 60, width: 101, height: 83)),
        ("top strip", JPEGRegion(x: 0, y: 0, width: width, height: 50)),
        ("bottom strip", JPEGRegion(x: 0, y: 150, width: width, height: 53)),
        ("iMCU-aligned", JPEGRegion(x: 32, y: 48, width: 64, height: 96)),
        ("unaligned", JPEGRegion(x: 33, y: 47, width: 129, height: 71)),
        ("one pixel", JPEGRegion(x: 157, y: 97, width: 1, height: 1)),
        ("bottom-right pixel", JPEGRegion(x: 300, y: 202, width: 1, height: 1)),
        ("partly outside", JPEGRegion(x: -20, y: 180, width: 50, height: 50)),
    ]

    static func encoded(_ source: Source) -> [UInt8] {
        try! JPEGEncoder.encode(JPEGTestSupport.syntheticImage(width: width, height: height, seed: 3),
                                options: source.options)
    }

    /// The full decode at `scale`/8 (libjpeg's size: each side rounded up).
    static func fullDecode(_ jpeg: [UInt8], scale: Int) throws -> RGBImage {
        let full = try JPEGDecoder.decode(jpeg, minimumWidth: (width * scale + 7) / 8,
                                          minimumHeight: (height * scale + 7) / 8, maxPixels: 1 << 20)
        try #require(full.width == (width * scale + 7) / 8 && full.height == (height * scale + 7) / 8)
        return full
    }

    /// `region` clamped to the image.
    static func clamped(_ region: JPEGRegion) -> (left: Int, top: Int, right: Int, bottom: Int) {
        (max(0, region.x), max(0, region.y), min(width, region.x + region.width),
         min(height, region.y + region.height))
    }

    /// Every promise `JPEGDecodedRegion` makes about `covers`, for a decode of `region` at `scale`/8.
    static func expectCoversConsistent(_ decoded: JPEGDecodedRegion, region: JPEGRegion, scale: Int,
                                       iMCU: (width: Int, height: Int)) {
        let (left, top, right, bottom) = clamped(region)
        let covers = decoded.covers
        #expect(decoded.scale == scale)
        // It holds the region, starting at the iMCU at or before it and ending at the block at or after it.
        #expect(covers.x % iMCU.width == 0 && covers.x <= left && covers.x > left - iMCU.width)
        #expect(covers.y % iMCU.height == 0 && covers.y <= top && covers.y > top - iMCU.height)
        #expect(covers.x + covers.width == min(width, (right + 7) / 8 * 8))
        #expect(covers.y + covers.height == min(height, (bottom + 7) / 8 * 8))
        // Output size: exact away from the image's edge, rounded up (as libjpeg does) at it.
        #expect(decoded.image.width == (covers.width * scale + 7) / 8)
        #expect(decoded.image.height == (covers.height * scale + 7) / 8)
        if covers.x + covers.width < width { #expect(covers.width * scale % 8 == 0) }
        if covers.y + covers.height < height { #expect(covers.height * scale % 8 == 0) }
    }

    /// The part of `image` at `x`, `y` of `width` x `height`.
    static func crop(_ image: RGBImage, x: Int, y: Int, width: Int, height: Int) -> RGBImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for row in y..<(y + height) {
            let start = (row * image.width + x) * 3
            pixels += image.pixels[start..<(start + width * 3)]
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    static func iMCU(_ source: Source) -> (width: Int, height: Int) {
        switch source.options.chromaSubsampling {
        case .both: return (16, 16)
        case .horizontal: return (16, 8)
        default: return (8, 8)
        }
    }

    @Test("a region decode is the same part of a full decode at the same scale", arguments: sources, 1...8)
    func matchesFullDecode(_ source: Source, scale: Int) throws {
        let jpeg = Self.encoded(source)
        let full = try Self.fullDecode(jpeg, scale: scale)
        for (name, region) in Self.regions {
            var tuning = JPEGDecoder.RegionTuning()
            tuning.scale = scale
            let decoded = try JPEGDecoder.decode(jpeg, region: region, minimumWidth: 0, minimumHeight: 0,
                                                 maxPixels: 1 << 20, tuning: tuning, shouldCancel: { false })
            Self.expectCoversConsistent(decoded, region: region, scale: scale, iMCU: Self.iMCU(source))
            let part = Self.crop(full, x: decoded.covers.x * scale / 8, y: decoded.covers.y * scale / 8,
                                 width: decoded.image.width, height: decoded.image.height)
            // Measured: identical, sample for sample, for every source, scale and region.
            #expect(JPEGTestSupport.maxDifference(decoded.image, part) == 0, "\(name) at \(scale)/8")
        }
    }

    @Test("without the extra columns, libjpeg's cropped 4:2:0 rows differ from a full decode at the crop's edges")
    func marginColumnsMatter() throws {
        let source = Self.sources[0]
        let jpeg = Self.encoded(source)
        let full = try Self.fullDecode(jpeg, scale: 8)
        var tuning = JPEGDecoder.RegionTuning()
        tuning.marginColumns = false
        let region = JPEGRegion(x: 100, y: 60, width: 101, height: 83)
        let decoded = try JPEGDecoder.decode(jpeg, region: region, minimumWidth: .max, minimumHeight: .max,
                                             maxPixels: 1 << 20, tuning: tuning, shouldCancel: { false })
        let part = Self.crop(full, x: decoded.covers.x, y: decoded.covers.y, width: decoded.image.width,
                             height: decoded.image.height)
        // The edge columns' chroma is upsampled as if it were the image's edge. If this ever reads 0, libjpeg
        // fixed it and the margin can go.
        #expect(JPEGTestSupport.maxDifference(decoded.image, part) > 2)
    }

    @Test("the scale is the smallest whose scaled region reaches the minimum size")
    func scaleChoice() throws {
        #expect(JPEGDecoder.regionScale(width: 2058, height: 3000, minimumWidth: 1029, minimumHeight: 1500) == 4)
        #expect(JPEGDecoder.regionScale(width: 2058, height: 3000, minimumWidth: 1030, minimumHeight: 1500) == 5)
        #expect(JPEGDecoder.regionScale(width: 2058, height: 3000, minimumWidth: 0, minimumHeight: 376) == 2)
        #expect(JPEGDecoder.regionScale(width: 2058, height: 3000, minimumWidth: 257, minimumHeight: 375) == 1)
        // Unlike scaledSize's rounded-up whole image, a region's span is not rounded: 1801 * 1/8 < 226.
        #expect(JPEGDecoder.regionScale(width: 1801, height: 8, minimumWidth: 226, minimumHeight: 1) == 2)
        #expect(JPEGDecoder.regionScale(width: 100, height: 100, minimumWidth: 101, minimumHeight: 1) == 8)
        #expect(JPEGDecoder.regionScale(width: 100, height: 100, minimumWidth: .max, minimumHeight: .max) == 8)

        let jpeg = Self.encoded(Self.sources[0])
        let region = JPEGRegion(x: 40, y: 30, width: 200, height: 160)
        let decoded = try JPEGDecoder.decode(jpeg, region: region, minimumWidth: 100, minimumHeight: 61,
                                             maxPixels: 1 << 20)
        #expect(decoded.scale == 4)
        // The region's own span in output pixels reaches the minimum.
        #expect(region.width * decoded.image.width >= 100 * decoded.covers.width)
        #expect(region.height * decoded.image.height >= 61 * decoded.covers.height)
    }

    @Test("a region that misses the image, or an image over the pixel limit, fails before decoding")
    func refusals() throws {
        let jpeg = Self.encoded(Self.sources[0])
        for region in [JPEGRegion(x: 301, y: 0, width: 10, height: 10), JPEGRegion(x: 0, y: -5, width: 10, height: 5),
                       JPEGRegion(x: 10, y: 10, width: 0, height: 10), JPEGRegion(x: 10, y: 10, width: 5, height: -1)] {
            #expect("\(region)", performing: {
                try JPEGDecoder.decode(jpeg, region: region, minimumWidth: 1, minimumHeight: 1, maxPixels: 1 << 20)
            }, throws: { error in
                guard case .unsupported(let why) = error as? JPEGError else { return false }
                return why.contains("outside the 301x203 image")
            })
        }
        #expect(throws: JPEGError.tooLarge(width: 301, height: 203, limit: 60_000)) {
            try JPEGDecoder.decode(jpeg, region: JPEGRegion(x: 0, y: 0, width: 8, height: 8), minimumWidth: 1,
                                   minimumHeight: 1, maxPixels: 60_000)
        }
        #expect(throws: JPEGError.notJPEG) {
            try JPEGDecoder.decode([0x89, 0x50], region: JPEGRegion(x: 0, y: 0, width: 8, height: 8),
                                   minimumWidth: 1, minimumHeight: 1, maxPixels: 60_000)
        }
    }

    // MARK: Damaged files

    static let tall = JPEGTestSupport.syntheticImage(width: 160, height: 480, seed: 4)

    @Test("a file truncated anywhere, also far below the region, fails as truncated",
          arguments: [false, true], FailureTests.Cut.allCases.filter { !$0.beforeFirstScan })
    func truncated(progressive: Bool, cut: FailureTests.Cut) throws {
        let jpeg = try JPEGEncoder.encode(Self.tall, options: .init(quality: 90, progressive: progressive,
                                                                    chromaSubsampling: .both))
        let bytes = Array(jpeg.prefix(cut.offset(in: jpeg)))
        for region in [JPEGRegion(x: 40, y: 0, width: 40, height: 40), JPEGRegion(x: 0, y: 200, width: 160, height: 8)] {
            for scale in [1, 3, 8] {
                var tuning = JPEGDecoder.RegionTuning()
                tuning.scale = scale
                #expect(throws: FailureTests.truncated, "\(region) at \(scale)/8") {
                    try JPEGDecoder.decode(bytes, region: region, minimumWidth: 0, minimumHeight: 0,
                                           maxPixels: 1 << 20, tuning: tuning, shouldCancel: { false })
                }
            }
        }
    }

    @Test("why the last iMCU row is read: skipping to the end hides a truncated tail of a baseline file")
    func skippingToTheEndHidesTruncation() throws {
        let jpeg = try JPEGEncoder.encode(Self.tall, options: .init(quality: 90, chromaSubsampling: .both))
        let bytes = Array(jpeg.prefix(jpeg.count - 40))
        var tuning = JPEGDecoder.RegionTuning()
        tuning.checksTail = false
        let decoded = try JPEGDecoder.decode(bytes, region: JPEGRegion(x: 0, y: 0, width: 160, height: 64),
                                             minimumWidth: .max, minimumHeight: .max, maxPixels: 1 << 20,
                                             tuning: tuning, shouldCancel: { false })
        #expect(decoded.image.height == 64)
    }

    @Test("corrupt data inside the region fails the decode")
    func corruptInside() throws {
        let jpeg = try JPEGEncoder.encode(Self.tall, options: .init(quality: 90, chromaSubsampling: .both))
        var bytes = jpeg
        // A restart marker where none belongs, early in the scan: libjpeg warns and would resynchronise.
        let scan = JPEGStructure.scans(jpeg)[0].end
        bytes[scan + 50] = 0xFF
        bytes[scan + 51] = 0xD3
        #expect(performing: {
            try JPEGDecoder.decode(bytes, region: JPEGRegion(x: 0, y: 0, width: 160, height: 32), minimumWidth: .max,
                                   minimumHeight: .max, maxPixels: 1 << 20)
        }, throws: { error in
            guard case .corrupt = error as? JPEGError else { return false }
            return true
        })
    }

    // MARK: Cancellation

    @Test("a region decode stops at whichever check says cancel: before, after starting, per band skipped or read")
    func cancellation() throws {
        let jpeg = try JPEGEncoder.encode(Self.tall, options: .init(quality: 90, chromaSubsampling: .both))
        var tuning = JPEGDecoder.RegionTuning()
        tuning.skipBandIMCURows = 2
        let run = { (shouldCancel: () -> Bool) throws(JPEGError) in
            _ = try JPEGDecoder.decode(jpeg, region: JPEGRegion(x: 50, y: 200, width: 60, height: 100),
                                       minimumWidth: .max, minimumHeight: .max, maxPixels: 1 << 20,
                                       tuning: tuning, shouldCancel: shouldCancel)
        }
        let total = try CancellationTests.callsWithoutCancelling(run)
        // Rows 192..<304 are read (4 bands of 32); rows 0..<192 are skipped in 6 bands of 2 iMCU rows (32 rows);
        // below, 304..<320 are read to reach an iMCU row, 320..<464 skipped in 5 bands, the last iMCU row read.
        #expect(total == 2 + 6 + 4 + 5)
        CancellationTests.expectCancellableAtEveryCall(run, total: total)
    }

    @Test("a progressive region decode can be cancelled while libjpeg reads the scans")
    func cancellationProgressive() throws {
        let jpeg = try JPEGEncoder.encode(Self.tall, options: .init(quality: 90, progressive: true))
        let run = { (shouldCancel: () -> Bool) throws(JPEGError) in
            _ = try JPEGDecoder.decode(jpeg, region: JPEGRegion(x: 50, y: 200, width: 60, height: 100),
                                       minimumWidth: 30, minimumHeight: 50, maxPixels: 1 << 20,
                                       shouldCancel: shouldCancel)
        }
        let total = try CancellationTests.callsWithoutCancelling(run)
        #expect(total >= 12)  // 1 before starting, at least one per scan inside start, then bands
        for cancelAt in [2, 5, total] {
            let counter = JPEGTestSupport.CancelAfter(cancelAt)
            #expect(throws: JPEGError.cancelled) { try run { counter() } }
            #expect(counter.calls == cancelAt)
        }
    }
}
