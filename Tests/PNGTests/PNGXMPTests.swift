import Testing
@testable import PNG
import TestSupport

/// The XMP packet of a PNG (iTXt "XML:com.adobe.xmp"), found among the chunks before the image data.
@Suite struct PNGXMPTests {
    static let packet = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><dc:description>Ünïcode</dc:description></x:xmpmeta>"#.utf8)

    static func itxt(keyword: String = "XML:com.adobe.xmp", compressed: Bool = false, language: String = "",
                     translated: String = "", text: [UInt8] = packet) -> (type: String, data: [UInt8]) {
        ("iTXt", Array(keyword.utf8) + [0, compressed ? 1 : 0, 0] + Array(language.utf8) + [0]
            + Array(translated.utf8) + [0] + text)
    }

    static func png(before: [(type: String, data: [UInt8])], after: [(type: String, data: [UInt8])] = []) -> [UInt8] {
        var file = TestPNGEncoder.encode(width: 2, height: 2, colorType: 0, pixels: [0, 85, 170, 255],
                                         chunksBeforeIDAT: before)
        if !after.isEmpty {
            let iend = file.count - 12
            file = Array(file[..<iend]) + after.flatMap { TestPNGEncoder.chunk($0.type, $0.data) } + file[iend...]
        }
        return file
    }

    @Test func packetBeforeTheImageDataIsReturned() throws {
        let text: (type: String, data: [UInt8]) = ("tEXt", Array("Comment".utf8) + [0] + Array("hello".utf8))
        let file = Self.png(before: [text, Self.itxt(language: "en", translated: "XMP")])
        #expect(try PNGDecoder.readInfo(file).xmp == Self.packet)
        #expect(try PNGDecoder.readInfo(prefix: file)?.xmp == Self.packet)
        // libpng still skips the chunk: the photo decodes as before.
        #expect(try PNGDecoder.decode(file, maxPixels: 4).pixels == [0, 0, 0, 85, 85, 85, 170, 170, 170, 255, 255, 255])
    }

    @Test(arguments: [
        ("compressed", png(before: [itxt(compressed: true)])),
        ("after the image data", png(before: [], after: [itxt()])),
        ("another keyword", png(before: [itxt(keyword: "Description")])),
        ("no NUL after the language", png(before: [("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0] + Array("en".utf8))])),
    ])
    func noPacket(_ why: String, file: [UInt8]) throws {
        #expect(try PNGDecoder.readInfo(file).xmp == nil, "\(why)")
    }

    @Test func brokenChunkListsEndTheWalk() {
        let file = Self.png(before: [Self.itxt()])
        let at = TestPNGEncoder.chunks(of: file).first { $0.type == "iTXt" }!.offset
        var huge = file
        huge.replaceSubrange(at..<(at + 4), with: [0x7F, 0xFF, 0xFF, 0xFF])
        #expect(PNGChunks.xmpPacket(inPNG: huge) == nil)
        #expect(PNGChunks.xmpPacket(inPNG: Array(file[..<(at + 20)])) == nil)
        #expect(PNGChunks.xmpPacket(inPNG: Array(file.dropFirst())) == nil)
        #expect(PNGChunks.xmpPacket(inPNG: file) == Self.packet)
    }

    @Test(arguments: ["ctzn0g04.png", "cten0g04.png", "basn0g01.png", "exif2c08.png"])
    func pngSuiteTextChunksAreNoXMP(name: String) throws {
        #expect(try PNGDecoder.readInfo(try PngSuite.bytes(name)).xmp == nil)
    }
}
