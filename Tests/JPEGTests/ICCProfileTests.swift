import Imaging
import Testing
@testable import JPEG
import TestSupport

/// readInfo puts an ICC profile split over APP2 "ICC_PROFILE" segments back together, and says why it cannot.
struct ICCProfileTests {
    static let plain: [UInt8] = try! JPEGEncoder.encode(JPEGTestSupport.syntheticImage(width: 16, height: 16), quality: 90)

    /// `plain` with one APP2 segment per chunk right after SOI: (sequence, count, bytes).
    static func jpeg(chunks: [(UInt8, UInt8, [UInt8])]) -> [UInt8] {
        var segments: [UInt8] = []
        for (sequence, count, bytes) in chunks {
            let payload = Array("ICC_PROFILE".utf8) + [0, sequence, count] + bytes
            let length = payload.count + 2
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        return Array(plain[..<2]) + segments + plain[2...]
    }

    static func bytes(_ count: Int, seed: UInt8) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) &+ seed } }

    @Test func noProfile() throws {
        #expect(try JPEGDecoder.readInfo(Self.plain).iccProfile == nil)
    }

    @Test func oneChunk() throws {
        let profile = Self.bytes(3000, seed: 1)
        #expect(try JPEGDecoder.readInfo(Self.jpeg(chunks: [(1, 1, profile)])).iccProfile == .profile(profile))
    }

    @Test func chunksOutOfOrderAreJoinedBySequence() throws {
        let (a, b, c) = (Self.bytes(65519, seed: 1), Self.bytes(65519, seed: 2), Self.bytes(100, seed: 3))
        let jpeg = Self.jpeg(chunks: [(2, 3, b), (1, 3, a), (3, 3, c)])
        #expect(try JPEGDecoder.readInfo(jpeg).iccProfile == .profile(a + b + c))
        // The probe's path: a prefix that holds the whole header gives the same.
        #expect(try JPEGDecoder.readInfo(prefix: jpeg)?.iccProfile == .profile(a + b + c))
    }

    @Test("broken chunk sets", arguments: [
        ([(1, 2, [1, 2])], "ICC profile chunk 2 of 2 is missing"),
        ([(1, 2, [1]), (1, 2, [2])], "ICC profile chunk 1 of 2 appears twice"),
        ([(1, 2, [1]), (2, 3, [2])], "ICC profile chunks disagree on their count (2 and 3)"),
        ([(0, 1, [1])], "ICC profile chunk numbered 0 of 1"),
        ([(3, 2, [1])], "ICC profile chunk numbered 3 of 2"),
    ] as [([(UInt8, UInt8, [UInt8])], String)])
    func brokenChunks(chunks: [(UInt8, UInt8, [UInt8])], reason: String) throws {
        #expect(try JPEGDecoder.readInfo(Self.jpeg(chunks: chunks)).iccProfile == .unusable(reason))
    }

    @Test func oversizedProfileIsRefused() throws {
        // 65 chunks of 65519 bytes: just over 4 MB.
        let chunk = Self.bytes(65519, seed: 9)
        let jpeg = Self.jpeg(chunks: (1...65).map { (UInt8($0), 65, chunk) })
        #expect(try JPEGDecoder.readInfo(jpeg).iccProfile == .unusable("ICC profile is larger than 4 MB"))
    }

    @Test func otherAPP2SegmentsAreIgnored() throws {
        let mpf = Array("MPF\0".utf8) + [1, 2, 3]
        var jpeg = Self.jpeg(chunks: [(1, 1, [5, 6, 7])])
        jpeg.insert(contentsOf: [0xFF, 0xE2, 0, UInt8(mpf.count + 2)] + mpf, at: 2)
        #expect(try JPEGDecoder.readInfo(jpeg).iccProfile == .profile([5, 6, 7]))
    }
}
