import CTIFF
import ImageCodec

/// Reads the rows of a region of one page, top to bottom, as 8-bit RGB, a band at a time: only the strips or
/// tiles that hold the region's rows, so memory is one band (a strip, or a row of tiles) and never the page.
struct TIFFBandReader {
    let file: TIFFFile
    let page: TIFFPage
    let region: PixelRegion
    /// nil: libtiff's RGBA reader converts (YCbCr without JPEG, LogLuv, Lab, odd depths).
    let converter: TIFFRowConverter?

    /// How many rows are read between two calls of `shouldCancel` when strips are read a row at a time.
    static let rowsPerBand = 64

    typealias Emit = (UnsafeBufferPointer<UInt8>) -> Void

    /// Reads the region, handing each of its rows in turn to `emit` (`region.width * 3` bytes); asks
    /// `shouldCancel` between bands.
    func read(shouldCancel: () -> Bool, emit: Emit) throws(CodecError) {
        if page.isTiled {
            try readTiles(shouldCancel, emit)
        } else if converter != nil && !page.pixelFormat.isPlanar {
            try readScanlines(shouldCancel, emit)
        } else {
            try readStrips(shouldCancel, emit)
        }
    }

    /// Fails before reading a strip or tile whose bytes lie past the end of the file (a cut file, or a header
    /// that claims far more than the file holds).
    private func checkInFile(_ index: Int, _ what: String) throws(CodecError) {
        let (offset, count) = file.strile(index)
        guard offset <= UInt64(file.fileSize), count <= UInt64(file.fileSize) - offset else {
            throw .corrupt("truncated TIFF (\(what) \(index) lies past the end of the file)")
        }
    }

    private static func bytes(_ a: Int, _ b: Int, _ c: Int = 1) throws(CodecError) -> Int {
        let (ab, o1) = a.multipliedReportingOverflow(by: b)
        let (abc, o2) = ab.multipliedReportingOverflow(by: c)
        guard !o1, !o2, abc <= TIFFFile.maxSingleAllocation else {
            throw .unsupported("unsupported TIFF (its strips or tiles are too large to read in bands)")
        }
        return abc
    }

    /// Chunky strips through `TIFFReadScanline`: libtiff reads a long strip's bytes in pieces, so a photo
    /// stored as one huge strip costs one row here. A strip can only be decoded from its start (Trap: libtiff
    /// 4.5's compressed codecs cannot seek forward inside a strip), so reading starts at the region's first strip.
    private func readScanlines(_ shouldCancel: () -> Bool, _ emit: Emit) throws(CodecError) {
        guard let converter else { return }
        let rowBytes = file.scanlineSize
        guard rowBytes > 0 else { throw file.failure("cannot size a scanline") }
        let row = RawBuffer(try Self.bytes(rowBytes, 1))
        var rgb = [UInt8](repeating: 0, count: region.width * 3)
        let planes = [UnsafeRawPointer(row.start)]
        let rowsPerStrip = max(1, page.rowsPerStrip)
        var y = region.y / rowsPerStrip * rowsPerStrip
        var sinceCheck = Self.rowsPerBand
        while y < region.y + region.height {
            if y % rowsPerStrip == 0 { try checkInFile(y / rowsPerStrip, "strip") }
            if sinceCheck >= Self.rowsPerBand {
                if shouldCancel() { throw .cancelled }
                sinceCheck = 0
            }
            try file.readScanline(y, into: row.start)
            // Rows above the region are decoded too (and counted: a tall strip must not run unchecked).
            sinceCheck += 1
            if y >= region.y {
                rgb.withUnsafeMutableBufferPointer { out in
                    planes.withUnsafeBufferPointer {
                        converter.convert(planes: $0, first: region.x, count: region.width, into: out.baseAddress!)
                    }
                }
                rgb.withUnsafeBufferPointer { emit($0) }
            }
            y += 1
        }
    }

    /// Whole strips (`TIFFReadEncodedStrip`, one a plane for planar data), or libtiff's RGBA strips.
    private func readStrips(_ shouldCancel: () -> Bool, _ emit: Emit) throws(CodecError) {
        let rowsPerStrip = max(1, page.rowsPerStrip)
        let stripsPerPlane = (page.height + rowsPerStrip - 1) / rowsPerStrip
        // Only the planes of the samples used: a file may declare thousands.
        let planeSamples = page.pixelFormat.isPlanar ? converter?.used ?? [0] : [0]
        let planeCount = planeSamples.count
        let stripBytes = converter == nil ? try Self.bytes(page.width, rowsPerStrip, 4) : file.stripSize
        guard stripBytes > 0 else { throw file.failure("cannot size a strip") }
        let rowBytes = converter == nil ? page.width * 4 : file.scanlineSize
        let buffer = RawBuffer(try Self.bytes(stripBytes, planeCount))
        var rgb = [UInt8](repeating: 0, count: region.width * 3)
        var planes = [UnsafeRawPointer]()
        var strip = region.y / rowsPerStrip
        while strip * rowsPerStrip < region.y + region.height {
            if shouldCancel() { throw .cancelled }
            let top = strip * rowsPerStrip
            let rows = min(rowsPerStrip, page.height - top)
            if converter == nil {
                try checkInFile(strip, "strip")
                try file.readRGBAStrip(row: top, into: buffer.start.assumingMemoryBound(to: UInt32.self))
            } else {
                for (slot, plane) in planeSamples.enumerated() {
                    try checkInFile(strip + plane * stripsPerPlane, "strip")
                    try file.readStrip(strip + plane * stripsPerPlane, into: buffer.start + slot * stripBytes,
                                       size: stripBytes)
                }
            }
            for y in max(top, region.y)..<min(top + rows, region.y + region.height) {
                rgb.withUnsafeMutableBufferPointer { out in
                    if let converter {
                        planes = (0..<planeCount).map { UnsafeRawPointer(buffer.start + $0 * stripBytes + (y - top) * rowBytes) }
                        planes.withUnsafeBufferPointer {
                            converter.convert(planes: $0, first: region.x, count: region.width, into: out.baseAddress!)
                        }
                    } else {
                        // libtiff's RGBA strip is bottom-up: the strip's last row comes first.
                        let pixels = buffer.start.assumingMemoryBound(to: UInt32.self)
                        TIFFRowConverter.convertRGBA(pixels + (rows - 1 - (y - top)) * page.width + region.x,
                                                     count: region.width, into: out.baseAddress!)
                    }
                }
                rgb.withUnsafeBufferPointer { emit($0) }
            }
            strip += 1
        }
    }

