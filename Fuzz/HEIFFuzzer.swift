// libFuzzer entry for the HEIF codec (libheif 1.15 over photobook's reader): the probe, then a region decode
// shrunk by a factor picked from the input.
// Built by mk/fuzz.mk (`make fuzz`), not by SwiftPM. LeakSanitizer must be told to ignore libdav1d
// (mk/lsan.supp): libheif 1.15's dav1d plugin leaks 40 bytes whenever dav1d refuses an AVIF's data.
@_spi(Fuzzing) import HEIF
import Glibc
import ImageCodec
import Imaging

/// The pixel limit of a decode; small enough that every run stays fast and well under the RSS limit.
let maxPixels = 4_000_000
/// One pool for the whole run, as one build has one: buffers given back are lent to the next input.
let pool = BufferPool()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    defer { waitForAbandonedDecodes() }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let codec = HEIFCodec()
    let source = MemorySource(bytes)
    guard let headers = try? codec.probe(source) else { return 0 }
    precondition(headers.count == 1, "\(headers.count) headers")
    let header = headers[0]
    precondition(header.width > 0 && header.height > 0, "header \(header.width)x\(header.height) accepted")
    precondition(header.orientation == .fixed(.topLeft), "orientation \(header.orientation)")
    // The thumbnail item the attention map is measured on (seed: thumbnail.heic, made by heif-enc -t).
    if let thumbnail = codec.thumbnail(source, maxPixels: 1 << 20) {
        precondition(thumbnail.width * thumbnail.height <= 1 << 20
                     && thumbnail.pixels.count == thumbnail.width * thumbnail.height * 3, "thumbnail of the wrong size")
    }

    // The wanted size is 1/8 ... 8/8 of a centre region (bytes of the input pick which), so every shrink
    // factor BoxShrink has, and its partial last boxes, are reached from any seed.
    let eighths = Int(bytes.reduce(0, ^) & 7) + 1
    let fraction = Int(bytes.count % 5) + 1  // the region is (fraction - 1) / fraction of each side, or all
    let region = fraction == 1
        ? PixelRegion(x: 0, y: 0, width: header.width, height: header.height)
        : PixelRegion(x: header.width / (2 * fraction), y: header.height / (2 * fraction),
                      width: max(1, header.width * (fraction - 1) / fraction),
                      height: max(1, header.height * (fraction - 1) / fraction))
    let request = DecodeRequest(region: region, minimumWidth: max(1, region.width * eighths / 8),
                                minimumHeight: max(1, region.height * eighths / 8), maxPixels: maxPixels)
    // One input in four is cancelled after a few checks, so the unwinding from every safe point (before and
    // after libheif's decode, between bands) runs under AddressSanitizer and LeakSanitizer too.
    let cancelAfter = Int(bytes.reduce(0, &+) & 15)
    var checks = 0
    let shouldCancel = {
        checks += 1
        return cancelAfter < 4 && checks > cancelAfter
    }
    guard let decoded = try? codec.decode(source, request, pool: pool, shouldCancel: shouldCancel) else { return 0 }
    let image = decoded.image
    precondition(image.pixels.count == image.width * image.height * 3, "pixel buffer of the wrong size")
    precondition(decoded.storedWidth > 0 && decoded.storedHeight > 0
                 && decoded.storedWidth * decoded.storedHeight <= maxPixels, "decoded beyond the limit")
    precondition(decoded.covers.width >= 1 && decoded.covers.x + decoded.covers.width <= Double(decoded.storedWidth)
                 && decoded.covers.y + decoded.covers.height <= Double(decoded.storedHeight),
                 "covers \(decoded.covers) outside \(decoded.storedWidth)x\(decoded.storedHeight)")
    let factor = Int((1 / decoded.scale).rounded())
    precondition(image.width == (Int(decoded.covers.width) + factor - 1) / factor, "shrunk width")
    pool.giveBack(image.pixels)
    return 0
}

/// A decode cancelled while libheif works goes on on its own thread: wait for it (and a moment for its thread
/// to end), or LeakSanitizer, run by libFuzzer after each input, would count what it still holds as leaked.
func waitForAbandonedDecodes() {
    guard HEIFCodec.abandonedDecodesStillRunning > 0 else { return }
    while HEIFCodec.abandonedDecodesStillRunning > 0 { usleep(1000) }
    usleep(5000)
}
