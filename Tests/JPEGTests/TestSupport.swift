import Foundation
import Imaging
@testable import JPEG

/// Fixtures, synthetic images, reference tools and image metrics shared by the JPEG tests.
enum TestSupport {
    /// The package root, found from this file's path (Tests/JPEGTests/TestSupport.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fixturePath(_ relative: String) -> String {
        packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(relative).path
    }

    static func fixture(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixturePath(relative))))
    }

    /// A test picture with detail: smooth gradients, hard edges and a colour checkerboard, different per seed.
    static func syntheticImage(width: Int, height: Int, seed: Int = 0) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                var r = x * 255 / max(1, width - 1)
                var g = y * 255 / max(1, height - 1)
                var b = (x + y + seed * 37) * 255 / max(1, width + height - 2) % 256
                if (x / 16 + y / 16) % 2 == 0 && y > height / 2 {  // hard-edged blocks in the lower half
                    r = 255 - r
                    b = 255 - b
                }
                if x > width * 3 / 4 && y < height / 4 {  // a flat, saturated patch
                    r = 200; g = 30; b = 40
                }
                let dx = x - width / 2, dy = y - height / 4, radius = height / 8
                if dx * dx + dy * dy < radius * radius {  // a disc, for curved edges
                    r = 20; g = 20; b = 220
                }
                pixels[i] = UInt8(clamping: r)
                pixels[i + 1] = UInt8(clamping: g)
                pixels[i + 2] = UInt8(clamping: b)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The image with each pixel replaced by its luminance (JPEG's Y, rounded) in all three channels.
    static func grey(_ image: RGBImage) -> RGBImage {
        var pixels = image.pixels
        for i in stride(from: 0, to: pixels.count, by: 3) {
            let y = (299 * Int(pixels[i]) + 587 * Int(pixels[i + 1]) + 114 * Int(pixels[i + 2]) + 500) / 1000
            pixels[i] = UInt8(y); pixels[i + 1] = UInt8(y); pixels[i + 2] = UInt8(y)
        }
        return RGBImage(width: image.width, height: image.height, pixels: pixels)
    }

    /// Peak signal-to-noise ratio in dB over all samples (infinity for identical images).
    static func psnr(_ a: RGBImage, _ b: RGBImage) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var sum = 0.0
        for i in 0..<a.pixels.count {
            let d = Double(a.pixels[i]) - Double(b.pixels[i])
            sum += d * d
        }
        if sum == 0 { return .infinity }
        return 10 * log10(255 * 255 / (sum / Double(a.pixels.count)))
    }

    /// The largest difference between two samples at the same place.
    static func maxDifference(_ a: RGBImage, _ b: RGBImage) -> Int {
        precondition(a.width == b.width && a.height == b.height)
        var worst = 0
        for i in 0..<a.pixels.count { worst = max(worst, abs(Int(a.pixels[i]) - Int(b.pixels[i]))) }
        return worst
    }

    /// An area-average reduction of `image` to `width` x `height` (exact box filter over fractional pixels).
    static func boxDownscale(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        let sx = Double(image.width) / Double(width), sy = Double(image.height) / Double(height)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for oy in 0..<height {
            let y0 = Double(oy) * sy, y1 = y0 + sy
            for ox in 0..<width {
                let x0 = Double(ox) * sx, x1 = x0 + sx
                var sums = (0.0, 0.0, 0.0), total = 0.0
                for y in Int(y0)..<min(image.height, Int(y1.rounded(.up))) {
                    let wy = min(y1, Double(y + 1)) - max(y0, Double(y))
                    for x in Int(x0)..<min(image.width, Int(x1.rounded(.up))) {
                        let w = wy * (min(x1, Double(x + 1)) - max(x0, Double(x)))
                        let p = image.pixel(x: x, y: y)
                        sums.0 += w * Double(p.red); sums.1 += w * Double(p.green); sums.2 += w * Double(p.blue)
                        total += w
                    }
                }
                let i = (oy * width + ox) * 3
                pixels[i] = UInt8((sums.0 / total).rounded())
                pixels[i + 1] = UInt8((sums.1 / total).rounded())
                pixels[i + 2] = UInt8((sums.2 / total).rounded())
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    struct ToolFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs a reference tool (djpeg, convert) and returns its standard output.
    static func run(_ tool: String, _ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(description: "\(tool) \(arguments) exited with \(process.terminationStatus)")
        }
        return [UInt8](data)
    }

    /// Parses a binary PPM (P6, maxval 255) as written by djpeg and ImageMagick.
    static func parsePPM(_ bytes: [UInt8]) throws -> RGBImage {
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else {
            throw ToolFailure(description: "not a P6 PPM")
        }
        var fields: [Int] = []
        var index = 2
        while fields.count < 3 {
            while index < bytes.count, bytes[index] == UInt8(ascii: "#") || isSpace(bytes[index]) {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count, bytes[index] != 10 { index += 1 }
                } else {
                    index += 1
                }
            }
            var value = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                value = value * 10 + Int(bytes[index] - 48)
                index += 1
            }
            fields.append(value)
        }
        index += 1  // the single whitespace byte after maxval
        let (width, height, maxval) = (fields[0], fields[1], fields[2])
        guard maxval == 255, bytes.count - index >= width * height * 3 else {
            throw ToolFailure(description: "unexpected PPM \(width)x\(height) maxval \(maxval)")
        }
        return RGBImage(width: width, height: height, pixels: Array(bytes[index..<(index + width * height * 3)]))
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 }

    /// The offset of the first marker `FF code` after SOI, walking the marker segments (not the scan data).
    static func markerOffset(_ jpeg: [UInt8], code: UInt8) -> Int? {
        var i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF {
            if jpeg[i + 1] == code { return i }
            if jpeg[i + 1] == 0xDA { return nil }  // the scan starts: no more header segments
            i += 2 + (Int(jpeg[i + 2]) << 8 + Int(jpeg[i + 3]))
        }
        return nil
    }

    /// The offset of the first byte of entropy-coded data (just after the first SOS segment).
    static func scanDataOffset(_ jpeg: [UInt8]) -> Int {
        let sos = markerOffset(jpeg, code: 0xDA)!
        return sos + 2 + (Int(jpeg[sos + 2]) << 8 + Int(jpeg[sos + 3]))
    }

    /// The offset of the frame header (SOF0, SOF1 or SOF2 marker).
    static func frameOffset(_ jpeg: [UInt8]) -> Int {
        markerOffset(jpeg, code: 0xC0) ?? markerOffset(jpeg, code: 0xC1) ?? markerOffset(jpeg, code: 0xC2)!
    }

    /// A copy of `jpeg` with its frame header's width and height replaced.
    static func withFrameSize(_ jpeg: [UInt8], width: Int, height: Int) -> [UInt8] {
        var bytes = jpeg
        let sof = frameOffset(jpeg)
        bytes[sof + 5] = UInt8(height >> 8); bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8); bytes[sof + 8] = UInt8(width & 0xFF)
        return bytes
    }

    /// A deterministic pseudo-random byte generator (tests must not depend on the run).
    struct SeededBytes {
        var state: UInt64
        mutating func next() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// A counter of calls to a `shouldCancel` closure that starts saying yes at call `cancelAt` (1-based).
    final class CancelAfter {
        let cancelAt: Int
        private(set) var calls = 0
        init(_ cancelAt: Int) { self.cancelAt = cancelAt }
        func callAsFunction() -> Bool {
            calls += 1
            return calls >= cancelAt
        }
    }
}
