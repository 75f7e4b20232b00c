import Foundation
import Testing
import TestSupport
@testable import PhotoBook

/// photobook's own SHA-256 (the render cache's keys and content digests, docs/cache.md): the FIPS 180-2 examples,
/// and coreutils' sha256sum on bytes fed in every shape of chunk.
struct SHA256Tests {
    static func digest(_ chunks: [[UInt8]]) -> String {
        var hash = SHA256()
        for chunk in chunks { hash.update(chunk) }
        return hash.finish().hexString
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func theStandardsExamples(text: String, expected: String) {
        #expect(Self.digest([Array(text.utf8)]) == expected)
        #expect(SHA256.hex(Array(text.utf8)) == expected, "hex(_:) digests its bytes, then spells the digest")
    }

    @Test func aMillionAsInUnevenChunks() {
        // 1,000,000 = 7 * 142,857 + 1: chunks that straddle every block boundary.
        let chunks = Array(repeating: [UInt8](repeating: 0x61, count: 7), count: 142_857) + [[0x61]]
        #expect(Self.digest(chunks) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths round the 55/56/64-byte edges of the padding, and a large random buffer split at random places.
    @Test func agreesWithSha256sum() throws {
        let path = NSTemporaryDirectory() + "/photobook-sha256-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var generator = SystemRandomNumberGenerator()
        var cases: [[UInt8]] = [54, 55, 56, 57, 63, 64, 65, 119, 120, 128].map { count in
            (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        cases.append((0..<300_001).map { _ in UInt8.random(in: 0...255, using: &generator) })
        for bytes in cases {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let reference = String(decoding: try ExternalCommand.output("/usr/bin/sha256sum", [path]), as: UTF8.self)
                .split(separator: " ")[0]
            var chunks: [[UInt8]] = [], start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 0...200, using: &generator))
                chunks.append(Array(bytes[start..<end]))
                start = end
            }
            #expect(Self.digest([bytes]) == reference, "\(bytes.count) bytes whole")
            #expect(Self.digest(chunks) == reference, "\(bytes.count) bytes in \(chunks.count) chunks")
        }
    }
}
