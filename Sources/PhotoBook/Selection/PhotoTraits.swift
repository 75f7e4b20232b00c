import Imaging

/// What the choice of photos measures on a photo's smallest decode (its block means, a thumbnail, a 1/8 decode):
/// a perceptual hash to find the same moment twice, how sharp it is, how it is exposed, and whether it looks like
/// a screen or a sheet of paper rather than a scene. Pure numbers: `Choice` decides what they mean.
public struct PhotoTraits: Sendable, Equatable {
    /// A difference hash of the upright picture: 56 bits of left-to-right and 56 of top-to-bottom brightness
    /// steps on an 8x8 grid of means. Pictures of one scene differ in a few bits, other scenes in about half.
    public var hash: (UInt64, UInt64)
    /// How blurred the sharpest quarter of the picture is, 0 (crisp) to 1 (no detail left): Crété-Roffet's
    /// re-blur measure per tile (docs/research/choosing.md); nil when the picture has no detail to judge.
    public var blur: Double?
    /// Mean luma, 0 to 255, and the shares of pixels nearly black (luma < 24) and blown out (luma > 244).
    public var meanLuma: Double
    public var darkShare: Double
    public var blownShare: Double
    /// The luma below which 5% of the pixels are, and above which 5% are: a picture with no bright part or no
    /// shadow at all.
    public var lowLuma: Int
    public var highLuma: Int
    /// The share of pixels equal to their right and lower neighbours: flat colour, which a screen has and a
    /// camera's noise never gives (clipped black or white aside).
    public var flatShare: Double
    /// The share of pixels that are paper: bright (luma >= 150) and without colour (chroma < 40).
    public var paperShare: Double
    /// The share of pixels that are dark strokes on paper: at least 40 levels darker than the brightest pixel
    /// within 3 of them, which is paper.
    public var strokeShare: Double
    /// The share of pixels without colour (chroma < 28).
    public var greyShare: Double
    /// The long side of the picture measured, in pixels.
    public var measuredSide: Int

    public static func == (a: PhotoTraits, b: PhotoTraits) -> Bool {
        a.hash == b.hash && a.blur == b.blur && a.meanLuma == b.meanLuma && a.darkShare == b.darkShare
            && a.blownShare == b.blownShare && a.lowLuma == b.lowLuma && a.highLuma == b.highLuma && a.flatShare == b.flatShare && a.paperShare == b.paperShare
            && a.strokeShare == b.strokeShare && a.greyShare == b.greyShare && a.measuredSide == b.measuredSide
    }

    /// The number of hash bits two pictures differ in (0 to 112).
    public func distance(to other: PhotoTraits) -> Int {
        (hash.0 ^ other.hash.0).nonzeroBitCount + (hash.1 ^ other.hash.1).nonzeroBitCount
    }
}

extension PhotoTraits {
    /// The longest side measured: a larger picture is box-shrunk by a whole factor first, so that a 1/8 decode of
    /// 12 MP (500x375) is measured as it is and pictures of every format are measured at about one scale.
    static let largestSide = 640

