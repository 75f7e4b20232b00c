import Imaging

/// Paints a made-up landscape photo: a sky with a smooth gradient and soft clouds, a ridge line, textured ground
/// that gets coarser and more contrasted towards the viewer, hard-edged buildings with rows of windows, perhaps
/// a sun, and sensor grain over it all. Each ingredient is there for what it does to a codec: gradients and
/// clouds compress well, fractal texture and grain do not, edges cost bits at every quality.
struct SceneRenderer {
    let width: Int
    let height: Int
    let seed: UInt64

    /// The scene upright, as a person should see it (`width` x `height`).
    func render() -> RGBImage {
        var rng = SplitMix64(seed: seed)
        let scene = SceneParameters(width: width, height: height, rng: &rng)
        // Detail at every scale from 256 px down to 2 px; single pixels come from the grain.
        let texture = ValueNoise.fractal(width: width, height: height, largestCell: 256, smallestCell: 2,
                                         roughness: 0.4, rng: &rng)
        let coarse = CoarseField.Sampler(width: width, height: height)
        let clouds = CoarseField(fullWidth: width, fullHeight: height, largestCell: 1024, smallestCell: 32,
                                 roughness: 0.7, rng: &rng)
        let soil = CoarseField(fullWidth: width, fullHeight: height, largestCell: 1024, smallestCell: 64,
                               roughness: 0.6, rng: &rng)
        let ridge = Self.ridgeLine(width: width, base: scene.horizon, amplitude: scene.ridgeAmplitude, rng: &rng)

        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeMutableBufferPointer { out in
            texture.withUnsafeBufferPointer { texture in
                for y in 0..<height {
                    let rowY = coarse.row(y)
                    var grain = GrainSource(seed: seed &+ UInt64(y) &* 0x2545_F491_4F6C_DD1D)
                    for x in 0..<width {
                        let i = y * width + x
                        let detail = texture[i]
                        var (r, g, b): (Float, Float, Float)
                        let skyline = ridge[x]
                        if Float(y) < skyline {
                            let t = Float(y) / skyline
                            let shade = t * t * (3 - 2 * t)
                            r = scene.skyTop.0 + (scene.skyHorizon.0 - scene.skyTop.0) * shade
                            g = scene.skyTop.1 + (scene.skyHorizon.1 - scene.skyTop.1) * shade
                            b = scene.skyTop.2 + (scene.skyHorizon.2 - scene.skyTop.2) * shade
                            let c = clouds.sample(x: x, row: rowY, sampler: coarse) + 0.12 * detail
                            let cover = Self.ramp(c, from: scene.cloudThreshold, to: scene.cloudThreshold + 0.45)
                                * scene.cloudiness
                            let lit: Float = 215 + 35 * Self.ramp(c, from: 0.3, to: 1.2)
                            r += (lit - r) * cover; g += (lit - g) * cover; b += (lit + 6 - b) * cover
                            if let sun = scene.sun {
                                let dx = Float(x) - sun.x, dy = Float(y) - sun.y
                                let d2 = dx * dx + dy * dy
                                let glow = sun.radius * sun.radius * 6 / (d2 + sun.radius * sun.radius * 6)
                                let disc: Float = d2 < sun.radius * sun.radius ? 1 : glow * 0.55
                                r += (255 - r) * disc; g += (250 - g) * disc; b += (232 - b) * disc
                            }
                        } else {
                            let depth = min(1, (Float(y) - skyline) / max(1, Float(height) - skyline))
                            let mixer = Self.ramp(soil.sample(x: x, row: rowY, sampler: coarse), from: -0.5, to: 0.6)
                            r = scene.grass.0 + (scene.earth.0 - scene.grass.0) * mixer
                            g = scene.grass.1 + (scene.earth.1 - scene.grass.1) * mixer
                            b = scene.grass.2 + (scene.earth.2 - scene.grass.2) * mixer
                            let contrast = 1 + detail * (0.22 + 0.4 * depth)
                            r *= contrast; g *= contrast; b *= contrast * 0.97
                            let haze = (1 - depth) * (1 - depth) * (1 - depth) * 0.6
                            r += (scene.skyHorizon.0 - r) * haze
                            g += (scene.skyHorizon.1 - g) * haze
                            b += (scene.skyHorizon.2 - b) * haze
                        }
                        let (grainLuma, grainRed, grainBlue) = grain.next()
                        let amount = scene.grain
                        r += amount * (grainLuma + 0.5 * grainRed)
                        g += amount * grainLuma
                        b += amount * (grainLuma + 0.5 * grainBlue)
                        out[i * 3] = Self.byte(r); out[i * 3 + 1] = Self.byte(g); out[i * 3 + 2] = Self.byte(b)
                    }
                }
                for building in scene.buildings {
                    Self.paint(building, into: out, width: width, texture: texture, grainAmount: scene.grain,
                               seed: seed)
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// A rectangle with a slightly textured face and a grid of dark windows: the hard edges of a city.
    private static func paint(_ building: SceneParameters.Building, into out: UnsafeMutableBufferPointer<UInt8>,
                              width: Int, texture: UnsafeBufferPointer<Float>, grainAmount: Float, seed: UInt64) {
        for y in building.top..<building.bottom {
            var grain = GrainSource(seed: seed ^ UInt64(y) &* 0x9E37_79B9)
            let localY = (y - building.top) % building.windowPitch
            let windowRow = localY >= building.windowPitch / 4 && localY < building.windowPitch * 3 / 4
            // Light falls from one side: the face darkens a little across its width.
            for x in building.left..<building.right {
                let i = y * width + x
                let localX = (x - building.left) % building.windowPitch
                let isWindow = windowRow && localX >= building.windowPitch / 4 && localX < building.windowPitch * 3 / 4
                    && x - building.left >= building.windowPitch / 2 && building.right - x >= building.windowPitch / 2
                let base = isWindow ? building.window : building.face
                let across = Float(x - building.left) / Float(building.right - building.left)
                let shade = (1 + 0.1 * texture[i]) * (1 - 0.18 * across)
                let (grainLuma, _, _) = grain.next()
                let noise = grainAmount * grainLuma
                out[i * 3] = byte(base.0 * shade + noise)
                out[i * 3 + 1] = byte(base.1 * shade + noise)
                out[i * 3 + 2] = byte(base.2 * shade + noise)
            }
        }
    }

    /// The skyline's height at every column: a 1-D fractal around `base`.
    private static func ridgeLine(width: Int, base: Float, amplitude: Float, rng: inout SplitMix64) -> [Float] {
        var line = [Float](repeating: base, count: width)
        var cell = max(8, width / 3)
        var scale: Float = 1
        while cell >= 4 {
            let knots = (0...(width / cell + 1)).map { _ in rng.float(in: -1...1) }
            for x in 0..<width {
                let position = Float(x) / Float(cell)
                let k = Int(position)
                let t = ValueNoise.smoothstep(position - Float(k))
                line[x] += amplitude * scale * (knots[k] + (knots[k + 1] - knots[k]) * t)
            }
            cell /= 2
            scale *= 0.5
        }
        return line
    }

    @inline(__always)
    static func ramp(_ value: Float, from low: Float, to high: Float) -> Float {
        let t = min(1, max(0, (value - low) / (high - low)))
        return t * t * (3 - 2 * t)
    }

    @inline(__always)
    static func byte(_ value: Float) -> UInt8 { UInt8(min(255, max(0, value + 0.5))) }
}

/// Sensor grain: per pixel a luminance part (sum of two uniforms, a rough bell curve in -1...1) and two
/// smaller chroma parts, from a xorshift generator that is cheap enough to call twelve million times.
struct GrainSource {
    private var state: UInt64

    init(seed: UInt64) { state = seed | 1 }

    @inline(__always)
    mutating func next() -> (Float, Float, Float) {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        let bits = state
        @inline(__always) func unit(_ shift: UInt64) -> Float { Float((bits >> shift) & 0xFFFF) / 65535 }
        return (unit(0) + unit(16) - 1, unit(32) - 0.5, unit(48) - 0.5)
    }
}

/// A smooth field computed at a quarter of the resolution and read back with bilinear interpolation: clouds and
/// the colour of the land vary over hundreds of pixels, so working at full resolution would only cost time.
struct CoarseField {
    static let factor = 4
    let width: Int
    let values: [Float]

    init(fullWidth: Int, fullHeight: Int, largestCell: Int, smallestCell: Int, roughness: Float,
         rng: inout SplitMix64) {
        width = fullWidth / Self.factor + 2
        let height = fullHeight / Self.factor + 2
        values = ValueNoise.fractal(width: width, height: height, largestCell: largestCell / Self.factor,
                                    smallestCell: smallestCell / Self.factor, roughness: roughness, rng: &rng)
    }

    /// The interpolation weights shared by every coarse field of one image.
    struct Sampler {
        let columns: [Int]
        let weights: [Float]

        init(width: Int, height: Int) {
            let scale = 1 / Float(CoarseField.factor)
            columns = (0..<width).map { Int(Float($0) * scale) }
            weights = (0..<width).map { Float($0) * scale - Float(Int(Float($0) * scale)) }
        }

        func row(_ y: Int) -> (index: Int, weight: Float) {
            let position = Float(y) / Float(CoarseField.factor)
            return (Int(position), position - Float(Int(position)))
        }
    }

    @inline(__always)
    func sample(x: Int, row: (index: Int, weight: Float), sampler: Sampler) -> Float {
        let c = sampler.columns[x], t = sampler.weights[x]
        let top = row.index * width + c, bottom = top + width
        let upper = values[top] + (values[top + 1] - values[top]) * t
        let lower = values[bottom] + (values[bottom + 1] - values[bottom]) * t
        return upper + (lower - upper) * row.weight
    }
}
