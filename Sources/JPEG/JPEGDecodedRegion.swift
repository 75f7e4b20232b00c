import Imaging

/// The pixels of a part of a JPEG, decoded at one DCT scale, and the part of the full-resolution image they show.
///
/// `image` is the part of a full decode at scale `scale`/8 that shows `covers`, pixel for pixel: output pixel
/// column `i` is the stored image's full-resolution columns `covers.x + i * 8 / scale` up to (not including)
/// `covers.x + (i + 1) * 8 / scale`, and the same for rows. So a full-resolution `x` maps to the output column
/// `(x - covers.x) * scale / 8`; `(x - covers.x) * image.width / covers.width` is the same map except along a
/// right or bottom edge that is the image's own edge (see below).
///
/// `covers.x` and `covers.y` are multiples of 8 (of libjpeg's iMCU: 16 for subsampled chroma, 8 otherwise).
/// `covers.x + covers.width` is a multiple of 8, or the image's width; then, as libjpeg rounds a scaled side
/// up, `image.width == ceil(covers.width * scale / 8)`, and the last column shows fewer than 8/`scale`
/// full-resolution columns. Otherwise `image.width == covers.width * scale / 8` exactly. Rows likewise.
public struct JPEGDecodedRegion: Sendable {
    /// The decoded pixels.
    public var image: RGBImage
    /// The part of the full-resolution stored image that `image` covers, in full-resolution pixels
    /// (it may be larger than the region asked for: libjpeg crops to iMCU boundaries).
    public var covers: JPEGRegion
    /// The DCT scale numerator M: `image` is M/8 of full resolution (1...8).
    public var scale: Int
}
