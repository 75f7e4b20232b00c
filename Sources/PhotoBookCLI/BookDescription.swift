import Foundation
import PhotoBook

/// A book as a file a person edits (`photobook init` writes it, `photobook build book.json` builds it): the options
/// given, and the pages in order with their photos. docs/book-description.md describes the format.
///
/// Each type's strict decoder (`StrictKeys`) is in an extension, so that Swift's memberwise initialiser stays.
struct BookDescription: Codable, Equatable {
    static let currentSchema = 1

    var schema: Int = BookDescription.currentSchema
    /// Build options by long name, as typed on the command line (`"margin": "5mm"`); a flag is `true`.
    var options: [String: OptionValue]
    var pages: [Page]
    /// The photos the choice left out (`init --photos`, `--pages`), with why, after the pages: a person moves one
    /// into a page by moving its path; `build` places only what the pages list.
    var photosLeftOut: [LeftOut]?

    enum CodingKeys: String, CodingKey, CaseIterable { case schema, options, pages, photosLeftOut }

    /// A photo left out of the book, and why: a `selection` reason of the report (docs/report.md).
    struct LeftOut: Codable, Equatable {
        var path: String
        var reason: String
        /// For `nearDuplicate`: the photo that stands for the same moment.
        var of: String?
    }

    struct Page: Codable, Equatable {
        /// The heading of the section this page starts.
        var heading: String?
        /// The arrangement, as `--verbose` lists it: `single`, `grid 2x2`, `[1 | 2]`; none for the best one.
        var layout: String?
        var photos: [Photo]
        /// Kept as it is when the editor arranges the other pages again (`photobook edit`); `build` reads it not.
        var locked: Bool?

        enum CodingKeys: String, CodingKey, CaseIterable { case heading, layout, photos, locked }
    }

    struct Photo: Codable, Equatable {
        /// Relative to the description file's folder (or absolute).
        var path: String
        var caption: String?
        /// The caption's language, a BCP 47 tag, when it is not the book's (`--lang`).
        var lang: String?
        /// Where the crop keeps its centre: fractions of the upright photo's width and height.
        var focus: [Double]?

        enum CodingKeys: String, CodingKey, CaseIterable { case path, caption, lang, focus }
    }

    /// The file's text: sorted keys, two-space indents as Foundation prints them, slashes left alone.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}

extension BookDescription {
    init(from decoder: any Decoder) throws {
        let container = try StrictKeys.container(decoder, CodingKeys.self, required: [.schema, .pages])
        schema = try container.decode(Int.self, forKey: .schema)
        guard schema == Self.currentSchema else {
            throw DescriptionError(decoder.codingPath + [CodingKeys.schema],
                                   "expected \(Self.currentSchema), the only version this photobook reads (found \(schema))")
        }
        options = try container.decodeIfPresent([String: OptionValue].self, forKey: .options) ?? [:]
        pages = try container.decode([Page].self, forKey: .pages)
        photosLeftOut = try container.decodeIfPresent([LeftOut].self, forKey: .photosLeftOut)
    }
}

extension BookDescription.Page {
    init(from decoder: any Decoder) throws {
        let container = try StrictKeys.container(decoder, CodingKeys.self, required: [.photos])
        heading = try container.decodeIfPresent(String.self, forKey: .heading)
        layout = try container.decodeIfPresent(String.self, forKey: .layout)
        photos = try container.decode([BookDescription.Photo].self, forKey: .photos)
        locked = try container.decodeIfPresent(Bool.self, forKey: .locked)
    }
}

extension BookDescription.Photo {
    init(from decoder: any Decoder) throws {
        let container = try StrictKeys.container(decoder, CodingKeys.self, required: [.path])
        path = try container.decode(String.self, forKey: .path)
        caption = try container.decodeIfPresent(String.self, forKey: .caption)
        lang = try container.decodeIfPresent(String.self, forKey: .lang)
        focus = try container.decodeIfPresent([Double].self, forKey: .focus)
    }
}

/// An option's value in a description: text as typed, `true` for a flag, or a number for a numeric option.
enum OptionValue: Codable, Equatable {
    case text(String)
    case flag(Bool)
    case number(Double)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .flag(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            throw DescriptionError(decoder.codingPath, "expected a string, a number or true")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .flag(let flag): try container.encode(flag)
        case .number(let number): try container.encode(number)
        }
    }
}

