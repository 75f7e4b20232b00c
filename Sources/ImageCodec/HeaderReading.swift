/// The header read shared by formats whose headers come first (JPEG, PNG, WebP): the file's first 512 KB, and
/// again up to 64 MB only when a header goes on past them.
public enum HeaderReading {
    /// What is read first: most headers are in the first few hundred kilobytes.
    public static let prefixLength = 512 * 1024
    /// The most read for a header that goes on past the prefix: a video named like a photo must not be loaded.
    public static let headerLimit = 64 << 20

    /// `parse(bytes, moreBytesFollow)` on the prefix, then, when it says nil (the header goes on), on the first
    /// 64 MB. `parse` must not say nil when no more bytes follow.
    public static func read<Header>(_ source: any ByteSource,
                                    _ parse: (_ bytes: [UInt8], _ moreBytesFollow: Bool) throws(CodecError) -> Header?)
        throws(CodecError) -> Header {
        let prefix = try source.prefix(prefixLength)
        // Bytes short of the prefix are the whole file: a header cut there is a truncated file.
        if let header = try parse(prefix, prefix.count == prefixLength) { return header }
        let bytes = try source.prefix(headerLimit)
        guard let header = try parse(bytes, false) else {
            throw .corrupt("corrupt image (its header does not end)")
        }
        return header
    }
}
