import CTIFF
import ImageCodec

/// What one directory (IFD) of a TIFF says about its pixels: enough to tell a photo from a thumbnail, to
/// describe it, and to choose how its pixels are read. Read from the tags only; nothing is allocated in
/// proportion to the declared size.
struct TIFFPage {
    /// How a pixel's samples are stored and what colour they make: all that `TIFFRowConverter` needs of a page
    /// to turn its rows into RGB.
    struct PixelFormat {
        var bitsPerSample: Int
        var samplesPerPixel: Int
        var sampleFormat: Int
        /// PLANARCONFIG_SEPARATE: one plane per sample, each with its own strips or tiles.
        var isPlanar: Bool
        /// The index of the alpha sample, and whether colour is premultiplied by it (EXTRASAMPLE_ASSOCALPHA).
        var alpha: (index: Int, associated: Bool)?
        var photometric: Int
        var inkSet: Int

        /// The current directory's, from `file`'s tags.
        init(_ file: TIFFFile) {
            bitsPerSample = Int(file.u16Defaulted(TIFFTAG_BITSPERSAMPLE) ?? 1)
            samplesPerPixel = Int(file.u16Defaulted(TIFFTAG_SAMPLESPERPIXEL) ?? 1)
            sampleFormat = Int(file.u16Defaulted(TIFFTAG_SAMPLEFORMAT) ?? UInt16(SAMPLEFORMAT_UINT))
            isPlanar = file.u16Defaulted(TIFFTAG_PLANARCONFIG) == UInt16(PLANARCONFIG_SEPARATE) && samplesPerPixel > 1
            let extras = file.extraSamples()
            let colourSamples = samplesPerPixel - extras.count
            alpha = nil
            for (i, kind) in extras.enumerated()
                where kind == EXTRASAMPLE_ASSOCALPHA || kind == EXTRASAMPLE_UNASSALPHA {
                alpha = (colourSamples + i, kind == EXTRASAMPLE_ASSOCALPHA)
                break
            }
            // libtiff guesses a missing PhotometricInterpretation in TIFFReadDirectory (with a warning).
            photometric = Int(file.u16(TIFFTAG_PHOTOMETRIC)
                              ?? UInt16(samplesPerPixel >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK))
            inkSet = Int(file.u16Defaulted(TIFFTAG_INKSET) ?? UInt16(INKSET_CMYK))
        }

        /// True for CMYK: four inks, the samples an ICC profile for it describes.
        var isCMYK: Bool { photometric == PHOTOMETRIC_SEPARATED && inkSet == INKSET_CMYK }

        /// The colour components the picture's ICC profile must describe: 1 grey, 3 RGB (a palette's colours
        /// and YCbCr are RGB), 4 CMYK.
        var colorComponents: Int {
            switch Int32(photometric) {
            case PHOTOMETRIC_MINISBLACK, PHOTOMETRIC_MINISWHITE: return 1
            case PHOTOMETRIC_SEPARATED: return isCMYK ? 4 : max(1, samplesPerPixel - (alpha == nil ? 0 : 1))
            default: return 3
            }
        }
    }

    var width: Int, height: Int
    var pixelFormat: PixelFormat
    var compression: Int
    var isTiled: Bool
    var rowsPerStrip: Int
    var tileWidth: Int, tileHeight: Int
    var orientation: Int
    /// NewSubfileType: bit 0 a reduced-resolution copy, bit 2 a transparency mask.
    var subfileType: UInt32
    var exifOffset: UInt64?

