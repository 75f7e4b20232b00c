import Foundation
import PhotoBook
import Words

/// Why a value given to an option cannot be used, in words that quote the value and say what would do.
struct ValueError: Error, Equatable {
    var message: String

    init(_ message: String) { self.message = message }

    /// The user's text as it can safely be shown on a terminal: quoted, control characters escaped, and cut
    /// short when it is long (an argument of a thousand characters must not bury the message).
    static func quote(_ text: String) -> String {
        var shown = ""
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            guard count <= 40 else { continue }
            if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
                shown += scalar.escaped(asASCII: true)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return count <= 40 ? "'\(shown)'" : "'\(shown)...' (\(count) characters)"
    }
}

/// How an option's value is read and checked, and how documents and shells describe it.
struct ValueParser<Value> {
    /// The placeholder in help and synopsis (`N`, `SIZE`).
    var metavar: String
    /// The values accepted, for help and messages (`1 to 100`); nil when the help says it all.
    var allowed: String?
    var completion: Completion = .none
    var parse: (String) throws(ValueError) -> Value
}

extension ValueParser {
    /// The same parser, its value turned into the type the command keeps (a whole number of dpi as a density).
    func map<Other>(_ transform: @escaping (Value) -> Other) -> ValueParser<Other> {
        let parse = self.parse
        return ValueParser<Other>(metavar: metavar, allowed: allowed, completion: completion) { text throws(ValueError) in
            transform(try parse(text))
        }
    }
}

extension ValueParser where Value == Int {
    /// A whole number within `range`.
    static func integer(_ range: ClosedRange<Int>, metavar: String = "N") -> ValueParser {
        let allowed = "\(range.lowerBound) to \(range.upperBound)"
        return ValueParser(metavar: metavar, allowed: allowed) { text throws(ValueError) in
            let quoted = ValueError.quote(text)
            guard text.wholeMatch(of: /[+-]?[0-9]+/) != nil else {
                throw ValueError("\(quoted) is not a whole number: use \(allowed)")
            }
            // A run of digits too long for Int is still a number, just far out of range.
            guard let number = Int(text), range.contains(number) else {
                throw ValueError("\(quoted) is out of range: use a whole number from \(allowed)")
            }
            return number
        }
    }
}

extension ValueParser where Value == Double {
    /// A whole number within `range`, as the engine keeps it (a density in dpi): read as `integer` reads it.
    static func wholeNumber(_ range: ClosedRange<Int>, metavar: String = "N") -> ValueParser {
        ValueParser<Int>.integer(range, metavar: metavar).map { Double($0) }
    }
}

extension ValueParser where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the enumeration's raw values, any case; `choices` says what each one does. `aliases` are other
    /// spellings of a value (`center` for `centre`): accepted, completed and named in the help beside it.
    static func choice(metavar: String, _ choices: KeyValuePairs<Value, String>,
                       aliases: KeyValuePairs<String, Value> = [:]) -> ValueParser {
        let names = choices.map(\.key.rawValue)
        let allowed = choices.map { choice in
            let others = aliases.filter { $0.value == choice.key }.map(\.key)
            let spelt = others.isEmpty ? "" : " (or \(others.joined(separator: ", ")))"
            return "\(choice.key.rawValue)\(spelt): \(choice.value)"
        }.joined(separator: "; ")
        let words = names + aliases.map(\.key)
        return ValueParser(metavar: metavar, allowed: allowed, completion: .words(words)) { text throws(ValueError) in
            let lower = text.lowercased()
            guard let value = Value(rawValue: lower) ?? aliases.first(where: { $0.key == lower })?.value else {
                throw ValueError("\(ValueError.quote(text)) is not one of: \(names.joined(separator: ", "))")
            }
            return value
        }
    }
}

extension ValueParser where Value == String {
    /// A path to a file to be written; existence and permissions are checked later, with the inputs.
    static func outputFile(metavar: String = "PATH", extensions: [String]) -> ValueParser {
        ValueParser(metavar: metavar, allowed: nil, completion: .files(extensions: extensions)) { text throws(ValueError) in
            guard !text.isEmpty else { throw ValueError("an empty path names no file: give one such as book.pdf") }
            return text
        }
    }
}

