// The body of the libFuzzer entries of the codecs whose files hold one still picture (WebP, JPEG XL, JPEG 2000, GIF,
// BMP): each entry (Fuzz/<Name>Fuzzer.swift) names its codec and calls this. Built with it by mk/fuzz.mk.
import ImageCodec
import Imaging

/// The pixel limit of a decode; small enough that every run stays fast and well under the RSS limit.
let maxPixels = 4_000_000
/// One pool for the whole run, as one build has one: buffers given back are lent to the next input.
let pool = BufferPool()

/// One libFuzzer input for `codec`, a format of one still picture a file: the probe, then a decode of a region at a
/// scale picked from the input, its answer checked against the interface's promises; 0, as libFuzzer wants.
func fuzzStillPicture(_ codec: any ImageCodec, named name: String, _ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let source = MemorySource(bytes)
    guard let headers = try? codec.probe(source) else { return 0 }
    precondition(headers.count == 1, "\(headers.count) pictures in a \(name)")
    let header = headers[0]
    precondition(header.width > 0 && header.height > 0, "header \(header.width)x\(header.height) accepted")
    if let exif = header.exif {
        precondition(exif.starts(with: [0x49, 0x49, 0x2A, 0]) || exif.starts(with: [0x4D, 0x4D, 0, 0x2A]),
                     "EXIF that is not a TIFF structure")
    }

    // The region, the scale and the cancellation come from the input's bytes (FNV-1a), so each input is one
    // decode and a mutation moves all three.
    let hash = bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    let width = header.width, height = header.height
    var region = PixelRegion(x: 0, y: 0, width: width, height: height)
    if hash & 1 == 1 {
        let x = Int((hash >> 8) % UInt64(width)), y = Int((hash >> 20) % UInt64(height))
        region = PixelRegion(x: x, y: y, width: 1 + Int((hash >> 32) % UInt64(width - x)),
                             height: 1 + Int((hash >> 44) % UInt64(height - y)))
    }
    let divisor = 1 + Int((hash >> 56) % 8)
    let request = DecodeRequest(region: region, minimumWidth: max(1, region.width / divisor),
                                minimumHeight: max(1, region.height / divisor), maxPixels: maxPixels)
    // One input in four is cancelled after a few checks, so the unwinding from every step runs under
    // AddressSanitizer and LeakSanitizer too.
    let cancelAfter = Int((hash >> 4) & 15)
    var checks = 0
    let shouldCancel = {
        checks += 1
        return cancelAfter < 4 && checks > cancelAfter
    }
    guard let decoded = try? codec.decode(source, request, pool: pool, shouldCancel: shouldCancel) else { return 0 }
    let image = decoded.image, covers = decoded.covers
    precondition(decoded.storedWidth == width && decoded.storedHeight == height, "stored size differs from header")
    precondition(image.pixels.count == image.width * image.height * 3, "pixel buffer of the wrong size")
    precondition(covers.x <= Double(region.x) && covers.y <= Double(region.y)
                 && covers.x + covers.width >= Double(region.x + region.width)
                 && covers.y + covers.height >= Double(region.y + region.height), "covers \(covers) misses \(region)")
    precondition(decoded.scale > 0 && decoded.scale <= 1, "scale \(decoded.scale)")
    precondition(abs(Double(image.width) - covers.width * decoded.scale) < 1
                 && abs(Double(image.height) - covers.height * decoded.scale) < 1,
                 "\(image.width)x\(image.height) pixels for \(covers) at \(decoded.scale)")
    precondition(image.width >= request.minimumWidth && image.height >= request.minimumHeight,
                 "\(image.width)x\(image.height) is less than the minimum")
    pool.giveBack(image.pixels)
    return 0
}
