import Foundation
import Imaging
import Synchronization
import Testing
@testable import HEIF
import ImageCodec
import TestSupport

/// photobook's own libheif decoder plugins (CHEIFDecoders): HEVC through libavcodec, AV1 through dav1d.
@Suite struct HEIFDecoderPluginTests {
    /// HEVC decoding is exact, so libavcodec gives libde265's picture to the last bit: the same pixels as
    /// heif-convert's (libheif's own tool, decoding with libde265), after the same conversion to RGB.
    @Test(arguments: ["photo.heic", "rotated.heic", "rotated-irot-first.heic", "icc.heic", "grid.heic"])
    func hevcPicturesAreExactlyLibde265s(_ file: String) throws {
        let decoded = try HEIFFixtures.decodeWhole(try HEIFFixtures.bytes(file))
        let reference = try HEIFFixtures.reference(file)
        try #require(decoded.image.width == reference.width && decoded.image.height == reference.height)
        #expect(maxDifference(decoded.image.pixels, reference.pixels) == 0)
    }

    /// The fixtures above are all ones libheif does more to than convert (a 1x1 grid, irot, a grid): these plain
    /// HEICs, made by heif-enc with each matrix, range and chroma layout asked of its x265 (Trap: heif-enc 1.15
    /// ignores the matrix and the range, docs/design.md; `aColrNclxBoxWinsOverTheBitstreams` varies them), are
    /// decoded through the kept YCbCr planes (HEIFYCbCrPicture) and must still be heif-convert's picture, which
    /// is libde265's decode and libheif's own conversion to RGB, to the last bit.
    @Test(arguments: [[], ["--full_range_flag", "0"], ["--matrix_coefficients", "1"],
                      ["--matrix_coefficients", "9", "--full_range_flag", "0"], ["--matrix_coefficients", "12"],
                      ["--matrix_coefficients", "8"], ["-p", "chroma=422"], ["-p", "chroma=444"],
                      ["--matrix_coefficients", "0", "-p", "chroma=444"]])
    func keptPlanesGiveLibheifsPictureExactly(_ options: [String]) throws {
        let path = try Self.plainHEIC(options)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try Fixtures.read(path)
        let file = try HEIFFile(MemorySource(bytes), kind: "HEIC")
        try #require(file.onlyConvertedByLibheif != nil, "heif-enc \(options) made more than one plain picture")
        let picture = try HEIFDecodeJob.decode(file, maxPixels: 1 << 24, shouldCancel: { false })
        #expect(picture is HEIFYCbCrPicture)
        let decoded = try HEIFFixtures.decodeWhole(bytes)
        let reference = try HEIFFixtures.reference(path: path)
        try #require(decoded.image.width == reference.width && decoded.image.height == reference.height)
        #expect(maxDifference(decoded.image.pixels, reference.pixels) == 0, "heif-enc \(options)")
    }

    /// A plain 8-bit AVIF is kept as dav1d's planes too (AV1 decoding is exact): heif-convert's picture to the bit,
    /// with the colour of its `colr` nclx (sRGB's, Display P3's, BT.2020's) or of the sequence header.
    @Test(arguments: ["photo.avif", "p3.avif", "pq.avif"])
    func keptAV1PlanesGiveLibheifsPictureExactly(_ name: String) throws {
        let bytes = try HEIFFixtures.bytes(name)
        let file = try HEIFFile(MemorySource(bytes), kind: "AVIF")
        try #require(file.onlyConvertedByLibheif != nil)
        #expect(try HEIFDecodeJob.decode(file, maxPixels: 1 << 24, shouldCancel: { false }) is HEIFYCbCrPicture)
        let decoded = try HEIFFixtures.decodeWhole(bytes)
        let reference = try HEIFFixtures.reference(name)
        try #require(decoded.image.width == reference.width && decoded.image.height == reference.height)
        #expect(maxDifference(decoded.image.pixels, reference.pixels) == 0)
    }

