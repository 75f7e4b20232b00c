import Foundation

extension HTTPServer {
    /// The checks every request passes before a handler sees it, and the headers every response gets
    /// (docs/editor.md, "The requests"). Pure functions: the server calls them, the tests call them directly.
    public enum Gate {
        /// The one Content-Security-Policy of every response.
        public static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        /// The methods a request may have.
        public static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT"]
        /// The header a script may carry the token in.
        public static let tokenHeader = "x-photobook-token"

        /// The answer to a request that must not reach the handler, or nil when it may. `request` holds what
        /// came before the body (its headers); the body's length is checked here from Content-Length, and as
        /// it arrives by the server for a chunked body. `port` is the port the server is bound to.
        ///
        /// In order: a Host that is not this server (403, a DNS-rebinding page), no valid token (403), a
        /// method other than GET, HEAD, POST, PUT (405), a request-target that is not a path (400), a GET or
        /// HEAD with a body (400), a POST or PUT that is not `application/json` (415), a body longer than
        /// `maxBodyBytes` (413).
        public static func refusal(for request: HTTPRequest, configuration: Configuration, port: UInt16) -> HTTPResponse? {
            let host = request.headers["host"]
            guard host == "127.0.0.1:\(port)" || host == "localhost:\(port)" else {
                return .text("forbidden: this server answers only to Host 127.0.0.1:\(port) or localhost:\(port)\n", status: 403)
            }
            guard hasValidToken(request, configuration: configuration) else {
                return .text("forbidden: the token is missing or wrong; open the address photobook printed\n", status: 403)
            }
            guard methods.contains(request.method) else {
                var response = HTTPResponse.text("method not allowed\n", status: 405)
                response.headers.append(("Allow", "GET, HEAD, POST, PUT"))
                return response
            }
            guard request.path.hasPrefix("/") else { return .text("bad request: the target is not a path\n", status: 400) }
            let length = request.headers["content-length"]
            let chunked = request.headers["transfer-encoding"] != nil
            if request.method == "GET" || request.method == "HEAD" {
                if chunked || (length != nil && length != "0") {
                    return .text("bad request: a \(request.method) request has no body\n", status: 400)
                }
                return nil
            }
            guard isJSON(request.headers["content-type"]) else {
                return .text("unsupported media type: send application/json\n", status: 415)
            }
            if let length {
                guard !length.isEmpty, length.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                    return .text("bad request: Content-Length is not a number\n", status: 400)
                }
                // Digits only: too many of them for an Int is too long a body too.
                if Int(length).map({ $0 > configuration.maxBodyBytes }) ?? true { return tooLarge(configuration) }
            }
            return nil
        }

        /// The answer to a body longer than the limit.
        public static func tooLarge(_ configuration: Configuration) -> HTTPResponse {
            .text("content too large: at most \(configuration.maxBodyBytes) bytes\n", status: 413)
        }

        /// Whether the query's `token` or the X-Photobook-Token header is the token. No cookie: a cookie of 127.0.0.1
        /// goes to every port of it (another local server would be sent the token), and one editor's would be
        /// another's, whose token differs.
        public static func hasValidToken(_ request: HTTPRequest, configuration: Configuration) -> Bool {
            // Every candidate is compared, so the time taken does not say which one was present either.
            let candidates = [request.query["token"], request.headers[tokenHeader]]
            var valid = false
            for candidate in candidates {
                if let candidate, constantTimeEqual(candidate, configuration.token) { valid = true }
            }
            return valid && !configuration.token.isEmpty
        }

        /// `application/json`, with or without parameters ("; charset=utf-8"), in any case.
        static func isJSON(_ contentType: String?) -> Bool {
            guard let contentType else { return false }
            let media = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return media.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
        }

        /// Equal strings, in a time that depends on their lengths only, not on where they differ.
        public static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
            let x = Array(a.utf8), y = Array(b.utf8)
            var difference = UInt8(x.count == y.count ? 0 : 1)
            for index in 0..<max(x.count, y.count) {
                difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
            }
            return difference == 0
        }

        /// The response as sent: the security headers of docs/editor.md, `Cache-Control: no-store` unless the
        /// response has its own
        /// (`request` nil: nothing is known of the request), and `Connection: close` when `closing`.
        public static func decorate(_ response: HTTPResponse, for request: HTTPRequest?, configuration: Configuration,
                                    closing: Bool = false) -> HTTPResponse {
            var result = response
            let owned: Set<String> = ["content-security-policy", "x-content-type-options", "referrer-policy", "content-length", "connection"]
            result.headers.removeAll { owned.contains($0.0.lowercased()) }
            result.headers.append(("Content-Security-Policy", contentSecurityPolicy))
            result.headers.append(("X-Content-Type-Options", "nosniff"))
            result.headers.append(("Referrer-Policy", "no-referrer"))
            if result.header("cache-control") == nil { result.headers.append(("Cache-Control", "no-store")) }
            if closing { result.headers.append(("Connection", "close")) }
            return result
        }
    }
}
