// libFuzzer entry for the JPEG 2000 codec: the probe, then a decode of a region at a scale picked from the input
// (Fuzz/StillPictureFuzzing.swift). Built by mk/fuzz.mk (`make fuzz`), not by SwiftPM.
import JPEG2000

let codec = JPEG2000Codec()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzStillPicture(codec, named: "JPEG 2000", data, size)
}
