// libFuzzer entry for the GIF codec: the probe, then a decode of a region at a scale picked from the input
// (Fuzz/StillPictureFuzzing.swift). Built by mk/fuzz.mk (`make fuzz`), not by SwiftPM.
import GIF

let codec = GIFCodec()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzStillPicture(codec, named: "GIF", data, size)
}
