import ImageCodec
import Imaging
import Platform

/// Makes a photo's attention map in the probe phase, before any plan, from the smallest decode its codec offers:
/// a JPEG DCT-scaled to 1/8 (the DC coefficients alone), a WebP scaled while it decodes, a PNG, TIFF or HEIF
/// decoded once and box-shrunk by 8 on the way (`BoxShrink`: the whole picture never held at full size). A JPEG's
/// EXIF thumbnail goes first when it shows the whole picture: a camera's or a phone's photo then costs nothing.
enum AttentionProbe {
    /// The long side the map is measured on at most: the decode is shrunk to it first (libvips measures its
    /// attention on the thumbnail it makes, often smaller; 32 cells of 6 pixels keep a face's edges).
    static let measuredSide = 192

    /// The most stored pixels of a photo of another format than JPEG that is measured: their smallest decode is a
    /// whole one (a PNG inflates every row, a HEIF decodes every tile, a WebP every macroblock), and a 4 MP one
    /// costs about what a 12 MP JPEG's 1/8 decode does (an 18 MB 12 MP PNG took 240 ms of CPU here, a JPEG 25).
    static let largestWholeDecode = 4_000_000

    /// True when the map costs little beside the photo's render without a thumbnail: a JPEG (the DC coefficients
    /// of its blocks), or a picture of another format small enough to decode whole. Larger ones without a
    /// thumbnail (a HEIF's `thmb` item, `ImageCodec.thumbnail`) keep their centre crops.
    static func isCheap(_ info: PhotoInfo) -> Bool {
        info.format.codec.blocks != nil || info.storedWidth * info.storedHeight <= largestWholeDecode
    }

    /// The map of `info`'s photo; a failure is the reason, for a warning (its crop then stays at the centre). Nil
    /// for a file far larger than its pixels need (a video renamed .jpg, junk after a header): codecs read a JPEG
    /// whole, so it is never read here, and the render refuses it by name, once.
    /// `picture`: the photo's block means or its 1/8 decode, when the choice of photos read them already
    /// (`TraitsProbe`): measured instead of read again when no thumbnail goes first; its buffer goes to `pool`.
    /// `opened`: the photo's file when the caller holds it open already (the probe's, the render's): not opened
    /// again. `lookedForEXIFThumbnail`: the caller found none (`exifThumbnail`), which is not read again.
    static func map(of info: PhotoInfo, source opened: FileSource? = nil, maxPixels: Int, pool: BufferPool,
                    picture: RGBImage? = nil, lookedForEXIFThumbnail: Bool = false,
                    isCancelled: () -> Bool) -> Result<AttentionMap, CodecError>? {
        let source: FileSource
        if let opened {
            source = opened
        } else {
            // Trap: `try opened ?? FileSource(...)` loses the typed throw (`??` takes a rethrowing autoclosure).
            do {
                source = try FileSource(path: info.file.filePath)
            } catch {
                return .failure(.failed(Probe.unreadable(error)))
            }
        }
        guard source.count <= info.largestSoundFileSize else {
            if let picture { pool.giveBack(picture.pixels) }
            return nil
        }
        return Result { () throws(CodecError) in
            let width = info.storedWidth, height = info.storedHeight
            if let thumbnail = (lookedForEXIFThumbnail ? nil : exifThumbnail(of: info, source: source, pool: pool))
                ?? codecThumbnail(of: info, source: source, pool: pool) {
                if let picture { pool.giveBack(picture.pixels) }
                defer { pool.giveBack(thumbnail.pixels) }
                return AttentionMap.measure(thumbnail, orientation: info.orientation)
            }
            if let picture { return measure(picture, info: info, pool: pool) }
            guard isCheap(info) else { throw CodecError.tooLarge("too large to measure without a thumbnail") }
            if let means = blockMeans(of: info, source: source, maxPixels: maxPixels, pool: pool,
                                      isCancelled: isCancelled) {
                return means
            }
            let request = DecodeRequest(picture: info.file.picture,
                                        region: PixelRegion(x: 0, y: 0, width: width, height: height),
                                        minimumWidth: max(1, width / 8), minimumHeight: max(1, height / 8),
                                        maxPixels: maxPixels)
            let decoded = try info.format.codec.decode(source, request, pool: pool, shouldCancel: isCancelled)
            guard decoded.storedWidth == width, decoded.storedHeight == height else {
                pool.giveBack(decoded.image.pixels)
                throw CodecError.failed(.changed)
            }
            let small = shrunk(decoded.image, pool: pool)
            defer { pool.giveBack(small.pixels) }
            if isCancelled() { throw CodecError.cancelled }
            return AttentionMap.measure(small, orientation: info.orientation)
        }
    }

