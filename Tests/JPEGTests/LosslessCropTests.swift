import Foundation
import Geometry
import Imaging
import Testing
@testable import JPEG
import TestSupport

/// Lossless crops copy the source's quantised coefficients: every block of the new file is a block of the
/// source, moved and turned as the orientation says, under the source's quantisation tables.
struct LosslessCropTests {
    /// The sources: 4:2:0, 4:2:2, 4:4:4 and grey, at a size that leaves partial iMCUs at the right and bottom.
    static let sources: [(name: String, options: JPEGEncoder.Options)] = [
        ("4:2:0", .init(quality: 80, chromaSubsampling: .both)),
        ("4:2:2", .init(quality: 85, chromaSubsampling: .horizontal)),
        ("4:4:4", .init(quality: 92, chromaSubsampling: .none)),
        ("grey", .init(quality: 75, colorModel: .grayscale)),
    ]

    static func source(_ name: String, width: Int = 203, height: Int = 149) throws -> [UInt8] {
        let options = sources.first { $0.name == name }!.options
        return try JPEGEncoder.encode(JPEGTestSupport.syntheticImage(width: width, height: height, seed: 5), options: options)
    }

    /// Crops on and off the iMCU grid, touching no edge, the right and bottom edges, and the whole image.
    static let regions = [
        JPEGRegion(x: 32, y: 16, width: 96, height: 64),      // on the 16-pixel grid
        JPEGRegion(x: 37, y: 21, width: 101, height: 77),     // off it on every side
        JPEGRegion(x: 45, y: 30, width: 158, height: 119),    // to the right and bottom edges (partial iMCUs)
        JPEGRegion(x: 0, y: 0, width: 203, height: 149),      // everything
    ]

    @Test("every block is the source's, turned as the orientation says", arguments: ["4:2:0", "4:2:2", "4:4:4", "grey"])
    func blocksAreTheSources(_ name: String) throws {
        let jpeg = try Self.source(name)
        let original = try JPEGCoefficients.read(jpeg)
        for orientation in Orientation.allCases {
            for region in Self.regions {
                let output = try Self.crop(jpeg, region: region, orientation: orientation)
                try Self.expectSameBlocks(output, of: original, orientation: orientation, "\(name) \(orientation) \(region)")
            }
        }
    }

    /// Progressive, arithmetic-coded and restart-marked sources are read whole and written as baseline
    /// Huffman files without restarts, keeping every coefficient.
    @Test("progressive, arithmetic and restart-marked sources are rewritten as baseline, losslessly",
          arguments: ["progressive", "arithmetic", "restarts"])
    func otherCodingsAreRewritten(_ kind: String) throws {
        let picture = JPEGTestSupport.syntheticImage(width: 160, height: 120, seed: 2)
        let jpeg: [UInt8]
        switch kind {
        case "progressive": jpeg = try JPEGEncoder.encode(picture, options: .init(quality: 80, progressive: true))
        case "arithmetic": jpeg = try JPEGEncoder.encode(picture, options: .init(quality: 80, arithmeticCoding: true))
        default:
            let scratch = try LosslessScratch()
            let ppm = try scratch.write("in.ppm", Self.ppm(picture))
            jpeg = try ExternalCommand.output("cjpeg", ["-quality", "80", "-restart", "1", ppm])
        }
        let original = try JPEGCoefficients.read(jpeg)
        #expect(original.isProgressive == (kind == "progressive"))
        #expect(original.isArithmetic == (kind == "arithmetic"))
        #expect((original.restartInterval > 0) == (kind == "restarts"))
        for orientation in [Orientation.topLeft, .rightTop, .bottomRight] {
            let output = try Self.crop(jpeg, region: JPEGRegion(x: 20, y: 10, width: 100, height: 90), orientation: orientation)
            let written = try JPEGCoefficients.read(output.bytes)
            #expect(!written.isProgressive && !written.isArithmetic && written.restartInterval == 0)
            let frame = JPEGStructure.frame(output.bytes)
            #expect(frame.marker == 0xC0, "baseline SOF0")
            try Self.expectSameBlocks(output, of: original, orientation: orientation, "\(kind) \(orientation)")
        }
    }

