import Foundation
import Imaging

/// Draws one file of the trip, upright: a camera scene (shifted, blurred, badly exposed as the plan says), a
/// screenshot or a photo of a document.
enum TripRenderer {
    static func render(_ shot: TripShot) -> RGBImage {
        switch shot.kind {
        case .screenshot: return ScreenshotPainter(shot: shot).paint()
        case .document: return DocumentPainter(shot: shot).paint()
        default: return photo(shot)
        }
    }

    static func photo(_ shot: TripShot) -> RGBImage {
        let width = shot.uprightWidth, height = shot.uprightHeight, margin = shot.margin
        var scene = SceneRenderer(width: width + 2 * margin, height: height + 2 * margin, seed: shot.sceneSeed).render()
        if margin > 0 {
            scene = crop(scene, x: margin + shot.shift.x, y: margin + shot.shift.y, width: width, height: height)
        }
        var pixels = scene.pixels
        var noise: Float = 0
        switch shot.blur {
        case .none: break
        case .motion(let length, let angle):
            Blur.motion(&pixels, width: width, height: height, length: length, angle: angle)
            noise = 3
        case .focus(let radius):
            for _ in 0..<3 { Blur.box(&pixels, width: width, height: height, radius: radius) }
            noise = 3
        }
        // Sensor noise comes after the lens and the shake; a dark frame is mostly noise.
        if shot.kind == .dark { noise = 2.5 }
        expose(&pixels, gain: shot.gain, lift: shot.lift, noise: noise, seed: shot.sceneSeed &+ UInt64(shot.index))
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    static func crop(_ image: RGBImage, x: Int, y: Int, width: Int, height: Int) -> RGBImage {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        image.pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { out in
                for row in 0..<height {
                    let from = ((y + row) * image.width + x) * 3
                    let to = row * width * 3
                    out.baseAddress!.advanced(by: to).update(from: source.baseAddress!.advanced(by: from), count: width * 3)
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: out)
    }

    /// Every level times `gain` plus `lift`, with grain of `noise` levels, clipped.
    static func expose(_ pixels: inout [UInt8], gain: Float, lift: Float, noise: Float, seed: UInt64) {
        if gain == 1 && lift == 0 && noise == 0 { return }
        var grain = GrainSource(seed: seed ^ 0xA5A5_5A5A_1234_5678)
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let (luma, red, blue) = grain.next()
                p[i] = SceneRenderer.byte(Float(p[i]) * gain + lift + noise * (luma + 0.5 * red))
                p[i + 1] = SceneRenderer.byte(Float(p[i + 1]) * gain + lift + noise * luma)
                p[i + 2] = SceneRenderer.byte(Float(p[i + 2]) * gain + lift + noise * (luma + 0.5 * blue))
                i += 3
            }
        }
    }
}

/// Blur kernels made of running sums, so that their cost does not grow with their size: a 40-pixel kernel on
/// 12 megapixels takes a fraction of a second.
enum Blur {
    /// One box pass of `2 * radius + 1` pixels along the rows, then one along the columns; edges repeated.
    static func box(_ pixels: inout [UInt8], width: Int, height: Int, radius: Int) {
        var out = [UInt8](repeating: 0, count: pixels.count)
        let span = 2 * radius + 1
        let reciprocal = (1 << 20) / span
        pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                // Rows.
                for y in 0..<height {
                    let row = y * width * 3
                    for c in 0..<3 {
                        @inline(__always) func at(_ x: Int) -> Int { Int(p[row + min(max(x, 0), width - 1) * 3 + c]) }
                        var sum = 0
                        for x in -radius...radius { sum += at(x) }
                        for x in 0..<width {
                            o[row + x * 3 + c] = UInt8((sum * reciprocal + (1 << 19)) >> 20)
                            sum += at(x + radius + 1) - at(x - radius)
                        }
                    }
                }
            }
        }
        // Columns, a whole row of sums at a time (cache-friendly).
        let stride = width * 3
        var sums = [Int](repeating: 0, count: stride)
        out.withUnsafeBufferPointer { o in
            pixels.withUnsafeMutableBufferPointer { p in
                sums.withUnsafeMutableBufferPointer { sums in
                    for y in -radius...radius {
                        let row = min(max(y, 0), height - 1) * stride
                        for i in 0..<stride { sums[i] += Int(o[row + i]) }
                    }
                    for y in 0..<height {
                        let row = y * stride
                        let enter = min(y + radius + 1, height - 1) * stride, leave = max(y - radius, 0) * stride
                        for i in 0..<stride {
                            p[row + i] = UInt8((sums[i] * reciprocal + (1 << 19)) >> 20)
                            sums[i] += Int(o[enter + i]) - Int(o[leave + i])
                        }
                    }
                }
            }
        }
    }

    /// A line kernel `length` pixels long at `angle` (radians from the horizontal, y down): the average along a
    /// digital line through each pixel, with running sums along every parallel line of the image.
    static func motion(_ pixels: inout [UInt8], width: Int, height: Int, length: Int, angle: Float) {
        guard length > 1 else { return }
        if abs(angle) <= .pi / 4 {
            shallow(&pixels, width: width, height: height, length: length, slope: tan(angle))
            return
        }
        // Steep: blur the transposed image, where the line is shallow.
        var turned = transpose(pixels, width: width, height: height)
        var other = Float.pi / 2 - angle
        if other > .pi / 2 { other -= .pi }
        shallow(&turned, width: height, height: width, length: length, slope: tan(other))
        pixels = transpose(turned, width: height, height: width)
    }

    private static func shallow(_ pixels: inout [UInt8], width: Int, height: Int, length: Int, slope: Float) {
        // The line through (0, y0) visits (x, y0 + offset[x]).
        let offset = (0..<width).map { Int((Float($0) * slope).rounded()) }
        let lowest = offset.min()!, highest = offset.max()!
        let before = (length - 1) / 2, after = length - 1 - before
        let reciprocal = (1 << 20) / length
        var out = [UInt8](repeating: 0, count: pixels.count)
        var indices = [Int](repeating: 0, count: width)
        pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                indices.withUnsafeMutableBufferPointer { indices in
                    for y0 in (-highest)..<(height - lowest) {
                        var n = 0
                        for x in 0..<width {
                            let y = y0 + offset[x]
                            if y >= 0 && y < height { indices[n] = (y * width + x) * 3; n += 1 }
                        }
                        guard n > 0 else { continue }
                        for c in 0..<3 {
                            @inline(__always) func at(_ k: Int) -> Int { Int(p[indices[min(max(k, 0), n - 1)] + c]) }
                            var sum = 0
                            for k in -before...after { sum += at(k) }
                            for k in 0..<n {
                                o[indices[k] + c] = UInt8((sum * reciprocal + (1 << 19)) >> 20)
                                sum += at(k + after + 1) - at(k - before)
                            }
                        }
                    }
                }
            }
        }
        pixels = out
    }

    static func transpose(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                // In tiles, so that both sides stay in cache.
                let tile = 64
                for ty in stride(from: 0, to: height, by: tile) {
                    for tx in stride(from: 0, to: width, by: tile) {
                        for y in ty..<min(ty + tile, height) {
                            for x in tx..<min(tx + tile, width) {
                                let from = (y * width + x) * 3, to = (x * height + y) * 3
                                o[to] = p[from]; o[to + 1] = p[from + 1]; o[to + 2] = p[from + 2]
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
