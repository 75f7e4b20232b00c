import EXIF
import Imaging
import JPEG
import PNG

/// What photobook knows about a photo before decoding it: read from its headers only.
public struct PhotoInfo: Sendable, Equatable {
    public var file: PhotoFile
    /// Pixel size as stored in the file.
    public var storedWidth: Int
    public var storedHeight: Int
    public var orientation: Orientation
    /// EXIF `DateTimeOriginal`, "YYYY:MM:DD HH:MM:SS", when the photo has one.
    public var captureDate: String?
    /// A JPEG whose bytes can go into the PDF unchanged: grey or YCbCr (CMYK would need a Decode array that
    /// depends on the writer), Huffman-coded (PDF readers do not decode arithmetic coding).
    public var isEmbeddableJPEG: Bool = false

    /// Pixel size as a person sees the photo, orientation applied.
    public var uprightWidth: Int { orientation.swapsDimensions ? storedHeight : storedWidth }
    public var uprightHeight: Int { orientation.swapsDimensions ? storedWidth : storedHeight }
}

/// A reason a photo cannot be used, worded for the person who owns it.
public struct PhotoError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

public enum Probe {
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

    /// Reads the headers of a photo. Refuses images over `maxPixels` before any pixel buffer exists.
    public static func probe(_ file: PhotoFile, bytes: [UInt8], maxPixels: Int) throws(PhotoError) -> PhotoInfo {
        let width: Int, height: Int, exif: [UInt8]?
        var embeddable = false
        switch ImageFormat(sniffing: bytes) {
        case .jpeg:
            do {
                let info = try JPEGDecoder.readInfo(bytes)
                (width, height, exif) = (info.width, info.height, info.exif)
                embeddable = !info.isArithmetic && ((info.colorSpace == .ycbcr && info.components == 3)
                    || (info.colorSpace == .grayscale && info.components == 1))
            } catch {
                throw PhotoError(error.description)
            }
        case .png:
            do {
                let info = try PNGDecoder.readInfo(bytes)
                (width, height, exif) = (info.width, info.height, info.exif)
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
        return PhotoInfo(file: file, storedWidth: width, storedHeight: height,
                         orientation: Orientation(exifValue: metadata.orientation),
                         captureDate: metadata.dateTimeOriginal, isEmbeddableJPEG: embeddable)
    }
}
