// libFuzzer entry for the TIFF codec: probe, then every picture it found decoded, a region and a scale picked
// from the input, one input in four cancelled part-way.
// Built by mk/fuzz.mk (`make fuzz`), not by SwiftPM.
import ImageCodec
import Imaging
import TIFF

/// The pixel limit of a decode; small enough that every run stays fast and well under the RSS limit.
let maxPixels = 4_000_000
/// One pool for the whole run, as one build has one: buffers given back are lent to the next input.
let pool = BufferPool()
/// The most pictures of one input decoded: a chain of a thousand tiny pages must not make one run slow.
let maxPictures = 4

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let source = MemorySource(bytes)
    let codec = TIFFCodec()
    guard let headers = try? codec.probe(source) else { return 0 }
    precondition(!headers.isEmpty, "probe gave no picture and no error")

    // One input in four is cancelled after a few checks, so the unwinding from every band (strips, tiles,
    // libtiff's RGBA reader) runs under AddressSanitizer and LeakSanitizer too.
    let cancelAfter = Int(bytes.reduce(0, &+) & 15)
    let pick = bytes.reduce(0, ^)
    for (picture, header) in headers.enumerated().prefix(maxPictures) {
        precondition(header.width > 0 && header.height > 0, "header \(header.width)x\(header.height) accepted")
        // The whole picture or a centre part of it (a byte of the input picks which), at 1/1 ... 1/8.
        let fraction = Int(pick >> 4) % 4 + 1
        let region = PixelRegion(x: header.width * (fraction - 1) / (2 * fraction),
                                 y: header.height * (fraction - 1) / (2 * fraction),
                                 width: max(1, header.width / fraction), height: max(1, header.height / fraction))
        let shrink = Int(pick & 7) + 1
        let request = DecodeRequest(picture: picture, region: region, minimumWidth: region.width / shrink,
                                    minimumHeight: region.height / shrink, maxPixels: maxPixels)
        var checks = 0
        let shouldCancel = {
            checks += 1
            return cancelAfter < 4 && checks > cancelAfter
        }
        guard let decoded = try? codec.decode(source, request, pool: pool, shouldCancel: shouldCancel) else { continue }
        let image = decoded.image
        precondition(decoded.storedWidth == header.width && decoded.storedHeight == header.height,
                     "decoded picture is \(decoded.storedWidth)x\(decoded.storedHeight), probe said \(header.width)x\(header.height)")
        precondition(image.pixels.count == image.width * image.height * 3, "pixel buffer of the wrong size")
        precondition(image.width >= region.width / shrink && image.height >= region.height / shrink,
                     "decoded \(image.width)x\(image.height), smaller than asked")
        let covers = decoded.covers
        precondition(covers.x <= Double(region.x) && covers.y <= Double(region.y)
                     && covers.x + covers.width >= Double(region.x + region.width)
                     && covers.y + covers.height >= Double(region.y + region.height), "covers \(covers) misses \(region)")
        pool.giveBack(image.pixels)
    }
    return 0
}
