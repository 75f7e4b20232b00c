import Platform
import Imaging

/// One image format, as the engine sees it: recognised by its first bytes, probed without pixels, decoded
/// region by region at a scale. Every format photobook reads is one value of this protocol in its own module,
/// registered once (`PhotoBook/Codecs.swift`); the engine never asks which format it holds, only what it can
/// do: its library's version, a thumbnail, and, for a format whose compressed blocks the PDF reads as they are
/// (`blocks`), its own bytes, crops of its blocks and a picture of their means.
///
/// The shape is libvips' loader class (`is_a`, `header`, `load`), with swift-png's habit of handing back the
/// metadata the codec meets (ICC, EXIF, XMP) so that nobody parses the file for it again.
public protocol ImageCodec: Sendable {
    /// The format's name in messages, `--verbose` and the report: "JPEG", "PNG", "HEIF", "WebP", "TIFF".
    var name: String { get }
    /// Lower-case file name extensions that promise this format: such a file that is not one is a photo that
    /// cannot be read (named in a warning), not some other file passed over.
    var fileExtensions: Set<String> { get }
    /// True when `prefix`, the file's first `imageSignatureLength` bytes (fewer for a shorter file),
    /// starts a file of this format. Looks at the bytes only.
    func recognises(_ prefix: [UInt8]) -> Bool
    /// Why a file that is no known format is probably a damaged file of this one ("corrupt PNG (damaged
    /// signature)"), from its first bytes; nil when nothing about them suggests this format.
    func damageInSignature(_ prefix: [UInt8]) -> String?

    /// The headers of every picture the file holds that is a photo, in file order (one for most files; a
    /// multi-page TIFF has one per page; thumbnails, masks and reduced copies are not pictures). Reads no pixel
    /// data and allocates nothing in proportion to the declared size. Throws `.failed(failure)` for a file
    /// that is not a readable image of this format.
    func probe(_ source: any ByteSource) throws(CodecError) -> [ImageHeader]

    /// Decodes at least `request.region` of picture `request.picture`, at the smallest scale the codec offers
    /// that still gives the region `request.minimumWidth` x `request.minimumHeight` pixels, as 8-bit RGB in a
    /// buffer from `pool`, transparency composited over white; every large buffer of the decode comes from and
    /// goes back to `pool`, and no other. Refuses a picture of more than `request.maxPixels` before any pixel
    /// buffer exists. Asks `shouldCancel` at safe points (between bands of rows at least) and throws
    /// `.cancelled` once it returns true.
    func decode(_ source: any ByteSource, _ request: DecodeRequest, pool: BufferPool,
                shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage

    /// True when a file of this format may hold several pictures that are photos (a multi-page TIFF): discovery
    /// then probes it to give each picture a place of its own in the book.
    var mayHoldSeveralPictures: Bool { get }

    /// A rough cost of decoding, per stored pixel of the whole picture (work done whatever part is kept) and
    /// per decoded pixel handed out, in the units of `PhotoJob.estimatedCost` (about nanoseconds on the bench
    /// machine). Only orders the work.
    var cost: DecodeCost { get }
    /// The bytes a decode holds until the engine has resampled it, per stored pixel of the whole picture (a
    /// whole-image decoder's planes: a HEIF's YCbCr, a raw's sensor data) and per decoded pixel handed out (RGB:
    /// 3). The engine keeps the decodes under way within its memory budget by it (`RenderPipeline`).
    var memory: DecodeMemory { get }
    /// The most bytes a sound file of a picture of `pixels` stored pixels can hold: a larger file (a video
    /// renamed .jpg, or junk appended) is refused before it is read.
    func largestSoundFile(pixels: Int) -> Int

    /// The name and version of the library that decodes this format ("libjpeg-turbo 2001005"), for the render
    /// cache's key: another version may decode other pixels.
    var libraryVersion: String { get }
    /// What the format's compressed blocks can do without a decode, when the PDF reads them as they are (JPEG's
    /// DCT blocks: DCTDecode); nil for every other format, whose pixels are always decoded.
    var blocks: (any BlockCodec)? { get }
    /// True when the EXIF thumbnail (IFD1) of a file of this format shows the picture as `decode` gives it
    /// (a JPEG's: its stored orientation); false where the format's own turns may differ from it (a HEIF's).
    var exifThumbnailShowsStoredPicture: Bool { get }
    /// A small copy of picture 0 that the file carries beside it (a HEIF's `thmb` item), decoded in the
    /// orientation `decode` gives the picture, at most `maxPixels`; nil when it has none or it cannot be read.
    /// For an attention map: it need not be exact, only cheap.
    func thumbnail(_ source: any ByteSource, maxPixels: Int) -> RGBImage?
    /// True for a camera's raw sensor data (NEF, DNG...): the camera's own JPEG of the same shot beside it is
    /// the photo, unless the raw is asked for (`--prefer raw`).
    var isCameraRaw: Bool { get }
}

extension ImageCodec {
    public func damageInSignature(_ prefix: [UInt8]) -> String? { nil }
    public var mayHoldSeveralPictures: Bool { false }
    public func largestSoundFile(pixels: Int) -> Int {
        let (raw, overflow) = pixels.multipliedReportingOverflow(by: 4)
        return overflow ? Int.max : max(64 << 20, raw + (16 << 20))
    }
    public var blocks: (any BlockCodec)? { nil }
    /// A decode of only the region, at its scale, into RGB: nothing held in proportion to the whole picture.
    public var memory: DecodeMemory { DecodeMemory(perStoredPixel: 0, perDecodedPixel: 3) }
    public var exifThumbnailShowsStoredPicture: Bool { false }
    public func thumbnail(_ source: any ByteSource, maxPixels: Int) -> RGBImage? { nil }
    public var isCameraRaw: Bool { false }
}

/// A format whose compressed blocks the PDF reads as they are (JPEG: DCTDecode), so that a photo needs no
/// decode to go into the book: its own bytes, proved sound, or a new file of the blocks under a crop. Only JPEG
/// is one (`ImageCodec.blocks`); the engine asks for the capability, never for the format.
public protocol BlockCodec: Sendable {
    /// The file's own bytes when they can go into the PDF unchanged (a JPEG the PDF's DCTDecode reads), after
    /// proving them sound by a full decode (its buffers from `pool`); nil when this format never goes into a PDF
    /// as it is.
    func verifiedOriginal(_ source: any ByteSource, maxPixels: Int, pool: BufferPool,
                          shouldCancel: () -> Bool) throws(CodecError) -> OriginalImage?
    /// A new JPEG of the picture's own compressed blocks under `region`, turned by `orientation`, with no
    /// decode and no re-encode (its large buffers from `pool`); nil when the format or this file cannot do that
    /// (then its pixels are decoded).
    func losslessCrop(_ source: any ByteSource, region: PixelRegion, orientation: Orientation, maxPixels: Int,
                      pool: BufferPool, shouldCancel: () -> Bool) throws(CodecError) -> LosslessCrop?
    /// As `losslessCrop(_:region:...)`, the region chosen by `place` once the blocks are read, from a picture
    /// of 1/8 of the stored one made from them (for an attention map: no second read of the file's blocks).
    func losslessCrop(_ source: any ByteSource, placing place: @escaping (RGBImage) -> PixelRegion,
                      orientation: Orientation, maxPixels: Int, pool: BufferPool,
                      shouldCancel: () -> Bool) throws(CodecError) -> LosslessCrop?
    /// A picture of picture 0 made of the means of its blocks (1/8 of the stored size, from the DC terms alone:
    /// no decode), the same picture `losslessCrop(_:placing:...)` shows its `place`; a cheap preview for an
    /// attention map or the choice's measures.
    func blockMeans(_ source: any ByteSource, maxPixels: Int, pool: BufferPool,
                    shouldCancel: () -> Bool) throws(CodecError) -> RGBImage
}

/// What a decode takes, per pixel: its time (`ImageCodec.cost`) and the bytes it holds (`ImageCodec.memory`) are
/// both a part for the whole picture and a part for what it hands out.
public struct PerPixel: Sendable, Equatable {
    /// Per stored pixel of the whole picture, whatever part of it is asked for: entropy decoding, inflating,
    /// reading every strip; a whole-image decoder's planes.
    public var perStoredPixel: Double
    /// Per pixel handed out: upsampling, colour conversion, copying; the RGB given.
    public var perDecodedPixel: Double
    public init(perStoredPixel: Double, perDecodedPixel: Double) {
        self.perStoredPixel = perStoredPixel
        self.perDecodedPixel = perDecodedPixel
    }

