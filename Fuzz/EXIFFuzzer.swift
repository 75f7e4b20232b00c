// libFuzzer entry for the EXIF module: any bytes, as found after "Exif\0\0" in a JPEG or in a PNG eXIf chunk,
// and the same bytes as an XMP packet and as the start of a JPEG (the XMP segment walk).
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
    // A capture date is a real one, and its readable form is what it says.
    if let date = metadata.captureDate {
        precondition(date.localText.utf8.count == 19, "bad capture date \(date)")
        precondition(CaptureDate(exifDateTime: date.localText) != nil, "unreadable own text \(date.localText)")
    }
    for text in [metadata.imageDescription, XMP.description(inPacket: bytes)].compactMap({ $0 }) {
        precondition(!text.isEmpty && text.first?.isWhitespace == false && text.last?.isWhitespace == false,
                     "untrimmed description \(text)")
        precondition(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0.value == 0x7F },
                     "a control character in \(text)")
    }
    if let description = XMP.description(inPacket: bytes) {
        precondition(description.utf8.count <= XMP.descriptionLimit, "description over the limit")
    }
    if let packet = JPEGSegments.xmpPacket(inJPEG: bytes) {
        precondition(packet.count < bytes.count, "a packet larger than its JPEG")
        _ = XMP.description(inPacket: packet)
    }
    return 0
}
