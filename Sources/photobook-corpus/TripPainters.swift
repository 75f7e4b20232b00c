import Foundation
import Imaging

/// Text-like marks: letters drawn from a few strokes (stems, bars, a bowl, a diagonal), in words of 1-9 letters.
enum Glyphs {
    /// Stroke sets: 1 left stem, 2 right stem, 4 top bar, 8 middle bar, 16 bottom bar, 32 bowl, 64 diagonal,
    /// 128 the left stem rising as an ascender. Roughly o c e a n m l i t s r u h d b x k.
    static let letters: [UInt8] = [32, 1 | 4 | 16, 32 | 8, 32 | 2, 1 | 2 | 4, 1 | 2 | 4 | 8, 1 | 128, 1, 1 | 4 | 128,
                                   4 | 8 | 16, 1 | 4, 1 | 2 | 16, 1 | 2 | 4 | 128, 32 | 2 | 128, 32 | 1 | 128, 64,
                                   1 | 64 | 128]

    /// A line of `cells` letter cells: codes (0 a space) in words.
    static func line(cells: Int, rng: inout SplitMix64) -> [UInt8] {
        var codes: [UInt8] = []
        while codes.count < cells {
            let word = 1 + Int(rng.next() % 9)
            for _ in 0..<word where codes.count < cells { codes.append(letters[Int(rng.next() % UInt64(letters.count))]) }
            if codes.count < cells { codes.append(0) }
        }
        return codes
    }

    /// Whether the letter `code` inks the point (u, v): u across the letter 0...1, v down its x-height 0...1
    /// (ascenders reach -0.5). `weight` is the stroke's width as a share of the letter.
    @inline(__always)
    static func ink(_ code: UInt8, u: Float, v: Float, weight: Float = 0.17) -> Bool {
        guard u >= 0 && u <= 1 && v >= -0.5 && v <= 1 else { return false }
        let thick = weight * 0.8
        if code & 1 != 0 && u < weight && v >= (code & 128 != 0 ? -0.5 : 0) { return true }
        if v < 0 { return false }
        if code & 2 != 0 && u > 1 - weight { return true }
        if code & 4 != 0 && v < thick { return true }
        if code & 8 != 0 && abs(v - 0.5) < thick / 2 { return true }
        if code & 16 != 0 && v > 1 - thick { return true }
        if code & 32 != 0 {
            let du = (u - 0.5) * 2, dv = (v - 0.5) * 2
            let d = (du * du + dv * dv).squareRoot()
            if abs(d - 0.82) < weight * 1.1 { return true }
        }
        if code & 64 != 0 && abs(u - v) < weight * 0.8 { return true }
        return false
    }
}

/// A phone screenshot: flat UI colours, a status bar, an app bar, rows of text and icons, a tab bar.
struct ScreenshotPainter {
    let shot: TripShot
    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(shot: TripShot) {
        self.shot = shot
        width = shot.uprightWidth
        height = shot.uprightHeight
        pixels = []
    }

    typealias Colour = (UInt8, UInt8, UInt8)

