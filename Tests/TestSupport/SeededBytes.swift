/// Deterministic pseudo-random bytes: the top byte of a 64-bit linear congruential sequence (Knuth's MMIX
/// constants). Tests must not depend on the run.
package struct SeededBytes {
    package var state: UInt64

    package init(state: UInt64) { self.state = state }

    package mutating func next() -> UInt8 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return UInt8(truncatingIfNeeded: state >> 56)
    }
}
