import CTIFF
import EXIF
import ImageCodec
import Imaging

/// TIFF through libtiff 4.5: every page of a multi-page file (reduced-resolution copies and masks are not
/// photos), 1 to 16 bits, grey, RGB, palette and CMYK (through its ICC profile), any compression libtiff reads,
/// strips or tiles, chunky or planar. A decode reads only the strips or tiles of the region asked for, shrinks
/// its rows as they come (`BoxShrink`), and so never holds a big scan whole.
public struct TIFFCodec: ImageCodec {
    public init() {}

    public var name: String { "TIFF" }
    public var libraryVersion: String { TIFFLibrary.version }
    public var fileExtensions: Set<String> { ["tif", "tiff"] }

    /// The most directories of the main chain looked at: a chain longer than any real document is a trap.
    static let maxDirectories = 10_000

    public func recognises(_ prefix: [UInt8]) -> Bool {
        guard prefix.count >= 4 else { return false }
        let head = Array(prefix[0..<4])
        // Classic TIFF (42) and BigTIFF (43), in either byte order.
        return head == [0x49, 0x49, 0x2A, 0x00] || head == [0x4D, 0x4D, 0x00, 0x2A]
            || head == [0x49, 0x49, 0x2B, 0x00] || head == [0x4D, 0x4D, 0x00, 0x2B]
    }

    public func damageInSignature(_ prefix: [UInt8]) -> String? {
        guard prefix.count >= 4 else { return nil }
        if (prefix[0] == 0x49 && prefix[1] == 0x49) || (prefix[0] == 0x4D && prefix[1] == 0x4D) {
            return "corrupt TIFF (damaged signature)"
        }
        return nil
    }

    public func probe(_ source: any ByteSource) throws(CodecError) -> [ImageHeader] {
        let file = try TIFFFile(source)
        var headers: [ImageHeader] = []
        var exifOffsets: [(header: Int, offset: UInt64)] = []
        var warningsBefore = 0
        var directory = 0
        repeat {
            let page: TIFFPage
            do throws(CodecError) {
                page = try TIFFPage(file)
            } catch {
                // A later page that cannot be read leaves the pages before it usable.
                if headers.isEmpty { throw error }
                headers[headers.count - 1].warnings.append("the TIFF's pages after page \(headers.count) cannot be read: \(error)")
                break
            }
            if page.isPhoto {
                var header = try self.header(page, file)
                header.notes = file.warnings(from: warningsBefore)
                if let offset = page.exifOffset { exifOffsets.append((headers.count, offset)) }
                headers.append(header)
            }
            warningsBefore = file.warningCount
            directory += 1
            file.clearError()
            if directory >= Self.maxDirectories { break }
            // Trap: libtiff 4.5 ends a chain that loops back without an error or warning: that is its end.
            if !file.readNextDirectory() {
                let reason = file.lastErrorText
                if !reason.isEmpty, !headers.isEmpty {
                    headers[headers.count - 1].warnings.append(
                        "the TIFF's pages after page \(headers.count) cannot be read: \(TIFFFile.describe(reason))")
                }
                break
            }
        } while true
        guard !headers.isEmpty else {
            throw .corrupt("corrupt TIFF (only reduced-resolution copies or masks, no full picture)")
        }
        // Read last: TIFFReadEXIFDirectory leaves the EXIF IFD current, and nothing after it needs the page's.
        for (index, offset) in exifOffsets where headers[index].captureDate == nil {
            file.clearError()
            guard file.readEXIFDirectory(at: offset) else {
                headers[index].notes.append("the EXIF directory cannot be read: \(TIFFFile.describe(file.lastErrorText))")
                continue
            }
            if let original = file.string(EXIFTAG_DATETIMEORIGINAL) {
                headers[index].captureDate = CaptureDate(exifDateTime: original,
                                                         subSeconds: file.string(EXIFTAG_SUBSECTIMEORIGINAL),
                                                         offset: file.string(EXIFTAG_OFFSETTIMEORIGINAL))
            }
        }
        return headers
    }

    private func header(_ page: TIFFPage, _ file: TIFFFile) throws(CodecError) -> ImageHeader {
        var header = ImageHeader(width: page.width, height: page.height)
        header.orientation = .fixed(Orientation(exifValue: page.orientation))
        header.colorComponents = page.pixelFormat.colorComponents
        header.detail = page.detail
        if let profile = file.bytes(TIFFTAG_ICCPROFILE) {
            if page.pixelFormat.isCMYK {
                // Converted to sRGB through it while decoding: the pixels handed out are no longer the profile's.
                header.profileDescribesDecodedPixels = false
                let space = profile.count >= 20 ? String(decoding: profile[16..<20], as: UTF8.self) : ""
                header.colorProfile = space == "CMYK" ? .profile(profile)
                    : .unusable("the ICC profile of a CMYK TIFF is not a CMYK profile")
            } else {
                header.colorProfile = .profile(profile)
            }
        }
        header.xmp = file.bytes(TIFFTAG_XMLPACKET)
        if let text = file.string(TIFFTAG_IMAGEDESCRIPTION) {
            let trimmed = text.trimmingSpaces
            if !trimmed.isEmpty { header.description = trimmed }
        }
        if page.pixelFormat.sampleFormat == SAMPLEFORMAT_IEEEFP {
            header.warnings.append("floating-point TIFF samples cannot be decoded")
        }
        return header
    }

