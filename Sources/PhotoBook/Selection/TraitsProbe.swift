import ImageCodec
import Imaging
import Platform

/// Reads the picture the choice of photos measures (`PhotoTraits`) from the smallest decode that still shows
/// blur: a JPEG's block means (its DC coefficients: one entropy pass, no IDCT), a HEIF's thumbnail item when it
/// has at least `smallestThumbnail` pixels on its long side, else a decode scaled to 1/8 as the codec can (a
/// WebP scales while it decodes, a PNG or TIFF is box-shrunk row by row). An EXIF thumbnail (160x120) is too
/// small: a blur of 20 pixels in 4000 is gone in it.
enum TraitsProbe {
    static let smallestThumbnail = 240
    /// The long side the picture is measured at, about: a 12 MP photo's block means.
    static let measuredSide = 500

    /// The picture of `info`'s whole stored photo, and whether it is the picture `AttentionProbe` would measure
    /// when the photo has no thumbnail (its block means, or its 1/8 decode when that is cheap), so that the map
    /// made from it is the one a build that does not choose makes; nil when it cannot be read (the render names
    /// the reason).
    static func picture(of info: PhotoInfo, source: FileSource, maxPixels: Int, pool: BufferPool,
                        isCancelled: () -> Bool) -> (image: RGBImage, attentionSees: Bool)? {
        guard source.count <= info.largestSoundFileSize else { return nil }
        let width = info.storedWidth, height = info.storedHeight
        // Block means are a 1/8 picture: enough to see a blur of 8 pixels and more when that is 400 pixels
        // across or more (a 12 MP photo's is 500); a smaller photo is decoded at a larger scale instead.
        let side = max(width, height), eighth = side / 8 >= measuredSide * 4 / 5
        if eighth, let blocks = info.format.codec.blocks, info.file.picture == 0,
           let means = try? blocks.blockMeans(source, maxPixels: maxPixels, pool: pool, shouldCancel: isCancelled),
           means.width * 8 >= width, means.height * 8 >= height {
            return (means, true)
        }
        if isCancelled() { return nil }
        if info.file.picture == 0, let thumbnail = info.format.codec.thumbnail(source, maxPixels: AttentionProbe.largestThumbnail),
           max(thumbnail.width, thumbnail.height) >= smallestThumbnail,
           abs(Double(thumbnail.width) / Double(thumbnail.height) / (Double(width) / Double(height)) - 1) < 0.02 {
            return (thumbnail, false)
        }
        // A large photo at 1/8, asked for as `AttentionProbe` asks (so that its map can be measured on it), a
        // smaller one at `measuredSide` on its long side or its own size.
        let scale = eighth ? 1.0 / 8 : min(1, Double(measuredSide) / Double(side))
        let request = DecodeRequest(picture: info.file.picture, region: PixelRegion(x: 0, y: 0, width: width, height: height),
                                    minimumWidth: eighth ? max(1, width / 8) : max(1, Int((Double(width) * scale).rounded(.up))),
                                    minimumHeight: eighth ? max(1, height / 8) : max(1, Int((Double(height) * scale).rounded(.up))),
                                    maxPixels: maxPixels)
        guard let decoded = try? info.format.codec.decode(source, request, pool: pool, shouldCancel: isCancelled) else {
            return nil
        }
        guard decoded.storedWidth == width, decoded.storedHeight == height else {
            pool.giveBack(decoded.image.pixels)
            return nil
        }
        // A whole decode of a small picture (a screenshot, a web photo) comes back at full size: shrink it to about
        // the scale the others are measured at.
        let factor = max(1, min(8, max(decoded.image.width, decoded.image.height) / measuredSide))
        guard factor > 1 else { return (decoded.image, eighth && AttentionProbe.isCheap(info)) }
        return (AttentionProbe.shrunk(decoded.image, by: factor, pool: pool), false)
    }
}