    /// The independent check: jpegtran makes the same crop and turn, and djpeg decodes both files to the same
    /// pixels; read back with our reader, both files hold the same coefficients.
    @Test("jpegtran's crop and turn decodes to the same pixels", arguments: ["4:2:0", "4:2:2", "4:4:4", "grey"])
    func matchesJpegtran(_ name: String) throws {
        let scratch = try LosslessScratch()
        // A size on the grid: jpegtran cannot turn a partial iMCU losslessly (-perfect refuses it).
        let jpeg = try Self.source(name, width: 208, height: 144)
        let source = try scratch.write("source.jpg", jpeg)
        let flags: [Orientation: [String]] = [
            .topLeft: [], .topRight: ["-flip", "horizontal"], .bottomRight: ["-rotate", "180"],
            .bottomLeft: ["-flip", "vertical"], .leftTop: ["-transpose"], .rightTop: ["-rotate", "90"],
            .rightBottom: ["-transverse"], .leftBottom: ["-rotate", "270"],
        ]
        for orientation in Orientation.allCases {
            for region in [JPEGRegion(x: 37, y: 21, width: 101, height: 77), JPEGRegion(x: 50, y: 40, width: 158, height: 104)] {
                let output = try Self.crop(jpeg, region: region, orientation: orientation)
                // jpegtran's crop is given in the turned image.
                let stored = output.storedRegion
                let upright = orientation.uprightRect(ofStored: Rect(x: Double(stored.x), y: Double(stored.y),
                                                                           width: Double(stored.width), height: Double(stored.height)),
                                                      storedWidth: 208, storedHeight: 144)
                let crop = "\(Int(upright.width))x\(Int(upright.height))+\(Int(upright.x))+\(Int(upright.y))"
                let reference = try ExternalCommand.output("jpegtran", ["-perfect", "-crop", crop] + flags[orientation]! + [source])
                let ours = try scratch.write("ours.jpg", output.bytes)
                let theirs = try scratch.write("theirs.jpg", reference)
                let ourPixels = try ExternalCommand.output("djpeg", ["-rgb", "-ppm", ours])
                let theirPixels = try ExternalCommand.output("djpeg", ["-rgb", "-ppm", theirs])
                #expect(ourPixels == theirPixels, "\(name) \(orientation) \(region): crop \(crop)")
                let a = try JPEGCoefficients.read(output.bytes), b = try JPEGCoefficients.read(reference)
                #expect(a.width == b.width && a.height == b.height)
                for (ca, cb) in zip(a.components, b.components) {
                    #expect(ca.quantization == cb.quantization)
                    #expect(ca.widthInBlocks == cb.widthInBlocks && ca.heightInBlocks == cb.heightInBlocks)
                    let differing = (0..<ca.heightInBlocks).flatMap { row in (0..<ca.widthInBlocks).map { (row, $0) } }
                        .filter { ca.block(column: $0.1, row: $0.0) != cb.block(column: $0.1, row: $0.0) }
                    #expect(differing.isEmpty, "\(name) \(orientation) \(region): \(differing.count) blocks differ from jpegtran's")
                }
            }
        }
    }

    /// Sampling factors cjpeg can write: whole ratios with luma finest are copied (4:1:1, 4:4:0, 3:1 too);
    /// chroma finer than luma is left to the pixel path. (Fractional ratios, refused too, cjpeg cannot write.)
    @Test(arguments: [("4x1,1x1,1x1", true), ("1x2,1x1,1x1", true), ("2x2,1x2,2x1", true), ("3x1,1x1,1x1", true),
                      ("1x1,2x2,2x2", false)])
    func samplingFactors(_ sampling: String, copied: Bool) throws {
        let scratch = try LosslessScratch()
        let ppm = try scratch.write("in.ppm", Self.ppm(JPEGTestSupport.syntheticImage(width: 150, height: 101, seed: 4)))
        let jpeg = try ExternalCommand.output("cjpeg", ["-quality", "85", "-sample", sampling, ppm])
        let original = try JPEGCoefficients.read(jpeg)
        for orientation in Orientation.allCases {
            let result = try JPEGLosslessCrop.crop(jpeg, region: JPEGRegion(x: 30, y: 9, width: 120, height: 92),
                                                   orientation: orientation, maxPixels: 1 << 24)
            switch result {
            case .cropped(let output):
                #expect(copied, "\(sampling) was copied")
                try Self.expectSameBlocks(output, of: original, orientation: orientation, "\(sampling) \(orientation)")
            case .unsuitable(let reason):
                #expect(!copied, "\(sampling): \(reason)")
                #expect(reason.hasPrefix("unusual sampling factors"), "\(reason)")
            }
        }
    }

