import EXIF
import Geometry
import ImageCodec
import Imaging

/// JPEG through the one codec interface: libjpeg-turbo's DCT-scaled region decode, the file's own bytes when a
/// PDF can take them as they are, and lossless crops of its blocks.
public struct JPEGCodec: ImageCodec, BlockCodec {
    public init() {}

    public var name: String { "JPEG" }
    public var libraryVersion: String { JPEGLibrary.version }
    /// Its own bytes into the PDF, crops of its DCT blocks, their means as a preview (JPEGLosslessCrop).
    public var blocks: (any BlockCodec)? { self }
    /// IFD1's thumbnail is of the stored picture; EXIF's orientation turns both alike.
    public var exifThumbnailShowsStoredPicture: Bool { true }
    public var fileExtensions: Set<String> { ["jpg", "jpeg", "jpe", "jfif"] }
    // Per pixel, measured with perf on 12-megapixel photos: the entropy decoding reads every block of the file
    // whatever is kept (~3); decoded pixels are upsampled and colour-converted (~2).
    public var cost: DecodeCost { DecodeCost(perStoredPixel: 3, perDecodedPixel: 2) }

    public func recognises(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 3 && prefix[0] == 0xFF && prefix[1] == 0xD8 && prefix[2] == 0xFF
    }

    public func damageInSignature(_ prefix: [UInt8]) -> String? {
        // A file cut inside its signature is a photo that was cut short, not some other kind of file.
        if !prefix.isEmpty && prefix.count < 3 && [0xFF, 0xD8, 0xFF].starts(with: prefix) {
            return "corrupt JPEG (truncated file: only \(prefix.count) byte\(prefix.count == 1 ? "" : "s"))"
        }
        if prefix.count >= 2 && prefix[0] == 0xFF && prefix[1] == 0xD8 { return "corrupt JPEG (damaged start of image)" }
        return nil
    }

    public func probe(_ source: any ByteSource) throws(CodecError) -> [ImageHeader] {
        [try HeaderReading.read(source, info: JPEGDecoder.readInfo(_:), infoOfPrefix: JPEGDecoder.readInfo(prefix:),
                                header: Self.header)]
    }

    /// The codec's header of `info`, read out of `bytes`.
    private static func header(_ info: JPEGInfo, readFrom bytes: [UInt8]) -> ImageHeader {
        var header = ImageHeader(width: info.width, height: info.height)
        header.exif = info.exif
        // libjpeg has read every marker before the first scan out of these bytes: so is the XMP segment.
        header.xmp = JPEGSegments.xmpPacket(inJPEG: bytes)
        header.colorComponents = info.components
        // Grey or YCbCr (CMYK would need a Decode array that depends on the writer), Huffman-coded (PDF readers do
        // not decode arithmetic coding): the bytes can go into the PDF unchanged.
        header.isEmbeddableAsIs = !info.isArithmetic && ((info.colorSpace == .ycbcr && info.components == 3)
            || (info.colorSpace == .grayscale && info.components == 1))
        header.colorProfile = info.iccProfile
        // A CMYK photo is converted to sRGB through its profile while decoding (CMYKConversion).
        if info.components == 4 { header.profileDescribesDecodedPixels = false }
        header.detail = [info.isProgressive ? "progressive" : nil, info.isArithmetic ? "arithmetic" : nil,
                         info.colorSpace == .cmyk || info.colorSpace == .ycck ? "CMYK" : nil]
            .compactMap { $0 }.joined(separator: ", ")
        if header.detail?.isEmpty == true { header.detail = nil }
        return header
    }

