import CRaw
import Geometry
import ImageCodec
import Imaging

/// LibRaw's rendering of the sensor data: the camera's white balance (`use_camera_wb`), its matrix into sRGB
/// (`output_color` 1), LibRaw's default demosaic (AHD), 8 bits, unturned (`user_flip` 0), at full or half size.
enum RawRendering {
    static func decode(_ source: any ByteSource, facts: RawFacts, region: PixelRegion, halfSize: Bool, kind: String,
                       handle: LibRawHandle, pool: BufferPool, bandHeight: Int = RawBands.defaultHeight,
                       exactWhite: Bool = false, shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        let opened = try handle.open(source)
        defer { handle.recycle() }
        guard opened == LIBRAW_SUCCESS.rawValue else { throw handle.failure(opened, kind: kind) }
        // The file may have changed since the facts were read: the sizes checked are the ones decoded.
        let sizes = handle.data.pointee.sizes
        guard Int(sizes.raw_width) == facts.rawWidth, Int(sizes.raw_height) == facts.rawHeight else {
            throw .changedOnDisk("the \(kind) changed while being read")
        }
        handle.data.pointee.params.use_camera_wb = 1
        handle.data.pointee.params.output_color = 1
        handle.data.pointee.params.output_bps = 8
        handle.data.pointee.params.user_flip = 0
        handle.data.pointee.params.half_size = halfSize ? 1 : 0
        let rendered = withoutActuallyEscaping(shouldCancel) { cancel -> Result<Rendered, CodecError> in
            handle.shouldCancel = cancel
            defer { handle.shouldCancel = nil }
            return Result { () throws(CodecError) in
                try handle.check(libraw_unpack(handle.data), kind: kind)
                if !halfSize, let bands = RawBands(handle: handle, region: region, height: bandHeight) {
                    return .banded(try bands.decode(facts: facts, kind: kind, pool: pool,
                                                          exactWhite: exactWhite))
                }
                return .whole(try render(handle, kind: kind))
            }
        }
        switch try rendered.get() {
        case .banded(let decoded):
            return decoded
        case .whole(let image):
            defer { libraw_dcraw_clear_mem(image) }
            // The raw buffer and LibRaw's 4 x 16-bit image go before the pixels are copied out.
            handle.freeImages()
            if shouldCancel() { throw .cancelled }
            return try copy(image, facts: facts, region: region, halfSize: halfSize, pool: pool)
        }
    }

    /// LibRaw's rendering: the region's pixels made in bands, or LibRaw's whole 8-bit image to copy them from.
    private enum Rendered {
        case banded(DecodedImage)
        case whole(UnsafeMutablePointer<libraw_processed_image_t>)
    }

    /// Renders the unpacked raw whole and makes the 8-bit RGB image; the callbacks' findings fail it.
    private static func render(_ handle: LibRawHandle,
                               kind: String) throws(CodecError) -> UnsafeMutablePointer<libraw_processed_image_t> {
        try handle.check(libraw_dcraw_process(handle.data), kind: kind)
        var code: Int32 = 0
        let image = libraw_dcraw_make_mem_image(handle.data, &code)
        guard let image else {
            try handle.check(code == 0 ? LIBRAW_UNSUFFICIENT_MEMORY.rawValue : code, kind: kind)
            throw .outOfMemory("\(kind) too large to decode")
        }
        guard image.pointee.type == LIBRAW_IMAGE_BITMAP, image.pointee.colors == 3, image.pointee.bits == 8 else {
            libraw_dcraw_clear_mem(image)
            throw .unsupported("unsupported \(kind) (LibRaw rendered it in \(image.pointee.colors) colours)")
        }
        return image
    }

    /// The rows and columns of LibRaw's image under `region`, into a buffer from `pool`.
    private static func copy(_ image: UnsafeMutablePointer<libraw_processed_image_t>, facts: RawFacts,
                             region: PixelRegion, halfSize: Bool, pool: BufferPool) throws(CodecError) -> DecodedImage {
        let width = Int(image.pointee.width), height = Int(image.pointee.height)
        // Full-resolution pixels per decoded pixel: 2 at half size (a side of N comes out as N/2 rounded up).
        let step: Int
        if width == facts.width && height == facts.height {
            step = 1
        } else if halfSize && width == (facts.width + 1) / 2 && height == (facts.height + 1) / 2 {
            step = 2
        } else if halfSize && width > 0 && height > 0 && width <= facts.width && height <= facts.height {
            // Trap: a Fuji SuperCCD's 45° turn or a non-square pixel at half size is no exact half: the whole
            // rendering is handed out at its own scale, and the engine's resampler takes the rest.
            return whole(image, width: width, height: height, facts: facts, pool: pool)
        } else {
            throw .corrupt("corrupt camera raw (LibRaw rendered \(width)x\(height) pixels, not "
                           + "\(facts.width)x\(facts.height))")
        }
        let x0 = region.x / step, y0 = region.y / step
        let x1 = min(width, (region.x + region.width + step - 1) / step)
        let y1 = min(height, (region.y + region.height + step - 1) / step)
        let outWidth = x1 - x0, outHeight = y1 - y0
        var pixels = pool.take(outWidth * outHeight * 3)
        let offset = MemoryLayout<libraw_processed_image_t>.offset(of: \libraw_processed_image_t.data)!
        pixels.withUnsafeMutableBufferPointer { out in
            let base = UnsafeRawPointer(image).advanced(by: offset).assumingMemoryBound(to: UInt8.self)
            for row in 0..<outHeight {
                (out.baseAddress! + row * outWidth * 3).update(from: base + ((y0 + row) * width + x0) * 3,
                                                               count: outWidth * 3)
            }
        }
        let coversWidth = min(facts.width, x1 * step) - x0 * step
        let coversHeight = min(facts.height, y1 * step) - y0 * step
        var decoded = DecodedImage(image: RGBImage(width: outWidth, height: outHeight, pixels: pixels),
                                   storedWidth: facts.width, storedHeight: facts.height,
                                   covers: Rect(x: Double(x0 * step), y: Double(y0 * step),
                                                width: Double(coversWidth), height: Double(coversHeight)),
                                   scale: 1 / Double(step))
        decoded.notes.append(step == 2 ? "decoded by LibRaw at half size (\(width)x\(height))"
                                       : "decoded by LibRaw at full size (\(width)x\(height))")
        return decoded
    }

    /// The whole of LibRaw's image, copied into a buffer from `pool`, at its own scale.
    private static func whole(_ image: UnsafeMutablePointer<libraw_processed_image_t>, width: Int, height: Int,
                              facts: RawFacts, pool: BufferPool) -> DecodedImage {
        var pixels = pool.take(width * height * 3)
        let offset = MemoryLayout<libraw_processed_image_t>.offset(of: \libraw_processed_image_t.data)!
        pixels.withUnsafeMutableBufferPointer { out in
            let base = UnsafeRawPointer(image).advanced(by: offset).assumingMemoryBound(to: UInt8.self)
            out.baseAddress!.update(from: base, count: width * height * 3)
        }
        var decoded = DecodedImage(image: RGBImage(width: width, height: height, pixels: pixels),
                                   storedWidth: facts.width, storedHeight: facts.height,
                                   covers: Rect(x: 0, y: 0, width: Double(facts.width), height: Double(facts.height)),
                                   scale: Double(width + height) / Double(facts.width + facts.height))
        decoded.notes.append("decoded by LibRaw at half size (\(width)x\(height))")
        return decoded
    }
}