    /// A phone's HEIC carries its colour in a `colr` nclx box of its own, which heif-enc 1.15 never writes: such
    /// files are made from heif-enc's by Fixtures/heif/tools/nclx_heic.py, with codes (primaries, transfer,
    /// matrix, full range) other than the bitstream VUI's. libheif takes the box's, and so must the kept planes:
    /// heif-convert's picture to the last bit, and not the picture of the same file without the box.
    /// (heif-enc 1.15 here writes the same file with or without `--matrix_coefficients 1 --full_range_flag 0`: the
    /// bitstreams below all carry its default VUI, which the box's codes differ from.)
    @Test(arguments: [([String](), [1, 1, 1, 0]), ([], [2, 2, 6, 0]), ([], [12, 13, 12, 1]), ([], [2, 2, 8, 1]),
                      (["-p", "chroma=444"], [1, 1, 1, 0]), (["-p", "chroma=422"], [9, 14, 9, 0])])
    func aColrNclxBoxWinsOverTheBitstreams(_ options: [String], _ codes: [Int]) throws {
        let plain = try Self.plainHEIC(options)
        let path = plain + ".nclx.heic"
        defer { for file in [plain, path] { try? FileManager.default.removeItem(atPath: file) } }
        _ = try ExternalCommand.output("/usr/bin/python3", [Fixtures.path("heif/tools/nclx_heic.py"), plain, path]
                                           + codes.map(String.init))
        let bytes = try Fixtures.read(path)
        let file = try HEIFFile(MemorySource(bytes), kind: "HEIC")
        let kept = try #require(file.onlyConvertedByLibheif ?? nil, "no nclx read from the colr box")
        #expect(kept.primaries == codes[0] && kept.matrix == codes[2] && kept.fullRange == (codes[3] == 1))
        #expect(try HEIFDecodeJob.decode(file, maxPixels: 1 << 24, shouldCancel: { false }) is HEIFYCbCrPicture)
        let decoded = try HEIFFixtures.decodeWhole(bytes)
        let reference = try HEIFFixtures.reference(path: path)
        try #require(decoded.image.width == reference.width && decoded.image.height == reference.height)
        #expect(maxDifference(decoded.image.pixels, reference.pixels) == 0, "\(options) colr \(codes)")
        #expect(reference.pixels != (try HEIFFixtures.reference(path: plain)).pixels, "the colr box changed nothing")
    }

    /// What libheif applies beyond the conversion (a grid, irot, alpha, another codec) keeps the picture in
    /// libheif's hands: HEIFPicture, its planar RGB.
    @Test(arguments: ["photo.heic", "rotated.heic", "rotated-irot-first.heic", "grid.heic", "alpha.heic",
                      "transposed.avif", "alpha.avif"])
    func otherImagesAreLeftToLibheif(_ name: String) throws {
        let source = try HEIFFixtures.source(name)
        let file = try HEIFFile(source, kind: try HEIFCodec.kind(of: source))
        #expect(file.onlyConvertedByLibheif == nil)
        #expect(try HEIFDecodeJob.decode(file, maxPixels: 1 << 24, shouldCancel: { false }) is HEIFPicture)
    }