/// A mistake in a description file: where in it (`pages[3].photos[1].focus`) and what was expected.
struct DescriptionError: Error {
    var place: String
    var message: String

    init(_ path: [any CodingKey], _ message: String) {
        place = Self.place(path)
        self.message = message
    }

    init(place: String, _ message: String) {
        self.place = place
        self.message = message
    }

    /// `pages[3].photos[1].focus`: keys joined by dots, array positions (from 0) in brackets.
    static func place(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text.isEmpty ? "the top level" : text
    }
}

/// Keyed containers that refuse keys the format does not have, and say which keys are missing.
enum StrictKeys {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func container<Keys: CodingKey & CaseIterable>(_ decoder: any Decoder, _ keys: Keys.Type,
                                                          required: [Keys]) throws -> KeyedDecodingContainer<Keys> {
        let known = Keys.allCases.map(\.stringValue)
        let all: KeyedDecodingContainer<AnyKey>
        do {
            all = try decoder.container(keyedBy: AnyKey.self)
        } catch {
            throw DescriptionError(decoder.codingPath, "expected an object with \(list(known))")
        }
        for key in all.allKeys where !known.contains(key.stringValue) {
            throw DescriptionError(decoder.codingPath + [key], "unknown key (expected \(list(known)))")
        }
        for key in required where !all.contains(AnyKey(stringValue: key.stringValue)) {
            throw DescriptionError(decoder.codingPath + [key], "missing")
        }
        return try decoder.container(keyedBy: Keys.self)
    }

    private static func list(_ keys: [String]) -> String {
        let quoted = keys.map { "\"\($0)\"" }
        return quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }
}

extension BookDescription {
    /// Reads and checks a description; every mistake is a `DescriptionError` with its place in the file.
    static func decode(_ data: Data) throws(DescriptionError) -> BookDescription {
        do {
            return try JSONDecoder().decode(BookDescription.self, from: data)
        } catch let error as DescriptionError {
            throw error
        } catch let DecodingError.typeMismatch(type, context) {
            let focus = context.codingPath.contains { $0.stringValue == "focus" }
            throw DescriptionError(Array(context.codingPath.prefix { $0.stringValue != "focus" }) + (focus ? [Photo.CodingKeys.focus] : []),
                                   focus ? "expected two numbers from 0 to 1, as [0.3, 0.4]" : "expected \(describe(type))")
        } catch let DecodingError.valueNotFound(type, context) {
            throw DescriptionError(context.codingPath, "expected \(describe(type)), not null")
        } catch let DecodingError.keyNotFound(key, context) {
            throw DescriptionError(context.codingPath + [key], "missing")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw DescriptionError(context.codingPath, context.debugDescription)
        } catch {
            throw DescriptionError(place: syntaxPlace(data), "not valid JSON" + syntaxDetail(data))
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "a whole number"
        case is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is [Double].Type: return "an array of numbers"
        default:
            let name = "\(type)"
            return name.hasPrefix("Array") ? "an array" : name.hasPrefix("Dictionary") ? "an object" : name
        }
    }

    /// JSONDecoder on Linux says only "not valid JSON"; JSONSerialization says "around character N" (a byte
    /// offset from 0), which is turned into a line and column here.
    private static func syntaxOffset(_ data: Data) -> (offset: Int?, reason: String) {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return (nil, "")
        } catch {
            let text = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? ""
            let digits = text.range(of: "character ").map { text[$0.upperBound...].prefix { $0.isNumber } }
            return (digits.flatMap { Int($0) }, text)
        }
    }

    private static func syntaxPlace(_ data: Data) -> String {
        let (offset, reason) = syntaxOffset(data)
        guard let offset else {
            return reason.contains("end of file") ? "line \(lineCount(data)) (at the end)" : "the top level"
        }
        var line = 1, column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return "line \(line), column \(column)"
    }

    private static func syntaxDetail(_ data: Data) -> String {
        let reason = syntaxOffset(data).reason
        if reason.contains("end of file") { return ": it ends too early (a bracket, brace or quote not closed)" }
        if reason.hasPrefix("Invalid value") { return ": a value or a comma is wrong or missing here" }
        return reason.isEmpty ? "" : ": \(reason)"
    }

    private static func lineCount(_ data: Data) -> Int {
        max(1, data.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } - (data.last == UInt8(ascii: "\n") ? 1 : 0))
    }
}
