#if canImport(Glibc)
import Glibc
#endif
internal import CMicroHTTPD
import Platform
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 for `photobook edit`, over libmicrohttpd.
///
/// Every request passes `Gate.refusal` before the handler is called (the token, the Host, the method, the body's
/// type and size), and every response gets `Gate.decorate`'s headers. Each connection has a thread of its own, so
/// a handler may take its time (a proof render) without holding up the other requests; the handler is called
/// on those threads, several at once.
public final class HTTPServer: Sendable {
    public struct Configuration: Sendable {
        /// The port to listen on; 0: any free port.
        public var port: UInt16
        /// The secret every request must carry (docs/editor.md): query `token` or X-Photobook-Token.
        public var token: String
        /// The longest body accepted (413 past it); never more than this is held in memory.
        public var maxBodyBytes: Int

        public init(port: UInt16 = 0, token: String, maxBodyBytes: Int = 1 << 20) {
            self.port = port
            self.token = token
            self.maxBodyBytes = maxBodyBytes
        }
    }

    /// Why the server could not start listening; `description` names the port ("port 8080 is in use").
    public struct StartFailure: Error, Sendable, CustomStringConvertible {
        public var port: UInt16
        /// The system's error number, when libmicrohttpd left one.
        public var errno: Int32?
        public var description: String
    }

    public let configuration: Configuration
    /// The port the server is bound to (the free one chosen when the configuration's port is 0).
    public let port: UInt16
    private let core: Core
    /// The daemon until `stop()`; the lock is held through a stop, so a second `stop()` waits for the first.
    private let daemon: Mutex<OpaquePointer?>

    /// Starts listening on 127.0.0.1 and answering with `handler`, on libmicrohttpd's threads.
    public init(_ configuration: Configuration, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        let core = Core(configuration: configuration, handler: handler)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = configuration.port.bigEndian
        address.sin_addr.s_addr = UInt32(INADDR_LOOPBACK).bigEndian

        // Context pointers: the core outlives the daemon (deinit stops it), so MHD holds it unretained.
        let context = Unmanaged.passUnretained(core).toOpaque()
        let uriLog: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { context, uri, _ in
            // Trap (0.9.75): MHD percent-decodes the path in place before the access handler sees it ("/%2e%2e/x"
            // arrives as "/../x", "%2f" as "/"); this callback alone gets the request-target as sent.
            Unmanaged<Core>.fromOpaque(context!).takeUnretainedValue().begin()
            return Unmanaged.passRetained(Exchange(target: uri.map { String(cString: $0) })).toOpaque()
        }
        let completed: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, MHD_RequestTerminationCode) -> Void = { context, _, exchange, _ in
            guard let exchange, let pointer = exchange.pointee else { return }
            Unmanaged<Exchange>.fromOpaque(pointer).release()
            exchange.pointee = nil
            Unmanaged<Core>.fromOpaque(context!).takeUnretainedValue().end()
        }
        let access: MHD_AccessHandlerCallback = { context, connection, _, method, _, data, size, exchange in
            Unmanaged<Core>.fromOpaque(context!).takeUnretainedValue()
                .access(connection, method: method, data: data, size: size, exchange: exchange)
        }