    /// A quantisation table redefined after the first scan: the scans before it keep the old one (libjpeg
    /// latches it), so the file decodes, but its blocks cannot be written under one table: the pixel path.
    @Test func aTableRedefinedBetweenScansIsLeftToThePixelPath() throws {
        let jpeg = try JPEGEncoder.encode(JPEGTestSupport.syntheticImage(width: 96, height: 64), options: .init(quality: 80, progressive: true))
        let second = JPEGStructure.scans(jpeg)[1].offset
        let table: [UInt8] = [0xFF, 0xDB, 0x00, 0x43, 0x00] + (1...64).map { UInt8($0) }
        let redefined = Array(jpeg[..<second]) + table + jpeg[second...]
        let decoded = try JPEGDecoder.decode(redefined, minimumWidth: 96, minimumHeight: 64, maxPixels: 1 << 20)
        #expect(decoded.width == 96)
        let result = try JPEGLosslessCrop.crop(redefined, region: JPEGRegion(x: 0, y: 0, width: 64, height: 64),
                                               orientation: .topLeft, maxPixels: 1 << 20)
        guard case .unsuitable(let reason) = result else { Issue.record("copied under a table it was not coded with"); return }
        #expect(reason.contains("cannot be copied"), "\(reason)")
    }

    @Test func cmykIsLeftToThePixelPath() throws {
        let cmyk = try Fixtures.bytes("cmyk-jpeg/pillow_pil_sample_cmyk.jpg")
        let result = try JPEGLosslessCrop.crop(cmyk, region: JPEGRegion(x: 0, y: 0, width: 50, height: 50),
                                               orientation: .topLeft, maxPixels: 1 << 24)
        guard case .unsuitable(let reason) = result else { Issue.record("a CMYK file was copied"); return }
        #expect(reason.contains("4 components"), "\(reason)")
    }

