import Testing
@testable import HTTPServer

/// The checks before any handler, as pure functions: no server, no socket.
struct GateTests {
    let configuration = HTTPServer.Configuration(token: "0123456789abcdef0123456789abcdef")
    let port: UInt16 = 8123

    func request(_ method: String = "GET", _ target: String = "/?token=0123456789abcdef0123456789abcdef",
                 _ headers: [String: String] = [:]) -> HTTPRequest {
        HTTPRequest(method: method, target: target, headers: ["host": "127.0.0.1:8123"].merging(headers) { $1 })
    }

    func status(_ request: HTTPRequest) -> Int? {
        HTTPServer.Gate.refusal(for: request, configuration: configuration, port: port)?.status
    }

    @Test func theTokenInTheQueryOrTheHeaderPassesACookieDoesNot() {
        #expect(status(request()) == nil)
        #expect(status(request("GET", "/api/book", ["x-photobook-token": "0123456789abcdef0123456789abcdef"])) == nil)
        // A cookie of 127.0.0.1 is sent to every port of it: never a credential here.
        #expect(status(request("GET", "/api/book", ["cookie": "a=b; photobook-token=0123456789abcdef0123456789abcdef"])) == 403)
    }

    @Test func noTokenOrAWrongOneIsForbidden() {
        #expect(status(request("GET", "/")) == 403)
        #expect(status(request("GET", "/?token=0123456789abcdef0123456789abcdee")) == 403)
        #expect(status(request("GET", "/?token=0123456789abcdef0123456789abcdef0")) == 403)
        #expect(status(request("GET", "/?token=")) == 403)
        #expect(status(request("GET", "/", ["cookie": "photobook-token=nope"])) == 403)
        // An empty configured token never matches an empty one sent.
        let open = HTTPServer.Configuration(token: "")
        #expect(HTTPServer.Gate.refusal(for: request("GET", "/?token="), configuration: open, port: port)?.status == 403)
    }

    @Test func onlyThisServersHostPasses() {
        #expect(status(request("GET", "/?token=0123456789abcdef0123456789abcdef", ["host": "localhost:8123"])) == nil)
        for host in ["evil.example:8123", "127.0.0.1:8124", "127.0.0.1", "localhost", "127.0.0.1:8123, evil.example", ""] {
            #expect(status(request("GET", "/?token=0123456789abcdef0123456789abcdef", ["host": host])) == 403, "\(host)")
        }
        var missing = request()
        missing.headers["host"] = nil
        #expect(status(missing) == 403)
    }

    @Test func methodsOtherThanGetHeadPostPutAreNotAllowed() {
        for method in ["DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "get"] {
            let refusal = HTTPServer.Gate.refusal(for: request(method), configuration: configuration, port: port)
            #expect(refusal?.status == 405, "\(method)")
            #expect(refusal?.header("allow") == "GET, HEAD, POST, PUT")
        }
        #expect(status(request("HEAD")) == nil)
    }