    /// The whole of it for a decode of a picture of `stored` pixels that hands out `decoded` pixels.
    public func total(stored: Double, decoded: Double) -> Double { perStoredPixel * stored + perDecodedPixel * decoded }
}

/// What a codec's decode costs, per pixel (see `ImageCodec.cost`).
public typealias DecodeCost = PerPixel
/// What a decode holds, in bytes per pixel (see `ImageCodec.memory`).
public typealias DecodeMemory = PerPixel

/// How many of a file's first bytes `ImageCodec.recognises` is shown: an ISO-BMFF `ftyp` box lists its
/// compatible brands there.
public let imageSignatureLength = 64

/// Why a codec could not probe or decode a file.
public enum CodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `shouldCancel` returned true at a safe point.
    case cancelled
    /// The file cannot be used: its kind, and its words for the person who owns it ("corrupt HEIF (truncated
    /// file)").
    case failed(Failure)

    public static func corrupt(_ message: String) -> CodecError { .failed(.corrupt(message)) }
    public static func unsupported(_ message: String) -> CodecError { .failed(.unsupported(message)) }
    public static func tooLarge(_ message: String) -> CodecError { .failed(.tooLarge(message)) }
    public static func changedOnDisk(_ message: String) -> CodecError { .failed(.changedOnDisk(message)) }
    public static func outOfMemory(_ message: String) -> CodecError { .failed(.outOfMemory(message)) }
    /// A request the codec's caller should not have made (a region outside the picture).
    public static func internalError(_ message: String) -> CodecError { .failed(.internalError(message)) }

    /// The kind and the words, a cancel included.
    public var failure: Failure {
        switch self {
        case .cancelled: return Failure(.cancelled, "cancelled")
        case .failed(let failure): return failure
        }
    }

    public var description: String { failure.message }

    /// `error` as it crosses the codec interface: a cancel stays a cancel, anything else is its failure.
    public init(_ error: some FormatError) {
        self = error == .cancelled ? .cancelled : .failed(error.failure)
    }

    /// What `body`, a format module's own code, returns; what it throws, as a `CodecError`. One place for the
    /// conversion every codec that wraps its own error type needs (JPEG, PNG).
    public static func converting<R, E: FormatError>(_ body: () throws(E) -> R) throws(CodecError) -> R {
        do {
            return try body()
        } catch {
            throw CodecError(error)
        }
    }
}

/// A format module's own error type (`JPEGError`, `PNGError`): a cancel, and for everything else the kind and
/// the words that cross the codec interface (`CodecError.init(_:)`).
public protocol FormatError: Error, Equatable {
    static var cancelled: Self { get }
    var failure: Failure { get }
}
