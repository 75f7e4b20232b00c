import Foundation
import Imaging
import ImageCodec
import Testing
import Platform
import TIFF
import TestSupport

/// Cut, damaged and lying files fail with a reason that names what failed: never a crash, a hang or an
/// allocation the size the header claims.
@Suite struct TIFFHostileInputTests {
    let codec = TIFFCodec()

    /// 64 x 64 RGB in strips of 4 rows, directory first, as scanners write.
    static let scan: [UInt8] = {
        let tiff = StripTIFF(width: 64, height: 64, rowsPerStrip: 4)
        return tiff.file(pixels: (0..<(64 * 64 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    }()

    @Test func cutShortScanFailsOnTheFirstMissingStrip() throws {
        let cut = MemorySource(Array(Self.scan[..<(Self.scan.count * 6 / 10)]))
        let header = try #require(try codec.probe(cut).first)
        #expect(header.width == 64 && header.height == 64)
        #expect(throws: CodecError.corrupt("truncated TIFF (strip 9 lies past the end of the file)")) {
            try codec.decode(cut, .whole(width: 64, height: 64, maxPixels: 1 << 20),
                             pool: BufferPool(), shouldCancel: { false })
        }
    }

    /// tiffcp writes the directory after the pixels: a cut file has no directory left.
    @Test func cutFileWithoutItsDirectoryFailsInProbe() throws {
        let bytes = try Fixtures.bytes("tiff/rgb8-lzw.tif")
        #expect {
            try codec.probe(MemorySource(Array(bytes[..<(bytes.count / 2)])))
        } throws: { error in
            guard case .failed(let reason) = error as? CodecError else { return false }
            return reason.kind == .corrupt && reason.message.hasPrefix("corrupt TIFF (") && reason.message.count > 16
        }
    }

    @Test func damagedLZWDataFailsWithLibtiffsReason() throws {
        var bytes = try Fixtures.bytes("tiff/rgb8-lzw.tif")
        for i in 200..<1200 { bytes[i] = 0xFF }
        let source = MemorySource(bytes)
        #expect {
            try TIFFTestSupport.decodeWhole(source)
        } throws: { error in
            guard case .failed(let reason) = error as? CodecError else { return false }
            // libtiff's LZW decoder's words, and where: "corrupt TIFF (Using code not yet in table in row 5)".
            return reason.kind == .corrupt && reason.message.hasPrefix("corrupt TIFF (") && reason.message.contains(" in row ")
        }
    }

