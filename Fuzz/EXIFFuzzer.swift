// libFuzzer entry for the EXIF parser: any bytes, as found after "Exif\0\0" in a JPEG or in a PNG eXIf chunk.
// Built by mk/fuzz.mk (`make fuzz`), not by SwiftPM.
import EXIF

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let metadata = EXIFParser.parse(bytes)
    // The parser promises an orientation that is always usable, and a date that is printable ASCII.
    precondition((1...8).contains(metadata.orientation), "orientation \(metadata.orientation) out of 1...8")
    if let date = metadata.dateTimeOriginal {
        precondition(!date.isEmpty && date.utf8.allSatisfy { (0x20...0x7E).contains($0) }, "bad date \(date)")
    }
    return 0
}
