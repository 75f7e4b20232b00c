import CHEIF
import ImageCodec
import Imaging

/// HEIC and AVIF photos through libheif 1.15 (HEVC by libavcodec, AV1 by dav1d, through photobook's own decoder
/// plugins: CHEIFDecoders): the primary image only, with
/// the file's own rotation, mirroring and crop (irot, imir, clap) applied by libheif while it decodes.
///
/// libheif decodes a whole picture or nothing (no region, no scale, no cancel): a decode takes the whole
/// picture (on a thread of its own, so that a stop need not wait for it: `HEIFDecodeJob`), copies the region
/// out shrunk by a whole factor (`BoxShrink`), and releases libheif's copy at once. A picture libheif would only
/// convert to RGB is kept as the decoder's YCbCr planes and converted as its rows are copied (`HEIFYCbCrPicture`).
public struct HEIFCodec: ImageCodec {
    public init() {}

    public var name: String { "HEIF" }
    public var libraryVersion: String { HEIFLibrary.version }
    /// Not "avifs": an AVIF image sequence is an animation, not a photo (one that also holds a still primary
    /// image is still read when it comes under another name: `recognises` knows its brand).
    public var fileExtensions: Set<String> { ["heic", "heif", "hif", "avif"] }
    // CPU time of one decode of a 12-megapixel HEIC (4000x3000, one thread, this machine): ~60 ns a pixel at
    // 1.7 MB a photo with libavcodec (libde265 took ~85; entropy decoding grows with the bits, so an iPhone's
    // 2-3 MB take more), libheif's conversion to RGB included. AVIF (dav1d) takes ~25. Every pixel is decoded
    // whatever part is kept; the copy out through BoxShrink is ~2 per pixel handed out.
    public var cost: DecodeCost { DecodeCost(perStoredPixel: 60, perDecodedPixel: 2) }
    /// The whole picture is decoded and held until resampled: the decoder's YCbCr planes (1.5 bytes a pixel for
    /// 8-bit 4:2:0, 3 above 8 bits; a grid's canvas as libheif's planar RGB, 3) and the decoder's own state
    /// beside them (heaptrack: 61 MB for a 20-megapixel 10-bit AVIF, 37 MB for a 12-megapixel iPhone HEIC grid);
    /// rows are read from them (no RGB copy).
    public var memory: DecodeMemory { DecodeMemory(perStoredPixel: 3.5, perDecodedPixel: 0) }

    /// How many decodes cancelled while libheif worked are still running on their own threads (each ends by
    /// itself and frees what it holds): for the fuzzer, which must not take their memory for a leak.
    @_spi(Fuzzing) public static var abandonedDecodesStillRunning: Int { HEIFDecodeJob.running.withLock { $0 } }

    /// How many rows are copied between two calls of `shouldCancel`.
    static let rowsPerBand = 64

    public func recognises(_ prefix: [UInt8]) -> Bool {
        HEIFBrand(prefix: prefix)?.isReadable ?? false
    }

    public func damageInSignature(_ prefix: [UInt8]) -> String? {
        // An ISO media file of other brands (a phone's video renamed .heic, a QuickTime movie) is named as such.
        guard let brand = HEIFBrand(prefix: prefix), !brand.isReadable else { return nil }
        return "not a HEIF or AVIF image (an ISO media file of brand '\(brand.major)')"
    }

    public func probe(_ source: any ByteSource) throws(CodecError) -> [ImageHeader] {
        let kind = try Self.kind(of: source)
        let file = try HEIFFile(source, kind: kind)
        let handle = file.handle
        let (width, height) = try Self.size(of: file)
        var header = ImageHeader(width: width, height: height)
        // libheif applies irot/imir/clap at decode; a phone's EXIF Orientation says the same turn again.
        header.orientation = .fixed(.topLeft)
        header.exif = HEIFMetadata.exif(handle)
        header.xmp = HEIFMetadata.xmp(handle)
        let colour = HEIFColour(handle, kind: kind)
        header.colorProfile = colour.profile
        header.warnings = colour.warnings
        header.notes = colour.notes
        let bits = Int(heif_image_handle_get_luma_bits_per_pixel(handle))
        header.detail = bits > 8 ? "\(kind), \(bits)-bit" : kind
        if heif_image_handle_has_alpha_channel(handle) != 0 { header.detail! += ", alpha" }
        if file.topLevelImageCount > 1 {
            header.notes.append("\(kind) file holds \(file.topLevelImageCount) images: its primary one is used")
        }
        return [header]
    }