    mutating func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ colour: Colour, radius: Int = 0) {
        let left = max(0, x0), right = min(width, x1), top = max(0, y0), bottom = min(height, y1)
        guard left < right && top < bottom else { return }
        pixels.withUnsafeMutableBufferPointer { p in
            for y in top..<bottom {
                for x in left..<right {
                    if radius > 0 {
                        // Rounded corners.
                        let cx = x < left + radius ? left + radius : (x >= right - radius ? right - radius - 1 : x)
                        let cy = y < top + radius ? top + radius : (y >= bottom - radius ? bottom - radius - 1 : y)
                        let dx = x - cx, dy = y - cy
                        if dx * dx + dy * dy > radius * radius { continue }
                    }
                    let i = (y * width + x) * 3
                    p[i] = colour.0; p[i + 1] = colour.1; p[i + 2] = colour.2
                }
            }
        }
    }

    mutating func circle(_ cx: Int, _ cy: Int, _ r: Int, _ colour: Colour) {
        fill(cx - r, cy - r, cx + r, cy + r, colour, radius: r)
    }

    /// A row of text-like glyphs with x-height `size`, from `x` to at most `maxX`, top of its x-height at `y`.
    mutating func text(_ x: Int, _ y: Int, size: Int, maxX: Int, _ colour: Colour, rng: inout SplitMix64) {
        let cell = max(2, size * 7 / 10)
        let cells = max(1, (maxX - x) / cell)
        let codes = Glyphs.line(cells: Int(Float(cells) * rng.float(in: 0.45...1)), rng: &rng)
        let top = y - size / 2, bottom = y + size
        pixels.withUnsafeMutableBufferPointer { p in
            for (k, code) in codes.enumerated() where code != 0 {
                let left = x + k * cell
                for py in max(0, top)..<min(height, bottom) {
                    let v = Float(py - y) / Float(size)
                    for px in left..<min(width, left + cell * 8 / 10) {
                        if Glyphs.ink(code, u: Float(px - left) / Float(cell * 8 / 10), v: v, weight: 0.2) {
                            let i = (py * width + px) * 3
                            p[i] = colour.0; p[i + 1] = colour.1; p[i + 2] = colour.2
                        }
                    }
                }
            }
        }
    }

    func paint() -> RGBImage {
        var painter = self
        painter.draw()
        return RGBImage(width: width, height: height, pixels: painter.pixels)
    }

    private mutating func draw() {
        var rng = SplitMix64(seed: shot.sceneSeed)
        let accents: [Colour] = [(26, 115, 232), (52, 168, 83), (234, 67, 53), (103, 58, 183), (0, 150, 136),
                                 (255, 149, 0), (37, 211, 102)]
        let accent = accents[Int(rng.next() % UInt64(accents.count))]
        let dark = rng.next() % 3 == 0
        let background: Colour = dark ? (18, 18, 20) : (rng.next() % 2 == 0 ? (255, 255, 255) : (242, 242, 247))
        let ink: Colour = dark ? (232, 232, 236) : (28, 28, 30)
        let faint: Colour = dark ? (142, 142, 147) : (120, 120, 128)
        let rule: Colour = dark ? (44, 44, 48) : (220, 220, 225)
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        fill(0, 0, width, height, background)
        let h = Float(height), w = Float(width)
        // Status bar: the time at the left, signal and battery at the right.
        let status = Int(h * 0.045)
        text(Int(w * 0.07), status * 2 / 5, size: status / 3, maxX: Int(w * 0.2), ink, rng: &rng)
        fill(Int(w * 0.84), status * 2 / 5, Int(w * 0.92), status * 2 / 5 + status / 4, ink, radius: status / 12)
        // App bar with its title.
        let barBottom = status + Int(h * 0.065)
        fill(0, status, width, barBottom, accent)
        text(Int(w * 0.06), status + Int(h * 0.025), size: Int(h * 0.016), maxX: Int(w * 0.7), (255, 255, 255), rng: &rng)
        let tabTop = height - Int(h * 0.08)
        var y = barBottom + Int(h * 0.02)
        switch rng.next() % 3 {
        case 0:
            // A list: avatar, title, subtitle, rule.
            let rowHeight = Int(h * 0.085)
            while y + rowHeight < tabTop {
                let colour = accents[Int(rng.next() % UInt64(accents.count))]
                circle(Int(w * 0.11), y + rowHeight / 2, Int(h * 0.026), colour)
                text(Int(w * 0.22), y + rowHeight / 4, size: Int(h * 0.013), maxX: Int(w * 0.9), ink, rng: &rng)
                text(Int(w * 0.22), y + rowHeight * 3 / 5, size: Int(h * 0.010), maxX: Int(w * 0.95), faint, rng: &rng)
                fill(Int(w * 0.22), y + rowHeight - 2, width, y + rowHeight, rule)
                y += rowHeight
            }
        case 1:
            // A chat: bubbles of one to three lines, left and right.
            let line = Int(h * 0.024)
            var mine = false
            while y + line * 4 < tabTop {
                let lines = 1 + Int(rng.next() % 3)
                let bubbleWidth = Int(w * rng.float(in: 0.4...0.72))
                let x0 = mine ? width - Int(w * 0.04) - bubbleWidth : Int(w * 0.04)
                let colour: Colour = mine ? accent : (dark ? (44, 44, 48) : (229, 229, 234))
                fill(x0, y, x0 + bubbleWidth, y + line * lines + line, colour, radius: line / 2)
                for k in 0..<lines {
                    text(x0 + line / 2, y + line * 2 / 3 + k * line, size: line * 2 / 5, maxX: x0 + bubbleWidth - line / 2,
                         mine ? (255, 255, 255) : ink, rng: &rng)
                }
                y += line * lines + line + line / 2
                mine.toggle()
            }
        default:
            // A map card (flat park, water and roads, a pin), then a few lines of text.
            let cardBottom = y + Int(h * 0.42)
            fill(Int(w * 0.04), y, width - Int(w * 0.04), cardBottom, (233, 229, 220), radius: Int(w * 0.03))
            fill(Int(w * 0.1), y + Int(h * 0.05), Int(w * 0.45), y + Int(h * 0.16), (200, 230, 201))
            fill(Int(w * 0.55), y + Int(h * 0.25), width - Int(w * 0.04), cardBottom - Int(h * 0.02), (170, 218, 255))
            for k in 0..<4 {
                let ry = y + Int(h * (0.04 + 0.1 * Float(k)))
                fill(Int(w * 0.04), ry, width - Int(w * 0.04), ry + Int(h * 0.008), (255, 255, 255))
                let rx = Int(w * (0.2 + 0.22 * Float(k)))
                fill(rx, y, rx + Int(h * 0.008), cardBottom, (255, 255, 255))
            }
            circle(width / 2, y + Int(h * 0.2), Int(h * 0.015), (234, 67, 53))
            y = cardBottom + Int(h * 0.03)
            while y + Int(h * 0.04) < tabTop {
                text(Int(w * 0.06), y, size: Int(h * 0.012), maxX: Int(w * 0.94), ink, rng: &rng)
                y += Int(h * 0.035)
            }
        }
        // Tab bar: icons, the current one in the accent colour, and the home indicator.
        fill(0, tabTop, width, height, dark ? (28, 28, 30) : (248, 248, 248))
        fill(0, tabTop, width, tabTop + 2, rule)
        for k in 0..<5 {
            let cx = Int(w * (0.1 + 0.2 * Float(k))), size = Int(h * 0.012)
            fill(cx - size, tabTop + Int(h * 0.015), cx + size, tabTop + Int(h * 0.015) + 2 * size,
                 k == 0 ? accent : faint, radius: size / 3)
        }
        fill(Int(w * 0.35), height - Int(h * 0.012), Int(w * 0.65), height - Int(h * 0.008), ink, radius: Int(h * 0.002))
    }
}