    /// Measures `picture`, the whole stored photo at any scale; `orientation` turns it upright for the hash.
    public static func measure(_ picture: RGBImage, orientation: Orientation) -> PhotoTraits {
        let factor = max(1, (max(picture.width, picture.height) + largestSide - 1) / largestSide)
        let width = max(1, picture.width / factor), height = max(1, picture.height / factor)
        // The picture box-shrunk by `factor`, as luma and chroma planes (BT.601 weights, in 8-bit levels).
        var luma = [UInt8](repeating: 0, count: width * height)
        var chroma = [UInt8](repeating: 0, count: width * height)
        var flat = 0
        picture.pixels.withUnsafeBufferPointer { source in
            let stride = picture.bytesPerRow, area = factor * factor
            for y in 0..<height {
                for x in 0..<width {
                    var r = 0, g = 0, b = 0
                    for dy in 0..<factor {
                        var at = (y * factor + dy) * stride + x * factor * 3
                        for _ in 0..<factor {
                            r += Int(source[at]); g += Int(source[at + 1]); b += Int(source[at + 2])
                            at += 3
                        }
                    }
                    r /= area; g /= area; b /= area
                    luma[y * width + x] = UInt8((77 * r + 150 * g + 29 * b + 128) >> 8)
                    chroma[y * width + x] = UInt8(max(r, g, b) - min(r, g, b))
                }
            }
            // Flatness on the picture as decoded: a screen's flat areas stay exactly flat at any box scale.
            let w = picture.width, h = picture.height
            if w > 1, h > 1 {
                for y in 0..<(h - 1) {
                    var at = y * stride
                    for _ in 0..<(w - 1) {
                        let right = at + 3, below = at + stride
                        if source[at] == source[right] && source[at + 1] == source[right + 1]
                            && source[at + 2] == source[right + 2] && source[at] == source[below]
                            && source[at + 1] == source[below + 1] && source[at + 2] == source[below + 2] {
                            flat += 1
                        }
                        at += 3
                    }
                }
            }
        }
        let count = Double(width * height)
        var sum = 0, dark = 0, blown = 0, grey = 0, paper = 0
        var histogram = [Int](repeating: 0, count: 256)
        for index in luma.indices {
            let level = luma[index]
            histogram[Int(level)] += 1
            sum += Int(level)
            if level < 24 { dark += 1 }
            if level > 244 { blown += 1 }
            if chroma[index] < 28 { grey += 1 }
            if level >= 150 && chroma[index] < 40 { paper += 1 }
        }
        func percentile(_ share: Double) -> Int {
            let target = Int(share * count)
            var seen = 0
            for level in 0..<256 {
                seen += histogram[level]
                if seen > target { return level }
            }
            return 255
        }
        let strokes = strokeCount(luma: luma, chroma: chroma, width: width, height: height)
        let flatArea = picture.width > 1 && picture.height > 1 ? Double((picture.width - 1) * (picture.height - 1)) : 1
        return PhotoTraits(hash: differenceHash(luma: luma, width: width, height: height, orientation: orientation),
                           blur: blurMeasure(luma: luma, width: width, height: height),
                           meanLuma: Double(sum) / count, darkShare: Double(dark) / count,
                           blownShare: Double(blown) / count, lowLuma: percentile(0.05), highLuma: percentile(0.95),
                           flatShare: Double(flat) / flatArea,
                           paperShare: Double(paper) / count, strokeShare: Double(strokes) / count,
                           greyShare: Double(grey) / count, measuredSide: max(width, height))
    }

    /// The 8x8 grid of mean luma over the stored picture, turned upright, then one bit per step between
    /// neighbours: set when the next cell (right, or below) is brighter.
    static func differenceHash(luma: [UInt8], width: Int, height: Int, orientation: Orientation) -> (UInt64, UInt64) {
        let n = 8
        var stored = [Double](repeating: 0, count: n * n)
        for cy in 0..<n {
            let y0 = cy * height / n, y1 = max(y0 + 1, (cy + 1) * height / n)
            for cx in 0..<n {
                let x0 = cx * width / n, x1 = max(x0 + 1, (cx + 1) * width / n)
                var total = 0
                for y in y0..<min(y1, height) { for x in x0..<min(x1, width) { total += Int(luma[y * width + x]) } }
                stored[cy * n + cx] = Double(total) / Double(max(1, (min(y1, height) - y0) * (min(x1, width) - x0)))
            }
        }
        // The upright cell (x, y) is the stored cell the orientation puts there.
        func cell(_ x: Int, _ y: Int) -> Double {
            let m = n - 1
            switch orientation {
            case .topLeft: return stored[y * n + x]
            case .topRight: return stored[y * n + (m - x)]
            case .bottomRight: return stored[(m - y) * n + (m - x)]
            case .bottomLeft: return stored[(m - y) * n + x]
            case .leftTop: return stored[x * n + y]
            case .rightTop: return stored[(m - x) * n + y]
            case .rightBottom: return stored[(m - x) * n + (m - y)]
            case .leftBottom: return stored[x * n + (m - y)]
            }
        }
        var across: UInt64 = 0, down: UInt64 = 0, bit = 0
        for a in 0..<n {
            for b in 0..<(n - 1) {
                if cell(b + 1, a) > cell(b, a) { across |= 1 << UInt64(bit) }
                if cell(a, b + 1) > cell(a, b) { down |= 1 << UInt64(bit) }
                bit += 1
            }
        }
        return (across, down)
    }

