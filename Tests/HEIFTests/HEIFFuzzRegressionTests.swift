import Testing
@testable import HEIF
import ImageCodec
import Imaging
import TestSupport

/// Inputs the fuzzer (Fuzz/HEIFFuzzer.swift) found, kept in Fixtures/heif/regressions/.
@Suite struct HEIFFuzzRegressionTests {
    /// rotated.heic with its primary item's type turned into `iovl`: libheif read the HEVC bytes as an
    /// overlay's canvas size and allocated 2.9 GB while the handle still said 120x80.
    @Test func overlayCanvasIsCheckedBeforeLibheifAllocatesIt() throws {
        let bytes = try HEIFFixtures.bytes("regressions/overlay-canvas-oom.heic")
        let source = MemorySource(bytes)
        let header = try HEIFFixtures.codec.probe(source)[0]
        #expect(header.width == 120 && header.height == 80)
        guard case .sizes(let canvases) = HEIFBoxes.derivedCanvases(of: source), let canvas = canvases.first else {
            Issue.record("no overlay canvas found")
            return
        }
        let (width, height) = (canvas.width, canvas.height)
        #expect(width * height > 1 << 24)
        #expect(throws: CodecError.tooLarge("HEIC image is \(width)x\(height) pixels, more than the limit of 16777216")) {
            try HEIFFixtures.codec.decode(source, .whole(width: 120, height: 80, maxPixels: 1 << 24),
                                          pool: BufferPool(), shouldCancel: { false })
        }
    }

    /// A grid thumbnail whose descriptor says a canvas of about a gigapixel under an 8x4 ispe: the attention
    /// probe's thumbnail read made libheif allocate 4.2 GB. Now no thumbnail, and the file's decode refuses it.
    @Test func aGridThumbnailsCanvasIsCheckedBeforeLibheifAllocatesIt() throws {
        let source = try HEIFFixtures.source("regressions/grid-thumbnail-oom.heic")
        guard case .sizes(let canvases) = HEIFBoxes.derivedCanvases(of: source) else {
            Issue.record("the derived canvases cannot be read")
            return
        }
        #expect(canvases.contains { !$0.fits(1 << 28) }, "\(canvases)")
        #expect(HEIFFixtures.codec.thumbnail(source, maxPixels: 1_000_000) == nil)
    }

    /// An AVIF whose AV1 data dav1d refuses: a clear failure (libheif's dav1d plugin leaks 40 bytes here,
    /// which the fuzzer's LeakSanitizer is told to ignore).
    @Test func av1DataDav1dRefusesFails() throws {
        let bytes = try HEIFFixtures.bytes("regressions/dav1d-send-data-leak.avif")
        #expect(throws: CodecError.self) { _ = try HEIFHostileInputTests.read(bytes) }
    }

    /// icc.heic with the grid's one tile turned into an overlay: libheif allocated 4.5 GB for a tile of a
    /// 64x48 picture, so every derived item is checked, not only the primary one.
    @Test func overlayTileIsCheckedToo() throws {
        let source = try HEIFFixtures.source("regressions/overlay-tile-oom.heic")
        let header = try HEIFFixtures.codec.probe(source)[0]
        #expect(header.width == 64 && header.height == 48)
        do throws(CodecError) {
            let decoded = try HEIFFixtures.codec.decode(source, .whole(width: 64, height: 48, maxPixels: 1 << 22),
                                                        pool: BufferPool(), shouldCancel: { false })
            Issue.record("decoded \(decoded.image.width)x\(decoded.image.height)")
        } catch {
            // Refused for its size against the limit asked for, which the words name.
            #expect(error.failure.kind == .tooLarge && error.description.contains("4194304"), "\(error)")
        }
    }

    /// The grid around photo.heic (heif-enc wraps odd sizes in a 1x1 grid) is read for its output size.
    @Test func gridCanvasIsRead() throws {
        guard case .sizes(let canvases) = HEIFBoxes.derivedCanvases(of: try HEIFFixtures.source("photo.heic")) else {
            Issue.record("photo.heic's grid cannot be read")
            return
        }
        #expect(canvases.map { [$0.width, $0.height] } == [[160, 107]])
        let file = try HEIFFile(try HEIFFixtures.source("photo.heic"), kind: "HEIC")
        #expect(canvases.first?.item == file.primaryItemID, "the grid is the primary image")
        #expect(HEIFBoxes.derivedCanvases(of: try HEIFFixtures.source("rotated.heic")) == .sizes([]))
        #expect(HEIFBoxes.derivedCanvases(of: try HEIFFixtures.source("photo.avif")) == .sizes([]))
    }

    /// pq.avif with its nclx transfer characteristics 16 turned into 528: libheif 1.15 refuses the code but has
    /// allocated the profile it hands back (it leaked until freed on the error path too). Taken as sRGB.
    @Test func nclxLibheifCannotReadIsTakenAsSRGB() throws {
        let header = try HEIFFixtures.codec.probe(try HEIFFixtures.source("regressions/nclx-unknown-transfer-leak.avif"))[0]
        #expect(header.colorProfile == nil)
        #expect(header.warnings.isEmpty)
        #expect(header.notes.contains("nclx colour description libheif cannot read: taken as sRGB"))
    }
}