    @Test func aBodyMustBeJSONAndNoLongerThanTheLimit() {
        let json = ["content-type": "application/json", "content-length": "2"]
        #expect(status(request("POST", "/api/build?token=0123456789abcdef0123456789abcdef", json)) == nil)
        #expect(status(request("PUT", "/api/book?token=0123456789abcdef0123456789abcdef",
                               ["content-type": "Application/JSON ; charset=utf-8", "content-length": "1048576"])) == nil)
        for type in ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x",
                     "application/jsonx", "application/json-seq", ""] {
            #expect(status(request("POST", "/api/build?token=0123456789abcdef0123456789abcdef",
                                   ["content-type": type, "content-length": "2"])) == 415, "\(type)")
        }
        #expect(status(request("POST", "/api/build?token=0123456789abcdef0123456789abcdef", ["content-length": "2"])) == 415)
        #expect(status(request("PUT", "/api/book?token=0123456789abcdef0123456789abcdef",
                               ["content-type": "application/json", "content-length": "1048577"])) == 413)
        #expect(status(request("PUT", "/api/book?token=0123456789abcdef0123456789abcdef",
                               ["content-type": "application/json", "content-length": "99999999999999999999999"])) == 413)
        #expect(status(request("PUT", "/api/book?token=0123456789abcdef0123456789abcdef",
                               ["content-type": "application/json", "content-length": "-1"])) == 400)
        // A chunked body is counted as it arrives, by the server.
        #expect(status(request("PUT", "/api/book?token=0123456789abcdef0123456789abcdef",
                               ["content-type": "application/json", "transfer-encoding": "chunked"])) == nil)
    }

    @Test func aGetWithABodyIsABadRequest() {
        #expect(status(request("GET", "/?token=0123456789abcdef0123456789abcdef", ["content-length": "3"])) == 400)
        #expect(status(request("GET", "/?token=0123456789abcdef0123456789abcdef", ["transfer-encoding": "chunked"])) == 400)
        #expect(status(request("GET", "/?token=0123456789abcdef0123456789abcdef", ["content-length": "0"])) == nil)
    }

    @Test func theTokenIsCheckedBeforeTheMethodAndTheBody() {
        #expect(status(request("DELETE", "/")) == 403)
        #expect(status(request("POST", "/", ["content-type": "text/plain"])) == 403)
    }

    @Test func everyResponseGetsTheSecurityHeadersAndNoStore() {
        let decorated = HTTPServer.Gate.decorate(.text("hi"), for: request("GET", "/"), configuration: configuration)
        #expect(decorated.header("content-security-policy") == "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
        #expect(decorated.header("x-content-type-options") == "nosniff")
        #expect(decorated.header("referrer-policy") == "no-referrer")
        #expect(decorated.header("cache-control") == "no-store")
        #expect(decorated.header("set-cookie") == nil)
        #expect(decorated.header("connection") == nil)

        var render = HTTPResponse.bytes([1, 2], contentType: "image/jpeg")
        render.headers.append(("Cache-Control", "private, max-age=31536000, immutable"))
        render.headers.append(("Content-Security-Policy", "default-src *"))
        let kept = HTTPServer.Gate.decorate(render, for: nil, configuration: configuration, closing: true)
        #expect(kept.headers.filter { $0.0.lowercased() == "cache-control" }.map(\.1) == ["private, max-age=31536000, immutable"])
        #expect(kept.headers.filter { $0.0.lowercased() == "content-security-policy" }.map(\.1) == [HTTPServer.Gate.contentSecurityPolicy])
        #expect(kept.header("connection") == "close")
    }

    @Test func noCookieIsSetEvenForAValidTokenInTheQuery() {
        let decorated = HTTPServer.Gate.decorate(.text("page"), for: request(), configuration: configuration)
        #expect(decorated.header("set-cookie") == nil)
    }

    @Test func theComparisonIsExact() {
        #expect(HTTPServer.Gate.constantTimeEqual("abc", "abc"))
        #expect(!HTTPServer.Gate.constantTimeEqual("abc", "abd"))
        #expect(!HTTPServer.Gate.constantTimeEqual("abc", "abcd"))
        #expect(!HTTPServer.Gate.constantTimeEqual("abc\0", "abc"))
        #expect(HTTPServer.Gate.constantTimeEqual("", ""))
    }

    @Test func thePathStaysAsSentAndTheQueryIsDecoded() {
        let request = HTTPRequest(method: "GET", target: "/photo%2fx/%2e%2e?path=a%20b%2Fc&x=1+2&x=3&bad=%ff&pct=100%&empty",
                                  headers: ["cookie": "a=1; b=\"two\"; =skip; c"])
        #expect(request.path == "/photo%2fx/%2e%2e")
        #expect(request.query == ["path": "a b/c", "x": "1 2", "pct": "100%", "empty": ""])
        #expect(request.cookies == ["a": "1", "b": "two"])
    }
}
