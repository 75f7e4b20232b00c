import ImageCodec
import Imaging

/// What every codec's tests do the same way: its fixtures' paths, a probe of one picture, a whole decode and a
/// region decode from bytes in memory, ImageMagick's decode as the independent reference. A test target's support
/// enum conforms with its codec and its folder of `Fixtures/` (`enum GIFTestSupport: CodecTestSupport`).
package protocol CodecTestSupport {
    associatedtype Codec: ImageCodec
    static var codec: Codec { get }
    /// The folder of `Fixtures/` its files are in ("gif").
    static var fixtures: String { get }
}

extension CodecTestSupport {
    package static func path(_ name: String) -> String { Fixtures.path(fixtures + "/" + name) }
    package static func bytes(_ name: String) throws -> [UInt8] { try Fixtures.bytes(fixtures + "/" + name) }

    /// The header of the file's one picture (an error when it has several).
    package static func probe(_ bytes: [UInt8]) throws(CodecError) -> ImageHeader {
        let headers = try codec.probe(MemorySource(bytes))
        guard headers.count == 1 else { throw .internalError("\(headers.count) headers") }
        return headers[0]
    }

    /// The whole picture at full resolution.
    package static func decodeWhole(_ bytes: [UInt8], maxPixels: Int = 100_000_000, pool: BufferPool = BufferPool(),
                                    shouldCancel: () -> Bool = { false }) throws(CodecError) -> DecodedImage {
        let header = try probe(bytes)
        return try codec.decode(MemorySource(bytes), .whole(width: header.width, height: header.height, maxPixels: maxPixels),
                                pool: pool, shouldCancel: shouldCancel)
    }

    /// `region` at least `minimumWidth` x `minimumHeight` pixels.
    package static func decode(_ bytes: [UInt8], region: PixelRegion, minimumWidth: Int, minimumHeight: Int,
                               maxPixels: Int = 100_000_000, pool: BufferPool = BufferPool(),
                               shouldCancel: () -> Bool = { false }) throws(CodecError) -> DecodedImage {
        try codec.decode(MemorySource(bytes), DecodeRequest(region: region, minimumWidth: minimumWidth,
                                                            minimumHeight: minimumHeight, maxPixels: maxPixels),
                         pool: pool, shouldCancel: shouldCancel)
    }

    /// ImageMagick's decode of the first picture of `path`, flattened over white: an independent decoder.
    package static func imageMagickReference(_ path: String) throws -> RGBImage {
        let ppm = try ExternalCommand.output("/usr/bin/convert", [path + "[0]", "-background", "white", "-flatten",
                                                                  "-depth", "8", "ppm:-"])
        let (width, height, pixels) = try PPM.parse(ppm)
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
