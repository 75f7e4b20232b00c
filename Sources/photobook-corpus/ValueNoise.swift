import Foundation

/// Multi-scale value noise: a random lattice per octave, interpolated with a smoothstep. Summed over octaves with
/// amplitudes that fall with the cell size it gives the fractal texture of foliage, rock and cloud, whose JPEG
/// size is that of a photo, unlike white noise (far larger) or flat colour (far smaller).
enum ValueNoise {
    /// Adds one octave of noise with lattice cells of `cell` pixels and values in `-amplitude...amplitude` to
    /// `field` (`width * height` floats, row by row).
    static func addOctave(to field: UnsafeMutableBufferPointer<Float>, width: Int, height: Int, cell: Int,
                          amplitude: Float, rng: inout SplitMix64) {
        // A random offset keeps the lattices of successive octaves from lining up at the origin.
        let offsetX = Int(rng.next() % UInt64(cell)), offsetY = Int(rng.next() % UInt64(cell))
        let latticeWidth = (width + offsetX) / cell + 2, latticeHeight = (height + offsetY) / cell + 2
        var lattice = [Float](repeating: 0, count: latticeWidth * latticeHeight)
        for i in lattice.indices { lattice[i] = rng.float(in: -amplitude...amplitude) }
        let scale = 1 / Float(cell)
        var column = [Int](repeating: 0, count: width)
        var weight = [Float](repeating: 0, count: width)
        for x in 0..<width {
            let position = Float(x + offsetX) * scale
            column[x] = Int(position)
            weight[x] = smoothstep(position - Float(column[x]))
        }
        lattice.withUnsafeBufferPointer { lattice in
            column.withUnsafeBufferPointer { column in
                weight.withUnsafeBufferPointer { weight in
                    for y in 0..<height {
                        let position = Float(y + offsetY) * scale
                        let row = Int(position)
                        let ty = smoothstep(position - Float(row))
                        let top = row * latticeWidth, bottom = top + latticeWidth
                        let out = y * width
                        for x in 0..<width {
                            let c = column[x], t = weight[x]
                            let a = lattice[top + c], b = lattice[top + c + 1]
                            let d = lattice[bottom + c], e = lattice[bottom + c + 1]
                            let upper = a + (b - a) * t, lower = d + (e - d) * t
                            field[out + x] += upper + (lower - upper) * ty
                        }
                    }
                }
            }
        }
    }

    /// Fractal noise: octaves from `largestCell` down to `smallestCell` pixels, each half the size of the one
    /// before, with amplitude proportional to `cell^roughness` and the largest octave at amplitude 1.
    static func fractal(width: Int, height: Int, largestCell: Int, smallestCell: Int, roughness: Float,
                        rng: inout SplitMix64) -> [Float] {
        var field = [Float](repeating: 0, count: width * height)
        field.withUnsafeMutableBufferPointer { field in
            var cell = largestCell
            while cell >= smallestCell {
                let amplitude = pow(Float(cell) / Float(largestCell), roughness)
                addOctave(to: field, width: width, height: height, cell: cell, amplitude: amplitude, rng: &rng)
                cell /= 2
            }
        }
        return field
    }

    /// 3t² − 2t³: continuous slope at lattice points, so no grid lines show.
    @inline(__always)
    static func smoothstep(_ t: Float) -> Float { t * t * (3 - 2 * t) }
}
