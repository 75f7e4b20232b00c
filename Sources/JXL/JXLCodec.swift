import CJXL
import Geometry
import ImageCodec
import Imaging

/// JPEG XL through libjxl 0.7: bare codestreams and the ISO-BMFF container, lossy (VarDCT, XYB) and lossless
/// (modular), grey and colour, alpha over white, any bit depth brought to 8; the codestream's orientation as the
/// picture's own (the Exif box's is not applied on top); ICC, EXIF and XMP.
///
/// A decode takes the first frame (an animation's, with a warning) whole into a buffer (`JXLPicture`: libjxl
/// 0.7's row callback costs more memory than the buffer), then hands out the region as rows or shrunk by a whole
/// factor (`BoxShrink`). libjxl 0.7 has no reduced-size decode. When the cell needs 1/16 of each side or less, a lossy (VarDCT)
/// picture is drawn from its DC alone (the 1/8 picture every VarDCT frame starts with: `JxlDecoderFlushImage`
/// at the JXL_DEC_FRAME_PROGRESSION event), which skips the AC coefficients: 0.23 s instead of 0.35 s for
/// 12 MP, thread CPU. libjxl still renders it at full size into the buffer. Modular (lossless) frames have
/// no such step and are decoded whole.
public struct JXLCodec: SinglePictureCodec, SignatureBoxCodec {
    public init() {}

    public var name: String { "JPEG XL" }
    public var libraryVersion: String { JXLSession.version }
    public var fileExtensions: Set<String> { ["jxl"] }

    public var signatureBox: [UInt8] { JXLContainer.signatureBox }

    public func startsCodestream(_ prefix: [UInt8]) -> Bool { JXLContainer.isCodestream(prefix) }

    // Per pixel, measured on the 2-core bench machine (busy, +-15%) on a 4000x3000 photo with noise made by
    // cjxl from the fixture photo, one thread, thread CPU: lossy (-d 1, 2.7 MB) 0.35 s whole in libjxl
    // (0.23 s for the DC picture at 1/8), lossless (-e 3, 25 MB) 1.6-1.7 s; the release binary's one-photo book
    // takes 0.38 s of CPU (0.32 s at 1/8) and 1.9 s. Every group is decoded whatever the output size, so it
    // is nearly all per stored pixel: ~30 ns lossy, ~140 ns lossless; lossy files are the common kind.
    public var cost: DecodeCost { DecodeCost(perStoredPixel: 35, perDecodedPixel: 2) }
    /// The whole picture's 8-bit buffer (3 bytes a pixel, 4 with alpha) and libjxl's own working memory beside it
    /// (about 3.5 bytes a pixel): 81 MB at the peak for 12 megapixels. The region's rows are read from the buffer.
    public var memory: DecodeMemory { DecodeMemory(perStoredPixel: 7, perDecodedPixel: 0) }

