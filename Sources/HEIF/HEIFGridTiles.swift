import ImageCodec

/// Which tiles of a primary `grid` image lie wholly outside the part of the picture wanted: libheif 1.15 decodes
/// every tile (row-major, on the calling thread, through photobook's HEVC plugin), and the plugin hands it a
/// 1x1 blank tile for each of these instead of decoding it (`pbheif_skip_tiles`). A landscape photo cropped to a
/// portrait cell needs about 5 of 8 tile columns.
///
/// Only for a grid libheif pastes and hands out as it is: 8-bit HEVC tiles of one size, none of irot, imir or
/// clap on the grid or its tiles (they would move the canvas under the crop) and no alpha (a second grid of
/// tiles, decoded after the first).
struct HEIFGridTiles: Equatable {
    let rows: Int, columns: Int
    let tileWidth: Int, tileHeight: Int
    /// The grid's output size: the canvas libheif pastes the tiles into (the last row and column may overhang).
    let width: Int, height: Int

    init(rows: Int, columns: Int, tileWidth: Int, tileHeight: Int, width: Int, height: Int) {
        (self.rows, self.columns, self.tileWidth, self.tileHeight) = (rows, columns, tileWidth, tileHeight)
        (self.width, self.height) = (width, height)
    }

    /// The primary image's grid, when it is one whose tiles may be left out; nil for any other image.
    init?(_ items: HEIFItems, lumaBits: Int, hasAlpha: Bool) {
        let grid = items.primary
        guard lumaBits == 8, !hasAlpha, items.type(of: grid) == "grid", !items.isTransformed(grid),
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
        self.init(rows: rows, columns: columns, tileWidth: size.width, tileHeight: size.height, width: width, height: height)
    }

    /// One byte a tile, row-major as libheif decodes them: 1 for a tile with no pixel in `region` (in the
    /// grid's output coordinates), which need not be decoded.
    func tilesOutside(_ region: PixelRegion) -> [UInt8] {
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
}