/// A phone photo of a sheet of paper (a page or a receipt) or of a whiteboard: the sheet fills much of the frame,
/// slightly turned, on a table, with rows of dark strokes; light falls unevenly; the lens softens it a little.
struct DocumentPainter {
    let shot: TripShot

    func paint() -> RGBImage {
        var rng = SplitMix64(seed: shot.sceneSeed)
        let width = shot.uprightWidth, height = shot.uprightHeight
        let w = Float(width), h = Float(height)
        let style = shot.document ?? .page
        // Sheet size (its height over width is `aspect`), turned by 1.5-6 degrees either way.
        let aspect: Float = style == .page ? 1.414 : style == .receipt ? 2.6 : 0.66
        let fill = rng.float(in: 0.86...0.95)
        let sheetHeight = min(fill * h, fill * w * aspect), sheetWidth = sheetHeight / aspect
        let tilt = rng.float(in: 0.026...0.105) * (rng.next() % 2 == 0 ? 1 : -1)
        let cosT = cos(tilt), sinT = sin(tilt)
        let cx = w / 2 + w * rng.float(in: -0.03...0.03), cy = h / 2 + h * rng.float(in: -0.03...0.03)
        let paper: (Float, Float, Float) = style == .whiteboard ? (236, 239, 241)
            : rng.next() % 2 == 0 ? (246, 245, 240) : (244, 236, 214)
        let table: (Float, Float, Float) = [(124, 88, 58), (88, 90, 96), (150, 126, 98), (60, 64, 70)][Int(rng.next() % 4)]
        // Text rows: pitch, x-height, letter cell, margins.
        let rows = style == .page ? Int(rng.float(in: 30...44)) : style == .receipt ? Int(rng.float(in: 48...64))
            : Int(rng.float(in: 9...14))
        let marginX = sheetWidth * (style == .whiteboard ? 0.06 : 0.1), marginY = sheetHeight * 0.07
        let pitch = (sheetHeight - 2 * marginY) / Float(rows)
        let xHeight = pitch * (style == .whiteboard ? 0.5 : 0.42)
        let cell = xHeight * 0.85
        let cells = Int((sheetWidth - 2 * marginX) / cell)
        var lines: [[UInt8]] = []
        for row in 0..<rows {
            var codes: [UInt8]
            let blank = rng.float(in: 0...1) < (style == .receipt ? 0.15 : 0.1)
            if blank {
                codes = []
            } else {
                let share = style == .receipt ? rng.float(in: 0.3...0.6)
                    : row % 7 == 6 ? rng.float(in: 0.2...0.7) : rng.float(in: 0.85...1)
                codes = Glyphs.line(cells: max(1, Int(Float(cells) * share)), rng: &rng)
                if style == .receipt {
                    // Prices at the right edge.
                    let price = Glyphs.line(cells: 5, rng: &rng).map { $0 == 0 ? 1 : $0 }
                    codes += [UInt8](repeating: 0, count: max(0, cells - codes.count - price.count)) + price
                }
            }
            lines.append(codes)
        }
        let inks: [(Float, Float, Float)] = style == .whiteboard
            ? [(30, 60, 160), (180, 40, 40), (35, 35, 40), (30, 120, 60)] : [(28, 28, 34), (25, 35, 80)]
        let lineInk = (0..<rows).map { _ in inks[Int(rng.next() % UInt64(inks.count))] }
        let weight: Float = style == .whiteboard ? 0.22 : 0.17
        // Light: brighter towards one corner; the sheet's shadow falls to the lower right.
        let lightX = rng.float(in: -0.12...0.12), lightY = rng.float(in: -0.12...0.12)
        let shadow = max(2, w * 0.008)
        let frame = style == .whiteboard ? sheetWidth * 0.015 : 0

        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let fy = Float(y) - cy
                for x in 0..<width {
                    let fx = Float(x) - cx
                    // Into the sheet's frame: u across, v down, from its top left corner.
                    let u = cosT * fx + sinT * fy + sheetWidth / 2
                    let v = -sinT * fx + cosT * fy + sheetHeight / 2
                    let light = 1 + lightX * (Float(x) / w - 0.5) * 2 + lightY * (Float(y) / h - 0.5) * 2
                    var colour: (Float, Float, Float)
                    if u >= 0 && u < sheetWidth && v >= 0 && v < sheetHeight {
                        if u < frame || v < frame || u >= sheetWidth - frame || v >= sheetHeight - frame {
                            colour = (170, 172, 176)
                        } else {
                            colour = paper
                            let ty = v - marginY
                            let row = Int(ty / pitch)
                            if ty >= 0 && row < rows {
                                let inRow = (ty - Float(row) * pitch - (pitch - xHeight) * 0.6) / xHeight
                                let k = Int((u - marginX) / cell)
                                if u >= marginX && k < lines[row].count && lines[row][k] != 0 {
                                    let inCell = (u - marginX - Float(k) * cell) / (cell * 0.8)
                                    if Glyphs.ink(lines[row][k], u: inCell, v: inRow, weight: weight) {
                                        colour = lineInk[row]
                                    }
                                }
                            }
                        }
                    } else {
                        // The table, with a grain along it; darker in the sheet's shadow.
                        let stripe = 1 + 0.06 * sin(Float(y) * 0.045 + 3 * sin(Float(x) * 0.004))
                        let su = cosT * (fx - shadow) + sinT * (fy - shadow) + sheetWidth / 2
                        let sv = -sinT * (fx - shadow) + cosT * (fy - shadow) + sheetHeight / 2
                        let shade: Float = su >= 0 && su < sheetWidth && sv >= 0 && sv < sheetHeight ? 0.6 : 1
                        colour = (table.0 * stripe * shade, table.1 * stripe * shade, table.2 * stripe * shade)
                    }
                    let i = (y * width + x) * 3
                    out[i] = SceneRenderer.byte(colour.0 * light)
                    out[i + 1] = SceneRenderer.byte(colour.1 * light)
                    out[i + 2] = SceneRenderer.byte(colour.2 * light)
                }
            }
        }
        // The lens: a little soft. Then the sensor's grain.
        Blur.box(&pixels, width: width, height: height, radius: max(1, width / 2000))
        TripRenderer.expose(&pixels, gain: shot.gain, lift: 0, noise: 4, seed: shot.sceneSeed)
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