    /// 10- and 12-bit pictures are kept as the decoder's 16-bit planes too (a 20-megapixel 10-bit AVIF held in
    /// 60 MB, not libheif's 180 MB): to the last bit the picture libheif's own conversion gives (its deep RGB
    /// brought to 8 bits by HEIFPicture), each matrix and range, HEVC (libavcodec) and AV1 (dav1d).
    @Test(arguments: [("deep10.heic", [String]()), ("", ["-b", "10"]), ("", ["-b", "10", "--full_range_flag", "0"]),
                      ("", ["-b", "12", "--matrix_coefficients", "9"]), ("", ["-b", "10", "-p", "chroma=444"]),
                      ("", ["-b", "10", "--matrix_coefficients", "0", "-p", "chroma=444"]),
                      ("deep10.avif", []), ("deep10-limited.avif", [])])
    func deepPlanesAreKeptAndGiveLibheifsPicture(_ name: String, _ options: [String]) throws {
        let path = name.isEmpty ? try Self.plainHEIC(options, deep: true) : Fixtures.path("heif/" + name)
        defer { if name.isEmpty { try? FileManager.default.removeItem(atPath: path) } }
        let bytes = try Fixtures.read(path)
        let file = try HEIFFile(MemorySource(bytes), kind: name.hasSuffix(".avif") ? "AVIF" : "HEIC")
        try #require(file.onlyConvertedByLibheif != nil, "\(options) made more than one plain picture")
        let kept = try HEIFDecodeJob.decode(file, maxPixels: 1 << 24, shouldCancel: { false })
        let converted = try HEIFDecodeJob.decode(file, maxPixels: 1 << 24, keepsPlanes: false, shouldCancel: { false })
        #expect(kept is HEIFYCbCrPicture && converted is HEIFPicture)
        let bits = options.firstIndex(of: "-b").map { Int(options[$0 + 1])! } ?? 10
        #expect((kept as? HEIFYCbCrPicture)?.bits == bits && (converted as? HEIFPicture)?.bits == bits)
        try #require(kept.width == converted.width && kept.height == converted.height)
        var keptRow = [UInt8](repeating: 0, count: kept.width * 3), convertedRow = keptRow
        var differing = 0
        for y in 0..<kept.height {
            keptRow.withUnsafeMutableBufferPointer { kept.row(y, from: 0, count: kept.width, into: $0) }
            convertedRow.withUnsafeMutableBufferPointer { converted.row(y, from: 0, count: converted.width, into: $0) }
            differing += zip(keptRow, convertedRow).filter { $0 != $1 }.count
        }
        #expect(differing == 0, "\(name) \(options)")
    }

