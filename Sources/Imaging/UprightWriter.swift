/// Where the resampler writes each output row (along the stored axes): straight into the result when no
/// turn is needed, else into a band of rows that is put in its upright place when full.
///
/// A stored row of a quarter-turned image is a column of the result: written pixel by pixel it would touch
/// a cache line of the result per pixel. A band of `bandRows` rows becomes a strip `bandRows` pixels wide,
/// copied in tiles (UprightPlacement.place).
struct UprightWriter {
    static let bandRows = 32
    let placement: UprightPlacement
    let output: UnsafeMutablePointer<UInt8>
    let band: UnsafeMutablePointer<UInt8>?
    let lineLength: Int

    init(_ placement: UprightPlacement, into output: UnsafeMutablePointer<UInt8>) {
        self.placement = placement
        self.output = output
        lineLength = placement.storedWidth * 3
        band = placement.orientation == .topLeft
            ? nil : .allocate(capacity: min(Self.bandRows, placement.storedHeight) * lineLength + 1)
    }

    /// Where output row `y` (`storedWidth * 3` bytes) is to be written.
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        guard let band else { return output + y * lineLength }
        return band + (y % Self.bandRows) * lineLength
    }

    /// Row `y` has been written (rows come in order): a full band, or the last one, goes to its place.
    @inline(__always)
    func finished(row y: Int) {
        guard let band, (y + 1) % Self.bandRows == 0 || y + 1 == placement.storedHeight else { return }
        let first = y - y % Self.bandRows
        placement.place(rows: first..<(y + 1), from: band, rowBytes: lineLength, sourceHasSpareByte: true, into: output)
    }

    func deallocate() { band?.deallocate() }
}