    public func decode(_ source: any ByteSource, _ request: DecodeRequest, pool: BufferPool,
                       shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        if shouldCancel() { throw .cancelled }
        let kind = try Self.kind(of: source)
        guard request.picture == 0 else { throw .internalError("\(kind) file has no picture \(request.picture + 1)") }
        let file = try HEIFFile(source, kind: kind)
        let (width, height) = try Self.size(of: file)
        // The coded size (ispe) is what libheif allocates planes for; the shown size may be cropped from it. A
        // grid's or an overlay's canvas (the primary image, a tile of it, its alpha) is allocated at the size its
        // own item data says, which libheif 1.15 does not check against the ispe: 5 KB files made it allocate
        // 2.9 and 4.5 GB before this check.
        let coded = (Int(heif_image_handle_get_ispe_width(file.handle)), Int(heif_image_handle_get_ispe_height(file.handle)))
        var sizes = [(width, height), coded]
        switch HEIFBoxes.derivedCanvases(of: file.source) {
        case .sizes(let canvases): sizes += canvases.map { ($0.width, $0.height) }
        // libheif has read these boxes already: if this parser cannot, nothing tells what libheif will allocate.
        case .unreadable(let why): throw .corrupt("corrupt \(kind) (\(why))")
        }
        for (w, h) in sizes { try request.checkPixels(width: w, height: h, of: "\(kind) image") }
        if shouldCancel() { throw .cancelled }
        let picture = try HEIFDecodeJob.decode(file, region: request.region, maxPixels: request.maxPixels,
                                               shouldCancel: shouldCancel)
        if shouldCancel() { throw .cancelled }
        // The decoded size is the truth: libheif 1.15 computes the handle's size from the properties in their
        // ipma order, so an irot listed before the ispe leaves the handle's size unturned.
        guard let region = request.region.clamped(width: picture.width, height: picture.height) else {
            throw .internalError("\(kind) region \(request.region) lies outside the \(picture.width)x\(picture.height) picture")
        }
        let factor = request.shrinkFactor(for: region)
        if factor == 1, request.acceptsRows {
            // The planes are kept (and converted as the resampler reads them) instead of an RGB copy of the region.
            return DecodedImage(rows: HEIFRegionRows(picture, region: region), storedWidth: picture.width,
                                storedHeight: picture.height, region: region)
        }
        var shrink = BoxShrink(region: region, factor: factor, pool: pool)
        var row = [UInt8](repeating: 0, count: region.width * 3)
        for y in region.y..<(region.y + region.height) {
            if (y - region.y) % Self.rowsPerBand == 0, y > region.y, shouldCancel() {
                shrink.abandon()
                throw .cancelled
            }
            row.withUnsafeMutableBufferPointer { rgb in
                picture.row(y, from: region.x, count: region.width, into: rgb)
                shrink.add(row: UnsafeBufferPointer(rgb))
            }
        }
        // `picture` is not used past this line: libheif's copy is released before the result is handed out.
        let (storedWidth, storedHeight) = (picture.width, picture.height)
        return shrink.finish(storedWidth: storedWidth, storedHeight: storedHeight)
    }

    /// "HEIC" or "AVIF" (for messages), from the `ftyp` box; a file without one is refused here.
    static func kind(of source: any ByteSource) throws(CodecError) -> String {
        let prefix = try source.prefix(64)
        guard let brand = HEIFBrand(prefix: prefix) else {
            throw prefix.count < 12 ? .corrupt("corrupt HEIF (truncated file: only \(prefix.count) bytes)")
                                    : .unsupported("not a HEIF image (no 'ftyp' box)")
        }
        return brand.kind
    }

    /// The primary image's size as decoded (after irot, imir and clap).
    /// libheif 1.15's `heif_image_handle_get_width` is the `ispe` size with `clap` and `irot` applied (the `ispe`
    /// alone is `heif_image_handle_get_ispe_width`); it is 0 when the image has no `ispe`.
    static func size(of file: HEIFFile) throws(CodecError) -> (Int, Int) {
        let width = Int(heif_image_handle_get_width(file.handle)), height = Int(heif_image_handle_get_height(file.handle))
        guard width > 0, height > 0 else { throw .corrupt("corrupt \(file.kind) (the image has no size)") }
        return (width, height)
    }
}
