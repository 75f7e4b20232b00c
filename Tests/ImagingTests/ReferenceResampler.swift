import Foundation
import Geometry
import Imaging

/// The resampler's definition, evaluated the slow, obvious way: for every output pixel, a direct 2-D sum
/// in Double over every source pixel under the (scale-stretched) Lanczos-3 kernel, edges clamped, divided
/// by the sum of the weights. Shares no code with the fast resampler.
enum ReferenceResampler {
    static func lanczos3(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= 3 { return 0 }
        func sinc(_ t: Double) -> Double { sin(Double.pi * t) / (Double.pi * t) }
        return sinc(x) * sinc(x / 3)
    }

    static func resample(_ image: RGBImage, region: Rect, width: Int, height: Int) -> RGBImage {
        let scaleX = region.width / Double(width), scaleY = region.height / Double(height)
        let stretchX = max(scaleX, 1), stretchY = max(scaleY, 1)
        var pixels: [UInt8] = []
        for oy in 0..<height {
            let centreY = region.y + (Double(oy) + 0.5) * scaleY
            for ox in 0..<width {
                let centreX = region.x + (Double(ox) + 0.5) * scaleX
                var sum = [0.0, 0.0, 0.0], total = 0.0
                let reachX = Int(3 * stretchX) + 2, reachY = Int(3 * stretchY) + 2
                for sy in (Int(centreY) - reachY)...(Int(centreY) + reachY) {
                    let weightY = lanczos3((Double(sy) + 0.5 - centreY) / stretchY)
                    if weightY == 0 { continue }
                    for sx in (Int(centreX) - reachX)...(Int(centreX) + reachX) {
                        let weight = weightY * lanczos3((Double(sx) + 0.5 - centreX) / stretchX)
                        let p = image.pixel(x: min(max(sx, 0), image.width - 1), y: min(max(sy, 0), image.height - 1))
                        sum[0] += weight * Double(p.red)
                        sum[1] += weight * Double(p.green)
                        sum[2] += weight * Double(p.blue)
                        total += weight
                    }
                }
                pixels += sum.map { UInt8(min(max(($0 / total).rounded(), 0), 255)) }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
