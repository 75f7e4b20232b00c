import Foundation
import Geometry
import PhotoBook

/// What the editor's page is sent of the book (`GET /api/book`, docs/editor.md "The state"): the description as
/// the file holds it, and every page as the proof draws it, in points from the page's top left corner.
struct EditorState: Encodable {
    var revision: Int
    var file: String
    /// The file's object as it is (kept as JSON, so that the page sees exactly what a person wrote).
    var description: JSONValue
    /// Null when there is none (the page tests it).
    @SentAsNull var error: String? = nil
    /// The file cannot be read as a description now (half written by another program, or gone): `description`
    /// is the last one read, and a save answers 409 until it can be read again.
    var unreadable = false
    var spreads = true
    var pages: [Page] = []
    var leftOut: [LeftOut] = []
    var warnings: [String] = []
    /// The book's font family when the description names one (`"font": "Noto Sans CJK JP"`), for the page's words;
    /// nil for the default (DejaVu Sans) or a font file.
    @SentAsNull var font: String? = nil

    /// Every key, null where there is nothing (docs/editor.md).
    struct Page: Encodable {
        var number: Int
        var kind: String
        @SentAsNull var source: Int?
        var width: Double, height: Double
        var trim: [Double]
        @SentAsNull var layout: String?
        var layouts: [String]
        var locked: Bool
        var photos: [Photo]
        var texts: [Text]
        /// The title page's photo (`--cover-photo`): shown, not edited here.
        @SentAsNull var cover: Picture? = nil
    }

    /// A picture drawn on a page: its cell, where its render lands (the cell clips it) and the render.
    struct Picture: Encodable {
        var cell: [Double]
        var image: [Double]
        var src: String
    }

    struct Photo: Encodable {
        var path: String
        var slot: Int
        var cell: [Double]
        var image: [Double]
        var src: String
        var crop: [Double]
        @SentAsNull var focus: [Double]?
        var dpi: Int
        var lowResolution: Bool
        var cutsFace: Bool
    }

    struct Text: Encodable {
        var role: String
        var path: String?
        var box: [Double]
        var lines: [String]
        var size: Double
        /// From one baseline to the next, in points.
        var leading: Double
        var align: String
    }

    struct LeftOut: Encodable {
        var path: String
        var reason: String
        /// A photo of the pages that cannot be read (the book is made without it): nothing to put back.
        var failed = false
    }

    /// The density below which a print shop warns (docs/design.md): a cell under it is flagged.
    static let lowDensity = 200.0

    /// A rectangle of a page (PDF points, origin bottom left) as the page's top-left coordinates.
    static func topLeft(_ rect: Rect, pageHeight: Double) -> [Double] {
        [rect.x, pageHeight - rect.y - rect.height, rect.width, rect.height].map { ($0 * 100).rounded() / 100 }
    }

    /// Where the render's picture lands so that its `shown` part of the photo maps onto the page as the crop does
    /// onto the placement: the cell clips what lies outside.
    static func pictureRect(_ picture: ProofPicture) -> Rect {
        let placed = picture.placed, crop = placed.crop, shown = picture.shown, at = placed.placement
        let scaleX = at.width / crop.width, scaleY = at.height / crop.height
        let left = at.x + (shown.x - crop.x) * scaleX
        // Photo pixels go down, page points up: the top of `shown` lies above the placement's top by its offset.
        let top = at.y + at.height - (shown.y - crop.y) * scaleY
        return Rect(x: left, y: top - shown.height * scaleY, width: shown.width * scaleX, height: shown.height * scaleY)
    }
}

/// An optional field the page is sent as null when there is nothing, where Swift's own encoding would leave its
/// key out: the page reads every key it is sent (docs/editor.md).
@propertyWrapper
struct SentAsNull<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

/// Any JSON value, kept as read, written back as it was (numbers as numbers, keys sorted).
enum JSONValue: Codable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
}