    public func decode(_ source: any ByteSource, _ request: DecodeRequest, pool: BufferPool,
                       shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        let file = try TIFFFile(source)
        var page = try TIFFPage(file)
        var photos = page.isPhoto ? 1 : 0
        var directory = 1
        while photos <= request.picture {
            file.clearError()
            guard directory < Self.maxDirectories, file.readNextDirectory() else {
                let reason = file.lastErrorText
                // The probe counted the pages: a page that is not there now is a file that changed, or a damaged one.
                throw reason.isEmpty ? .changedOnDisk("the TIFF has no page \(request.picture + 1)") : .corrupt(TIFFFile.describe(reason))
            }
            directory += 1
            page = try TIFFPage(file)
            if page.isPhoto { photos += 1 }
        }
        guard let pixels = page.pixelCount, pixels <= request.maxPixels, pixels <= Int.max / 16 else {
            throw .tooLarge("image is \(page.width)x\(page.height) pixels, more than the limit of \(request.maxPixels)")
        }
        if shouldCancel() { throw .cancelled }
        guard let region = request.region.clamped(width: page.width, height: page.height) else {
            throw .internalError("the part of the picture asked for lies outside it")
        }
        let factor = request.shrinkFactor(for: region)

        // Trap: libtiff hands out JPEG-compressed YCbCr as subsampled YCbCr unless told to convert (JPEGCOLORMODE).
        var jpegAsRGB = false
        if page.compression == COMPRESSION_JPEG && page.pixelFormat.photometric == PHOTOMETRIC_YCBCR {
            jpegAsRGB = file.setJPEGColorModeRGB()
        }
        var converter: TIFFRowConverter?
        if TIFFRowConverter.handles(page.pixelFormat, jpegAsRGB: jpegAsRGB) {
            let profile = page.pixelFormat.isCMYK ? file.bytes(TIFFTAG_ICCPROFILE) : nil
            converter = try TIFFRowConverter(format: page.pixelFormat, file: file, profile: profile,
                                             maxWidth: max(region.width, page.isTiled ? page.tileWidth : 0))
        } else if let refusal = file.rgbaReaderRefusal() {
            throw .unsupported("unsupported TIFF (\(page.detail): \(refusal))")
        }

        // The output buffer is made when the first row has been read: a header that claims a huge picture in a
        // few bytes fails on its first strip, before the shrunk region's buffer exists.
        var shrink: BoxShrink?
        file.startReadingPixels()
        let reader = TIFFBandReader(file: file, page: page, region: region, converter: converter)
        do throws(CodecError) {
            try reader.read(shouldCancel: shouldCancel) { row in
                if shrink == nil { shrink = BoxShrink(region: region, factor: factor, pool: pool) }
                shrink!.add(row: row)
            }
        } catch {
            shrink?.abandon()
            throw error
        }
        guard let shrink, shrink.isComplete else {
            shrink?.abandon()
            throw .corrupt("corrupt TIFF (the picture's rows end early)")
        }
        let notes = file.pixelWarnings
        if let damage = notes.lazy.compactMap(Self.jpegDamage).first {
            shrink.abandon()
            throw .corrupt("corrupt TIFF (\(damage))")
        }
        var decoded = shrink.finish(storedWidth: page.width, storedHeight: page.height)
        decoded.notes = notes
        return decoded
    }

    /// The JPEG data of a JPEG-compressed TIFF is damaged: what libjpeg said, from one of the page's notes
    /// ("libtiff: JPEGLib: Premature end of JPEG file"); nil for any other note.
    ///
    /// Trap: libtiff hands libjpeg's warnings on as warnings, and libjpeg fills the rest of a cut or damaged strip
    /// with grey: refused, as for a JPEG file (the JPEG module's harmless warnings aside: every pixel is there).
    static func jpegDamage(_ note: String) -> String? {
        let prefix = "libtiff: JPEGLib: "
        guard note.hasPrefix(prefix) else { return nil }
        let text = String(note.dropFirst(prefix.count))
        let harmless = ["unknown JFIF revision number", "extraneous bytes before marker 0xd9", "bad ICC marker",
                        "Unknown Adobe color transform"]
        if harmless.contains(where: { text.contains($0) }) { return nil }
        return "JPEG data: " + text
    }

    /// Measured on the 2-core development machine (`TIFFPerformanceMeasurements`, release build, thread CPU
    /// time, two runs under load): a 12-MP 8-bit RGB LZW photo decodes in 189-214 ms with horizontal
    /// differencing (16-18 ns a pixel) and 234-264 ms without, Deflate 302-348 ms, uncompressed 45-62 ms (4-5 ns:
    /// reading and converting alone). Most TIFF photos are LZW or Deflate, so 20 ns a stored pixel; the shrink
    /// adds about 2 a pixel handed out.
    public var cost: DecodeCost { DecodeCost(perStoredPixel: 20, perDecodedPixel: 2) }

    /// No limit: a decode reads only the strips or tiles of its region, never the whole file, and a multi-page
    /// file holds many pages' bytes for one page's pixels (strip offsets past the end are refused when read).
    public func largestSoundFile(pixels: Int) -> Int { Int.max }

    /// A multi-page TIFF gives one photo per page.
    public var mayHoldSeveralPictures: Bool { true }
}

extension String {
    /// Without the spaces, newlines and NULs around it (TIFF writers pad ASCII fields).
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\0" }
        return String(self.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
