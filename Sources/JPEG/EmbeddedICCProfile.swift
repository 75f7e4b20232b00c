import ImageCodec

/// A JPEG's ICC profile, from its APP2 chunks.
extension EmbeddedProfile {
    /// Puts together the payloads of a JPEG's APP2 "ICC_PROFILE\0" segments (identifier removed): each is a
    /// sequence number (from 1), the chunk count, then its part of the profile (ICC.1:2010 B.4). They are joined
    /// by sequence number, whatever their order in the file; nil when there are none.
    public init?(jpegChunks chunks: [[UInt8]]) {
        guard !chunks.isEmpty else { return nil }
        self = Self.assemble(chunks)
    }

    private static func assemble(_ chunks: [[UInt8]]) -> EmbeddedProfile {
        var parts: [Int: ArraySlice<UInt8>] = [:]
        var count: Int? = nil
        var total = 0
        for chunk in chunks {
            guard chunk.count >= 2 else { return .unusable("ICC profile chunk has no sequence number") }
            let (sequence, declared) = (Int(chunk[0]), Int(chunk[1]))
            guard declared > 0, sequence >= 1, sequence <= declared else {
                return .unusable("ICC profile chunk numbered \(sequence) of \(declared)")
            }
            guard count == nil || count == declared else {
                return .unusable("ICC profile chunks disagree on their count (\(count!) and \(declared))")
            }
            count = declared
            guard parts[sequence] == nil else { return .unusable("ICC profile chunk \(sequence) of \(declared) appears twice") }
            parts[sequence] = chunk[2...]
            total += chunk.count - 2
            guard total <= maximumSize else {
                return .unusable("ICC profile is larger than \(maximumSize >> 20) MB")
            }
        }
        let declared = count!
        if let missing = (1...declared).first(where: { parts[$0] == nil }) {
            return .unusable("ICC profile chunk \(missing) of \(declared) is missing")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(total)
        for sequence in 1...declared { bytes += parts[sequence]! }
        return .profile(bytes)
    }
}
