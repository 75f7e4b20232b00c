import Colour
import Foundation
import PDF
import Platform

/// The ICC profile of the printing condition a PDF/X book is made for (`--output-profile`), checked from its
/// header: a CMYK output profile, or a reason worded for a usage error.
public struct OutputProfile: Sendable, Equatable {
    public let path: String
    public let bytes: [UInt8]
    /// The profile's own name for itself (its 'desc' tag), when it has a readable one.
    public let description: String?

    /// The profile photobook ships (Resources/, docs/research/pdfx.md): FOGRA39L, built with ArgyllCMS from the
    /// measurement data in Debian's icc-profiles-free, under the zlib licence.
    public static let defaultFileName = "FOGRA39L-photobook.icc"
    /// The printing condition the default profile characterises, as the ICC registers it.
    public static let defaultIdentifier = "FOGRA39"

    /// Where the default profile is looked for: installed beside the binary (`make install` puts it in
    /// PREFIX/share/photobook), else in the Resources folder of the source tree the binary was built in
    /// (.build/<triple>/release/photobook is three folders below it).
    public static var defaultPath: String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        var candidates = [folder.appendingPathComponent("../share/photobook/\(defaultFileName)").standardized.path]
        for _ in 0..<4 {
            folder = folder.deletingLastPathComponent()
            candidates.append(folder.appendingPathComponent("Resources/\(defaultFileName)").path)
        }
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// The largest profile read: a CMYK output profile with fine tables is a few megabytes.
    static let maximumSize = 16 << 20

    /// Reads and checks the profile at `path`: the reason it cannot be an output intent when it cannot.
    public static func load(_ path: String) -> Result<OutputProfile, ProfileProblem> {
        switch FileSystem.readFile(path, limit: maximumSize) {
        case .failure(let failure): return .failure(ProfileProblem("cannot be read: \(failure)"))
        case .success(let bytes): return check(bytes).map { OutputProfile(path: path, bytes: bytes, description: $0) }
        }
    }

    /// The header's checks (ICC.1:2010 7.2): the size it declares, the 'acsp' signature, the device class
    /// 'prtr' (output) and the colour space 'CMYK'; the description when the profile is usable.
    static func check(_ bytes: [UInt8]) -> Result<String?, ProfileProblem> {
        guard bytes.count >= 132 else {
            return .failure(ProfileProblem("is not an ICC profile: \(bytes.count) bytes, shorter than an ICC header"))
        }
        guard bytes[36..<40].elementsEqual("acsp".utf8) else {
            return .failure(ProfileProblem("is not an ICC profile: no 'acsp' signature at byte 36"))
        }
        let declared = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard declared == bytes.count else {
            return .failure(ProfileProblem("is cut short or padded: its header says \(declared) bytes, the file has \(bytes.count)"))
        }
        let deviceClass = signature(bytes, at: 12)
        guard deviceClass == "prtr" else {
            return .failure(ProfileProblem("is a '\(deviceClass)' profile, not an output ('prtr') profile: a PDF/X "
                                           + "output intent characterises a printing condition"))
        }
        let space = signature(bytes, at: 16)
        guard space == "CMYK" else {
            return .failure(ProfileProblem("is for '\(space)' colour, not CMYK: photobook makes PDF/X books for "
                                           + "CMYK printing"))
        }
        return .success(description(of: bytes))
    }

    /// Four header bytes as text, unprintable ones as '?', trailing spaces dropped ("RGB ", "prtr").
    private static func signature(_ bytes: [UInt8], at offset: Int) -> String {
        let text = bytes[offset..<offset + 4].map { $0 >= 0x20 && $0 < 0x7F ? Character(UnicodeScalar($0)) : "?" }
        return String(text).trimmingCharacters(in: .whitespaces)
    }

    /// The 'desc' tag's text: ICC v2 'desc' (ASCII) or v4 'mluc' (UTF-16BE, the first record).
    static func description(of bytes: [UInt8]) -> String? {
        func number(_ at: Int) -> Int? {
            at >= 0 && at + 4 <= bytes.count ? bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } : nil
        }
        guard let count = number(128), count < 1000 else { return nil }
        for index in 0..<count {
            let entry = 132 + 12 * index
            guard let offset = number(entry + 4), let size = number(entry + 8), size >= 12,
                  offset + size <= bytes.count, bytes[entry..<entry + 4].elementsEqual("desc".utf8) else { continue }
            let type = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            if type == "desc", let length = number(offset + 8), length > 1, offset + 12 + length <= bytes.count {
                let text = bytes[(offset + 12)..<(offset + 12 + length - 1)]
                return text.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? String(decoding: text, as: UTF8.self) : nil
            }
            if type == "mluc", let records = number(offset + 8), records > 0, let length = number(offset + 20),
               let start = number(offset + 24), offset + start + length <= bytes.count {
                let units = stride(from: offset + start, to: offset + start + length - 1, by: 2).map {
                    UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
                }
                return String(decoding: units, as: UTF16.self)
            }
        }
        return nil
    }
}

/// Why a file cannot be a book's output profile, worded to follow its name.
public struct ProfileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// The PDF/X standards photobook writes: X-4 keeps photos in their own ICC-based RGB, X-1a:2003 converts every
/// photo to the press's CMYK.
public typealias PDFXStandard = PDF.PDFXStandard
/// How a PDF/X-1a book's photos are brought into the press's gamut (`--intent`).
public typealias RenderingIntent = Colour.RenderingIntent

/// A PDF/X book's standard and printing condition (`--pdfx`, `--output-profile`, `--output-condition`,
/// `--intent`).
public struct PDFXRequest: Sendable, Equatable {
    public var standard: PDFXStandard
    public var profile: OutputProfile
    /// The printing condition's registered name (`FOGRA39`); nil for an unregistered one (`Custom`).
    public var condition: String?
    /// How a PDF/X-1a book's photos are converted to the press's CMYK; nil for PDF/X-4, whose photos are not.
    public var intent: RenderingIntent?

    public init(standard: PDFXStandard = .x4, profile: OutputProfile, condition: String?,
                intent: RenderingIntent? = nil) {
        precondition((standard == .x1a) == (intent != nil), "PDFXRequest: an intent is for PDF/X-1a, and only it")
        self.standard = standard
        self.profile = profile
        self.condition = condition
        self.intent = intent
    }

    /// The OutputConditionIdentifier and RegistryName the book's output intent carries.
    public var identifier: String { condition ?? "Custom" }
    var registryName: String? { identifier == "Custom" ? nil : "http://www.color.org" }
    /// The OutputCondition in words: the profile's description, else its file name.
    var conditionText: String {
        profile.description ?? URL(fileURLWithPath: profile.path).lastPathComponent
    }
}
