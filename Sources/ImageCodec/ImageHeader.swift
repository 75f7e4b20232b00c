import EXIF
import Geometry
import Imaging

/// What a codec reads of one picture without decoding its pixels.
public struct ImageHeader: Sendable, Equatable {
    /// The picture's size as `decode` hands it out, before `orientation` is applied. For a format that stores
    /// its own transformations (HEIF's irot, imir and clap) this is the size after them.
    public var width: Int
    public var height: Int
    /// How the picture must be turned to be seen upright.
    public var orientation: OrientationSource = .exif
    /// Colour components of the stored pixels that `colorProfile` must describe: 1 grey, 3 RGB, 4 CMYK.
    public var colorComponents: Int = 3
    /// The ICC profile the picture carries, if any (checked by the engine against `colorComponents`).
    public var colorProfile: EmbeddedProfile?
    /// True when the decoded RGB pixels are still the profile's own values, so that the profile goes into
    /// the PDF with them. A codec that converts through the profile itself (a CMYK TIFF) sets it false.
    public var profileDescribesDecodedPixels: Bool = true
    /// The EXIF data: a TIFF structure (byte order mark, IFD0...), as after `Exif\0\0` in a JPEG's APP1.
    public var exif: [UInt8]?
    /// The XMP packet.
    public var xmp: [UInt8]?
    /// Metadata the format keeps outside EXIF (a TIFF's own tags), taken before what `exif` says.
    public var captureDate: CaptureDate?
    public var description: String?
    /// The file's own bytes can go into the PDF unchanged (`BlockCodec.verifiedOriginal`).
    public var isEmbeddableAsIs: Bool = false
    /// Said to the user as warnings of this photo ("animated WebP: only its first frame is used").
    public var warnings: [String] = []
    /// Said only with `--verbose` (a library's warnings about a file it could read).
    public var notes: [String] = []
    /// What of the format this picture is, for `--verbose` and the report ("HEIC", "AVIF", "16-bit CMYK").
    public var detail: String?

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// Where a picture's upright orientation comes from.
public enum OrientationSource: Sendable, Equatable {
    /// The EXIF Orientation tag in `ImageHeader.exif` (as stored when there is none).
    case exif
    /// The format's own: HEIF applies its transformations while decoding (`.topLeft`, and EXIF is not
    /// applied on top: phones write both), a TIFF has its Orientation tag.
    case fixed(Orientation)
}

/// An ICC profile found in a file, or why the one there cannot be used ("ICC profile chunk 2 of 3 is missing").
/// Only the container is checked by the codec that finds it (chunks, size, compression); whether the bytes are
/// a profile for the photo is the caller's to judge.
public enum EmbeddedProfile: Sendable, Equatable {
    case profile([UInt8])
    case unusable(String)

    /// The largest profile accepted: real ones are a few kilobytes (sRGB, Adobe RGB) to about a megabyte
    /// (printer profiles with big lookup tables); a photo's profile of more is broken or hostile.
    public static let maximumSize = 4 << 20
}

/// A rectangle of whole pixels of a stored picture.
public struct PixelRegion: Sendable, Equatable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The region clamped to a `width` x `height` picture; nil when nothing of it is inside.
    public func clamped(width: Int, height: Int) -> PixelRegion? {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + self.width), y1 = min(height, y + self.height)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// What the engine asks of a decode.
public struct DecodeRequest: Sendable, Equatable {
    /// Which of the file's pictures (`ImageCodec.probe`'s index).
    public var picture: Int
    /// The part of the stored picture needed, in full-resolution pixels before orientation.
    public var region: PixelRegion
    /// The least size the region must have once decoded; the region's own size for full resolution.
    public var minimumWidth: Int
    public var minimumHeight: Int
    /// The most pixels the whole picture may have (`--max-pixels`).
    public var maxPixels: Int
    /// True when the caller reads the pixels a row at a time (`DecodedImage.rows`): a codec that holds the picture
    /// as something smaller than its RGB (a HEIC's YCbCr planes) may then hand that out instead of a buffer.
    public var acceptsRows = false

    public init(picture: Int = 0, region: PixelRegion, minimumWidth: Int, minimumHeight: Int, maxPixels: Int) {
        self.picture = picture
        self.region = region
        self.minimumWidth = minimumWidth
        self.minimumHeight = minimumHeight
        self.maxPixels = maxPixels
    }

