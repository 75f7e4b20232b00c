import Foundation
import ImageCodec
import Imaging
import TestSupport
@testable import Raw

/// Fixtures, reference renderings and byte surgery for the raw tests.
enum RawTestSupport {
    static let codec = RawCodec()
    /// LG G4's DNG (Skia's sample_1mp.dng): 600x338 lossy-JPEG sensor data, a 256x144 JPEG preview.
    static let dng = "sample_1mp.dng"

    static func path(_ name: String) -> String { Fixtures.path("raw/" + name) }
    static func bytes(_ name: String) throws -> [UInt8] { try Fixtures.bytes("raw/" + name) }

    static func probe(_ source: any ByteSource) throws(CodecError) -> ImageHeader {
        let headers = try codec.probe(source)
        guard headers.count == 1 else { throw .internalError("\(headers.count) headers") }
        return headers[0]
    }

    static func decode(_ source: any ByteSource, region: PixelRegion, minimumWidth: Int, minimumHeight: Int,
                       maxPixels: Int = 100_000_000, pool: BufferPool = BufferPool(),
                       shouldCancel: () -> Bool = { false }) throws(CodecError) -> DecodedImage {
        try codec.decode(source, DecodeRequest(region: region, minimumWidth: minimumWidth,
                                               minimumHeight: minimumHeight, maxPixels: maxPixels),
                         pool: pool, shouldCancel: shouldCancel)
    }

    /// The whole picture at full resolution (no preview, no half size).
    static func decodeWhole(_ source: any ByteSource, maxPixels: Int = 100_000_000,
                            shouldCancel: () -> Bool = { false }) throws(CodecError) -> DecodedImage {
        let header = try probe(source)
        return try decode(source, region: PixelRegion(x: 0, y: 0, width: header.width, height: header.height),
                          minimumWidth: header.width, minimumHeight: header.height, maxPixels: maxPixels,
                          shouldCancel: shouldCancel)
    }

    /// LibRaw's own rendering by its dcraw_emu with the codec's settings: camera white balance (-w), sRGB (-o 1),
    /// unturned (-t 0), 8 bits, half size with -h.
    static func dcrawEmu(_ path: String, halfSize: Bool = false) throws -> RGBImage {
        let ppm = try ExternalCommand.output("dcraw_emu", ["-w", "-o", "1", "-t", "0"] + (halfSize ? ["-h"] : [])
                                             + ["-Z", "-", path])
        let (width, height, pixels) = try PPM.parse(ppm)
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The raw's embedded JPEG preview, as exiftool extracts it.
    static func previewJPEG(_ path: String) throws -> [UInt8] {
        try ExternalCommand.output("exiftool", ["-b", "-PreviewImage", path])
    }

    /// djpeg's decode of `jpeg` at `scale`/8.
    static func djpeg(_ jpeg: [UInt8], scale: Int) throws -> RGBImage {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("raw-preview-\(getpid()).jpg")
        try Data(jpeg).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let ppm = try ExternalCommand.output("djpeg", ["-scale", "\(scale)/8", "-ppm", file.path])
        let (width, height, pixels) = try PPM.parse(ppm)
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The DNG with its IFD0 Orientation (the raw's only one: LibRaw reads a DNG's turn there) set to `value`.
    static func dngTurned(_ value: UInt16) throws -> [UInt8] {
        var bytes = try self.bytes(dng)
        let ifd = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        let count = Int(bytes[ifd]) | Int(bytes[ifd + 1]) << 8
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            if bytes[at] == 0x12 && bytes[at + 1] == 0x01 {
                bytes[at + 8] = UInt8(value & 0xFF)
                bytes[at + 9] = UInt8(value >> 8)
                return bytes
            }
        }
        throw CodecError.internalError("no Orientation tag")
    }
}
