import COpenJPEG
import Geometry
import ImageCodec
import Imaging

/// JPEG 2000 through OpenJPEG 2.5: `.jp2` files and bare codestreams (`.j2k`, `.j2c`); 1 to 16 bits, signed
/// or not, grey, RGB, sYCC with sub-sampled chroma, CMYK (by a plain formula), palettes, alpha over white; the
/// jp2's ICC profile.
///
/// A decode asks OpenJPEG for the region only (`opj_set_decode_area`), at the smallest resolution level that
/// still gives it the pixels the cell needs (`opj_set_decoded_resolution_factor`: each level halves both
/// sides, and skips the wavelet levels above it), so a big scan shown small is neither decoded nor held
/// whole: OpenJPEG keeps 4 bytes a sample of the decoded area only.
public struct JPEG2000Codec: SinglePictureCodec, SignatureBoxCodec {
    public init() {}

    public var name: String { "JPEG 2000" }
    public var libraryVersion: String { "OpenJPEG \(String(cString: opj_version()))" }
    public var fileExtensions: Set<String> { ["jp2", "j2k", "j2c", "jpc", "jpf", "jpx"] }

    public var signatureBox: [UInt8] { OpenJPEGSession.jp2Signature }

    public func startsCodestream(_ prefix: [UInt8]) -> Bool { prefix.starts(with: OpenJPEGSession.codestreamSignature) }

    // Measured on the 2-core bench machine (busy, +-15%) on a 4000x3000 photo with noise made by opj_compress
    // (6 levels), one thread: lossy 9/7 at 20:1 (1.8 MB) 0.9 s whole in OpenJPEG (opj_decompress -threads 1),
    // 0.11 s at level 2 (1000x750); lossless 5/3 (25 MB) 4.1 s whole, 0.23 s at level 2. The release binary's
    // one-photo book: 0.6 s and 4.2 s of CPU whole, 0.08 s and 0.13 s for a 3 cm cell. The code-blocks of the
    // levels kept dominate, which a per-stored-pixel cost cannot say: it is the whole decode's, ~75 ns lossy
    // and ~340 ns lossless, and the converting of samples to RGB is per decoded pixel.
    public var cost: DecodeCost { DecodeCost(perStoredPixel: 120, perDecodedPixel: 10) }
    /// OpenJPEG holds 32-bit samples of the decoded area at its resolution level and its code-blocks (245 MB at
    /// the peak for a whole 12-megapixel picture, 20 bytes a pixel decoded); the level is a power of two at or
    /// above the scale asked for, so up to 4 times the pixels the engine asks for.
    public var memory: DecodeMemory { DecodeMemory(perStoredPixel: 0.5, perDecodedPixel: 80) }

    public func probePicture(_ source: any ByteSource) throws(CodecError) -> ImageHeader {
        let jp2 = try JP2Header.read(source)
        try jp2.checkTiles(source)
        let session = try OpenJPEGSession(source, readSize: 64 << 10)
        let layout = try Layout(session.image!.pointee, colourSpace: jp2.colourSpace)
        var header = ImageHeader(width: layout.width, height: layout.height)
        header.orientation = .exif
        header.colorComponents = layout.colour == .grey ? 1 : (layout.colour == .cmyk ? 4 : 3)
        header.detail = layout.detail
        if jp2.hasPalette {
            // The header's one component is the palette's index: the decoded picture is the palette's colours.
            header.colorComponents = jp2.colourSpace == OPJ_CLRSPC_GRAY ? 1 : 3
            header.detail = "palette"
        }
        if let profile = jp2.iccProfile {
            header.colorProfile = .profile(profile)
            // CMYK is brought to RGB by a plain formula here, so its profile no longer describes the pixels.
            header.profileDescribesDecodedPixels = layout.colour != .cmyk
        } else if let note = jp2.iccNote {
            header.colorProfile = .unusable(note)
        }
        header.notes = session.warnings
        return header
    }

