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

    /// `read` for a format module that reads a header in two ways, each throwing its own error type: `info` from
    /// a whole file, `infoOfPrefix` from the first bytes of a longer one (nil: the header goes on past them).
    /// `header(info, bytes)` is the codec's header of what was read from `bytes`.
    public static func read<Info, E: FormatError>(_ source: any ByteSource, info: ([UInt8]) throws(E) -> Info,
                                                   infoOfPrefix: ([UInt8]) throws(E) -> Info?,
                                                   header: (Info, [UInt8]) -> ImageHeader)
        throws(CodecError) -> ImageHeader {
        try read(source) { (bytes, moreBytesFollow) throws(CodecError) -> ImageHeader? in
            let read = try CodecError.converting { () throws(E) -> Info? in
                moreBytesFollow ? try infoOfPrefix(bytes) : try info(bytes)
            }
            return read.map { header($0, bytes) }
        }
    }
}