/// A number followed by an optional unit, as a person types a length: `10mm`, `0.5in`, `2.5cm`, `12pt`, `7`.
private struct TypedLength {
    var number: Double
    var unit: Length.Unit?

    init?(_ text: Substring) {
        let lower = text.lowercased()
        let unit = Length.Unit.allCases.first { lower.hasSuffix($0.rawValue) }
        let digits = unit.map { String(lower.dropLast($0.rawValue.count)) } ?? lower
        // Plain decimals only: Double(_:) would also take "nan", "inf" and hexadecimal "0x1p3".
        guard digits.wholeMatch(of: /[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?/) != nil,
              let number = Double(digits) else { return nil }
        self.number = number
        self.unit = unit
    }

    /// The length in points, the unit defaulting to `defaultUnit`.
    func points(defaultUnit: Length.Unit) -> Double { number * (unit ?? defaultUnit).points }
}

extension Length.Unit {
    /// `points` in this unit, as a person would write it, to three significant digits at most: `5080 mm`,
    /// `1.06 mm`, `0.0417 in`. Round `.down` for a limit the user must stay under.
    func describe(_ points: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> String {
        let value = points / self.points
        guard value.isFinite, value > 0 else { return "\(value.isFinite ? "0" : "\(value)") \(rawValue)" }
        let decimals = max(0, 2 - Int(log10(value).rounded(.down)))
        let scale = pow(10, Double(decimals))
        let shown = (value * scale).rounded(rule) / scale
        var text = String(format: "%.\(decimals)f", shown)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return "\(text) \(rawValue)"
    }
}

extension ValueParser where Value == Double {
    /// A length, returned in points; a bare number is millimetres. Checks only that it is a finite length of at
    /// least zero: whether it fits the page is checked with the other options.
    static func length(metavar: String = "LENGTH") -> ValueParser {
        let forms = "a length such as 10mm, 1cm, 0.5in or 12pt (a bare number is millimetres)"
        return ValueParser(metavar: metavar, allowed: forms) { text throws(ValueError) in
            let quoted = ValueError.quote(text)
            guard let length = TypedLength(text[...]) else { throw ValueError("\(quoted) is not \(forms)") }
            let points = length.points(defaultUnit: .mm)
            guard points.isFinite else { throw ValueError("\(quoted) is too large to be a length on a page") }
            guard points >= 0 else { throw ValueError("\(quoted) is negative: use 0 or more") }
            return points
        }
    }
}

extension ValueParser where Value == PageSize {
    /// A named size or `WxH` with a unit, each side within what PDF allows.
    static var pageSize: ValueParser {
        let names = PageSize.named.map(\.name)
        let forms = "\(names.joined(separator: ", ")), or WxH with a unit mm, cm, in or pt (e.g. 200x200mm)"
        func limits(in unit: Length.Unit) -> String {
            "\(unit.describe(PageSize.sideRange.lowerBound)) to \(unit.describe(PageSize.sideRange.upperBound))"
        }
        return ValueParser(metavar: "SIZE", allowed: "\(forms); each side from \(limits(in: .pt))",
                           completion: .words(names)) { text throws(ValueError) in
            let quoted = ValueError.quote(text)
            if let named = PageSize.named.first(where: { $0.name == text.lowercased() }) { return named.size }
            let sides = text.split(separator: "x", omittingEmptySubsequences: false)
            // The unit goes at the end (`200x200mm`); a unit on both sides (`200mmx200mm`) is accepted too.
            guard sides.count == 2, let height = TypedLength(sides[1]), let unit = height.unit,
                  let width = TypedLength(sides[0]), width.unit == nil || width.unit == unit else {
                throw ValueError("\(quoted) is not a page size: use \(forms)")
            }
            let size = PageSize(width: width.points(defaultUnit: unit), height: height.points(defaultUnit: unit))
            guard size.isWithinPDFLimits else {
                let which = [size.width, size.height].contains { !($0 >= PageSize.sideRange.lowerBound) }
                    ? "too small" : "too large"
                throw ValueError("\(quoted) is \(which) for a PDF page: each side must be from \(limits(in: unit))"
                                 + (unit == .pt ? "" : " (\(limits(in: .pt)))"))
            }
            return size
        }
    }
}

extension ValueParser where Value == LayoutMode {
    /// `single`, `auto`, or `grid CxR` (also `grid:CxR`, `gridCxR` or just `CxR`), as `LayoutName` reads them.
    static var layout: ValueParser {
        let forms = "single: one photo per page; grid CxR: C columns and R rows of equal cells (e.g. grid 2x2, "
            + "grid 3x4); auto: 1 to --max-per-page photos per page, arranged to crop as little as possible"
        return ValueParser(metavar: "MODE", allowed: forms,
                           completion: .words(["single", "auto", "grid:2x2", "grid:3x4"])) { text throws(ValueError) in
            let quoted = ValueError.quote(text)
            guard let mode = LayoutMode(text) else {
                throw ValueError("\(quoted) is not a layout: use single, auto, or grid CxR (e.g. grid 2x2)")
            }
            if case .grid(let columns, let rows) = mode,
               !(1...LayoutLimits.gridSide).contains(columns) || !(1...LayoutLimits.gridSide).contains(rows) {
                throw ValueError("\(quoted) is out of range: a grid has 1 to \(LayoutLimits.gridSide) columns and rows")
            }
            return mode
        }
    }
}

extension ValueParser where Value == String {
    /// Words for the page: any Unicode, runs of white space as one space; not empty.
    static func words(metavar: String = "TEXT", what: String) -> ValueParser {
        ValueParser(metavar: metavar, allowed: nil) { text throws(ValueError) in
            let words = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            guard !words.isEmpty else { throw ValueError("an empty \(what) says nothing: leave the option out instead") }
            return words
        }
    }