    public func decodePicture(_ source: any ByteSource, _ request: DecodeRequest, pool: BufferPool,
                              shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        let jp2 = try JP2Header.read(source)
        try jp2.checkTiles(source)
        let session = try OpenJPEGSession(source)
        let layout = try Layout(session.image!.pointee, colourSpace: jp2.colourSpace)
        let width = layout.width, height = layout.height
        // Before opj_decode, which allocates the tiles' and the picture's sample planes.
        try request.checkPixels(width: width, height: height)
        let region = try request.region(inside: width, height)
        // The largest reduction that keeps the region's minimum size (each level halves both sides).
        var factor = 0
        let most = session.resolutionLevels - 1
        while factor < most,
              Self.reduced(region.width, by: factor + 1) >= max(1, request.minimumWidth),
              Self.reduced(region.height, by: factor + 1) >= max(1, request.minimumHeight) {
            factor += 1
        }
        // A picture that does not start on a multiple of the level's pixel (an odd image offset, rare) would
        // begin mid-pixel there, and its first row and column would be outside what the level shows.
        while factor > 0 && (layout.x0 % (1 << factor) != 0 || layout.y0 % (1 << factor) != 0) { factor -= 1 }
        // The area on the reference grid, widened to whole pixels of the reduced level.
        let step = 1 << factor
        let x0 = layout.x0 + region.x, y0 = layout.y0 + region.y
        let area = (x0: max(layout.x0, x0 / step * step), y0: max(layout.y0, y0 / step * step),
                    x1: min(layout.x0 + width, (x0 + region.width + step - 1) / step * step),
                    y1: min(layout.y0 + height, (y0 + region.height + step - 1) / step * step))
        // OpenJPEG holds 4 bytes a sample of the area at the reduced level, per component: refused like a
        // picture too large when that is more than the limit would allow an RGBA picture.
        let reducedPixels = Self.reduced(area.x1 - area.x0, by: factor) * Self.reduced(area.y1 - area.y0, by: factor)
        let (samples, samplesOverflow) = reducedPixels.multipliedReportingOverflow(by: layout.components)
        guard !samplesOverflow, samples / 4 <= request.maxPixels else {
            throw .tooLarge("image has \(layout.components) components of \(width)x\(height) samples, more than "
                            + "the limit of \(request.maxPixels) pixels allows")
        }
        if shouldCancel() { throw .cancelled }
        try session.decode(area: area, factor: factor)
        if shouldCancel() { throw .cancelled }
        let decoded = try Layout(session.image!.pointee, colourSpace: layout.colourSpace)
        let rgb = try JPEG2000Pixels.rgb(session.image!.pointee, layout: decoded, factor: factor,
                                         area: area, pool: pool, shouldCancel: shouldCancel)
        // The pixels of the reduced level start on a multiple of `step` of the reference grid (or at the
        // picture's own origin): what they show, in the stored picture's pixels.
        let left = Self.reduced(area.x0, by: factor) * step, top = Self.reduced(area.y0, by: factor) * step
        let coversX = left - layout.x0, coversY = top - layout.y0
        let coversWidth = min(width - coversX, rgb.width * step), coversHeight = min(height - coversY, rgb.height * step)
        var result = DecodedImage(image: rgb, storedWidth: width, storedHeight: height,
                                  covers: Rect(x: Double(coversX), y: Double(coversY), width: Double(coversWidth),
                                               height: Double(coversHeight)),
                                  scale: 1 / Double(step))
        result.notes = session.warnings
        return result
    }

    /// A side of `length` at 1/2^`factor`, rounded up as OpenJPEG rounds.
    static func reduced(_ length: Int, by factor: Int) -> Int { (length + (1 << factor) - 1) >> factor }
}

