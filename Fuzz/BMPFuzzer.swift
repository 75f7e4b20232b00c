// libFuzzer entry for the BMP codec: the probe, then a decode of a region at a scale picked from the input
// (Fuzz/StillPictureFuzzing.swift). Built by mk/fuzz.mk (`make fuzz`), not by SwiftPM.
import BMP

let codec = BMPCodec()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzStillPicture(codec, named: "BMP", data, size)
}
