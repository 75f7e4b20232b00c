// libFuzzer entry for the PNG decoder: the header, then the pixels.
// Built by mk/fuzz.mk (`make fuzz`), not by SwiftPM.
import Imaging
import PNG

/// The pixel limit of a decode; small enough that every run stays fast and well under the RSS limit.
let maxPixels = 4_000_000

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let info = try? PNGDecoder.readInfo(bytes) else { return 0 }
    precondition(info.width > 0 && info.height > 0, "header \(info.width)x\(info.height) accepted")
    // One input in four is cancelled after a few checks, so the unwinding from every band (and every Adam7
    // pass) runs under AddressSanitizer and LeakSanitizer too.
    let cancelAfter = Int(bytes.reduce(0, &+) & 15)
    var checks = 0
    let shouldCancel = {
        checks += 1
        return cancelAfter < 4 && checks > cancelAfter
    }
    guard let image = try? PNGDecoder.decode(bytes, maxPixels: maxPixels, shouldCancel: shouldCancel) else { return 0 }
    precondition(image.width == info.width && image.height == info.height, "decoded size differs from header")
    precondition(image.pixels.count == image.width * image.height * 3, "pixel buffer of the wrong size")
    return 0
}