/// The picture's geometry and colour as the header (or the decode) says.
struct Layout {
    enum Colour: Equatable { case grey, rgb, ycc, cmyk }
    let x0: Int, y0: Int, width: Int, height: Int
    let components: Int
    let colour: Colour
    /// The component indices of the colour channels (1, 3 or 4), and the alpha channel's if any.
    let channels: [Int]
    let alpha: Int?
    let detail: String

    /// The most components accepted: ISO 15444-1 allows 16384; a photo has up to 4 or 5.
    static let componentLimit = 16384

    /// The colour space the picture is read in: the jp2's `colr` box's (`JP2Header`), else the image's.
    let colourSpace: OPJ_COLOR_SPACE

    init(_ image: opj_image_t, colourSpace given: OPJ_COLOR_SPACE) throws(CodecError) {
        let space = given != OPJ_CLRSPC_UNSPECIFIED ? given : image.color_space
        colourSpace = space
        guard image.x1 > image.x0, image.y1 > image.y0 else { throw .corrupt("corrupt JPEG 2000 (a picture of no pixels)") }
        x0 = Int(image.x0)
        y0 = Int(image.y0)
        width = Int(image.x1 - image.x0)
        height = Int(image.y1 - image.y0)
        components = Int(image.numcomps)
        guard components >= 1, components <= Self.componentLimit, let comps = image.comps else {
            throw .corrupt("corrupt JPEG 2000 (\(image.numcomps) components)")
        }
        var precision = 0
        var signed = false
        for c in 0..<components {
            let comp = comps[c]
            guard comp.dx >= 1, comp.dy >= 1, comp.dx <= 255, comp.dy <= 255 else {
                throw .corrupt("corrupt JPEG 2000 (component \(c) is sub-sampled by \(comp.dx)x\(comp.dy))")
            }
            guard comp.prec >= 1, comp.prec <= 31 else {
                throw .unsupported("unsupported JPEG 2000 (\(comp.prec)-bit samples)")
            }
            precision = max(precision, Int(comp.prec))
            signed = signed || comp.sgnd != 0
        }
        var alpha = (0..<components).first { comps[$0].alpha != 0 }
        let plain = (0..<components).filter { $0 != alpha }
        let colour: Colour
        switch space {
        case OPJ_CLRSPC_GRAY:
            colour = .grey
        case OPJ_CLRSPC_SYCC, OPJ_CLRSPC_EYCC:
            colour = plain.count >= 3 ? .ycc : .grey
        case OPJ_CLRSPC_CMYK:
            colour = plain.count >= 4 ? .cmyk : (plain.count >= 3 ? .rgb : .grey)
        default:
            if plain.count >= 3 {
                // A codestream says nothing of colour: chroma sub-sampled under full-size luma is YCbCr (as
                // opj_decompress guesses), anything else RGB.
                let luma = comps[plain[0]], chroma = comps[plain[1]]
                let subsampled = luma.dx == 1 && luma.dy == 1 && (chroma.dx > 1 || chroma.dy > 1)
                colour = space == OPJ_CLRSPC_UNSPECIFIED && subsampled ? .ycc : .rgb
            } else {
                colour = .grey
            }
        }
        let used = colour == .grey ? 1 : (colour == .cmyk ? 4 : 3)
        // A codestream of grey + 1 or colour + 1 components without a channel definition: the last one is
        // its alpha, as opj_decompress takes it.
        if alpha == nil, space == OPJ_CLRSPC_UNSPECIFIED, components == used + 1,
           comps[components - 1].dx == comps[0].dx, comps[components - 1].dy == comps[0].dy {
            alpha = components - 1
        }
        self.colour = colour
        self.alpha = alpha
        channels = Array(plain.prefix(used))
        var detail = "\(precision)-bit" + (signed ? " signed" : "")
        switch colour {
        case .grey: detail += " grey"
        case .rgb: detail += " RGB"
        case .ycc: detail += " YCbCr"
        case .cmyk: detail += " CMYK"
        }
        if alpha != nil { detail += " with alpha" }
        self.detail = detail
    }
}
