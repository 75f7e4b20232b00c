// libFuzzer entry for the EXIF module's XMP reader (XMPTree, XMPRegions): any bytes as an XMP packet, as found in
// a JPEG's APP1, a PNG's iTXt, a HEIF item or an XMP sidecar, read for its regions (against a landscape picture,
// its portrait turn and a one-pixel one), its capture date, caption and title.
// Built by mk/fuzz.mk (`make fuzz`), not by SwiftPM.
import EXIF

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let packet = Array(UnsafeBufferPointer(start: data, count: size))
    for (width, height) in [(4032, 3024), (3024, 4032), (1, 1)] {
        guard let found = XMPRegions.read(inPacket: packet, storedWidth: width, storedHeight: height) else { continue }
        // The reader promises at most its limit of regions, each a box inside the picture, in fractions.
        precondition(found.regions.count <= XMPRegions.regionLimit, "\(found.regions.count) regions")
        for region in found.regions {
            let box = [region.x, region.y, region.width, region.height]
            precondition(box.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 }, "box \(box) outside 0...1")
            precondition(region.x + region.width <= 1 + 1e-9 && region.y + region.height <= 1 + 1e-9,
                         "box \(box) past the picture's edge")
        }
        for dimension in [found.appliedWidth, found.appliedHeight].compactMap({ $0 }) {
            precondition(!dimension.isNaN, "AppliedToDimensions \(dimension)")
        }
        // Each problem is a reason for a warning printed on a terminal, and a name is shown in it and in the
        // report: one short line without control characters, never empty.
        let shown = found.problems + found.regions.compactMap(\.name)
        for text in shown {
            precondition(!text.isEmpty && text.count <= 300, "problem or name of \(text.count) characters")
            precondition(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                         "a control character in '\(text)'")
        }
    }
    if let date = XMP.captureDate(inPacket: packet) {
        precondition(date.localText.utf8.count == 19, "bad capture date \(date)")
        precondition(CaptureDate(exifDateTime: date.localText) != nil, "unreadable own text \(date.localText)")
    }
    for text in [XMP.description(inPacket: packet), XMP.title(inPacket: packet)].compactMap({ $0 }) {
        precondition(!text.isEmpty && text.utf8.count <= XMP.descriptionLimit, "caption of \(text.utf8.count) bytes")
    }
    return 0
}
