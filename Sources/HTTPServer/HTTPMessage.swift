import Foundation

/// One request as the handler sees it, after the server's checks (`HTTPServer.Gate`) have passed.
public struct HTTPRequest: Sendable {
    /// "GET", "HEAD", "POST" or "PUT" (the server answers any other method itself, 405).
    public var method: String
    /// The URL path exactly as the client sent it, without the query: never percent-decoded, so "/a/%2e%2e/b"
    /// stays so and "%2f" is not a folder separator. A handler that needs a name decodes it and checks it.
    public var path: String
    /// The query's parameters, decoded ("+" and "%20" are spaces). The first of a repeated name counts; a
    /// parameter whose decoded bytes are not UTF-8 is left out.
    public var query: [String: String]
    /// The request's headers, names lowercased; a repeated header's values joined by ", " ("; " for Cookie).
    public var headers: [String: String]
    public var body: [UInt8]
    /// The cookies of the Cookie header, by name.
    public var cookies: [String: String]

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: [UInt8] = [], cookies: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.cookies = cookies
    }

    /// A request as it arrives: the request-target as sent ("/photo?path=a%20b") split into the raw path and
    /// the decoded query, the cookies read from the Cookie header.
    public init(method: String, target: String, headers: [String: String], body: [UInt8] = []) {
        let (path, query) = URLQuery.split(target)
        self.init(method: method, path: path, query: query, headers: headers, body: body,
                  cookies: Cookies.parse(headers["cookie"] ?? ""))
    }
}

/// What the handler answers. The server adds the security headers of docs/editor.md to every response.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names and values, in order. Content-Length is the server's (MHD's) to write and is ignored here;
    /// a value with a line break makes the response a 500.
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header named `name` (any case), if there is one.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// JSON bytes as they are.
    public static func json(_ data: Data, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: [UInt8](data))
    }

    /// A value encoded as JSON (keys sorted, so equal values give equal bytes); a value that cannot be encoded
    /// is a 500 that says why.
    public static func json<Value: Encodable>(_ value: Value, status: Int = 200) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return json(try encoder.encode(value), status: status)
        } catch {
            return text("cannot encode the answer: \(error)", status: 500)
        }
    }

    /// Plain text, UTF-8.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(text.utf8))
    }

    public static func bytes(_ bytes: [UInt8], contentType: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: bytes)
    }
}

/// Percent-decoding and the query string.
enum URLQuery {
    /// Splits a request-target at its first "?": the path as sent, and the query's parameters decoded.
    static func split(_ target: String) -> (path: String, query: [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        return (String(target[..<mark]), parameters(String(target[target.index(after: mark)...])))
    }

    /// "a=1&b=x%20y&c" -> ["a": "1", "b": "x y", "c": ""]: the first of a repeated name counts.
    static func parameters(_ query: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0], plusIsSpace: true),
                  let value = decode(parts.count > 1 ? parts[1] : "", plusIsSpace: true),
                  result[name] == nil else { continue }
            result[name] = value
        }
        return result
    }

    /// %XX sequences to their bytes ("+" to a space in a query), nil when the bytes are not UTF-8. A "%" not
    /// followed by two hex digits is kept as it is.
    static func decode(_ text: Substring, plusIsSpace: Bool) -> String? {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
                continue
            }
            out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// The Cookie request header.
enum Cookies {
    /// "a=1; b=\"2\"" -> ["a": "1", "b": "2"]: the first of a repeated name counts.
    static func parse(_ header: String) -> [String: String] {
        var result: [String: String] = [:]
        for piece in header.split(separator: ";") {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            var value = parts[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            if !name.isEmpty, result[name] == nil { result[name] = value }
        }
        return result
    }
}
