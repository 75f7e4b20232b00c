import Geometry
import ImageCodec
import Imaging

/// BMP, read by photobook itself (Debian has no small maintained BMP library): OS/2 1.x and 2.x, Windows'
/// BITMAPINFOHEADER, V2, V3, V4 and V5 headers; 1, 2, 4 and 8 bits with a palette, RLE8 and RLE4, 16 bits
/// (5-5-5, or any masks), 24 bits, 32 bits (8-8-8, or any masks); top-down and bottom-up; an embedded ICC
/// profile (V5).
///
/// Alpha: only a file whose BI_BITFIELDS masks include an alpha mask has transparency (as Windows reads BMPs: a
/// 32-bit BI_RGB pixel's fourth byte is padding, often garbage), and even then only when some pixel's alpha is
/// not zero (writers that declare an alpha mask and leave it zero mean an opaque picture, as Firefox reads them).
/// A palette index past the palette's end is black. Pixels an RLE file skips are white.
///
/// Only the region's rows are read from an uncompressed file, a band at a time, shrunk by a whole factor on
/// the way (`BoxShrink`); RLE data is read whole (it must be walked from its start) into the region's pixels.
public struct BMPCodec: SinglePictureCodec {
    public init() {}

    public var name: String { "BMP" }
    public var libraryVersion: String { "photobook BMP 1" }
    public var fileExtensions: Set<String> { ["bmp", "dib"] }

    public func recognises(_ prefix: [UInt8]) -> Bool {
        // "BM", then the info header's size at 14: one that a BMP has, so that a text file starting "BM" is not one.
        guard prefix.count >= 18, prefix.starts(with: BMPHeader.signature) else { return false }
        return [12, 40, 52, 56, 108, 124].contains(BMPHeader.u32(prefix, 14)) || (16...64).contains(BMPHeader.u32(prefix, 14))
    }

    public func damageInSignature(_ prefix: [UInt8]) -> String? {
        guard prefix.count >= 18, prefix.starts(with: BMPHeader.signature), !recognises(prefix) else { return nil }
        return "corrupt BMP (an info header of \(BMPHeader.u32(prefix, 14)) bytes)"
    }

    // Reading stored bytes and a table look-up or a shift a pixel.
    public var cost: DecodeCost { DecodeCost(perStoredPixel: 1, perDecodedPixel: 2) }

    /// Uncompressed: at most 4 bytes a pixel (32 bits; a 1-pixel-wide 1-bit row is padded to 4). RLE: at most 2
    /// bytes a pixel in runs of one, plus 2 a row for its end. Headers, palette and a profile of 4 MB besides.
    public func largestSoundFile(pixels: Int) -> Int {
        let (raw, overflow) = pixels.multipliedReportingOverflow(by: 6)
        return overflow ? Int.max : max(64 << 20, raw + (20 << 20))
    }

    public func probePicture(_ source: any ByteSource) throws(CodecError) -> ImageHeader {
        let bmp = try Self.header(source)
        var header = ImageHeader(width: bmp.width, height: bmp.height)
        header.notes = bmp.notes
        if let range = bmp.profile {
            let bytes = try source.read(from: range.lowerBound, count: range.count)
            header.colorProfile = bytes.count == range.count && bytes.count >= 132
                && bytes[36..<40].elementsEqual(Array("acsp".utf8))
                ? .profile(bytes) : .unusable("its embedded colour profile is not an ICC profile")
        }
        let format = bmp.pixelFormat
        var detail = ["\(format.bitCount)-bit"]
        switch format.compression {
        case .rle8: detail.append("RLE8")
        case .rle4: detail.append("RLE4")
        case .bitfields: detail.append(format.hasAlpha ? "bit fields with alpha" : "bit fields")
        case .none: if format.bitCount <= 8 { detail.append("palette") }
        }
        if bmp.topDown { detail.append("top-down") }
        if bmp.headerName.hasPrefix("OS/2") { detail.append(bmp.headerName) }
        header.detail = detail.joined(separator: ", ")
        return header
    }

