/// Binary PPM (P6, maxval 255), the format djpeg, ImageMagick and poppler write for reference pixels.
package enum PPM {
    package struct Malformed: Error, CustomStringConvertible {
        package let description: String
    }

    /// The size and the RGB samples, top row first. Comments (`#` to the end of the line) may sit between the
    /// header fields.
    package static func parse(_ bytes: [UInt8]) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else {
            throw Malformed(description: "not a P6 PPM")
        }
        var fields: [Int] = []
        var index = 2
        while fields.count < 3 {
            while index < bytes.count, bytes[index] == UInt8(ascii: "#") || isSpace(bytes[index]) {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count, bytes[index] != 10 { index += 1 }
                } else {
                    index += 1
                }
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw Malformed(description: "PPM header cut short") }
            var value = 0
            while index < bytes.count, isDigit(bytes[index]) {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            fields.append(value)
        }
        index += 1  // the single whitespace byte after maxval
        let (width, height, maxval) = (fields[0], fields[1], fields[2])
        guard maxval == 255, bytes.count - index >= width * height * 3 else {
            throw Malformed(description: "unexpected PPM \(width)x\(height) maxval \(maxval)")
        }
        return (width, height, Array(bytes[index..<(index + width * height * 3)]))
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
