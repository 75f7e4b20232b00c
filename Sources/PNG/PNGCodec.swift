import Geometry
import ImageCodec
import Imaging

/// PNG through the one codec interface: always decoded whole (PNG has no scaled decode).
public struct PNGCodec: ImageCodec {
    public init() {}

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public var name: String { "PNG" }
    public var libraryVersion: String { PNGLibrary.version }
    public var fileExtensions: Set<String> { ["png"] }
    // Measured with perf on 12-megapixel photos: inflating and unfiltering every row (~35 a stored pixel); the
    // decode hands out the stored pixels themselves.
    public var cost: DecodeCost { DecodeCost(perStoredPixel: 35, perDecodedPixel: 0) }

    public func recognises(_ prefix: [UInt8]) -> Bool { prefix.starts(with: Self.signature) }

    public func damageInSignature(_ prefix: [UInt8]) -> String? {
        if !prefix.isEmpty && prefix.count < 8 && Self.signature.starts(with: prefix) {
            return "corrupt PNG (truncated: only \(prefix.count) byte\(prefix.count == 1 ? "" : "s"))"
        }
        if prefix.count >= 4 && prefix[1] == 0x50 && prefix[2] == 0x4E && prefix[3] == 0x47 || prefix.first == 0x89 {
            return "corrupt PNG (damaged signature)"
        }
        return nil
    }

    public func probe(_ source: any ByteSource) throws(CodecError) -> [ImageHeader] {
        [try HeaderReading.read(source, info: PNGDecoder.readInfo(_:), infoOfPrefix: PNGDecoder.readInfo(prefix:),
                                header: { info, _ in Self.header(info) })]
    }

    /// The codec's header of `info`.
    private static func header(_ info: PNGInfo) -> ImageHeader {
        var header = ImageHeader(width: info.width, height: info.height)
        (header.exif, header.xmp) = (info.exif, info.xmp)
        // Grey PNGs (colour types 0 and 4) have one colour component, the others three.
        header.colorComponents = info.colorType & 2 == 0 ? 1 : 3
        header.colorProfile = info.colorProfile
        header.detail = "\(info.bitDepth)-bit" + (info.isInterlaced ? ", interlaced" : "")
        return header
    }

    public func decode(_ source: any ByteSource, _ request: DecodeRequest, pool: BufferPool,
                       shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        let bytes = try source.readAll()
        let image = try CodecError.converting { () throws(PNGError) in
            try PNGDecoder.decode(bytes, maxPixels: request.maxPixels, pool: pool, shouldCancel: shouldCancel)
        }
        return DecodedImage(image: image, storedWidth: image.width, storedHeight: image.height,
                            covers: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)),
                            scale: 1)
    }
}