        let started = withUnsafePointer(to: &address) { address in
            address.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                let options = [
                    MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(mutating: address)),
                    MHD_OptionItem(option: .URI_LOG_CALLBACK,
                                   value: Int(bitPattern: unsafeBitCast(uriLog, to: UnsafeRawPointer.self)), ptr_value: context),
                    MHD_OptionItem(option: .NOTIFY_COMPLETED,
                                   value: Int(bitPattern: unsafeBitCast(completed, to: UnsafeRawPointer.self)), ptr_value: context),
                    // A thread a connection: a cap on them, and on how long an idle or stalled one is kept.
                    MHD_OptionItem(option: .CONNECTION_LIMIT, value: 64, ptr_value: nil),
                    // An idle connection gives its thread back after 10 s: 64 of them sent by another local user lock the page
                    // out for that long at most (a page's own requests take milliseconds; a save's proof a few seconds).
                    MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: 10, ptr_value: nil),
                    MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
                ]
                // ITC: MHD_quiesce_daemon needs it in this mode. POLL: no FD_SETSIZE limit on descriptor numbers.
                let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
                    | MHD_USE_ITC.rawValue | MHD_USE_POLL.rawValue
                errno = 0
                let daemon = options.withUnsafeBufferPointer { pb_mhd_start(flags, access, context, $0.baseAddress) }
                return (daemon, errno)
            }
        }
        guard let daemon = started.0 else {
            throw Self.startFailure(port: configuration.port, errno: started.1)
        }
        let bound = pb_mhd_bound_port(daemon)
        core.setPort(bound)
        self.configuration = configuration
        self.port = bound
        self.core = core
        self.daemon = Mutex(daemon)
    }

    deinit { stop() }

    /// The address to open: "http://127.0.0.1:PORT/?token=TOKEN".
    public var address: String {
        let token = configuration.token.utf8.map { byte -> String in
            let unreserved = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~")
            return unreserved ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }.joined()
        return "http://127.0.0.1:\(port)/?token=\(token)"
    }

    /// Stops the server: no new connection is accepted, a request that arrives on an open connection is answered
    /// 503, and the requests in progress finish: a handler that is running is waited for however long it takes
    /// (a save completes), then its response has up to 5 seconds to be delivered. Idempotent; a second call made
    /// meanwhile returns when the first has finished.
    public func stop() {
        daemon.withLock { daemon in
            guard let running = daemon else { return }
            daemon = nil
            core.beginStopping()
            let listener = MHD_quiesce_daemon(running)
            var quietSince: ContinuousClock.Instant?
            while true {
                let (inFlight, handling) = core.counts()
                if inFlight == 0 { break }
                if handling > 0 {
                    quietSince = nil
                } else {
                    let now = ContinuousClock.now
                    if let since = quietSince, now - since > .seconds(5) { break }
                    quietSince = quietSince ?? now
                }
                usleep(5_000)
            }
            MHD_stop_daemon(running)
            // The quiesced listening socket is the caller's to close, after MHD_stop_daemon.
            if listener >= 0 { _ = Glibc.close(listener) }
        }
    }

    static func startFailure(port: UInt16, errno code: Int32) -> StartFailure {
        let code: Int32? = code == 0 ? nil : code
        let description = switch code {
        case EADDRINUSE? where port != 0: "port \(port) is in use"
        case EACCES? where port != 0: "port \(port) needs privileges photobook does not have (ports below 1024)"
        case let code?: "cannot listen on 127.0.0.1:\(port): \(FileSystem.reason(code))"
        case nil: "cannot listen on 127.0.0.1:\(port)"
        }
        return StartFailure(port: port, errno: code, description: description)
    }
}

/// What the daemon's callbacks share: the configuration, the handler, the bound port and the count of requests
/// in progress, which `stop()` waits on.
private final class Core: Sendable {
    struct State {
        var port: UInt16 = 0
        var stopping = false
        /// Requests whose request line has arrived and whose response is not yet delivered.
        var inFlight = 0
        /// Handlers running.
        var handling = 0
    }

    let configuration: HTTPServer.Configuration
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let state = Mutex(State())

    init(configuration: HTTPServer.Configuration, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.configuration = configuration
        self.handler = handler
    }

    func setPort(_ port: UInt16) { state.withLock { $0.port = port } }
    func begin() { state.withLock { $0.inFlight += 1 } }
    func end() { state.withLock { $0.inFlight -= 1 } }
    func beginStopping() { state.withLock { $0.stopping = true } }
    func counts() -> (inFlight: Int, handling: Int) { state.withLock { ($0.inFlight, $0.handling) } }