    /// A row of tiles at a time: only the tiles across the region (`TIFFReadEncodedTile`, one a plane for planar
    /// data, or libtiff's RGBA tiles), converted into a band as tall as a tile.
    private func readTiles(_ shouldCancel: () -> Bool, _ emit: Emit) throws(CodecError) {
        let tileWidth = page.tileWidth, tileHeight = page.tileHeight
        guard tileWidth > 0, tileHeight > 0 else { throw .corrupt("corrupt TIFF (tiles of no size)") }
        let planeSamples = page.pixelFormat.isPlanar ? converter?.used ?? [0] : [0]
        let planeCount = planeSamples.count
        let tileBytes = converter == nil ? try Self.bytes(tileWidth, tileHeight, 4) : file.tileSize
        guard tileBytes > 0 else { throw file.failure("cannot size a tile") }
        // The bytes of one of a tile's rows (of one plane): what TIFFTileRowSize says, from the same fields.
        let tileRowBytes = converter == nil ? tileWidth * 4 : tileBytes / tileHeight
        let buffer = RawBuffer(try Self.bytes(tileBytes, planeCount))
        var band = [UInt8](repeating: 0, count: try Self.bytes(region.width * 3, tileHeight))
        var planes = [UnsafeRawPointer]()
        var top = region.y / tileHeight * tileHeight
        while top < region.y + region.height {
            if shouldCancel() { throw .cancelled }
            let firstRow = max(top, region.y), endRow = min(top + tileHeight, region.y + region.height)
            var left = region.x / tileWidth * tileWidth
            while left < region.x + region.width {
                let firstColumn = max(left, region.x), endColumn = min(left + tileWidth, region.x + region.width)
                if converter == nil {
                    try checkInFile(file.tileIndex(x: left, y: top, plane: 0), "tile")
                    try file.readRGBATile(x: left, y: top, into: buffer.start.assumingMemoryBound(to: UInt32.self))
                } else {
                    for (slot, plane) in planeSamples.enumerated() {
                        let index = file.tileIndex(x: left, y: top, plane: plane)
                        try checkInFile(index, "tile")
                        try file.readTile(index, into: buffer.start + slot * tileBytes, size: tileBytes)
                    }
                }
                let raw = UnsafeRawBufferPointer(start: buffer.start, count: buffer.count)
                band.withUnsafeMutableBufferPointer { out in
                    for y in firstRow..<endRow {
                        let target = out.baseAddress! + (y - firstRow) * region.width * 3 + (firstColumn - region.x) * 3
                        if let converter {
                            planes = (0..<planeCount).map {
                                raw.baseAddress! + $0 * tileBytes + (y - top) * tileRowBytes
                            }
                            planes.withUnsafeBufferPointer {
                                converter.convert(planes: $0, first: firstColumn - left,
                                                  count: endColumn - firstColumn, into: target)
                            }
                        } else {
                            // libtiff's RGBA tile is bottom-up, a full tile even at the picture's edge.
                            let pixels = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                            TIFFRowConverter.convertRGBA(pixels + (tileHeight - 1 - (y - top)) * tileWidth
                                                         + (firstColumn - left),
                                                         count: endColumn - firstColumn, into: target)
                        }
                    }
                }
                left += tileWidth
            }
            band.withUnsafeBufferPointer { all in
                for y in firstRow..<endRow {
                    emit(UnsafeBufferPointer(rebasing: all[(y - firstRow) * region.width * 3..<(y - firstRow + 1) * region.width * 3]))
                }
            }
            top += tileHeight
        }
    }
}

/// Bytes libtiff writes into, freed when the reader is done with them (zero-filled: a short strip leaves no
/// stale memory behind).
final class RawBuffer {
    let start: UnsafeMutableRawPointer
    let count: Int
    init(_ count: Int) {
        self.count = count
        start = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        start.initializeMemory(as: UInt8.self, repeating: 0, count: max(count, 1))
    }
    deinit { start.deallocate() }
}
