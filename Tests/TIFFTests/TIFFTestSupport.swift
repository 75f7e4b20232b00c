import Foundation
import ImageCodec
import Imaging
import TIFF
import TestSupport

/// Fixtures, whole decodes and reference pixels for the TIFF tests.
enum TIFFTestSupport {
    static let codec = TIFFCodec()
    static let imageMagick = "/usr/bin/convert"

    static func path(_ name: String) -> String {
        madeAtTestTimeNames.contains(name) ? madeAtTestTime.folder + "/" + name : Fixtures.path("tiff/" + name)
    }
    static func source(_ name: String) throws -> MemorySource {
        if madeAtTestTimeNames.contains(name) { _ = try madeAtTestTime.get() }
        return MemorySource(try Fixtures.read(path(name)))
    }

    static let cmykProfile = "/usr/share/color/icc/ghostscript/default_cmyk.icc"
    static let srgbProfile = "/usr/share/color/icc/ghostscript/srgb.icc"
    static let madeAtTestTimeNames: Set = ["cmyk8-icc.tif", "metadata.tif"]

    /// The fixtures that carry Ghostscript's ICC profiles (AGPL in Debian, so not committed), made once a run
    /// from `rgb8-none.tif` (see Fixtures/tiff/README.md).
    static let madeAtTestTime: (folder: String, get: @Sendable () throws -> Void) = {
        let folder = NSTemporaryDirectory() + "photobook-tiff-fixtures-\(UInt64.random(in: 0...UInt64.max))"
        let base = Fixtures.path("tiff/rgb8-none.tif")
        let made: Result<Void, any Error> = Result {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            _ = try ExternalCommand.output(imageMagick, [base, "-profile", srgbProfile, "-intent", "relative",
                                                         "-black-point-compensation", "-profile", cmykProfile,
                                                         "-compress", "lzw", folder + "/cmyk8-icc.tif"])
            _ = try ExternalCommand.output(imageMagick, [base, "-profile", srgbProfile, "-compress", "lzw",
                                                         folder + "/metadata.tif"])
            _ = try ExternalCommand.output("exiftool", [
                "-q", "-overwrite_original", "-ImageDescription=Harbour at dawn", "-XMP-dc:Title=Harbour",
                "-DateTimeOriginal=2024:06:01 12:34:56", "-SubSecTimeOriginal=25", "-OffsetTimeOriginal=+02:00",
                folder + "/metadata.tif"])
        }
        return (folder, { try made.get() })
    }()

    /// The whole of picture `picture`, at full size.
    static func decodeWhole(_ source: any ByteSource, picture: Int = 0, pool: BufferPool = BufferPool(),
                            shouldCancel: () -> Bool = { false }) throws -> DecodedImage {
        let header = try codec.probe(source)[picture]
        return try codec.decode(source, .whole(width: header.width, height: header.height, maxPixels: 1 << 30,
                                               picture: picture), pool: pool, shouldCancel: shouldCancel)
    }

    /// ImageMagick's decode of `path` (page `page`), flattened on white, as 8-bit RGB; `options` go before
    /// the output (a colour conversion, say).
    static func imageMagick(_ path: String, page: Int = 0, options: [String] = []) throws -> RGBImage {
        let ppm = try ExternalCommand.output(imageMagick, ["\(path)[\(page)]", "-background", "white", "-alpha", "remove",
                                                           "-alpha", "off"] + options + ["-depth", "8", "ppm:-"])
        let (width, height, pixels) = try PPM.parse(ppm)
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// libtiff's own whole-file RGBA reading (tiff2rgba), flattened on white by ImageMagick.
    static func tiff2rgba(_ path: String) throws -> RGBImage {
        let output = NSTemporaryDirectory() + "tiff2rgba-\(UInt64.random(in: 0...UInt64.max)).tif"
        defer { try? FileManager.default.removeItem(atPath: output) }
        _ = try ExternalCommand.output("/usr/bin/tiff2rgba", ["-c", "none", path, output])
        return try imageMagick(output)
    }

    /// Each output pixel the rounded mean of a `factor` x `factor` box of `image`'s `region` (partial boxes at
    /// the right and bottom edges), as `BoxShrink` promises.
    static func boxShrink(_ image: RGBImage, region: PixelRegion, factor: Int) -> RGBImage {
        let width = (region.width + factor - 1) / factor, height = (region.height + factor - 1) / factor
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for oy in 0..<height {
            for ox in 0..<width {
                var sums = [0, 0, 0], count = 0
                for y in (region.y + oy * factor)..<min(region.y + (oy + 1) * factor, region.y + region.height) {
                    for x in (region.x + ox * factor)..<min(region.x + (ox + 1) * factor, region.x + region.width) {
                        for c in 0..<3 { sums[c] += Int(image.pixels[(y * image.width + x) * 3 + c]) }
                        count += 1
                    }
                }
                for c in 0..<3 { pixels[(oy * width + ox) * 3 + c] = UInt8((sums[c] + count / 2) / count) }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
