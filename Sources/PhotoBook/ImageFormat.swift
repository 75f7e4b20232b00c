import ImageCodec
import Platform

/// An image format photobook reads. A file's bytes decide it: its name is only a promise the probe checks.
public struct ImageFormat: Sendable, Equatable, CustomStringConvertible {
    public let codec: any ImageCodec

    /// The format's name in messages and the report ("JPEG", "HEIF").
    public var name: String { codec.name }
    public var description: String { codec.name }

    public static func == (a: ImageFormat, b: ImageFormat) -> Bool { a.name == b.name }

    /// The format whose signature starts `bytes` (the file's first `signatureLength` bytes), if any.
    public init?(sniffing bytes: [UInt8]) {
        guard let codec = codecs.first(where: { $0.recognises(bytes) }) else { return nil }
        self.codec = codec
    }

    init(codec: any ImageCodec) { self.codec = codec }

    /// The format a file name's extension promises (lower case, without the dot), if any: discovery takes a
    /// photo's name at its word and the probe checks it against the bytes it reads anyway (`Probe.probe`).
    init?(fileExtension: String) {
        guard let codec = codecs.first(where: { $0.fileExtensions.contains(fileExtension) }) else { return nil }
        self.codec = codec
    }

    /// How many of a file's first bytes `init(sniffing:)` needs.
    public static let signatureLength = imageSignatureLength

    /// File name extensions that promise a photo photobook reads, in lower case (the codecs'): what discovery
    /// counts as a photo that failed rather than another file, and what a shell completes for a photo.
    public static let fileExtensions: Set<String> = codecs.reduce(into: []) { $0.formUnion($1.fileExtensions) }

    /// The formats photobook reads, for messages: "JPEG, PNG, HEIF, WebP, TIFF, camera raw, JPEG XL, JPEG 2000, GIF and BMP".
    public static let names: String = {
        let all = codecs.map(\.name)
        return all.dropLast().joined(separator: ", ") + " and " + all.last!
    }()

    /// Why bytes that should be a photo are not one.
    static func unrecognised(_ bytes: [UInt8]) -> Failure {
        if bytes.isEmpty { return .corrupt("empty file") }
        for codec in codecs { if let damage = codec.damageInSignature(bytes) { return .corrupt(damage) } }
        if let other = OtherFileKind(sniffing: bytes) { return .unsupported("\(other), not a photo photobook reads (\(names))") }
        return .unsupported("not an image photobook reads (\(names))")
    }
}

/// Files people keep beside their photos, named by their first bytes so that `--verbose` and a refusal say
/// what a skipped file is.
enum OtherFileKind: CustomStringConvertible {
    case pdf, psd, video(String), other(String)

    init?(sniffing bytes: [UInt8]) {
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            bytes.count >= offset + text.utf8.count && bytes[offset...].starts(with: text.utf8)
        }
        if starts("%PDF-") { self = .pdf; return }
        if starts("8BPS") { self = .psd; return }
        if starts("ftyp", at: 4) && bytes.count >= 12 {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self).trimmingCharacters(in: " ")
            self = .video(brand)
            return
        }
        if starts("RIFF") && bytes.count >= 12 {
            self = .other("RIFF '\(String(decoding: bytes[8..<12], as: UTF8.self))' file")
            return
        }
        return nil
    }

    var description: String {
        switch self {
        case .pdf: return "a PDF document"
        case .psd: return "a Photoshop document (PSD)"
        case .video(let brand): return "an ISO media file of brand '\(brand)' (a video?)"
        case .other(let what): return "a \(what)"
        }
    }
}

private extension String {
    func trimmingCharacters(in set: Character) -> String {
        String(drop(while: { $0 == set }).reversed().drop(while: { $0 == set }).reversed())
    }
}
