import CPNGShim
import ImageCodec

/// A PNG's iCCP profile, inflated.
///
/// libpng is told to skip iCCP (it would check and drop a profile it dislikes with only a warning, on every
/// decode); the probe reads it here instead, once, and the caller judges the profile itself.
extension EmbeddedProfile {
    /// The profile of the iCCP chunk before the image data; nil when there is none or the chunks are broken
    /// before it (libpng reports those).
    public static func find(inPNG bytes: [UInt8]) -> EmbeddedProfile? {
        guard let data = PNGChunks.chunkData(named: "iCCP", inPNG: bytes) else { return nil }
        // Profile name (1-79 Latin-1 bytes), NUL, compression method 0 (zlib), the compressed profile.
        guard let end = data.prefix(80).firstIndex(of: 0), end > data.startIndex, end + 1 < data.endIndex else {
            return .unusable("iCCP chunk has no profile name")
        }
        guard data[end + 1] == 0 else { return .unusable("iCCP chunk uses unknown compression method \(data[end + 1])") }
        let compressed = Array(data[(end + 2)...])
        var out: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        let status = compressed.withUnsafeBufferPointer {
            pbpng_inflate($0.baseAddress, $0.count, maximumSize, &out, &length)
        }
        defer { pbpng_free(out) }
        switch status {
        case 0: return .profile(out.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? [])
        case 1: return .unusable("ICC profile is larger than \(maximumSize >> 20) MB")
        case 3: return .unusable("not enough memory to inflate the iCCP profile")
        default: return .unusable("iCCP profile is not sound zlib data")
        }
    }
}
