/// An image XObject's colour space as qpdf reads it back from a PDF.
package enum PDFImageColorSpace: Equatable, CustomStringConvertible {
    /// `/ColorSpace /DeviceRGB` and the like (the name, without its slash).
    case device(String)
    /// `/ColorSpace [/ICCBased n 0 R]`: the stream's /N and /Alternate, and its bytes decoded.
    case iccBased(components: Int, alternate: String?, profile: [UInt8])

    package var description: String {
        switch self {
        case .device(let name): return name
        case .iccBased(let n, let alternate, let profile): return "ICCBased N \(n) \(alternate ?? "-") \(profile.count) bytes"
        }
    }

    /// The colour space of image object `object` (as `pdfimages -list` numbers it) in the PDF at `path`.
    package static func of(object: Int, in path: String) throws -> PDFImageColorSpace {
        let dictionary = try show(object, in: path)
        if let name = value(after: "/ColorSpace /", in: dictionary) { return .device(name) }
        guard let reference = value(after: "/ColorSpace [ /ICCBased ", in: dictionary), let stream = Int(reference) else {
            throw ExternalCommand.Failure(description: "image \(object) has an unexpected /ColorSpace: \(dictionary)")
        }
        let streamDictionary = try show(stream, in: path)
        let profile = try ExternalCommand.output("qpdf", ["--show-object=\(stream)", "--filtered-stream-data", path])
        return .iccBased(components: value(after: "/N ", in: streamDictionary).flatMap { Int($0) } ?? 0,
                         alternate: value(after: "/Alternate /", in: streamDictionary), profile: profile)
    }

    private static func show(_ object: Int, in path: String) throws -> String {
        String(decoding: try ExternalCommand.output("qpdf", ["--show-object=\(object)", path]), as: UTF8.self)
    }

    /// The word after `prefix` in qpdf's rendering of a dictionary (`<< /Key value ... >>`).
    private static func value(after prefix: String, in text: String) -> String? {
        guard let range = text.range(of: prefix) else { return nil }
        return String(text[range.upperBound...].prefix { !$0.isWhitespace && $0 != "/" && $0 != "]" && $0 != ">" })
    }
}