    /// grid.heic's 2x2 tiles of 64x64 (into 120x100): those wholly outside the region are not decoded, and the
    /// region is still heif-convert's picture, pixel for pixel.
    @Test func gridTilesOutsideTheRegionAreLeftOut() throws {
        let source = try HEIFFixtures.source("grid.heic")
        let file = try HEIFFile(source, kind: "HEIC")
        #expect(file.gridTiles == HEIFGridTiles(rows: 2, columns: 2, tileWidth: 64, tileHeight: 64, width: 120, height: 100))
        let reference = try HEIFFixtures.reference("grid.heic")
        let cases = [(PixelRegion(x: 0, y: 0, width: 60, height: 100), 2), (PixelRegion(x: 70, y: 70, width: 50, height: 30), 3),
                     (PixelRegion(x: 60, y: 60, width: 8, height: 8), 0), (PixelRegion(x: 0, y: 0, width: 120, height: 100), 0)]
        for (region, leftOut) in cases {
            let picture = try HEIFDecodeJob.decode(file, region: region, maxPixels: 1 << 24, shouldCancel: { false })
            #expect((picture as? HEIFPicture)?.tilesLeftOut == leftOut, "\(region)")
            let decoded = try HEIFFixtures.codec.decode(source, DecodeRequest(region: region, minimumWidth: region.width,
                                                                              minimumHeight: region.height, maxPixels: 1 << 24),
                                                        pool: BufferPool(), shouldCancel: { false })
            #expect(decoded.image.pixels == HEIFFixtures.boxShrunk(reference.pixels, width: 120, region: region, factor: 1),
                    "\(region)")
        }
    }

    /// An iPhone's grid (4032x3024 of 512x512 tiles, 8x6) turned by its `irot` into 3024x4032: the crop is turned
    /// back onto the canvas, the tiles wholly outside it are left out, and the region is still the whole decode's.
    @Test func turnedGridTilesOutsideTheRegionAreLeftOut() throws {
        let source = try HEIFFixtures.source("metadata-extractor-images/iphone-xr.heic")
        let file = try HEIFFile(source, kind: "HEIC")
        let grid = try #require(file.gridTiles)
        #expect(grid.quarterTurns != 0 && grid.turnedSize == (3024, 4032))
        let whole = try HEIFFixtures.codec.decode(source, DecodeRequest.whole(width: 3024, height: 4032, maxPixels: 1 << 24),
                                                  pool: BufferPool(), shouldCancel: { false })
        for region in [PixelRegion(x: 0, y: 0, width: 1000, height: 4032), PixelRegion(x: 2000, y: 3000, width: 1024, height: 1032),
                       PixelRegion(x: 1500, y: 100, width: 600, height: 700)] {
            // Counted the other way round: each tile's canvas rectangle turned forward onto the picture.
            var expected = 0
            for row in 0..<grid.rows {
                for column in 0..<grid.columns {
                    var (x, y, w, h) = (column * grid.tileWidth, row * grid.tileHeight, grid.tileWidth, grid.tileHeight)
                    var canvasWidth = grid.width, canvasHeight = grid.height
                    for _ in 0..<grid.quarterTurns {  // anticlockwise: (x, y) to (y, width - 1 - x)
                        (x, y, w, h) = (y, canvasWidth - x - w, h, w)
                        (canvasWidth, canvasHeight) = (canvasHeight, canvasWidth)
                    }
                    let overlaps = x < region.x + region.width && region.x < x + w
                        && y < region.y + region.height && region.y < y + h
                    if !overlaps { expected += 1 }
                }
            }
            #expect(expected > 0)
            let picture = try HEIFDecodeJob.decode(file, region: region, maxPixels: 1 << 24, shouldCancel: { false })
            #expect((picture as? HEIFPicture)?.tilesLeftOut == expected, "\(region)")
            let decoded = try HEIFFixtures.codec.decode(source, DecodeRequest(region: region, minimumWidth: region.width,
                                                                              minimumHeight: region.height, maxPixels: 1 << 24),
                                                        pool: BufferPool(), shouldCancel: { false })
            #expect(decoded.image.pixels == HEIFFixtures.boxShrunk(whole.image.pixels, width: 3024, region: region, factor: 1),
                    "\(region)")
        }
    }

    /// Each pixel of a turned picture comes from the canvas pixel `canvasRegion` names, for every quarter turn:
    /// libheif's anticlockwise turn by one takes canvas pixel (x, y) to (y, width - 1 - x).
    @Test(arguments: 0..<4)
    func aTurnedRegionIsFoundOnTheCanvas(_ turns: Int) {
        let grid = HEIFGridTiles(rows: 1, columns: 1, tileWidth: 8, tileHeight: 8, width: 7, height: 5, quarterTurns: turns)
        for y in 0..<5 {
            for x in 0..<7 {
                var (tx, ty, w, h) = (x, y, 7, 5)
                for _ in 0..<turns { (tx, ty, w, h) = (ty, w - 1 - tx, h, w) }
                #expect(grid.turnedSize == (w, h))
                #expect(grid.canvasRegion(of: PixelRegion(x: tx, y: ty, width: 1, height: 1))
                        == PixelRegion(x: x, y: y, width: 1, height: 1), "turns \(turns) (\(x), \(y))")
            }
        }
    }

    /// Grids whose canvas libheif mirrors or crops, or with alpha, keep all their tiles; so does a plain picture.
    @Test(arguments: ["rotated.heic", "alpha.heic", "photo.avif"])
    func otherImagesKeepEveryTile(_ name: String) throws {
        let source = try HEIFFixtures.source(name)
        #expect(try HEIFFile(source, kind: try HEIFCodec.kind(of: source)).gridTiles == nil)
    }

    /// A 256x160 picture of gradients and noise (every sample value, sharp chroma edges) as a HEIC from
    /// heif-enc with `options`: even sides, so one coded picture and no 1x1 grid around it.
    /// A plain HEIC (or AVIF, with "-A") made by heif-enc with `options` from a noisy 256x160 picture: of 8-bit
    /// samples, or with `deep` of 16-bit ones (ImageMagick's `-depth 16`), which heif-enc's `-b` needs.
    static func plainHEIC(_ options: [String], deep: Bool = false) throws -> String {
        let width = 256, height = 160
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var noise = SeededBytes(state: 7)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let block = (x / 32 + y / 32) % 2 == 0
                pixels[i] = block ? UInt8(x) : noise.next()
                pixels[i + 1] = block ? UInt8(truncatingIfNeeded: y * 2) : noise.next()
                pixels[i + 2] = block ? 255 - UInt8(x) : noise.next()
            }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("heif-plain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let png = directory.appendingPathComponent("in.png").path, heic = directory.appendingPathComponent("in.heic").path
        try #require(FileManager.default.createFile(atPath: png, contents: Data(
            TestPNGEncoder.encode(width: width, height: height, colorType: 2, pixels: pixels))))
        // Trap: ImageMagick writes 8 bits again for `-depth 16` when the samples fit; PNG48: forces 16.
        if deep { _ = try ExternalCommand.output("convert", [png, "-depth", "16", "PNG48:" + png]) }
        _ = try ExternalCommand.output("heif-enc", ["-q", "90"] + options + [png, "-o", heic])
        let moved = FileManager.default.temporaryDirectory.appendingPathComponent("heif-plain-\(UUID().uuidString).heic").path
        try FileManager.default.moveItem(atPath: heic, toPath: moved)
        try FileManager.default.removeItem(at: directory)
        return moved
    }
}