    /// A BCP 47 language tag, kept as Words normalises it ("ja-jp" -> "ja-JP", "zh_TW" -> its Traditional form).
    static var language: ValueParser {
        ValueParser(metavar: "TAG", allowed: nil) { text throws(ValueError) in
            guard let language = Language(text) else {
                throw ValueError("\(ValueError.quote(text)) is not a BCP 47 language tag: use one like ja, zh-Hant, ko, "
                                 + "ar or en-GB")
            }
            return language.tag
        }
    }

    /// A path to a file that must exist (checked when the command is checked, before any photo is read).
    static func inputFile(metavar: String = "PATH", extensions: [String]) -> ValueParser {
        ValueParser(metavar: metavar, allowed: nil, completion: .files(extensions: extensions)) { text throws(ValueError) in
            guard !text.isEmpty else { throw ValueError("an empty path names no file") }
            return text
        }
    }
}

extension ValueParser where Value == Int64 {
    /// A size in bytes: a whole number, optionally followed by K, M, G or T (powers of 1024, a B after it allowed).
    static func byteSize(metavar: String = "SIZE") -> ValueParser {
        let forms = "a size such as 500M, 2G or 1T (K, M, G, T: powers of 1024; a bare number is bytes)"
        return ValueParser(metavar: metavar, allowed: forms) { text throws(ValueError) in
            let quoted = ValueError.quote(text)
            guard let match = text.wholeMatch(of: /([0-9]{1,15})([kKmMgGtT]?)[bB]?/),
                  let number = Int64(match.1) else { throw ValueError("\(quoted) is not \(forms)") }
            let shift: Int64 = switch match.2.lowercased() { case "k": 10; case "m": 20; case "g": 30; case "t": 40; default: 0 }
            let (size, overflow) = number.multipliedReportingOverflow(by: 1 << shift)
            guard !overflow else { throw ValueError("\(quoted) is too large") }
            return size
        }
    }
}
