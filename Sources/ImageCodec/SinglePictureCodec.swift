import Imaging

/// A format whose file holds one photo (BMP, GIF, WebP, JPEG XL, JPEG 2000, camera raw): its probe gives one
/// header, and its decode is asked for picture 0 only, which the protocol checks, with a cancel noticed, before
/// the codec reads a byte. The codec gives the header and the pixels (`probePicture`, `decodePicture`).
public protocol SinglePictureCodec: ImageCodec {
    /// The header of the file's one picture: what `probe` gives, alone.
    func probePicture(_ source: any ByteSource) throws(CodecError) -> ImageHeader
    /// What `decode` gives, once the request is known to ask for picture 0 and no cancel has come.
    func decodePicture(_ source: any ByteSource, _ request: DecodeRequest, pool: BufferPool,
                       shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage
}

extension SinglePictureCodec {
    public func probe(_ source: any ByteSource) throws(CodecError) -> [ImageHeader] { [try probePicture(source)] }

    public func decode(_ source: any ByteSource, _ request: DecodeRequest, pool: BufferPool,
                       shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        try request.requireFirstPicture(of: "a \(name) file")
        if shouldCancel() { throw .cancelled }
        return try decodePicture(source, request, pool: pool, shouldCancel: shouldCancel)
    }
}
