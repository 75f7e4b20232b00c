import Foundation
import Testing
@testable import PNG
import TestSupport

/// Inputs the PNG fuzzer (Fuzz/PNGFuzzer.swift, `make fuzz`) found, kept in Fixtures/regressions/png, and the
/// families of files they stand for.
@Suite struct PNGFuzzRegressionTests {
    static let directory = URL(fileURLWithPath: Fixtures.path("regressions/png"))
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".png") }.sorted()
    /// What libpng may allocate at once while it reads chunks: the shim's chunk limit (8 MiB) plus one byte.
    static let chunkAllocationLimit = (8 << 20) + 1

    /// Every kept input goes through what the fuzzer does, and must fail (or decode) without crashing.
    @Test(arguments: names)
    func keptInputIsHandled(name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(name)))
        if let info = try? PNGDecoder.readInfo(bytes), let image = try? PNGDecoder.decode(bytes, maxPixels: 4_000_000) {
            #expect(image.width == info.width && image.height == info.height)
        }
    }

    /// Found by the fuzzer: a pCAL chunk whose header claims 1.4 GB in a 1 KB file made libpng allocate the
    /// 1.4 GB before it found the data missing.
    @Test func oversizedPCALChunkFailsWithoutAllocatingItsClaim() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent("oversized-pCAL-chunk.png")))
        let (result, largest) = Self.decodeMeasuringAllocations(bytes)
        #expect(largest <= Self.chunkAllocationLimit, "libpng allocated \(largest) bytes")
        guard case .failure(.corrupt(let reason)) = result else {
            Issue.record("expected a corrupt PNG, got \(result)")
            return
        }
        #expect(reason.contains("truncated"), "\(reason)")
    }

    /// The same lie in every chunk libpng reads into a buffer of its declared size, before and after the
    /// image data, and in chunks libpng skips: the file fails as truncated and no allocation follows the claim.
    @Test(arguments: ["pCAL", "sCAL", "eXIf", "iCCP", "tEXt", "zzZz"], [false, true])
    func chunkClaimingTwoGigabytesCostsNoMemory(type: String, afterImageData: Bool) {
        let image = TestPNGEncoder.encode(width: 3, height: 2, colorType: 2, pixels: [UInt8](repeating: 9, count: 18))
        let chunks = TestPNGEncoder.chunks(of: image)
        let firstIDAT = chunks.first { $0.type == "IDAT" }!.offset
        let iend = chunks.first { $0.type == "IEND" }!.offset
        let at = afterImageData ? iend : firstIDAT
        // 12 bytes of chunk header and a few bytes of data, claiming 2^31 - 1.
        let lie = TestPNGEncoder.bigEndian(0x7FFF_FFFF) + Array(type.utf8) + [1, 2, 3, 4, 5, 6, 7, 8]
        let file = Array(image[..<at]) + lie

        let (result, largest) = Self.decodeMeasuringAllocations(file)
        #expect(largest <= Self.chunkAllocationLimit, "libpng allocated \(largest) bytes")
        guard case .failure(.corrupt(let reason)) = result else {
            Issue.record("expected a corrupt PNG, got \(result)")
            return
        }
        #expect(reason.contains("truncated"), "\(reason)")
    }

    /// What `PNGDecoder.decode` does for a non-interlaced file, in one session whose allocations are then known.
    static func decodeMeasuringAllocations(_ bytes: [UInt8]) -> (Result<Void, PNGError>, largest: Int) {
        var largest = 0
        do throws(PNGError) {
            try PNGReadSession.with(bytes) { (session) throws(PNGError) in
                defer { largest = session.largestAllocation }
                let info = try session.readHeader()
                guard let pixels = info.pixelCount, pixels <= 4_000_000 else {
                    throw .tooLarge(width: info.width, height: info.height, limit: 4_000_000)
                }
                let passes = try session.startDecode()
                var rgba = [UInt8](repeating: 0, count: pixels * 4)
                for _ in 0..<passes {
                    try session.readRows(into: &rgba, rowStride: info.width * 4, count: info.height)
                }
                try session.finish()
            }
            return (.success(()), largest)
        } catch {
            return (.failure(error), largest)
        }
    }
}