    public func probePicture(_ source: any ByteSource) throws(CodecError) -> ImageHeader {
        let container = try JXLContainer.read(source)
        let session = try JXLSession(source, events: Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue),
                                     limit: HeaderReading.headerLimit, chunk: JXLSession.headerChunk)
        var info: JxlBasicInfo?
        while true {
            let status = try session.next()
            switch status {
            case JXL_DEC_BASIC_INFO:
                info = try session.basicInfo()
            case JXL_DEC_COLOR_ENCODING:
                guard let info else { throw .corrupt("corrupt JPEG XL (colour before its header)") }
                let profile = session.settleColour(info)
                return header(info, profile: profile, container: container)
            case JXL_DEC_SUCCESS:
                throw .corrupt("corrupt JPEG XL (no image)")
            default:
                throw Self.failure(status)
            }
        }
    }

    func header(_ info: JxlBasicInfo, profile: [UInt8]?, container: JXLContainer) -> ImageHeader {
        var header = ImageHeader(width: Int(info.xsize), height: Int(info.ysize))
        // libjxl is told to keep the stored orientation (JXLSession): the engine turns the picture by the
        // codestream's, which takes precedence over the Exif box's (ISO/IEC 18181-2).
        header.orientation = .fixed(Orientation(exifValue: Int(info.orientation.rawValue)))
        header.colorComponents = info.num_color_channels == 1 ? 1 : 3
        if let profile { header.colorProfile = .profile(profile) }
        header.exif = container.exif
        header.xmp = container.xmp
        header.notes = container.notes
        var detail = "\(info.bits_per_sample)-bit" + (info.num_color_channels == 1 ? " grey" : "")
        if info.alpha_bits > 0 { detail += " with alpha" }
        if container.recompressedJPEG { detail += ", a recompressed JPEG" }
        header.detail = detail
        if info.have_animation != 0 {
            header.warnings.append("animated JPEG XL: only the first frame is used")
        }
        return header
    }

    public func decodePicture(_ source: any ByteSource, _ request: DecodeRequest, pool: BufferPool,
                              shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        // Only a cell that could take the DC picture asks libjxl for its progression events at all.
        let fromDC = Self.mayTakeDC(request)
        var events = JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FULL_IMAGE.rawValue
        if fromDC { events |= JXL_DEC_FRAME_PROGRESSION.rawValue }
        let session = try JXLSession(source, events: Int32(events), threads: JXLSession.decodeThreads)
        // kDC is libjxl's default detail; said anyway, as the event is only asked for it.
        if fromDC && !session.setProgressiveDetail(kDC) { throw .internalError("libjxl refuses progressive detail") }
        var info = JxlBasicInfo()
        var picture: JXLPicture?
        var region = PixelRegion(x: 0, y: 0, width: 0, height: 0)
        var factor = 1
        func decoded(_ picture: JXLPicture) -> DecodedImage {
            picture.decoded(factor: factor, acceptsRows: request.acceptsRows, storedWidth: Int(info.xsize),
                            storedHeight: Int(info.ysize))
        }
        while true {
            let status = try session.next(shouldCancel: shouldCancel)
            if shouldCancel() { throw .cancelled }
            switch status {
            case JXL_DEC_BASIC_INFO:
                info = try session.basicInfo()
                // Before libjxl reads a frame, so before it allocates a pixel of it.
                try request.checkPixels(width: Int(info.xsize), height: Int(info.ysize))
                region = try request.region(inside: Int(info.xsize), Int(info.ysize))
                factor = request.shrinkFactor(for: region)
            case JXL_DEC_COLOR_ENCODING:
                _ = session.settleColour(info)
            case JXL_DEC_FRAME_PROGRESSION:
                // Every VarDCT frame has its DC (1/8) step; taken only when the cell needs 1/16 of each side or
                // less. The DC picture is smoothed (libjxl upsamples it, then it is box-shrunk): a cell nearer
                // 1/8 would print it softer than the whole decode; with 2x left for the final filter (libvips'
                // rule for JPEG shrink-on-load) that softness goes. A flush that fails leaves the decode to go
                // on: the whole picture then overwrites the buffer.
                if let picture, session.flush() { return decoded(picture) }
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                guard info.xsize > 0 else { throw .corrupt("corrupt JPEG XL (pixels before its header)") }
                let made = JXLPicture(width: Int(info.xsize), height: Int(info.ysize),
                                      channels: info.alpha_bits > 0 ? 4 : 3, region: region, pool: pool)
                try session.setOutput(made)
                picture = made
            case JXL_DEC_FULL_IMAGE:
                // The first frame is the picture (an animation's first frame, layers already merged).
                guard let picture else { throw .corrupt("corrupt JPEG XL (no pixels)") }
                return decoded(picture)
            case JXL_DEC_SUCCESS:
                throw .corrupt("corrupt JPEG XL (no image)")
            default:
                throw Self.failure(status)
            }
        }
    }

    /// Whether the cell needs 1/16 of each side or less, so that the frame's DC picture (1/8) serves: the decode
    /// then shrinks by 8 (`BoxShrink.factor`).
    static func mayTakeDC(_ request: DecodeRequest) -> Bool {
        BoxShrink.factor(for: request.region, minimumWidth: request.minimumWidth,
                         minimumHeight: request.minimumHeight) == 8
            && request.region.width >= 16 * max(1, request.minimumWidth)
            && request.region.height >= 16 * max(1, request.minimumHeight)
    }

    /// The user's words for a status libjxl ends a decode with. libjxl 0.7 says no more than "error".
    static func failure(_ status: JxlDecoderStatus) -> CodecError {
        switch status {
        case JXL_DEC_ERROR: return .corrupt("corrupt JPEG XL (libjxl cannot decode it: damaged data)")
        default: return .corrupt("corrupt JPEG XL (libjxl stopped with status \(status.rawValue))")
        }
    }
}
