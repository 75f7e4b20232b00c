// libFuzzer entry for the JPEG decoder: the header, then pixels at a DCT scale chosen from the input, then a
// lossless crop.
// Built by mk/fuzz.mk (`make fuzz`), not by SwiftPM.
import Imaging
import JPEG

/// The pixel limit of a decode; small enough that every run stays fast and well under the RSS limit.
let maxPixels = 4_000_000

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let info = try? JPEGDecoder.readInfo(bytes) else { return 0 }
    precondition(info.width > 0 && info.height > 0, "header \(info.width)x\(info.height) accepted")

    // The wanted size is 1/8 ... 8/8 of the image (one byte of the input picks which), so every DCT scale
    // libjpeg has, and its rounding of odd sides, is reached from any seed.
    let eighths = Int(bytes.reduce(0, ^) & 7) + 1
    let minimumWidth = (info.width * eighths) / 8, minimumHeight = (info.height * eighths) / 8
    // One input in four is cancelled after a few checks, so the unwinding from every safe point (libjpeg's
    // progress monitor, between bands) runs under AddressSanitizer and LeakSanitizer too.
    let cancelAfter = Int(bytes.reduce(0, &+) & 15)
    var checks = 0
    let shouldCancel = {
        checks += 1
        return cancelAfter < 4 && checks > cancelAfter
    }
    guard let image = try? JPEGDecoder.decode(bytes, minimumWidth: minimumWidth, minimumHeight: minimumHeight,
                                              maxPixels: maxPixels, shouldCancel: shouldCancel) else { return 0 }
    let planned = JPEGDecoder.scaledSize(width: info.width, height: info.height, minimumWidth: minimumWidth,
                                         minimumHeight: minimumHeight)
    precondition(image.width == planned.width && image.height == planned.height,
                 "decoded \(image.width)x\(image.height), planned \(planned.width)x\(planned.height)")
    precondition(image.width >= minimumWidth && image.height >= minimumHeight, "decoded smaller than asked")
    precondition(image.pixels.count == image.width * image.height * 3, "pixel buffer of the wrong size")

    // The engine's path: only a region (a centre crop picked from the input), at a scale for that region.
    let fraction = Int(bytes.count % 7) + 2  // the region is (fraction-1)/fraction of each side
    let region = JPEGRegion(x: info.width / (2 * fraction), y: info.height / (2 * fraction),
                            width: max(1, info.width * (fraction - 1) / fraction),
                            height: max(1, info.height * (fraction - 1) / fraction))
    checks = 0
    guard let part = try? JPEGDecoder.decode(bytes, region: region, minimumWidth: region.width * eighths / 8,
                                             minimumHeight: region.height * eighths / 8, maxPixels: maxPixels,
                                             shouldCancel: shouldCancel) else { return 0 }
    let covers = part.covers
    precondition(covers.x <= region.x && covers.y <= region.y
                 && covers.x + covers.width >= region.x + region.width
                 && covers.y + covers.height >= region.y + region.height, "covers \(covers) misses \(region)")
    precondition(part.image.pixels.count == part.image.width * part.image.height * 3, "region buffer of the wrong size")

    // The lossless path: the same region copied block for block, turned as a byte of the input says; what it
    // writes must read back as a JPEG of the turned covering region's size.
    let orientation = Orientation(exifValue: Int(bytes.count % 8) + 1)
    checks = 0
    guard case .cropped(let copy)? = try? JPEGLosslessCrop.crop(bytes, region: region, orientation: orientation,
                                                                maxPixels: maxPixels, shouldCancel: shouldCancel)
    else { return 0 }
    let stored = copy.storedRegion
    precondition(stored.x <= region.x && stored.y <= region.y && stored.x + stored.width >= region.x + region.width
                 && stored.y + stored.height >= region.y + region.height, "lossless \(stored) misses \(region)")
    let written = try? JPEGDecoder.readInfo(copy.bytes)
    let (width, height) = orientation.swapsDimensions ? (stored.height, stored.width) : (stored.width, stored.height)
    precondition(written?.width == width && written?.height == height, "lossless copy is not \(width)x\(height)")
    return 0
}
