import Testing
import Typeface

/// Noto Color Emoji (fonts-noto-color-emoji, make test-deps): a TrueType file of PNGs (CBDT/CBLC) with no outlines,
/// read as a face whose glyphs are pictures.
@Suite struct ColourGlyphTests {
    static let emoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// The width and height in a PNG's IHDR chunk.
    static func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        let number = { (at: Int) in bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    @Test func aFaceOfPicturesNotOutlines() throws {
        let face = try FontFace(path: Self.emoji)
        #expect(face.outlines == .colourBitmaps && face.drawsInColour)
        #expect(face.familyName == "Noto Color Emoji")
        #expect(try FontFace(path: Self.dejaVu).drawsInColour == false)
    }

    @Test func eachEmojiIsAPNGInItsBox() throws {
        let face = try FontFace(path: Self.emoji)
        let shaped = face.shape("😀", direction: .leftToRight)
        let glyph = try #require(shaped.first?.glyph)
        let bitmap = try #require(face.colourBitmap(of: glyph))
        #expect(bitmap.png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // The one strike: 136 x 128 pixels at 109 pixels to the em, in a face of 2048 units to the em.
        let (width, height) = try #require(Self.pngSize(bitmap.png))
        #expect((width, height) == (136, 128))
        #expect(abs(bitmap.width - 136 * 2048 / 109) <= 2 && abs(bitmap.height - 128 * 2048 / 109) <= 2)
        // It stands on the baseline's neighbourhood, with its top near the em's and its advance as wide as it is.
        #expect(bitmap.top > 1500 && bitmap.top - bitmap.height < 0)
        #expect(abs(shaped[0].xAdvance - bitmap.width) < 64)
        // A space has an advance but no picture; an outline face has no pictures at all.
        let space = try #require(face.glyph(for: " "))
        #expect(face.colourBitmap(of: space) == nil)
        let dejaVu = try FontFace(path: Self.dejaVu)
        #expect(dejaVu.colourBitmap(of: try #require(dejaVu.glyph(for: "😀"))) == nil)
    }

    @Test func aSequenceIsOnePicture() throws {
        let face = try FontFace(path: Self.emoji)
        let family = face.shape("👨\u{200D}👩\u{200D}👧", direction: .leftToRight)
        #expect(family.count == 1)
        let man = try #require(face.glyph(for: "👨"))
        #expect(family[0].glyph != man)
        let bitmap = try #require(face.colourBitmap(of: family[0].glyph))
        #expect(bitmap.png != face.colourBitmap(of: man)?.png)
    }
}
