// libFuzzer entry for the JPEG XL codec: the probe, then a decode of a region at a scale picked from the input
// (Fuzz/StillPictureFuzzing.swift). Built by mk/fuzz.mk (`make fuzz`), not by SwiftPM.
import JXL

let codec = JXLCodec()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzStillPicture(codec, named: "JPEG XL", data, size)
}