    /// Damaged bytes anywhere: whatever libtiff makes of them, the codec answers with a picture or a reason.
    @Test func randomDamageNeverCrashes() throws {
        let originals = ["rgb8-lzw.tif", "rgb8-tiled-lzw.tif", "rgb8-jpeg-ycbcr.tif", "grey1-g4.tif",
                         "rgb8-planar-tiled.tif", "multipage.tif", "palette4.tif", "lab8.tif", "rgb16-lzw.tif"]
        var random = SplitMix64(seed: 42)
        for name in originals {
            let original = try Fixtures.bytes("tiff/" + name)
            for _ in 0..<40 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                let source = MemorySource(bytes)
                guard let headers = try? codec.probe(source) else { continue }
                for (picture, header) in headers.enumerated() {
                    do {
                        let image = try codec.decode(source, .whole(width: header.width, height: header.height,
                                                                    maxPixels: 1 << 22, picture: picture),
                                                     pool: BufferPool(), shouldCancel: { false })
                        #expect(image.image.pixels.count == image.image.width * image.image.height * 3)
                    } catch {
                        #expect(!error.description.isEmpty)
                    }
                }
            }
        }
    }

    @Test func pixelLimitIsCheckedBeforeDecoding() throws {
        let source = try TIFFTestSupport.source("rgb8-lzw.tif")
        #expect(throws: Never.self) {
            try codec.decode(source, .whole(width: 48, height: 32, maxPixels: 48 * 32),
                             pool: BufferPool(), shouldCancel: { false })
        }
        var asked = 0
        #expect(throws: CodecError.tooLarge("image is 48x32 pixels, more than the limit of 1535")) {
            try codec.decode(source, .whole(width: 48, height: 32, maxPixels: 48 * 32 - 1),
                             pool: BufferPool()) { asked += 1; return false }
        }
        #expect(asked == 0)
    }

    /// The last page's next-directory link points back at the first: each page is given once, and no hang.
    @Test func directoryLoopEndsTheChain() throws {
        var bytes = try Fixtures.bytes("tiff/multipage.tif")
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        let first = u32(4)
        var directory = first, link = 0
        while directory != 0 {
            link = directory + 2 + 12 * u16(directory)
            directory = u32(link)
        }
        for i in 0..<4 { bytes[link + i] = UInt8(truncatingIfNeeded: first >> (8 * i)) }
        let headers = try codec.probe(MemorySource(bytes))
        #expect(headers.map(\.width) == [24, 16, 32])
        // libtiff 4.5 ends a looping chain without a word (no error, no warning): the loop is simply its end.
        #expect(headers.allSatisfy { $0.warnings.isEmpty })
        #expect(throws: CodecError.changedOnDisk("the TIFF has no page 4")) {
            try codec.decode(MemorySource(bytes), .whole(width: 32, height: 32, maxPixels: 1 << 20, picture: 3),
                             pool: BufferPool(), shouldCancel: { false })
        }
    }

    /// A link to a directory past the end of the file: the pages before it are kept, with a warning.
    @Test func brokenLinkKeepsTheEarlierPages() throws {
        var bytes = try Fixtures.bytes("tiff/multipage.tif")
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        var directory = u32(4)
        for _ in 0..<2 { directory = u32(directory + 2 + 12 * u16(directory)) }
        let link = directory + 2 + 12 * u16(directory)  // the third directory's (the second page's) link
        for (i, byte) in [0xF0, 0xFF, 0xFF, 0x7F].enumerated() { bytes[link + i] = UInt8(byte) }
        let headers = try codec.probe(MemorySource(bytes))
        #expect(headers.map(\.width) == [24, 16])
        #expect(headers.last?.warnings.count == 1)
        #expect(headers.last?.warnings.first?.hasPrefix("the TIFF's pages after page 2 cannot be read: corrupt TIFF (") == true,
                "\(headers.last?.warnings ?? [])")
    }

    /// A file that cannot be read (a disk error, a file cut while it is read) fails with the source's reason.
    @Test func readFailureIsTheSourcesReason() throws {
        let bytes = try Fixtures.bytes("tiff/rgb8-lzw.tif")
        let source = FailingSource(bytes, failingPast: 2000)
        #expect(throws: CodecError.failed(.unreadable("cannot read: Input/output error", FileSystem.Failure(code: EIO)))) {
            try TIFFTestSupport.decodeWhole(source)
        }
    }

    @Test func notATIFF() {
        #expect(throws: CodecError.corrupt("corrupt TIFF (Can not read TIFF directory count)")) {
            try codec.probe(MemorySource(Array("II*\0 but nothing else here".utf8)))
        }
    }
}

/// How much the process's peak resident memory grows while `body` runs (VmHWM, reset through clear_refs).
enum PeakMemory {
    static func measure(_ body: () throws -> Void) throws -> Int {
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let before = try current()
        try body()
        return try highWaterMark() - before
    }

    private static func field(_ name: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes * 1024
    }
    static func current() throws -> Int { try field("VmRSS") }
    static func highWaterMark() throws -> Int { try field("VmHWM") }
}

/// A source whose reads past `failingPast` fail as a disk error would.
struct FailingSource: ByteSource {
    let bytes: [UInt8]
    let failingPast: Int
    init(_ bytes: [UInt8], failingPast: Int) { self.bytes = bytes; self.failingPast = failingPast }
    var count: Int { bytes.count }
    func read(from offset: Int, count: Int) throws(CodecError) -> [UInt8] {
        if offset + count > failingPast && offset < bytes.count - 1024 { throw .failed(.unreadable("cannot read: Input/output error", FileSystem.Failure(code: EIO))) }
        return try MemorySource(bytes).read(from: offset, count: count)
    }
}
