import ImageCodec
import Imaging
import TestSupport
import Testing
@testable import Raw

/// Damaged, cut, lying and huge raws: refused by name with a reason, never a crash, a hang or a huge allocation.
@Suite struct RawHostileInputTests {
    /// Cut anywhere, the DNG fails its probe or its decode with a reason; nothing half-decoded is handed out.
    @Test(arguments: [8, 100, 2_000, 13_000, 24_000, 40_000, 60_000, 80_000, 87_000])
    func aTruncatedRawFailsByReason(_ length: Int) throws {
        let bytes = Array(try RawTestSupport.bytes(RawTestSupport.dng).prefix(length))
        let source = MemorySource(bytes)
        do {
            let header = try RawTestSupport.probe(source)
            let decoded = try RawTestSupport.decode(source, region: PixelRegion(x: 0, y: 0, width: header.width,
                                                                                height: header.height),
                                                    minimumWidth: header.width, minimumHeight: header.height)
            Issue.record("a DNG cut at \(length) of 87116 bytes decoded: \(decoded.image.width)x\(decoded.image.height)")
        } catch {
            #expect(error != .cancelled)
            #expect(!error.description.isEmpty)
        }
    }

    /// Bytes flipped in the sensor data or the directories: decoded or refused, never a crash or a hang.
    @Test(arguments: 0..<24)
    func flippedBytesNeverCrash(_ seed: Int) throws {
        var bytes = try RawTestSupport.bytes(RawTestSupport.dng)
        var random = SeededBytes(state: UInt64(seed) &* 0x9E37_79B9)
        for _ in 0..<8 {
            let at = seed < 12
                ? 8 + (Int(random.next()) << 8 | Int(random.next())) % 2_000   // the directories
                : (Int(random.next()) << 16 | Int(random.next()) << 8 | Int(random.next())) % bytes.count
            bytes[at] ^= random.next() | 1
        }
        let source = MemorySource(bytes)
        guard let header = try? RawTestSupport.probe(source) else { return }
        _ = try? RawTestSupport.decode(source, region: PixelRegion(x: 0, y: 0, width: header.width, height: header.height),
                                       minimumWidth: header.width, minimumHeight: header.height, maxPixels: 50_000_000)
    }