/// The threads of the whole process are counted, so the Makefile runs this suite alone, after the rest
/// (`ALONE_TESTS`): beside other suites it would count their threads too. Serialized: its two cases would
/// otherwise run at once and count each other's decode threads.
@Suite(.serialized) struct HEIFThreadTests {
    /// `--jobs` means what it says: a decode adds one thread, the one it runs on (HEIFDecodeJob), and none of
    /// the decoder's own. libheif 1.15's plugins start a libde265 worker per decode and dav1d's default of a
    /// thread per CPU; the thread count is sampled while each picture is decoded a few times.
    @Test(arguments: ["HEIC", "AVIF"])
    func aDecodeRunsOnOneThread(_ kind: String) throws {
        let made = kind == "HEIC" ? HEIFDecodeTests.largeHEIC : HEIFDecodeTests.largeAVIF
        let bytes = try #require(made, "heif-enc could not make the large \(kind)")
        let request = DecodeRequest.whole(width: 2400, height: 1600, maxPixels: 1 << 24)
        let sampling = Atomic(true)
        let most = Atomic(0)
        let running = DispatchSemaphore(value: 0)
        let sampler = Thread {
            most.max(Self.threadCount())
            running.signal()
            while sampling.load(ordering: .relaxed) {
                most.max(Self.threadCount())
                usleep(200)  // the sampling period (5 kHz), not an ordering of events
            }
        }
        sampler.start()
        // The sampler is running (and counted) once it has read the count once.
        try #require(running.wait(timeout: .now() + 30) == .success, "the sampling thread did not start")
        let before = Self.threadCount()
        try #require(before > 0, "/proc/self/status has no Threads: line")
        for _ in 0..<3 {
            let decoded = try HEIFFixtures.codec.decode(MemorySource(bytes), request,
                                                        pool: BufferPool(), shouldCancel: { false })
            #expect(decoded.image.width == 2400)
        }
        sampling.store(false, ordering: .relaxed)
        #expect(most.load(ordering: .relaxed) <= before + 1, "\(kind): \(before) threads before, \(most.load(ordering: .relaxed)) at most")
    }

    /// The `Threads:` line of /proc/self/status.
    static func threadCount() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }),
              let count = Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) else { return 0 }
        return count
    }
}

private extension Atomic<Int> {
    func max(_ value: Int) {
        var current = load(ordering: .relaxed)
        while value > current {
            let (exchanged, original) = compareExchange(expected: current, desired: value, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}
