/// Binary PGM and PPM (P5, P6) of any maxval up to 65535, as opj_decompress and djxl write them, read as 8-bit
/// RGB: samples scaled `(v * 255 + maxval / 2) / maxval`, grey repeated in the three channels.
package enum PNM {
    package struct Malformed: Error, CustomStringConvertible {
        package let description: String
    }

    package static func rgb(_ bytes: [UInt8]) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "5") || bytes[1] == UInt8(ascii: "6") else {
            throw Malformed(description: "not a P5 or P6 file")
        }
        let channels = bytes[1] == UInt8(ascii: "6") ? 3 : 1
        var fields: [Int] = []
        var index = 2
        while fields.count < 3 {
            while index < bytes.count, bytes[index] == UInt8(ascii: "#") || [32, 9, 10, 13].contains(bytes[index]) {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count, bytes[index] != 10 { index += 1 }
                } else {
                    index += 1
                }
            }
            var value = 0, digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                value = value * 10 + Int(bytes[index] - 48)
                index += 1
                digits += 1
            }
            guard digits > 0 else { throw Malformed(description: "header cut short") }
            fields.append(value)
        }
        index += 1
        let (width, height, maxval) = (fields[0], fields[1], fields[2])
        let sampleBytes = maxval > 255 ? 2 : 1
        guard maxval > 0, maxval <= 65535, bytes.count - index >= width * height * channels * sampleBytes else {
            throw Malformed(description: "unexpected \(width)x\(height) maxval \(maxval)")
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            for c in 0..<3 {
                let s = index + (i * channels + (channels == 3 ? c : 0)) * sampleBytes
                let v = sampleBytes == 2 ? Int(bytes[s]) << 8 | Int(bytes[s + 1]) : Int(bytes[s])
                pixels[i * 3 + c] = UInt8((v * 255 + maxval / 2) / maxval)
            }
        }
        return (width, height, pixels)
    }
}