    /// A TIFF that is no raw, named .nef, reaches the codec as a raw: LibRaw's own words refuse it.
    @Test func aPlainTIFFIsNoRaw() throws {
        let tiff = try Fixtures.bytes("tiff/grey8.tif")
        #expect(RawTestSupport.codec.recognises(Array(tiff.prefix(64))))
        #expect(throws: CodecError.unsupported("unsupported camera raw (LibRaw: Unsupported file format or not RAW file)")) {
            try RawTestSupport.probe(MemorySource(tiff))
        }
    }

    /// `--max-pixels` refuses the raw before LibRaw unpacks it: the progress callback, which LibRaw calls as
    /// soon as it starts unpacking, is never asked.
    @Test func moreThanMaxPixelsIsRefusedBeforeUnpacking() throws {
        let source = MemorySource(try RawTestSupport.bytes(RawTestSupport.dng))
        var asked = 0
        #expect(throws: CodecError.tooLarge("image is 600x338 pixels, more than the limit of 200000")) {
            _ = try RawTestSupport.decode(source, region: PixelRegion(x: 0, y: 0, width: 600, height: 338),
                                          minimumWidth: 600, minimumHeight: 338, maxPixels: 200_000,
                                          shouldCancel: { asked += 1; return false })
        }
        #expect(asked == 1, "only the decode's own first question, before LibRaw")
    }

    /// A directory that claims a 65535x65535 sensor in a small file is refused at the probe, with nothing
    /// allocated for it.
    @Test func aHugeClaimedSizeIsRefused() throws {
        var bytes = try RawTestSupport.bytes(RawTestSupport.dng)
        // Every ImageWidth and ImageLength (256, 257) of the file's directories, as SHORT or LONG, to 65535.
        var patched = 0
        for at in stride(from: 8, to: 12_000, by: 2) where at + 12 <= bytes.count {
            let tag = Int(bytes[at]) | Int(bytes[at + 1]) << 8, type = Int(bytes[at + 2]) | Int(bytes[at + 3]) << 8
            let count = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8
            guard (tag == 256 || tag == 257), type == 3 || type == 4, count == 1, bytes[at + 6] == 0, bytes[at + 7] == 0
            else { continue }
            bytes[at + 8] = 0xFF; bytes[at + 9] = 0xFF
            if type == 4 { bytes[at + 10] = 0; bytes[at + 11] = 0 }
            patched += 1
        }
        #expect(patched >= 2)
        do {
            let header = try RawTestSupport.probe(MemorySource(bytes))
            // Should LibRaw not take the claim, the decode still refuses what is over the limit.
            _ = try RawTestSupport.decode(MemorySource(bytes), region: PixelRegion(x: 0, y: 0, width: header.width,
                                                                                   height: header.height),
                                          minimumWidth: header.width, minimumHeight: header.height, maxPixels: 1_000_000)
        } catch {
            #expect(error.failure.kind == .corrupt || error.failure.kind == .tooLarge
                    || error.failure.kind == .unsupported, "\(error)")
        }
    }

    /// A lossy DNG whose opcode list claims 2^32 - 1 opcodes: LibRaw 0.20 (its own dcraw_emu too) loops over the
    /// count reading 16 bytes an opcode, past the file's end, for minutes (a fuzzer's find, 54 KB). The stream
    /// stops it after 65,536 reads that found the end, and the decode fails by name.
    @Test func anOpcodeCountThatRunsPastTheEndIsRefused() throws {
        var bytes = try RawTestSupport.bytes(RawTestSupport.dng)
        // The raw's OpcodeList2 entry (tag 0xC741, UNDEFINED): its data starts with the big-endian opcode count.
        let tag: [UInt8] = [0x41, 0xC7, 7, 0]
        let found = (8..<bytes.count - 12).first { (at: Int) -> Bool in Array(bytes[at..<at + 4]) == tag }
        let entry = try #require(found)
        var list = 0
        for index in (0..<4).reversed() { list = list << 8 | Int(bytes[entry + 8 + index]) }
        #expect(bytes[list..<list + 4] == [0, 0, 0, 3], "the fixture's three opcodes")
        bytes.replaceSubrange(list..<list + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let source = MemorySource(bytes)
        let header = try RawTestSupport.probe(source)
        #expect(throws: CodecError.corrupt("corrupt DNG (LibRaw kept reading past the end of the file: damaged or "
                                           + "cut short)")) {
            _ = try RawTestSupport.decode(source, region: PixelRegion(x: 0, y: 0, width: header.width,
                                                                      height: header.height),
                                          minimumWidth: header.width, minimumHeight: header.height)
        }
    }

    @Test(arguments: [1, 2, 3, 5])
    func aDecodeIsCancelledAtLibRawsProgressCallbacks(_ after: Int) throws {
        let source = MemorySource(try RawTestSupport.bytes(RawTestSupport.dng))
        var asked = 0
        #expect(throws: CodecError.cancelled) {
            _ = try RawTestSupport.decode(source, region: PixelRegion(x: 0, y: 0, width: 600, height: 338),
                                          minimumWidth: 600, minimumHeight: 338,
                                          shouldCancel: { asked += 1; return asked >= after })
        }
        #expect(asked >= after)
    }

    @Test func aPreviewDecodeIsCancelledToo() throws {
        let source = MemorySource(try RawTestSupport.bytes(RawTestSupport.dng))
        var asked = 0
        #expect(throws: CodecError.cancelled) {
            _ = try RawTestSupport.decode(source, region: PixelRegion(x: 0, y: 0, width: 600, height: 338),
                                          minimumWidth: 100, minimumHeight: 50,
                                          shouldCancel: { asked += 1; return asked >= 2 })
        }
    }
}
