/// The random choices that make one scene differ from the next: colours, horizon, clouds, sun, buildings, grain.
struct SceneParameters {
    struct Building {
        var left: Int, right: Int, top: Int, bottom: Int
        var face: (Float, Float, Float)
        var window: (Float, Float, Float)
        var windowPitch: Int
    }

    struct Sun {
        var x: Float, y: Float, radius: Float
    }

    var skyTop: (Float, Float, Float)
    var skyHorizon: (Float, Float, Float)
    var grass: (Float, Float, Float)
    var earth: (Float, Float, Float)
    /// Where the skyline sits on average, in rows from the top.
    var horizon: Float
    var ridgeAmplitude: Float
    var cloudiness: Float
    var cloudThreshold: Float
    var sun: Sun?
    var buildings: [Building]
    /// Grain amplitude in 8-bit levels.
    var grain: Float

    init(width: Int, height: Int, rng: inout SplitMix64) {
        let w = Float(width), h = Float(height)
        skyTop = (rng.float(in: 35...85), rng.float(in: 85...135), rng.float(in: 165...220))
        skyHorizon = (rng.float(in: 170...215), rng.float(in: 190...225), rng.float(in: 215...245))
        grass = (rng.float(in: 45...95), rng.float(in: 85...135), rng.float(in: 30...65))
        earth = (rng.float(in: 105...155), rng.float(in: 80...115), rng.float(in: 50...80))
        horizon = h * rng.float(in: 0.3...0.55)
        ridgeAmplitude = h * rng.float(in: 0.03...0.1)
        cloudiness = rng.float(in: 0.3...0.95)
        cloudThreshold = rng.float(in: -0.2...0.4)
        sun = rng.next() % 2 == 0
            ? Sun(x: w * rng.float(in: 0.1...0.9), y: horizon * rng.float(in: 0.15...0.6),
                  radius: min(w, h) * rng.float(in: 0.015...0.03))
            : nil
        grain = rng.float(in: 5...8)
        buildings = (0..<Int(rng.next() % 7)).map { _ in
            let buildingWidth = Int(w * rng.float(in: 0.04...0.16))
            let left = Int(rng.next() % UInt64(max(1, width - buildingWidth)))
            let bottom = Int(h * rng.float(in: 0.65...1))
            let top = max(0, bottom - Int(h * rng.float(in: 0.12...0.45)))
            let grey = rng.float(in: 110...200)
            return Building(left: left, right: left + buildingWidth, top: top, bottom: min(height, bottom),
                            face: (grey * rng.float(in: 0.9...1.1), grey, grey * rng.float(in: 0.85...1.05)),
                            window: (rng.float(in: 30...70), rng.float(in: 40...80), rng.float(in: 55...100)),
                            windowPitch: Int(rng.float(in: 28...70)))
        }
        // Farther buildings first, so nearer ones stand in front.
        buildings.sort { $0.bottom < $1.bottom }
    }
}
