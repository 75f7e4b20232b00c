/// Walks a JPEG's marker segments, so that tests can find and rewrite headers (and break them on purpose).
package enum JPEGStructure {
    package struct Segment {
        package var marker: UInt8
        /// Offset of the 0xFF that starts the marker.
        package var offset: Int
        /// The segment length field (it counts itself, not the marker).
        package var length: Int
        /// First byte after the segment; for SOS, the entropy-coded data starts here.
        package var end: Int { offset + 2 + length }
        /// The segment's contents after its length field.
        package func payload(in jpeg: [UInt8]) -> ArraySlice<UInt8> { jpeg[(offset + 4)..<min(end, jpeg.count)] }
    }

    /// Every marker segment up to EOI, scans included (their entropy-coded data is skipped).
    /// `jpeg` with APP2 segments of `total` bytes of payload after SOI: how an ICC profile or an XMP block sits
    /// before the frame header, pushing it past a probe's first read.
    package static func withLargeAPP2(_ jpeg: [UInt8], total: Int) -> [UInt8] {
        var out = Array(jpeg.prefix(2))
        var left = total
        while left > 0 {
            let payload = min(65_533, left)
            out += [0xFF, 0xE2, UInt8((payload + 2) >> 8), UInt8((payload + 2) & 0xFF)]
            out += [UInt8](repeating: 0x20, count: payload)
            left -= payload
        }
        return out + jpeg.dropFirst(2)
    }

    package static func segments(_ jpeg: [UInt8]) -> [Segment] {
        var result: [Segment] = []
        var i = 2
        while i + 3 < jpeg.count {
            guard jpeg[i] == 0xFF else { i += 1; continue }
            let marker = jpeg[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xD9 { break }
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            let segment = Segment(marker: marker, offset: i, length: length)
            result.append(segment)
            i = segment.end
            if marker == 0xDA {
                // Entropy-coded data ends at the first marker that is neither a stuffed 0x00 nor a restart.
                while i + 1 < jpeg.count, !(jpeg[i] == 0xFF && jpeg[i + 1] != 0 && !(0xD0...0xD7).contains(jpeg[i + 1])) {
                    i += 1
                }
            }
        }
        return result
    }

    /// The first segment with this marker, if any.
    package static func first(_ marker: UInt8, in jpeg: [UInt8]) -> Segment? {
        segments(jpeg).first { $0.marker == marker }
    }

    /// The frame header (SOF0, 1, 2, 3, 9 or 10).
    package static func frame(_ jpeg: [UInt8]) -> Segment {
        segments(jpeg).first { [0xC0, 0xC1, 0xC2, 0xC3, 0xC9, 0xCA].contains($0.marker) }!
    }

    /// The scan headers (SOS), in order.
    package static func scans(_ jpeg: [UInt8]) -> [Segment] { segments(jpeg).filter { $0.marker == 0xDA } }

    /// The frame header rewritten: its marker (SOFn), sample precision and size.
    package static func withFrame(_ jpeg: [UInt8], marker: UInt8? = nil, precision: UInt8? = nil,
                                  width: Int? = nil, height: Int? = nil) -> [UInt8] {
        var bytes = jpeg
        let sof = frame(jpeg).offset
        if let marker { bytes[sof + 1] = marker }
        if let precision { bytes[sof + 4] = precision }
        if let height { bytes[sof + 5] = UInt8(height >> 8); bytes[sof + 6] = UInt8(height & 0xFF) }
        if let width { bytes[sof + 7] = UInt8(width >> 8); bytes[sof + 8] = UInt8(width & 0xFF) }
        return bytes
    }

    /// The payload of the first APP1 segment before the first scan that starts with "Exif\0\0".
    package static func exifPayload(_ jpeg: [UInt8]) -> [UInt8]? {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        let exifHeader = Array("Exif".utf8) + [0, 0]
        for segment in segments(jpeg) {
            if segment.marker == 0xDA { return nil }
            guard segment.length >= 2, segment.end <= jpeg.count else { return nil }
            if segment.marker == 0xE1, segment.payload(in: jpeg).starts(with: exifHeader) {
                return Array(segment.payload(in: jpeg))
            }
        }
        return nil
    }
}