    /// Crété-Roffet, Dolmiere, Ladret and Nicolas's no-reference blur measure ("The Blur Effect", SPIE 2007),
    /// per tile of a 4x4 grid: the picture blurred again by a 5-pixel average loses most of its neighbour
    /// differences when it was sharp and few when it was already blurred. The mean of the sharpest quarter of
    /// the tiles that are not flat (a subject in focus before a soft background is a sharp photo); nil when
    /// every tile is flat.
    static func blurMeasure(luma: [UInt8], width: Int, height: Int) -> Double? {
        guard width >= 16, height >= 16 else { return nil }
        let grid = 4
        // Crété-Roffet blur again by 9 pixels at full size; the picture here is about 1/8 of it, where 5 keeps a
        // blur of 20 pixels in 4000 apart from a sharp photo (9 smeared both alike).
        let reach = 2, span = 2 * reach + 1, step = 4
        var tiles: [Double] = []
        luma.withUnsafeBufferPointer { pixels in
            for ty in 0..<grid {
                for tx in 0..<grid {
                    let x0 = tx * width / grid, x1 = (tx + 1) * width / grid
                    let y0 = ty * height / grid, y1 = (ty + 1) * height / grid
                    var differenceAcross = 0, keptAcross = 0, differenceDown = 0, keptDown = 0
                    var darkest = 255, brightest = 0
                    for y in y0..<y1 {
                        for x in x0..<x1 {
                            let level = Int(pixels[y * width + x])
                            darkest = min(darkest, level)
                            brightest = max(brightest, level)
                        }
                    }
                    // A tile within 24 levels is flat (sky, a wall): nothing to judge. A blurred tile is not flat:
                    // its differences are small, but its levels still span the scene's.
                    guard brightest - darkest >= 24 else { continue }
                    // Across: each row's differences against those of its 9-pixel running average.
                    for y in y0..<y1 {
                        let row = y * width
                        for x in max(x0, reach + 1)..<min(x1, width - reach) {
                            let d = abs(Int(pixels[row + x]) - Int(pixels[row + x - 1]))
                            var now = 0, before = 0
                            for k in -reach...reach { now += Int(pixels[row + x + k]); before += Int(pixels[row + x - 1 + k]) }
                            let blurred = abs(now - before) / span
                            // Steps under `step` levels are noise or JPEG's ripples, not detail: left out.
                            guard d >= step else { continue }
                            differenceAcross += d
                            keptAcross += max(0, d - blurred)
                        }
                    }
                    for y in max(y0, reach + 1)..<min(y1, height - reach) {
                        for x in x0..<x1 {
                            let d = abs(Int(pixels[y * width + x]) - Int(pixels[(y - 1) * width + x]))
                            var now = 0, before = 0
                            for k in -reach...reach {
                                now += Int(pixels[(y + k) * width + x]); before += Int(pixels[(y - 1 + k) * width + x])
                            }
                            let blurred = abs(now - before) / span
                            guard d >= step else { continue }
                            differenceDown += d
                            keptDown += max(0, d - blurred)
                        }
                    }
                    // Levels that span a scene's but no step of detail between neighbours: all smooth, blurred.
                    guard differenceAcross + differenceDown > 0 else { tiles.append(1); continue }
                    let across = differenceAcross > 0 ? 1 - Double(keptAcross) / Double(differenceAcross) : 1
                    let down = differenceDown > 0 ? 1 - Double(keptDown) / Double(differenceDown) : 1
                    tiles.append(max(across, down))
                }
            }
        }
        guard !tiles.isEmpty else { return nil }
        tiles.sort()
        let sharpest = tiles.prefix(max(1, tiles.count / 4))
        return sharpest.reduce(0, +) / Double(sharpest.count)
    }

    /// Pixels at least 40 levels darker than the brightest pixel within 3 of them, where that brightest pixel is
    /// paper (bright and grey): the strokes of writing, print or a whiteboard's marker.
    static func strokeCount(luma: [UInt8], chroma: [UInt8], width: Int, height: Int) -> Int {
        let radius = 3
        // The brightest paper-like pixel of each row window, then of each column window over those.
        var rowMax = [UInt8](repeating: 0, count: luma.count)
        for y in 0..<height {
            for x in 0..<width {
                var best: UInt8 = 0
                for k in max(0, x - radius)...min(width - 1, x + radius) {
                    let at = y * width + k
                    if chroma[at] < 40, luma[at] > best { best = luma[at] }
                }
                rowMax[y * width + x] = best
            }
        }
        var strokes = 0
        for y in 0..<height {
            for x in 0..<width {
                var best: UInt8 = 0
                for k in max(0, y - radius)...min(height - 1, y + radius) where rowMax[k * width + x] > best {
                    best = rowMax[k * width + x]
                }
                if best >= 150, Int(best) - Int(luma[y * width + x]) >= 40 { strokes += 1 }
            }
        }
        return strokes
    }
}
