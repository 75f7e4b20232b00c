#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A response as read off the socket.
package struct RawResponse {
    package var status: Int
    package var headers: [(String, String)]
    package var body: [UInt8]

    /// Every value of the header `name` (any case).
    package func values(_ name: String) -> [String] {
        headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
    }
    package func value(_ name: String) -> String? { values(name).first }
    package var text: String { String(decoding: body, as: UTF8.self) }
}

package struct RawClientError: Error, CustomStringConvertible {
    package var description: String
    package init(description: String) { self.description = description }
}

/// A few lines of HTTP/1.1 over a POSIX socket: what a browser sends, byte for byte, with nothing added.
package enum RawClient {
    /// A TCP connection to `address:port`, with 10-second send and receive timeouts so a test cannot hang.
    package static func connect(port: UInt16, address: String = "127.0.0.1") throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawClientError(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = port.bigEndian
        inet_pton(AF_INET, address, &target.sin_addr)
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw RawClientError(description: "connect to \(address):\(port): \(String(cString: strerror(code)))")
        }
        return descriptor
    }

    /// Writes all of `bytes`; false when the peer has closed (no SIGPIPE).
    @discardableResult
    package static func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Reads to the end of the stream (the requests ask for `Connection: close`) and parses the response.
    package static func read(_ descriptor: Int32) throws -> RawResponse {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == ECONNRESET && !data.isEmpty { break }
            guard count >= 0 else { throw RawClientError(description: "recv: errno \(errno) after \(data.count) bytes") }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return try parse(data)
    }

    package static func parse(_ data: [UInt8]) throws -> RawResponse {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = (0..<max(0, data.count - 3)).first(where: { Array(data[$0..<$0 + 4]) == separator }) else {
            throw RawClientError(description: "no complete response head in \(data.count) bytes: \(String(decoding: data, as: UTF8.self))")
        }
        let lines = String(decoding: data[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw RawClientError(description: "bad status line \(lines[0])")
        }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return RawResponse(status: status, headers: headers, body: Array(data[(end + 4)...]))
    }

    /// One request on a fresh connection: the head as given (lines without their CRLF; `Connection: close` added),
    /// then `body`.
    package static func send(port: UInt16, _ head: [String], body: [UInt8] = []) throws -> RawResponse {
        let descriptor = try connect(port: port)
        defer { close(descriptor) }
        write(descriptor, Array((head + ["Connection: close", "", ""]).joined(separator: "\r\n").utf8) + body)
        return try read(descriptor)
    }
}
