import EXIF
import Platform

/// Where each photo's caption comes from.
public enum CaptionSource: String, Sendable, CaseIterable {
    /// A sidecar text file beside the photo (`IMG_1.jpg.txt` or `IMG_1.txt`), else its description (its XMP
    /// sidecar's, else its own: `PhotoInfo.description`).
    case auto
    /// The file name without its extension.
    case name
    /// The capture date, written out.
    case date
    case none
}

/// A caption sidecar as the probe read it (`Captions.readSidecar`): its caption (nil when blank: no caption, on
/// purpose), or the warning that says why it cannot be used.
public struct CaptionSidecar: Sendable, Equatable {
    public var caption: String?
    public var warning: String?
}

/// Finds the captions of photos from their sidecars (found by discovery, read by the probe), and says what was
/// wrong with a bad one.
public enum Captions {
    /// The most a sidecar may hold: a caption is a few lines, and a larger file is a mistake, not a caption.
    public static let sidecarLimit = 64 * 1024

    /// The caption from `source` of the photo at `path` (its name, for `.name`), given its caption sidecar as the
    /// probe read it (`PhotoInfo.captionSidecar`), and a warning when that sidecar could not be used (the photo
    /// then goes in without a caption from it). An existing sidecar that is blank means "no caption", on purpose.
    /// Reads no file.
    public static func caption(source: CaptionSource, path: String, sidecar: CaptionSidecar?, description: String?,
                               captureDate: CaptureDate?) -> (caption: String?, warning: String?) {
        switch source {
        case .none:
            return (nil, nil)
        case .name:
            return (stripExtension(FileSystem.baseName(path)), nil)
        case .date:
            return (captureDate.map(readableDate), nil)
        case .auto:
            if let sidecar { return (sidecar.caption, sidecar.warning) }
            return (description.map(normalised).flatMap { $0.isEmpty ? nil : $0 }, nil)
        }
    }

    /// The caption sidecar of the file at `path`, found by discovery: the first of `sidecars(of:)` that is there in
    /// any form (a file, a folder, a broken link: `readSidecar` says what is wrong with it); nil when none is.
    public static func sidecarFile(of path: String) -> String? {
        sidecars(of: path).first { candidate in
            if case .failure(let failure) = FileSystem.status(candidate), failure.isNoSuchFile { return false }
            return true
        }
    }

    /// The caption sidecar at `path`, read by the probe: its words normalised (nil when blank), or why it cannot
    /// be used.
    public static func readSidecar(_ path: String) -> CaptionSidecar {
        switch FileSystem.status(path) {
        case .failure(let failure):
            return CaptionSidecar(caption: nil, warning: "sidecar \(path) cannot be read (\(failure)); no caption")
        case .success(let status) where status.kind == .directory:
            return CaptionSidecar(caption: nil, warning: "sidecar \(path) is a folder, not a text file; no caption")
        case .success(let status) where status.kind != .regular:
            return CaptionSidecar(caption: nil, warning: "sidecar \(path) is not a regular file; no caption")
        case .success(let status) where status.size > Int64(sidecarLimit):
            return CaptionSidecar(caption: nil, warning: "sidecar \(path) is \(status.size / 1024) KB, more than a caption can be "
                                      + "(at most \(sidecarLimit / 1024) KB); no caption")
        case .success:
            switch FileSystem.readFile(path, limit: sidecarLimit) {
            case .failure(let failure):
                return CaptionSidecar(caption: nil, warning: "sidecar \(path) cannot be read (\(failure)); no caption")
            case .success(let bytes):
                guard let text = decodeUTF8(bytes) else {
                    // A control character in good UTF-8 (a NUL, a bell, an escape) is not a text file either, but
                    // "not UTF-8" would send its owner looking for an encoding problem.
                    if let control = String(validating: bytes, as: UTF8.self)?.unicodeScalars.first(where: {
                        $0.value < 0x20 && !["\n", "\r", "\t"].contains($0)
                    }) {
                        let code = String(control.value, radix: 16, uppercase: true)
                        return CaptionSidecar(caption: nil, warning: "sidecar \(path) holds a control character "
                                                  + "(U+\(String(repeating: "0", count: 4 - code.count))\(code)), so it is "
                                                  + "not a text file; no caption")
                    }
                    return CaptionSidecar(caption: nil, warning: "sidecar \(path) is not UTF-8 text; no caption")
                }
                let caption = normalised(text)
                return CaptionSidecar(caption: caption.isEmpty ? nil : caption, warning: nil)
            }
        }
    }

    /// `IMG_1.jpg.txt`, then `IMG_1.txt`.
    static func sidecars(of path: String) -> [String] {
        let withoutExtension = stripExtension(path)
        return withoutExtension == path ? [path + ".txt"] : [path + ".txt", withoutExtension + ".txt"]
    }

    /// Strict UTF-8 (a byte-order mark is dropped); nil for anything else, so that a Latin-1 or UTF-16 file is
    /// named in a warning instead of printed as garbage.
    static func decodeUTF8(_ bytes: [UInt8]) -> String? {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var text = ""
        var decoder = UTF8()
        var iterator = body.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                // Control characters other than line breaks and tabs have no place in a caption.
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\r" && scalar != "\t" { return nil }
                text.unicodeScalars.append(scalar)
            case .emptyInput:
                return text
            case .error:
                return nil
            }
        }
    }

    /// Runs of white space (line breaks included) become one space; the ends are trimmed.
    static func normalised(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]

    /// The camera's own reading, written out: "14 July 2024, 18:03" (the time as the camera showed it, where
    /// the photo was taken).
    public static func readableDate(_ date: CaptureDate) -> String {
        "\(readableDay(date)), \(date.hour):\(date.minute < 10 ? "0" : "")\(date.minute)"
    }

    /// "14 July 2024".
    public static func readableDay(_ date: CaptureDate) -> String {
        "\(date.day) \(months[date.month - 1]) \(date.year)"
    }

    /// The path without its last extension (`a/IMG_1.jpg` -> `a/IMG_1`); a leading dot is no extension.
    static func stripExtension(_ path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path }
        return String(path[..<dot])
    }
}
