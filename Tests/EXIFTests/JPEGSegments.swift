/// The payload of the first APP1 segment that starts with "Exif\0\0", found by walking the JPEG markers
/// from SOI up to the start of scan.
func exifSegment(ofJPEG bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var position = 2
    while position + 4 <= bytes.count {
        guard bytes[position] == 0xFF else { return nil }
        let marker = bytes[position + 1]
        if marker == 0xFF { position += 1; continue }           // fill byte
        if marker == 0xDA || marker == 0xD9 { return nil }      // start of scan, end of image
        if marker == 0x01 || (0xD0...0xD7).contains(marker) { position += 2; continue }  // no length
        let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
        let payloadStart = position + 4, payloadEnd = position + 2 + length
        guard length >= 2, payloadEnd <= bytes.count else { return nil }
        let payload = Array(bytes[payloadStart..<payloadEnd])
        if marker == 0xE1, payload.starts(with: Array("Exif".utf8) + [0, 0]) { return payload }
        position = payloadEnd
    }
    return nil
}
