import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import PhotoBook

/// The attention map's choices, on maps and pictures made here (the rendered pages are AttentionCropTests').
struct AttentionMapTests {
    /// A 32 x 32 map whose interest is `value(column, row)`.
    static func map(_ value: (Int, Int) -> Float) -> AttentionMap {
        AttentionMap(columns: 32, rows: 32, cells: (0..<1024).map { value($0 % 32, $0 / 32) })
    }

    @Test("a crop goes to the interest, framed with room; it stays centred on interest in the middle, or everywhere")
    func placement() throws {
        let photo = (width: 3200.0, height: 2000.0), crop = (width: 1000.0, height: 2000.0)
        // Interest in columns 2...5 (200...600 pixels): any crop from 0 to 200 holds it whole; the middle is 100.
        let left = try #require(Self.map { column, _ in (2...5).contains(column) ? 1 : 0 }.place(size: crop, photo: photo))
        #expect(abs(left.x - 100) < 35 && left.y == 0, "\(left)")
        let right = try #require(Self.map { column, _ in column >= 28 ? 1 : 0 }.place(size: crop, photo: photo))
        #expect(abs(right.x - 2200) < 35, "\(right)")
        #expect(Self.map { column, _ in (14...17).contains(column) ? 1 : 0 }.place(size: crop, photo: photo) == nil)
        #expect(Self.map { _, _ in 1 }.place(size: crop, photo: photo) == nil)
        #expect(Self.map { _, _ in 0 }.place(size: crop, photo: photo) == nil)
        // Nothing cut, nothing to place.
        #expect(Self.map { column, _ in column < 4 ? 1 : 0 }.place(size: photo, photo: photo) == nil)
    }

    @Test("a crop that leaves out less than two cells of a side is not moved: the map places to a cell")
    func slack() {
        // A 3:4 portrait on an A4 page keeps 94.3% of its width: 5.7% of slack, under two cells (6.25%).
        let photo = (width: 3000.0, height: 4000.0)
        let a4 = (width: 3000.0 * 0.943, height: 4000.0), wider = (width: 3000.0 * 0.92, height: 4000.0)
        #expect(!AttentionMap.canMove(size: a4, photo: photo))
        #expect(AttentionMap.canMove(size: wider, photo: photo))
        #expect(!AttentionMap.canMove(size: photo, photo: photo))
        // All the interest at the left edge: the A4 crop stays centred, the wider cut goes left.
        let edge = Self.map { column, _ in column < 2 ? 1 : 0 }
        #expect(edge.place(size: a4, photo: photo) == nil)
        let moved = edge.place(size: wider, photo: photo)
        #expect(moved.map { $0.x < 0.5 * (photo.width - wider.width) } == true, "\(String(describing: moved))")
    }

    @Test("a saturated, detailed patch stands out of a plain picture, in the upright cells of a turned one")
    func measure() {
        var pixels = [UInt8](repeating: 150, count: 160 * 120 * 3)
        for y in 10..<40 {
            for x in 100..<150 where (x / 4 + y / 4) % 2 == 0 {
                let i = (y * 160 + x) * 3
                pixels[i] = 230; pixels[i + 1] = 30; pixels[i + 2] = 30
            }
        }
        let image = RGBImage(width: 160, height: 120, pixels: pixels)
        let map = AttentionMap.measure(image, orientation: .topLeft)
        func strongest(_ map: AttentionMap) -> (column: Int, row: Int) {
            let index = map.cells.indices.max { map.cells[$0] < map.cells[$1] }!
            return (index % map.columns, index / map.columns)
        }
        // Stored top right (x 100...150 of 160, y 10...40 of 120): cells 20...30 across, 2...10 down.
        let stored = strongest(map)
        #expect((20...30).contains(stored.column) && (2...10).contains(stored.row), "\(stored)")
        #expect(map.cells.filter { $0 > 0 }.count < 200, "the plain picture holds no interest")
        // Orientation 6 turns the stored top right to the bottom right of the upright picture.
        let turned = strongest(AttentionMap.measure(image, orientation: .rightTop))
        #expect(turned.column >= 21 && turned.row >= 20, "\(turned)")
    }

    @Test("the EXIF thumbnail is found through IFD1, in either byte order, and refused when it runs past the end")
    func thumbnail() {
        for little in [true, false] {
            func u16(_ v: Int) -> [UInt8] { little ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
            func u32(_ v: Int) -> [UInt8] { little ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
            func entry(_ tag: Int, _ value: Int) -> [UInt8] { u16(tag) + u16(4) + u32(1) + u32(value) }
            // IFD0 at 8 with no entry, IFD1 at 14 with the thumbnail's offset and length, the thumbnail at 44.
            let thumbnail: [UInt8] = [0xFF, 0xD8, 1, 2, 3, 0xFF, 0xD9]
            func tiff(length: Int) -> [UInt8] {
                (little ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8) + u16(0) + u32(14)
                    + u16(2) + entry(0x0201, 44) + entry(0x0202, length) + u32(0) + thumbnail
            }
            #expect(EXIFThumbnail.jpeg(in: tiff(length: 7)).map(Array.init) == thumbnail)
            #expect(EXIFThumbnail.jpeg(in: tiff(length: 8)) == nil)
        }
        #expect(EXIFThumbnail.jpeg(in: [0x49, 0x49, 42, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]) == nil)
    }

    @Test("a 12-megapixel HEIC with a thmb item is measured on it; one without keeps its centre crop")
    func heifThumbnail() throws {
        func map(_ name: String) throws -> Result<AttentionMap, CodecError>? {
            let found = Discovery.discover([Fixtures.path("heif/metadata-extractor-images/" + name)], recursive: false)
            let info = try Probe.probe(try #require(found.photos.first), maxPixels: 100_000_000).get()
            #expect(info.storedWidth * info.storedHeight > AttentionProbe.largestWholeDecode)
            return AttentionProbe.map(of: info, maxPixels: 100_000_000, pool: BufferPool(), isCancelled: { false })
        }
        let measured = try #require(try map("samsung-galaxy-s10plus.heic")).get()
        #expect(measured.columns == 32 && measured.rows == 32 && measured.total > 0)
        // The iPhone XR's file has no thumbnail item: too large to decode whole for a map.
        guard case .failure = try #require(try map("iphone-xr.heic")) else {
            Issue.record("an iPhone XR HEIC without a thumbnail was measured")
            return
        }
    }
}