    /// MHD's access handler: called once with the headers, once for each piece of the body, and once more at
    /// the end of the request (no data) when no response was queued before.
    func access(_ connection: OpaquePointer?, method: UnsafePointer<CChar>?, data: UnsafePointer<CChar>?,
                size: UnsafeMutablePointer<Int>?, exchange slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
        guard let connection, let size, let slot else { return .NO }
        let exchange: Exchange
        if let pointer = slot.pointee {
            exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeUnretainedValue()
        } else {
            // Not seen by the URI callback (MHD calls it for every request line): the raw target is unknown.
            exchange = Exchange(target: nil)
            slot.pointee = Unmanaged.passRetained(exchange).toOpaque()
            begin()
        }

        guard let request = exchange.request else {
            // The first call: the request line and the headers.
            let request = HTTPRequest(method: method.map { String(cString: $0) } ?? "", target: exchange.target ?? "",
                                      headers: Self.headers(of: connection))
            exchange.request = request
            let (port, stopping) = state.withLock { ($0.port, $0.stopping) }
            if stopping {
                return send(.text("photobook is stopping\n", status: 503), for: request, on: connection, closing: true)
            }
            if exchange.target == nil {
                return send(.text("bad request\n", status: 400), for: nil, on: connection, closing: true)
            }
            if let refusal = HTTPServer.Gate.refusal(for: request, configuration: configuration, port: port) {
                return send(refusal, for: request, on: connection)
            }
            return .YES
        }

        let count = size.pointee
        if count > 0 {
            // A piece of the body: kept up to the limit; past it, the rest is counted and dropped.
            size.pointee = 0
            if exchange.tooLarge {
                exchange.dropped += count
                // Trap (0.9.75): MHD_queue_response refuses while a body is still arriving, so the 413 goes out
                // at the body's end; a body still coming at twice the limit has its connection closed instead.
                return exchange.dropped > configuration.maxBodyBytes ? .NO : .YES
            }
            if exchange.body.count + count > configuration.maxBodyBytes {
                exchange.tooLarge = true
                exchange.dropped = exchange.body.count + count - configuration.maxBodyBytes
                exchange.body = []
                return .YES
            }
            if let data {
                data.withMemoryRebound(to: UInt8.self, capacity: count) {
                    exchange.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
            return .YES
        }

        // The end of the request.
        if exchange.tooLarge {
            return send(HTTPServer.Gate.tooLarge(configuration), for: request, on: connection)
        }
        var complete = request
        complete.body = exchange.body
        exchange.body = []
        state.withLock { $0.handling += 1 }
        let response = handler(complete)
        let stopping = state.withLock { state in
            state.handling -= 1
            return state.stopping
        }
        return send(response, for: request, on: connection, closing: stopping)
    }

    /// Queues `response`, decorated, on the connection; a response MHD will not take becomes a 500.
    func send(_ response: HTTPResponse, for request: HTTPRequest?, on connection: OpaquePointer, closing: Bool = false) -> MHD_Result {
        let decorated = HTTPServer.Gate.decorate(response, for: request, configuration: configuration, closing: closing)
        if let made = Self.make(decorated) {
            defer { MHD_destroy_response(made) }
            return MHD_queue_response(connection, UInt32(decorated.status), made)
        }
        let fallback = HTTPServer.Gate.decorate(.text("internal error: the response has a bad header or status\n", status: 500),
                                                for: nil, configuration: configuration, closing: true)
        guard let made = Self.make(fallback) else { return .NO }
        defer { MHD_destroy_response(made) }
        return MHD_queue_response(connection, 500, made)
    }

    /// An MHD response with the body copied and every header added, or nil when MHD refuses one (a line break
    /// in a value) or the status is not three digits.
    static func make(_ response: HTTPResponse) -> OpaquePointer? {
        guard (100...999).contains(response.status) else { return nil }
        var body = response.body
        let made = body.withUnsafeMutableBytes {
            MHD_create_response_from_buffer($0.count, $0.baseAddress, .RESPMEM_MUST_COPY)
        }
        guard let made else { return nil }
        for (name, value) in response.headers where MHD_add_response_header(made, name, value) != .YES {
            MHD_destroy_response(made)
            return nil
        }
        return made
    }

    /// The request's headers, names lowercased, repeated ones joined.
    static func headers(of connection: OpaquePointer) -> [String: String] {
        var pairs: [(String, String)] = []
        let collect: MHD_KeyValueIterator = { context, _, key, value in
            guard let key else { return .YES }
            context!.assumingMemoryBound(to: [(String, String)].self).pointee
                .append((String(cString: key), value.map { String(cString: $0) } ?? ""))
            return .YES
        }
        _ = withUnsafeMutablePointer(to: &pairs) { MHD_get_connection_values(connection, .HEADER_KIND, collect, $0) }
        var headers: [String: String] = [:]
        for (name, value) in pairs {
            let key = name.lowercased()
            if let earlier = headers[key] {
                headers[key] = earlier + (key == "cookie" ? "; " : ", ") + value
            } else {
                headers[key] = value
            }
        }
        return headers
    }
}

/// One request on its connection: touched only by that connection's thread, from the URI callback to the
/// completion callback, which releases it.
private final class Exchange {
    /// The request-target as sent (path and query), nil when MHD did not show it.
    let target: String?
    var request: HTTPRequest?
    var body: [UInt8] = []
    var tooLarge = false
    /// Bytes of a too-long body dropped so far.
    var dropped = 0

    init(target: String?) { self.target = target }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: Swift.max(0, width - count)) + self }
}