    /// Decodes only the stored pixels under the region, at the smallest DCT scale that still gives it the
    /// minimum size (libjpeg skips the columns and rows outside).
    public func decode(_ source: any ByteSource, _ request: DecodeRequest, pool: BufferPool,
                       shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        let bytes = try source.readAll()
        return try CodecError.converting { () throws(JPEGError) in
            let info = try JPEGDecoder.readInfo(bytes)
            let region = request.region
            let decoded = try JPEGDecoder.decode(
                bytes, region: JPEGRegion(x: region.x, y: region.y, width: region.width, height: region.height),
                minimumWidth: request.minimumWidth, minimumHeight: request.minimumHeight,
                maxPixels: request.maxPixels, cmykProfile: info.cmykProfile, pool: pool,
                shouldCancel: shouldCancel)
            let covers = decoded.covers
            return DecodedImage(image: decoded.image, storedWidth: info.width, storedHeight: info.height,
                                covers: Rect(x: Double(covers.x), y: Double(covers.y),
                                                   width: Double(covers.width), height: Double(covers.height)),
                                scale: Double(decoded.scale) / 8)
        }
    }

    public func verifiedOriginal(_ source: any ByteSource, maxPixels: Int, pool: BufferPool,
                                 shouldCancel: () -> Bool) throws(CodecError) -> OriginalImage? {
        let bytes = try source.readAll()
        return try CodecError.converting { () throws(JPEGError) in
            let info = try JPEGDecoder.readInfo(bytes)
            // libharu embeds a broken JPEG without complaint: decode it once (at 1/8 scale every coefficient is
            // still read) so that truncated or corrupt files fail here like any other.
            let check = try JPEGDecoder.decode(bytes, minimumWidth: 1, minimumHeight: 1, maxPixels: maxPixels,
                                               pool: pool, shouldCancel: shouldCancel)
            pool.giveBack(check.pixels)
            return OriginalImage(bytes: bytes, storedWidth: info.width, storedHeight: info.height)
        }
    }

    public func losslessCrop(_ source: any ByteSource, region: PixelRegion, orientation: Orientation, maxPixels: Int,
                             pool: BufferPool, shouldCancel: () -> Bool) throws(CodecError) -> LosslessCrop? {
        try losslessCrop(source, region: region, orientation: orientation, maxPixels: maxPixels, pool: pool,
                         shouldCancel: shouldCancel, place: nil)
    }

    public func losslessCrop(_ source: any ByteSource, placing place: @escaping (RGBImage) -> PixelRegion,
                             orientation: Orientation, maxPixels: Int, pool: BufferPool,
                             shouldCancel: () -> Bool) throws(CodecError) -> LosslessCrop? {
        try losslessCrop(source, region: PixelRegion(x: 0, y: 0, width: 1, height: 1), orientation: orientation,
                         maxPixels: maxPixels, pool: pool, shouldCancel: shouldCancel, place: place)
    }

    private func losslessCrop(_ source: any ByteSource, region: PixelRegion, orientation: Orientation, maxPixels: Int,
                              pool: BufferPool, shouldCancel: () -> Bool,
                              place: ((RGBImage) -> PixelRegion)?) throws(CodecError) -> LosslessCrop? {
        let bytes = try source.readAll()
        return try CodecError.converting { () throws(JPEGError) -> LosslessCrop? in
            let info = try JPEGDecoder.readInfo(bytes)
            // Standard Huffman tables, as for the pages photobook encodes: one pass over the blocks fewer.
            switch try JPEGLosslessCrop.crop(bytes, region: JPEGRegion(x: region.x, y: region.y, width: region.width,
                                                                        height: region.height),
                                             orientation: orientation, maxPixels: maxPixels, optimizeCoding: false,
                                             pool: pool, shouldCancel: shouldCancel,
                                             place: place.map { place in { picture in
                                                 let chosen = place(picture)
                                                 return JPEGRegion(x: chosen.x, y: chosen.y, width: chosen.width,
                                                                   height: chosen.height)
                                             } }) {
            case .unsuitable:
                return nil
            case .cropped(let output):
                let stored = output.storedRegion
                return LosslessCrop(bytes: output.bytes,
                                    storedRegion: PixelRegion(x: stored.x, y: stored.y, width: stored.width,
                                                              height: stored.height),
                                    storedWidth: info.width, storedHeight: info.height)
            }
        }
    }
}