    /// The decoded EXIF thumbnail of a JPEG, when it has one of the picture's shape (within 2%: a camera that
    /// letterboxes a 3:2 photo into a 4:3 thumbnail, or an editor that cropped the photo and kept the old
    /// thumbnail, is read the slow way); nil otherwise, whatever went wrong.
    static func exifThumbnail(of info: PhotoInfo, source: FileSource, pool: BufferPool) -> RGBImage? {
        let codec = info.format.codec
        // Only a JPEG's: the thumbnail is in the stored picture's orientation, which a HEIF's own turns may not be.
        guard codec.exifThumbnailShowsStoredPicture,
              let headers = try? codec.probe(PrefixCachedSource(source)), info.file.picture < headers.count,
              let exif = headers[info.file.picture].exif, let bytes = EXIFThumbnail.jpeg(in: exif) else { return nil }
        let thumbnail = MemorySource(Array(bytes))
        guard let header = (try? codec.probe(thumbnail))?.first, header.width >= 32, header.height >= 32 else { return nil }
        let aspect = Double(info.storedWidth) / Double(info.storedHeight)
        guard abs(Double(header.width) / Double(header.height) / aspect - 1) < 0.02,
              let decoded = try? codec.decode(thumbnail, .whole(width: header.width, height: header.height,
                                                                maxPixels: header.width * header.height),
                                              pool: pool, shouldCancel: { false })
        else { return nil }
        return shrunk(decoded.image, pool: pool)
    }

    /// A JPEG's map from the means of its blocks, the picture a lossless crop's render measures (and a 1/8
    /// decode nearly is); nil for other formats and for JPEGs whose blocks a lossless crop does not copy.
    static func blockMeans(of info: PhotoInfo, source: FileSource, maxPixels: Int, pool: BufferPool,
                           isCancelled: () -> Bool) -> AttentionMap? {
        guard let blocks = info.format.codec.blocks, info.file.picture == 0,
              let means = try? blocks.blockMeans(source, maxPixels: maxPixels, pool: pool, shouldCancel: isCancelled),
              means.width * 8 >= info.storedWidth, means.height * 8 >= info.storedHeight else { return nil }
        return measure(means, info: info, pool: pool)
    }

    /// The map of a picture of the whole stored photo (block means, a thumbnail), shrunk to `measuredSide` first.
    static func measure(_ picture: RGBImage, info: PhotoInfo, pool: BufferPool) -> AttentionMap {
        let small = shrunk(picture, pool: pool)
        defer { pool.giveBack(small.pixels) }
        return AttentionMap.measure(small, orientation: info.orientation)
    }

    /// The thumbnail the codec finds in the file (a HEIF's `thmb` item), shrunk, when it has the picture's shape
    /// (within 2%, as for EXIF's); nil otherwise.
    static func codecThumbnail(of info: PhotoInfo, source: FileSource, pool: BufferPool) -> RGBImage? {
        guard info.file.picture == 0,
              let thumbnail = info.format.codec.thumbnail(source, maxPixels: largestThumbnail),
              thumbnail.width >= 32, thumbnail.height >= 32 else { return nil }
        let aspect = Double(info.storedWidth) / Double(info.storedHeight)
        guard abs(Double(thumbnail.width) / Double(thumbnail.height) / aspect - 1) < 0.02 else { return nil }
        return shrunk(thumbnail, pool: pool)
    }

    /// The most pixels a thumbnail may have to be read as one (phones write 320x240 to 512x384).
    static let largestThumbnail = 1_000_000

    /// `image` box-shrunk to `measuredSide` on its long side at most; `image`'s buffer goes back to `pool`.
    static func shrunk(_ image: RGBImage, pool: BufferPool) -> RGBImage {
        let long = max(image.width, image.height)
        return shrunk(image, by: (long + measuredSide - 1) / measuredSide, pool: pool)
    }

    /// `image` box-shrunk by `factor` (itself for a factor of 1 or less); `image`'s buffer goes back to `pool`.
    static func shrunk(_ image: RGBImage, by factor: Int, pool: BufferPool) -> RGBImage {
        guard factor > 1 else { return image }
        var shrink = BoxShrink(region: PixelRegion(x: 0, y: 0, width: image.width, height: image.height),
                               factor: factor, pool: pool)
        image.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<image.height {
                shrink.add(row: UnsafeBufferPointer(rebasing: pixels[row * image.bytesPerRow..<(row + 1) * image.bytesPerRow]))
            }
        }
        pool.giveBack(image.pixels)
        return shrink.finish(storedWidth: image.width, storedHeight: image.height).image
    }
}