    public func decodePicture(_ source: any ByteSource, _ request: DecodeRequest, pool: BufferPool,
                              shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        let bmp = try Self.header(source)
        let width = bmp.width, height = bmp.height
        try request.checkPixels(width: width, height: height)
        let region = try request.region(inside: width, height)
        let factor = request.shrinkFactor(for: region)
        if bmp.pixelFormat.compression == .rle8 || bmp.pixelFormat.compression == .rle4 {
            return try decodeRunLength(source, bmp, region: region, factor: factor, pool: pool, shouldCancel: shouldCancel)
        }
        var usesAlpha = false
        if bmp.pixelFormat.hasAlpha { usesAlpha = try Self.someAlphaIsNotZero(source, bmp, shouldCancel: shouldCancel) }
        let pixels = BMPPixels(bmp.pixelFormat, usesAlpha: usesAlpha)
        var shrink = BoxShrink(region: region, factor: factor, pool: pool)
        var row = [UInt8](repeating: 0, count: region.width * 3)
        var y = region.y
        while y < region.y + region.height {
            let count = min(region.y + region.height - y, max(1, Self.bandBytes / bmp.stride))
            do throws(CodecError) {
                if shouldCancel() { throw .cancelled }
                try Self.readBand(source, bmp, rows: y..<(y + count)) { stored in
                    row.withUnsafeMutableBufferPointer { out in
                        pixels.convert(stored, from: region.x, count: region.width, into: out)
                    }
                    row.withUnsafeBufferPointer { shrink.add(row: $0) }
                }
            } catch {
                shrink.abandon()
                throw error
            }
            y += count
        }
        return shrink.finish(storedWidth: width, storedHeight: height)
    }

    // MARK: - Reading

    /// How many bytes of rows are read at once.
    static let bandBytes = 1 << 20

    /// The headers, from the file's first bytes (headers, masks and a palette take at most 1,178 bytes).
    static func header(_ source: any ByteSource) throws(CodecError) -> BMPHeader {
        try BMPHeader.parse(try source.prefix(4096), fileSize: source.count)
    }

    /// Reads the stored rows of picture rows `rows` (top to bottom) in one read and hands each to `body`, top to
    /// bottom, as that row's stored bytes (at least `rowBytes`).
    static func readBand(_ source: any ByteSource, _ bmp: BMPHeader, rows: Range<Int>,
                         _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(CodecError) {
        let first = bmp.topDown ? rows.lowerBound : bmp.height - rows.upperBound
        let bytes = try source.read(from: bmp.pixelOffset + first * bmp.stride, count: bmp.stride * rows.count)
        guard bytes.count >= bmp.stride * (rows.count - 1) + bmp.rowBytes else { throw BMPHeader.truncated }
        bytes.withUnsafeBufferPointer { band in
            for y in rows {
                let stored = (bmp.topDown ? y : bmp.height - 1 - y) - first
                body(UnsafeBufferPointer(rebasing: band[(stored * bmp.stride)..<(stored * bmp.stride + bmp.rowBytes)]))
            }
        }
    }

    /// True when some pixel's alpha is not zero: reads every row (a band at a time) until one is found.
    static func someAlphaIsNotZero(_ source: any ByteSource, _ bmp: BMPHeader,
                                   shouldCancel: () -> Bool) throws(CodecError) -> Bool {
        let pixels = BMPPixels(bmp.pixelFormat, usesAlpha: true)
        var y = 0
        while y < bmp.height {
            if shouldCancel() { throw .cancelled }
            let count = min(bmp.height - y, max(1, bandBytes / bmp.stride))
            var found = false
            try readBand(source, bmp, rows: y..<(y + count)) { row in
                if !found { found = pixels.hasNonZeroAlpha(row, width: bmp.width) }
            }
            if found { return true }
            y += count
        }
        return false
    }

    private func decodeRunLength(_ source: any ByteSource, _ bmp: BMPHeader, region: PixelRegion, factor: Int,
                                 pool: BufferPool, shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        let data = try source.read(from: bmp.pixelOffset, count: source.count - bmp.pixelOffset)
        if shouldCancel() { throw .cancelled }
        var pixels = pool.take(region.width * region.height * 3)
        for i in pixels.indices { pixels[i] = 255 }
        let result: Result<Void, CodecError> = data.withUnsafeBufferPointer { data in
            pixels.withUnsafeMutableBufferPointer { out in
                Result { () throws(CodecError) in
                    try BMPRunLength(header: bmp, region: region).decode(data, into: out, shouldCancel: shouldCancel)
                }
            }
        }
        if case .failure(let error) = result {
            pool.giveBack(pixels)
            throw error
        }
        let covers = Rect(x: Double(region.x), y: Double(region.y), width: Double(region.width),
                          height: Double(region.height))
        if factor == 1 {
            return DecodedImage(image: RGBImage(width: region.width, height: region.height, pixels: pixels),
                                storedWidth: bmp.width, storedHeight: bmp.height, covers: covers, scale: 1)
        }
        var shrink = BoxShrink(region: region, factor: factor, pool: pool)
        pixels.withUnsafeBufferPointer { all in
            for y in 0..<region.height {
                shrink.add(row: UnsafeBufferPointer(rebasing: all[(y * region.width * 3)..<((y + 1) * region.width * 3)]))
            }
        }
        pool.giveBack(pixels)
        return shrink.finish(storedWidth: bmp.width, storedHeight: bmp.height)
    }
}
