import CICUShim

/// A text as ICU takes it: UTF-16 units, with the way back from a unit offset to a scalar offset, and the pieces
/// of at most `PBICU_MAX_LENGTH` units it is handed to ICU in.
struct UTF16Text {
    let units: [UInt16]
    /// `scalarOffsets[u]`: how many scalars start before unit `u`, for every `u` in `0...units.count`.
    private let scalarOffsets: [Int32]

    static let maximumPiece = Int(PBICU_MAX_LENGTH)
    /// How far back from a piece's end a cut looks for a line feed or a space before it cuts anywhere.
    static let cutSearch = 4096

    init(_ text: String) {
        units = Array(text.utf16)
        var offsets = [Int32](repeating: 0, count: units.count + 1)
        var scalars: Int32 = 0
        for (index, unit) in units.enumerated() {
            offsets[index] = scalars
            // A String holds no lone surrogate: a trailing one always ends the pair its leading one began.
            if !UTF16.isTrailSurrogate(unit) { scalars += 1 }
        }
        offsets[units.count] = scalars
        scalarOffsets = offsets
    }

    /// The scalar offset of a unit offset that ICU gave (always at a scalar's start, or the end).
    func scalarOffset(ofUnit unit: Int) -> Int {
        Int(scalarOffsets[unit])
    }

    /// The text cut into consecutive pieces ICU accepts, covering it all, none empty. A piece ends after the last
    /// line feed in its final `cutSearch` units, else after the last space there, else at the limit, never between
    /// the two units of a surrogate pair. Texts within the caption limit (64 KB of UTF-8) are one piece.
    var pieces: [Range<Int>] {
        var pieces: [Range<Int>] = []
        var start = 0
        while start < units.count {
            var end = min(start + Self.maximumPiece, units.count)
            if end < units.count {
                let window = max(start + 1, end - Self.cutSearch)..<end
                if let newline = window.last(where: { units[$0 - 1] == 0x0A }) {
                    end = newline
                } else if let space = window.last(where: { units[$0 - 1] == 0x20 }) {
                    end = space
                } else if UTF16.isTrailSurrogate(units[end]) {
                    end -= 1
                }
            }
            pieces.append(start..<end)
            start = end
        }
        return pieces
    }

    /// Calls `body` with the units of `piece` and its length as ICU takes them.
    func withPiece<Result>(_ piece: Range<Int>, _ body: (UnsafePointer<UInt16>?, Int32) -> Result) -> Result {
        units.withUnsafeBufferPointer { buffer in
            body(buffer.baseAddress.map { $0 + piece.lowerBound }, Int32(piece.count))
        }
    }
}
