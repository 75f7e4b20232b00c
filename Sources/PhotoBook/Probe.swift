import EXIF
import Imaging
import JPEG
import PNG
import Platform

/// What photobook knows about a photo before decoding it: read from its headers only.
public struct PhotoInfo: Sendable, Equatable {
    public var file: PhotoFile
    /// Pixel size as stored in the file.
    public var storedWidth: Int
    public var storedHeight: Int
    public var orientation: Orientation
    /// When the photo was taken, from EXIF DateTimeOriginal with SubSecTimeOriginal and OffsetTimeOriginal
    /// (a PNG's eXIf chunk alike); nil when it has none that is a real date. `localText` is the camera's own
    /// reading, for captions; `PhotoOrder` orders by it.
    public var captureDate: CaptureDate?
    /// What the photo shows in its owner's words: EXIF ImageDescription, else XMP dc:description (x-default).
    ///
    /// EXIF wins when both are there, as the Metadata Working Group's guidelines have readers do (editors that
    /// follow them write both alike); a camera's stock text ("OLYMPUS DIGITAL CAMERA") does not count as one,
    /// so the XMP that an editor wrote beside it is used instead.
    public var description: String?
    /// A JPEG whose bytes can go into the PDF unchanged: grey or YCbCr (CMYK would need a Decode array that
    /// depends on the writer), Huffman-coded (PDF readers do not decode arithmetic coding).
    public var isEmbeddableJPEG: Bool = false
    /// The ICC profile the photo carries, checked against it; nil when it has none or one that cannot be used.
    public var colorProfile: ColorProfile?
    /// Why the photo's ICC profile cannot be used (the photo is then taken as sRGB): a warning for the report.
    public var colorProfileProblem: String?

    /// Pixel size as a person sees the photo, orientation applied.
    public var uprightWidth: Int { orientation.swapsDimensions ? storedHeight : storedWidth }
    public var uprightHeight: Int { orientation.swapsDimensions ? storedWidth : storedHeight }
}

/// When a photo was taken (defined by the EXIF module, which reads it).
public typealias CaptureDate = EXIF.CaptureDate

/// A reason a photo cannot be used, worded for the person who owns it.
public struct PhotoError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Reads what photobook needs to know about a photo from its headers, never its pixels.
public enum Probe {
    /// What the probe reads first: most headers are in the first few hundred kilobytes.
    static let prefixLength = 512 * 1024
    /// The most it reads for a header that goes on past the prefix: a video named like a photo must not be loaded.
    static let headerLimit = 64 << 20

    /// Reads the headers of a photo file: its first 512 KB, and again up to 64 MB only when a JPEG or PNG
    /// header goes on past them. Refuses images over `maxPixels` before any pixel buffer exists.
    ///
    /// `read` reads at most `limit` bytes of a file (tests count the reads through it).
    public static func probe(_ file: PhotoFile, maxPixels: Int,
                             read: (_ path: String, _ limit: Int) -> Result<[UInt8], FileSystem.Failure>
                                 = { FileSystem.readFile($0, limit: $1) }) -> Result<PhotoInfo, PhotoError> {
        Result { () throws(PhotoError) in
            let prefix = try read(file.path, prefixLength).mapError { PhotoError("cannot read: \($0)") }.get()
            // Bytes short of the prefix are the whole file: a header cut there is a truncated file.
            let moreBytesFollow = prefix.count == prefixLength
            if let info = try probe(file, bytes: prefix, maxPixels: maxPixels, moreBytesFollow: moreBytesFollow) {
                return info
            }
            let bytes = try read(file.path, headerLimit).mapError { PhotoError("cannot read: \($0)") }.get()
            guard let info = try probe(file, bytes: bytes, maxPixels: maxPixels, moreBytesFollow: false) else {
                // Not reached: without more bytes to come the codecs say why the header is incomplete.
                throw PhotoError("corrupt image (its header does not end)")
            }
            return info
        }
    }