    /// The current directory of `file`; fails when it has no usable size.
    init(_ file: TIFFFile) throws(CodecError) {
        guard let width = file.u32(TIFFTAG_IMAGEWIDTH), let height = file.u32(TIFFTAG_IMAGELENGTH),
              width > 0, height > 0 else {
            throw .corrupt("corrupt TIFF (the picture has no width or height)")
        }
        self.width = Int(width)
        self.height = Int(height)
        pixelFormat = PixelFormat(file)
        compression = Int(file.u16Defaulted(TIFFTAG_COMPRESSION) ?? UInt16(COMPRESSION_NONE))
        isTiled = file.isTiled
        // Trap: libtiff chops a big uncompressed single strip into virtual strips of ~8 KB while reading the
        // directory; RowsPerStrip read now is the chopped one, and so are the strip indices and byte counts.
        rowsPerStrip = Int(min(file.u32(TIFFTAG_ROWSPERSTRIP) ?? height, height))
        tileWidth = Int(file.u32(TIFFTAG_TILEWIDTH) ?? 0)
        tileHeight = Int(file.u32(TIFFTAG_TILELENGTH) ?? 0)
        orientation = Int(file.u16(TIFFTAG_ORIENTATION) ?? 1)
        subfileType = file.u32(TIFFTAG_SUBFILETYPE) ?? 0
        exifOffset = file.u64(TIFFTAG_EXIFIFD)
    }

    /// A reduced-resolution copy or a mask (NewSubfileType bits 0 and 2) is not a photo of its own.
    var isPhoto: Bool { subfileType & (UInt32(FILETYPE_REDUCEDIMAGE) | UInt32(FILETYPE_MASK)) == 0 }

    var pixelCount: Int? {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? nil : count
    }

    /// "16-bit RGB, LZW", "1-bit grey, CCITT G4", "8-bit CMYK, tiled, Deflate", for --verbose and the report.
    var detail: String {
        let format = pixelFormat
        let kind: String
        switch Int32(format.photometric) {
        case PHOTOMETRIC_MINISBLACK, PHOTOMETRIC_MINISWHITE: kind = "grey"
        case PHOTOMETRIC_RGB: kind = "RGB"
        case PHOTOMETRIC_PALETTE: kind = "palette"
        case PHOTOMETRIC_SEPARATED: kind = format.isCMYK ? "CMYK" : "\(format.samplesPerPixel)-ink"
        case PHOTOMETRIC_YCBCR: kind = "YCbCr"
        case PHOTOMETRIC_CIELAB, PHOTOMETRIC_ICCLAB, PHOTOMETRIC_ITULAB: kind = "Lab"
        case PHOTOMETRIC_LOGL: kind = "LogL"
        case PHOTOMETRIC_LOGLUV: kind = "LogLuv"
        default: kind = "photometric \(format.photometric)"
        }
        var parts = ["\(format.bitsPerSample)-bit\(format.sampleFormat == SAMPLEFORMAT_IEEEFP ? " float" : "") \(kind)"
                     + (format.alpha == nil ? "" : " with alpha")]
        if isTiled { parts.append("tiled") }
        if format.isPlanar { parts.append("planar") }
        parts.append(Self.compressionName(compression))
        return parts.joined(separator: ", ")
    }

    static func compressionName(_ compression: Int) -> String {
        switch Int32(compression) {
        case COMPRESSION_NONE: return "uncompressed"
        case COMPRESSION_LZW: return "LZW"
        case COMPRESSION_ADOBE_DEFLATE, COMPRESSION_DEFLATE: return "Deflate"
        case COMPRESSION_PACKBITS: return "PackBits"
        case COMPRESSION_JPEG: return "JPEG"
        case COMPRESSION_OJPEG: return "old-style JPEG"
        case COMPRESSION_CCITTRLE, COMPRESSION_CCITTRLEW: return "CCITT RLE"
        case COMPRESSION_CCITTFAX3: return "CCITT G3"
        case COMPRESSION_CCITTFAX4: return "CCITT G4"
        case COMPRESSION_LZMA: return "LZMA"
        case COMPRESSION_ZSTD: return "Zstandard"
        case COMPRESSION_WEBP: return "WebP"
        case COMPRESSION_JBIG: return "JBIG"
        case COMPRESSION_SGILOG, COMPRESSION_SGILOG24: return "SGI LogLuv"
        case COMPRESSION_NEXT: return "NeXT"
        case COMPRESSION_THUNDERSCAN: return "ThunderScan"
        default: return "compression \(compression)"
        }
    }
}