    @Test func brokenTooLargeAndCancelledSourcesThrow() throws {
        let jpeg = try Self.source("4:2:0")
        let region = JPEGRegion(x: 0, y: 0, width: 64, height: 64)
        #expect(throws: JPEGError.self) {
            _ = try JPEGLosslessCrop.crop(Array(jpeg.prefix(jpeg.count * 2 / 3)), region: region, orientation: .topLeft,
                                          maxPixels: 1 << 24)
        }
        #expect(throws: JPEGError.tooLarge(width: 203, height: 149, limit: 1000)) {
            _ = try JPEGLosslessCrop.crop(jpeg, region: region, orientation: .topLeft, maxPixels: 1000)
        }
        let counter = JPEGTestSupport.CancelAfter(2)
        #expect(throws: JPEGError.cancelled) {
            _ = try JPEGLosslessCrop.crop(jpeg, region: region, orientation: .rightTop, maxPixels: 1 << 24,
                                          shouldCancel: { counter() })
        }
    }

    @Test("the covering region grows to the iMCU grid, and into the padding only where a turn needs it")
    func coveringRegion() {
        let region = JPEGRegion(x: 45, y: 30, width: 158, height: 119)  // to the edges of 203x149
        for orientation in Orientation.allCases {
            let covering = JPEGLosslessCrop.coveringRegion(of: region, imageWidth: 203, imageHeight: 149,
                                                           iMCUWidth: 16, iMCUHeight: 16, orientation: orientation)
            #expect(covering.x == 32 && covering.y == 16)
            let rightToLeft = [2, 3, 7, 8].contains(orientation.rawValue), bottomToTop = [3, 4, 6, 7].contains(orientation.rawValue)
            #expect(covering.width == (rightToLeft ? 176 : 171), "\(orientation)")
            #expect(covering.height == (bottomToTop ? 144 : 133), "\(orientation)")
        }
        let inside = JPEGLosslessCrop.coveringRegion(of: JPEGRegion(x: 17, y: 8, width: 30, height: 8), imageWidth: 203,
                                                     imageHeight: 149, iMCUWidth: 16, iMCUHeight: 8, orientation: .rightTop)
        #expect(inside == JPEGRegion(x: 16, y: 8, width: 32, height: 8))
    }

    // MARK: - helpers

    static func crop(_ jpeg: [UInt8], region: JPEGRegion, orientation: Orientation) throws -> JPEGLosslessCrop.Output {
        switch try JPEGLosslessCrop.crop(jpeg, region: region, orientation: orientation, maxPixels: 1 << 24) {
        case .cropped(let output): return output
        case .unsuitable(let reason): throw Refused(reason: reason)
        }
    }

    /// Checks the output's geometry and that each of its blocks is the source block the orientation puts there,
    /// its coefficients moved and negated as turning the block's pixels would, under the turned table.
    static func expectSameBlocks(_ output: JPEGLosslessCrop.Output, of original: JPEGCoefficients,
                                 orientation: Orientation, _ label: String) throws {
        let written = try JPEGCoefficients.read(output.bytes)
        let stored = output.storedRegion
        let (uprightWidth, uprightHeight) = orientation.swapsDimensions ? (stored.height, stored.width) : (stored.width, stored.height)
        #expect(written.width == uprightWidth && written.height == uprightHeight, "\(label): size")
        #expect(written.components.count == original.components.count, "\(label)")
        let map = coefficientMaps[orientation.rawValue - 1]
        let maxH = original.components.map(\.horizontalSampling).max()!, maxV = original.components.map(\.verticalSampling).max()!
        for (index, (from, to)) in zip(original.components, written.components).enumerated() {
            // Blocks per iMCU of this component: a single component is coded one block at a time.
            let (h, v) = original.components.count == 1 ? (1, 1) : (from.horizontalSampling, from.verticalSampling)
            let (unitW, unitH) = original.components.count == 1 ? (8, 8) : (8 * maxH, 8 * maxV)
            #expect(stored.x % unitW == 0 && stored.y % unitH == 0, "\(label): on the grid")
            let firstColumn = stored.x / unitW * h, firstRow = stored.y / unitH * v
            // The region in this component's blocks, in the source's orientation, as the output holds them.
            let (columns, rows) = orientation.swapsDimensions
                ? (to.storedHeightInBlocks, to.storedWidthInBlocks) : (to.storedWidthInBlocks, to.storedHeightInBlocks)
            for k in 0..<64 {
                #expect(to.quantization[k] == from.quantization[map[k].source], "\(label): table of component \(index)")
            }
            for row in 0..<to.heightInBlocks {
                for column in 0..<to.widthInBlocks {
                    // Where the block's upright square lies in the stored region, in this component's samples.
                    let square = orientation.storedRect(ofUpright: Rect(x: Double(column * 8), y: Double(row * 8), width: 8, height: 8),
                                                        storedWidth: Double(columns * 8), storedHeight: Double(rows * 8))
                    let source = from.block(column: firstColumn + Int(square.x) / 8, row: firstRow + Int(square.y) / 8)
                    let block = to.block(column: column, row: row)
                    let expected = (0..<64).map { Int16(map[$0].sign) * source[source.startIndex + map[$0].source] }
                    if Array(block) != expected {
                        Issue.record("\(label): component \(index) block \(column),\(row) is not source block \(square)")
                        return
                    }
                }
            }
        }
    }

    static let coefficientMaps = Orientation.allCases.map(coefficientMap)

    /// For each output coefficient, which source coefficient it is and its sign, found by turning the pixels of
    /// each basis function with Imaging's orientation code and transforming them back (float DCT).
    static func coefficientMap(_ orientation: Orientation) -> [(source: Int, sign: Int)] {
        func basis(_ u: Int, _ x: Int) -> Double {
            (u == 0 ? (1.0 / 8).squareRoot() : (2.0 / 8).squareRoot()) * cos(Double((2 * x + 1) * u) * .pi / 16)
        }
        // Pixel p of the turned 8x8 block comes from pixel permutation[p] of the stored one.
        var indices = [UInt8](repeating: 0, count: 64 * 3)
        for p in 0..<64 { indices[p * 3] = UInt8(p) }
        let turned = RGBImage(width: 8, height: 8, pixels: indices).applying(orientation)
        let permutation = (0..<64).map { Int(turned.pixels[$0 * 3]) }
        var map = [(source: Int, sign: Int)](repeating: (0, 0), count: 64)
        for k in 0..<64 {
            let (v, u) = (k / 8, k % 8)
            let pixels = (0..<64).map { p in basis(v, permutation[p] / 8) * basis(u, permutation[p] % 8) }
            for j in 0..<64 {
                let value = (0..<64).reduce(0.0) { $0 + pixels[$1] * basis(j / 8, $1 / 8) * basis(j % 8, $1 % 8) }
                if abs(abs(value) - 1) < 1e-9 { map[j] = (k, value > 0 ? 1 : -1) }
            }
        }
        return map
    }

    struct Refused: Error { var reason: String }

    static func ppm(_ image: RGBImage) -> [UInt8] {
        Array("P6\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels
    }
}

/// A private folder for the files the reference tools read, removed with its contents.
final class LosslessScratch {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("photobook-lossless-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = "\(path)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }
}