    /// Why bytes that should be a photo are not one.
    static func unrecognised(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "empty file" }
        // A file cut inside its signature is a photo that was cut short, not some other kind of file.
        let size = "only \(bytes.count) byte\(bytes.count == 1 ? "" : "s")"
        if bytes.count < 3 && [0xFF, 0xD8, 0xFF].starts(with: bytes) { return "corrupt JPEG (truncated file: \(size))" }
        if bytes.count < 8 && [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A].starts(with: bytes) {
            return "corrupt PNG (truncated: \(size))"
        }
        if bytes.count >= 4 && bytes[1] == 0x50 && bytes[2] == 0x4E && bytes[3] == 0x47 || bytes[0] == 0x89 {
            return "corrupt PNG (damaged signature)"
        }
        if bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] == 0xD8 { return "corrupt JPEG (damaged start of image)" }
        return "not a JPEG or PNG image"
    }

    /// Reads the headers of a photo from `bytes`. With `moreBytesFollow` (the bytes are the start of a longer
    /// file) a JPEG or PNG header that goes on past them gives nil: read more and ask again.
    static func probe(_ file: PhotoFile, bytes: [UInt8], maxPixels: Int,
                      moreBytesFollow: Bool) throws(PhotoError) -> PhotoInfo? {
        let width: Int, height: Int, exif: [UInt8]?, xmp: [UInt8]?
        var embeddable = false
        var profile: Result<ColorProfile, PhotoError>? = nil
        switch ImageFormat(sniffing: bytes) {
        case .jpeg:
            do {
                let read = moreBytesFollow ? try JPEGDecoder.readInfo(prefix: bytes) : try JPEGDecoder.readInfo(bytes)
                guard let info = read else { return nil }
                (width, height, exif) = (info.width, info.height, info.exif)
                // libjpeg has read every marker before the first scan out of these bytes: so is the XMP segment.
                xmp = JPEGSegments.xmpPacket(inJPEG: bytes)
                embeddable = !info.isArithmetic && ((info.colorSpace == .ycbcr && info.components == 3)
                    || (info.colorSpace == .grayscale && info.components == 1))
                switch info.iccProfile {
                case .profile(let bytes)?: profile = ColorProfile.check(bytes, components: info.components)
                case .unusable(let reason)?: profile = .failure(PhotoError(reason))
                case nil: break
                }
            } catch {
                throw PhotoError(error.description)
            }
        case .png:
            do {
                let read = moreBytesFollow ? try PNGDecoder.readInfo(prefix: bytes) : try PNGDecoder.readInfo(bytes)
                guard let info = read else { return nil }
                (width, height, exif, xmp) = (info.width, info.height, info.exif, info.xmp)
                // Grey PNGs (colour types 0 and 4) have one colour component, the others three.
                switch info.colorProfile {
                case .profile(let bytes)?:
                    profile = ColorProfile.check(bytes, components: info.colorType & 2 == 0 ? 1 : 3)
                case .unusable(let reason)?: profile = .failure(PhotoError(reason))
                case nil: break
                }
            } catch {
                throw PhotoError(error.description)
            }
        case nil:
            throw PhotoError(Self.unrecognised(bytes))
        }
        guard width > 0, height > 0 else { throw PhotoError("image has no pixels (\(width)x\(height))") }
        guard width.multipliedReportingOverflow(by: height).partialValue <= maxPixels,
              width <= maxPixels, height <= maxPixels else {
            throw PhotoError("image is \(width)x\(height) pixels, more than the limit of \(maxPixels) (see --max-pixels)")
        }
        let metadata = exif.map(EXIFParser.parse) ?? EXIFMetadata()
        var info = PhotoInfo(file: file, storedWidth: width, storedHeight: height,
                             orientation: Orientation(exifValue: metadata.orientation),
                             captureDate: metadata.captureDate,
                             description: metadata.imageDescription ?? xmp.flatMap(XMP.description(inPacket:)),
                             isEmbeddableJPEG: embeddable)
        switch profile {
        case .success(let checked)?: info.colorProfile = checked
        case .failure(let problem)?: info.colorProfileProblem = problem.description
        case nil: break
        }
        return info
    }
}
