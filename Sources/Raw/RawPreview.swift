import CRaw
import Geometry
import ImageCodec
import Imaging
import JPEG

/// The camera's own rendering: the JPEG preview a raw carries, decoded by the JPEG module at the smallest DCT
/// scale that serves, and mapped onto the raw's rendering (the preview may be a few pixels smaller: 6000x4000
/// for a 6016x4016 rendering).
enum RawPreview {
    /// `region` of the rendering from the preview, as `RawCodec.decode` hands it out.
    static func decode(_ source: any ByteSource, facts: RawFacts, region: PixelRegion, request: DecodeRequest,
                       kind: String, handle: LibRawHandle, pool: BufferPool,
                       shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        let bytes = try jpegBytes(source, facts: facts, kind: kind, handle: handle, maxPixels: request.maxPixels)
        if shouldCancel() { throw .cancelled }
        return try CodecError.converting { () throws(JPEGError) in
            let info = try JPEGDecoder.readInfo(bytes)
            // The preview's own size, not the raw's word for it, maps it onto the rendering.
            let (width, height) = (info.width, info.height)
            let sx = Double(width) / Double(facts.width), sy = Double(height) / Double(facts.height)
            let x0 = Int((Double(region.x) * sx).rounded(.down)), y0 = Int((Double(region.y) * sy).rounded(.down))
            let x1 = min(width, Int((Double(region.x + region.width) * sx).rounded(.up)))
            let y1 = min(height, Int((Double(region.y + region.height) * sy).rounded(.up)))
            let decoded = try JPEGDecoder.decode(
                bytes, region: JPEGRegion(x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0)),
                minimumWidth: request.minimumWidth, minimumHeight: request.minimumHeight,
                maxPixels: request.maxPixels, cmykProfile: info.cmykProfile, pool: pool, shouldCancel: shouldCancel)
            let covers = decoded.covers
            return DecodedImage(image: decoded.image, storedWidth: facts.width, storedHeight: facts.height,
                                covers: Rect(x: Double(covers.x) / sx, y: Double(covers.y) / sy,
                                             width: Double(covers.width) / sx, height: Double(covers.height) / sy),
                                scale: Double(decoded.scale) / 8 * (sx + sy) / 2)
        }
    }

    /// The preview, at most `maxPixels`, at the smallest DCT scale (for an attention map).
    static func small(_ source: any ByteSource, facts: RawFacts, maxPixels: Int,
                      handle: LibRawHandle) throws(CodecError) -> RGBImage {
        let bytes = try jpegBytes(source, facts: facts, kind: "camera raw", handle: handle, maxPixels: Int.max)
        let info = try CodecError.converting { () throws(JPEGError) in try JPEGDecoder.readInfo(bytes) }
        // libjpeg's 1/8 scale rounds each side up.
        guard ((info.width + 7) / 8) * ((info.height + 7) / 8) <= maxPixels else {
            throw .tooLarge("its preview is more than \(maxPixels) pixels at an eighth")
        }
        return try CodecError.converting { () throws(JPEGError) in
            try JPEGDecoder.decode(bytes, minimumWidth: 1, minimumHeight: 1, maxPixels: info.width * info.height)
        }
    }

    /// The preview's JPEG bytes (`libraw_unpack_thumb`), refused when its header claims more than `maxPixels`.
    static func jpegBytes(_ source: any ByteSource, facts: RawFacts, kind: String, handle: LibRawHandle,
                          maxPixels: Int) throws(CodecError) -> [UInt8] {
        let opened = try handle.open(source)
        defer { handle.recycle() }
        guard opened == LIBRAW_SUCCESS.rawValue else { throw handle.failure(opened, kind: kind) }
        let unpacked = libraw_unpack_thumb(handle.data)
        guard unpacked == LIBRAW_SUCCESS.rawValue else { throw handle.failure(unpacked, kind: kind) }
        if let failure = handle.readFailure { throw failure }
        let thumbnail = handle.data.pointee.thumbnail
        guard thumbnail.tformat == LIBRAW_THUMBNAIL_JPEG, let data = thumbnail.thumb, thumbnail.tlength > 0 else {
            throw .unsupported("its preview is not a JPEG")
        }
        let bytes = Array(UnsafeRawBufferPointer(start: data, count: Int(thumbnail.tlength)))
        guard let info = try? JPEGDecoder.readInfo(prefix: bytes) else { throw .corrupt("its preview is no JPEG") }
        let (pixels, overflow) = info.width.multipliedReportingOverflow(by: info.height)
        guard !overflow, pixels <= maxPixels else {
            throw .tooLarge("its preview is \(info.width)x\(info.height) pixels, more than the limit of \(maxPixels)")
        }
        return bytes
    }
}