    /// The whole of a `width` x `height` picture at full resolution.
    public static func whole(width: Int, height: Int, maxPixels: Int, picture: Int = 0) -> DecodeRequest {
        DecodeRequest(picture: picture, region: PixelRegion(x: 0, y: 0, width: width, height: height),
                      minimumWidth: width, minimumHeight: height, maxPixels: maxPixels)
    }
}

/// The checks every codec's decode makes of a request before it allocates anything, with the same words for all.
extension DecodeRequest {
    /// Refuses any picture but the first of a format that holds one (`file`: "a BMP file"; `SinglePictureCodec`
    /// asks it): the probe said so, so another is the caller's mistake.
    public func requireFirstPicture(of file: String) throws(CodecError) {
        guard picture == 0 else { throw .internalError("\(file) holds one picture, not \(picture + 1)") }
    }

    /// Refuses a `width` x `height` picture of more than `maxPixels`, or of more than an `Int` counts (a damaged
    /// header may claim any size), before a buffer of its size exists. `what` names it in the message: "image",
    /// "its first frame".
    public func checkPixels(width: Int, height: Int, of what: String = "image") throws(CodecError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw .tooLarge("\(what) is \(width)x\(height) pixels, more than the limit of \(maxPixels)")
        }
    }

    /// `region`, once it is known to lie wholly inside the `width` x `height` picture: the engine asks only for
    /// parts of the picture the probe measured, so any other is its mistake, not the file's.
    public func region(inside width: Int, _ height: Int) throws(CodecError) -> PixelRegion {
        guard region.clamped(width: width, height: height) == region else {
            throw .internalError("the region asked for lies outside the \(width)x\(height) picture")
        }
        return region
    }

    /// The whole factor `BoxShrink` may shrink `region` by and still give it `minimumWidth` x `minimumHeight`.
    public func shrinkFactor(for region: PixelRegion) -> Int {
        BoxShrink.factor(for: region, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
    }
}

/// Decoded pixels and the part of the stored picture they show.
public struct DecodedImage: Sendable {
    /// 8-bit RGB, as stored (not yet oriented), in a pooled buffer.
    public var image: RGBImage
    /// The whole picture's full-resolution size as the file says now (the engine checks it against the probe).
    public var storedWidth: Int
    public var storedHeight: Int
    /// The part of the full-resolution stored picture that `image` shows, in full-resolution pixels: at least
    /// the region asked for (a codec may decode more: whole blocks, the whole picture).
    public var covers: Rect
    /// Decoded pixels per full-resolution pixel (1 at full size; M/8 for a DCT-scaled JPEG). Not always
    /// `image.width / covers.width`: a codec that rounds a scaled side up has a partial last pixel.
    public var scale: Double
    /// What the library said while decoding a file it could read, for `--verbose` only (as `ImageHeader.notes`).
    public var notes: [String] = []
    /// When set (only for a request that `acceptsRows`), the pixels are read from here a row at a time, at
    /// `scale` 1, and `image` is empty: the decoded picture is held as something smaller than its RGB until then.
    public var rows: (any PixelRows)?

    public init(image: RGBImage, storedWidth: Int, storedHeight: Int, covers: Rect, scale: Double) {
        self.image = image
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.covers = covers
        self.scale = scale
    }

    /// Pixels read a row at a time from `rows`, which shows `region` of the stored picture at full resolution.
    public init(rows: any PixelRows, storedWidth: Int, storedHeight: Int, region: PixelRegion) {
        self.init(image: RGBImage(width: 0, height: 0, pixels: []), storedWidth: storedWidth, storedHeight: storedHeight,
                  covers: Rect(x: Double(region.x), y: Double(region.y), width: Double(region.width),
                               height: Double(region.height)),
                  scale: 1)
        self.rows = rows
    }
}

/// A file's own bytes, proven sound, to go into the PDF unchanged (`BlockCodec.verifiedOriginal`).
public struct OriginalImage: Sendable {
    public var bytes: [UInt8]
    /// The picture's size as the file says now (the engine checks it against the probe).
    public var storedWidth: Int, storedHeight: Int
    public init(bytes: [UInt8], storedWidth: Int, storedHeight: Int) {
        self.bytes = bytes
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
    }
}

/// A JPEG made of a picture's own blocks (`ImageCodec.losslessCrop`).
public struct LosslessCrop: Sendable {
    public var bytes: [UInt8]
    /// The part of the stored picture the new file shows (whole blocks: a little more than asked for).
    public var storedRegion: PixelRegion
    /// The picture's size as the file says now.
    public var storedWidth: Int, storedHeight: Int
    public init(bytes: [UInt8], storedRegion: PixelRegion, storedWidth: Int, storedHeight: Int) {
        self.bytes = bytes
        self.storedRegion = storedRegion
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
    }
}
