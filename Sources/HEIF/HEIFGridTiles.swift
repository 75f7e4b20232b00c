import ImageCodec

/// Which tiles of a primary `grid` image lie wholly outside the part of the picture wanted: libheif 1.15 decodes
/// every tile (row-major, on the calling thread, through photobook's HEVC plugin), and the plugin hands it a
/// 1x1 blank tile for each of these instead of decoding it (`pbheif_call.skip`). A landscape photo cropped to a
/// portrait cell needs about 5 of 8 tile columns.
///
/// Only for a grid libheif pastes and hands out as it is or turned (an iPhone's `irot`, applied to the whole canvas
/// after the tiles: the crop is turned back onto the canvas first): 8-bit HEVC tiles of one size, no imir or
/// clap on the grid, nothing on its tiles, and no alpha (a second grid of tiles, decoded after the first).
struct HEIFGridTiles: Equatable {
    let rows: Int, columns: Int
    let tileWidth: Int, tileHeight: Int
    /// The grid's output size: the canvas libheif pastes the tiles into (the last row and column may overhang).
    let width: Int, height: Int
    /// Quarter turns anticlockwise libheif gives the canvas once the tiles are in (the grid's `irot`).
    let quarterTurns: Int

    init(rows: Int, columns: Int, tileWidth: Int, tileHeight: Int, width: Int, height: Int, quarterTurns: Int = 0) {
        (self.rows, self.columns, self.tileWidth, self.tileHeight) = (rows, columns, tileWidth, tileHeight)
        (self.width, self.height, self.quarterTurns) = (width, height, quarterTurns)
    }

    /// The decoded picture's size: the canvas's, turned.
    var turnedSize: (width: Int, height: Int) { quarterTurns % 2 == 0 ? (width, height) : (height, width) }

    /// The primary image's grid, when it is one whose tiles may be left out; nil for any other image.
    init?(_ items: HEIFItems, lumaBits: Int, hasAlpha: Bool) {
        let grid = items.primary
        guard lumaBits == 8, !hasAlpha, items.type(of: grid) == "grid", let turns = items.quarterTurns(of: grid),
              let data = items.data(of: grid) else { return nil }
        var d = BoxReader(bytes: data)
        guard d.skip(1), let flags = d.u8(), let rowsMinusOne = d.u8(), let columnsMinusOne = d.u8() else { return nil }
        let wide = flags & 1 == 1
        guard let width = wide ? d.u32() : d.u16(), let height = wide ? d.u32() : d.u16() else { return nil }
        let tiles = items.tiles(of: grid)
        let rows = Int(rowsMinusOne) + 1, columns = Int(columnsMinusOne) + 1
        guard tiles.count == rows * columns, let first = tiles.first, let size = items.spatialExtent(of: first),
              size.width > 0, size.height > 0 else { return nil }
        for tile in tiles {
            guard items.type(of: tile) == "hvc1", !items.isTransformed(tile),
                  let extent = items.spatialExtent(of: tile), extent == size else { return nil }
        }
        // libheif refuses a grid whose last tiles start outside the canvas; leave such a file to it.
        guard (columns - 1) * size.width < width, (rows - 1) * size.height < height else { return nil }
        self.init(rows: rows, columns: columns, tileWidth: size.width, tileHeight: size.height, width: width, height: height,
                  quarterTurns: turns)
    }

    /// One byte a tile, row-major as libheif decodes them: 1 for a tile with no pixel in `region` (of the decoded
    /// picture, `turnedSize`), which need not be decoded.
    func tilesOutside(_ turned: PixelRegion) -> [UInt8] {
        let region = canvasRegion(of: turned)
        var outside = [UInt8](repeating: 0, count: rows * columns)
        for row in 0..<rows {
            for column in 0..<columns {
                let x = column * tileWidth, y = row * tileHeight
                let overlaps = x < region.x + region.width && region.x < x + tileWidth &&
                               y < region.y + region.height && region.y < y + tileHeight
                outside[row * columns + column] = overlaps ? 0 : 1
            }
        }
        return outside
    }

    /// Where `region` of the decoded picture lies on the canvas before libheif turned it: an anticlockwise quarter
    /// turn takes canvas pixel (x, y) to (y, width - 1 - x).
    func canvasRegion(of region: PixelRegion) -> PixelRegion {
        let (x0, y0, x1, y1) = (region.x, region.y, region.x + region.width, region.y + region.height)
        switch quarterTurns {
        case 1: return PixelRegion(x: width - y1, y: x0, width: region.height, height: region.width)
        case 2: return PixelRegion(x: width - x1, y: height - y1, width: region.width, height: region.height)
        case 3: return PixelRegion(x: y0, y: height - x1, width: region.height, height: region.width)
        default: return region
        }
    }
}
