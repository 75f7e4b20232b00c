import CGIF
import Geometry
import ImageCodec
import Imaging

/// GIF through giflib 5.2: the first frame, composed onto the logical screen (its offset, its own or the global
/// colour table, interlaced or not, the transparent index of its Graphics Control Extension) over white; an
/// animation gives its first frame, with a warning that says so.
///
/// Read records up to the first image only, never the whole animation (`GIFReader`). A frame's pixels outside the
/// screen are clipped; an index past the colour table's end is black (Trap: giflib does not check indices against
/// the table; ImageMagick uses entry 0 and warns, browsers differ: black shows the damage without inventing a
/// colour). The region asked
/// for is decoded at full resolution and shrunk by a whole factor on the way (`BoxShrink`), as a WebP
/// animation's first frame is; rows below the region are not decoded.
public struct GIFCodec: SinglePictureCodec {
    public init() {}

    public var name: String { "GIF" }
    public var libraryVersion: String { "giflib \(GIFLIB_MAJOR).\(GIFLIB_MINOR).\(GIFLIB_RELEASE)" }
    public var fileExtensions: Set<String> { ["gif"] }

    public func recognises(_ prefix: [UInt8]) -> Bool {
        prefix.starts(with: Array("GIF87a".utf8)) || prefix.starts(with: Array("GIF89a".utf8))
    }

    public func damageInSignature(_ prefix: [UInt8]) -> String? {
        prefix.count >= 13 && prefix.starts(with: Array("GIF".utf8)) && !recognises(prefix)
            ? "corrupt GIF (damaged signature)" : nil
    }

    /// The most frames counted for the warning: past it the count is "at least".
    static let frameCountLimit = 1000

    // LZW decoding and a table look-up a pixel: a few ns per stored pixel, as PNG's inflate.
    public var cost: DecodeCost { DecodeCost(perStoredPixel: 6, perDecodedPixel: 2) }

    /// An animation's later frames are in the file too, and nothing in the first frame bounds how many there are
    /// (a long animation is hundreds of screens' worth): any GIF up to 1 GB is read. Only its first frame is
    /// decoded, and the probe skims at most `frameScanLimit` bytes counting the rest.
    public func largestSoundFile(pixels: Int) -> Int { 1 << 30 }

    /// The most bytes the probe reads to count frames: past it the count is "at least".
    static let frameScanLimit = HeaderReading.headerLimit

    /// The logical screen, with the first frame's warnings; no pixel is decoded (the image data is skipped
    /// block by block to count the frames after the first).
    public func probePicture(_ source: any ByteSource) throws(CodecError) -> ImageHeader {
        let reader = try GIFReader(source)
        let first = try reader.readToFirstImage()
        var header = ImageHeader(width: first.screenWidth, height: first.screenHeight)
        header.xmp = first.xmp
        header.notes = first.notes
        let frame = first.frame
        if frame.x + frame.width > first.screenWidth || frame.y + frame.height > first.screenHeight {
            header.notes.append("its first frame (\(frame.width)x\(frame.height) at \(frame.x),\(frame.y)) reaches past "
                                + "its \(first.screenWidth)x\(first.screenHeight) screen and is clipped")
        }
        let (more, complete) = try reader.countImagesAfterCurrent(limit: Self.frameCountLimit, byteLimit: Self.frameScanLimit)
        var details = [first.version]
        if first.interlaced { details.append("interlaced") }
        if first.transparentIndex != nil { details.append("transparent") }
        if more > 0 {
            let frames = complete ? "\(more + 1) frames" : "at least \(more + 1) frames"
            header.warnings.append("animated GIF (\(frames)): only the first frame is used")
            details.append("animated")
        }
        header.detail = details.joined(separator: ", ")
        return header
    }

    public func decodePicture(_ source: any ByteSource, _ request: DecodeRequest, pool: BufferPool,
                              shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        let reader = try GIFReader(source)
        let first = try reader.readToFirstImage()
        let width = first.screenWidth, height = first.screenHeight
        let frame = first.frame
        try request.checkPixels(width: width, height: height)
        try request.checkPixels(width: frame.width, height: frame.height, of: "its first frame")
        let region = try request.region(inside: width, height)
        let factor = request.shrinkFactor(for: region)
        // The part of the region the frame covers, in the frame's own coordinates; white around it.
        let overlap = PixelRegion(x: region.x - frame.x, y: region.y - frame.y, width: region.width,
                                  height: region.height).clamped(width: frame.width, height: frame.height)
        var rows = FrameRows(reader: reader, frame: frame, overlap: overlap, interlaced: first.interlaced)
        do {
            try rows.prepare(pool: pool, shouldCancel: shouldCancel)
        } catch {
            rows.release(to: pool)
            throw error
        }
        var shrink = BoxShrink(region: region, factor: factor, pool: pool)
        var row = [UInt8](repeating: 255, count: region.width * 3)
        let transparent = first.transparentIndex ?? -1
        for y in region.y..<(region.y + region.height) {
            if (y - region.y) % 32 == 0 && shouldCancel() {
                rows.release(to: pool)
                shrink.abandon()
                throw .cancelled
            }
            for i in row.indices { row[i] = 255 }
            if let overlap, y - frame.y >= overlap.y, y - frame.y < overlap.y + overlap.height {
                let column = frame.x + overlap.x - region.x
                do {
                    try rows.withRow(y - frame.y) { indices in
                        first.colors.withUnsafeBufferPointer { colors in
                            row.withUnsafeMutableBufferPointer { out in
                                for i in 0..<overlap.width {
                                    let index = Int(indices[i])
                                    guard index != transparent else { continue }
                                    let o = (column + i) * 3
                                    out[o] = colors[index * 3]; out[o + 1] = colors[index * 3 + 1]
                                    out[o + 2] = colors[index * 3 + 2]
                                }
                            }
                        }
                    }
                } catch {
                    rows.release(to: pool)
                    shrink.abandon()
                    throw error
                }
            }
            row.withUnsafeBufferPointer { shrink.add(row: $0) }
        }
        rows.release(to: pool)
        return shrink.finish(storedWidth: width, storedHeight: height)
    }
}

/// The first frame's rows under a region, as colour indices, top to bottom: read as they come from a frame
/// stored in order (nothing past the region's last row is decoded), or, from an interlaced frame (rows in four
/// passes), gathered into a buffer of the overlap's size first.
struct FrameRows {
    let reader: GIFReader
    let frame: PixelRegion
    /// The part of the frame under the region, in the frame's coordinates; nil when the region misses it.
    let overlap: PixelRegion?
    let interlaced: Bool
    private var line: [UInt8]
    private var gathered: [UInt8] = []
    private var nextRow = 0

    init(reader: GIFReader, frame: PixelRegion, overlap: PixelRegion?, interlaced: Bool) {
        self.reader = reader
        self.frame = frame
        self.overlap = overlap
        self.interlaced = interlaced
        line = overlap == nil ? [] : [UInt8](repeating: 0, count: frame.width)
    }

    /// An interlaced frame's four passes: first row and step (GIF89a, appendix E).
    static let passes = [(start: 0, step: 8), (start: 4, step: 8), (start: 2, step: 4), (start: 1, step: 2)]

    /// Decodes the frame's rows above the overlap (a frame stored in order), or, for an interlaced frame, the
    /// whole frame keeping the overlap's indices (stopping once they are all in); asks `shouldCancel` every 32 rows.
    mutating func prepare(pool: BufferPool, shouldCancel: () -> Bool) throws(CodecError) {
        guard let overlap else { return }
        guard interlaced else {
            while nextRow < overlap.y {
                if nextRow % 32 == 0 && shouldCancel() { throw .cancelled }
                try line.withUnsafeMutableBufferPointer { line throws(CodecError) in try reader.readLine(line) }
                nextRow += 1
            }
            return
        }
        gathered = pool.take(overlap.width * overlap.height)
        var kept = 0, read = 0
        for (start, step) in Self.passes {
            var y = start
            while y < frame.height, kept < overlap.height {
                if read % 32 == 0 && shouldCancel() { throw .cancelled }
                try line.withUnsafeMutableBufferPointer { line throws(CodecError) in try reader.readLine(line) }
                read += 1
                if y >= overlap.y && y < overlap.y + overlap.height {
                    let at = (y - overlap.y) * overlap.width
                    for i in 0..<overlap.width { gathered[at + i] = line[overlap.x + i] }
                    kept += 1
                }
                y += step
            }
        }
    }

    /// `body` of the overlap's indices on frame row `y` (rows are asked for in order, each once).
    mutating func withRow(_ y: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(CodecError) {
        let overlap = overlap!
        if interlaced {
            gathered.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[((y - overlap.y) * overlap.width)...])) }
            return
        }
        while nextRow <= y {
            try line.withUnsafeMutableBufferPointer { line throws(CodecError) in try reader.readLine(line) }
            nextRow += 1
        }
        line.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[overlap.x...])) }
    }

    /// Gives the interlaced frame's buffer back.
    mutating func release(to pool: BufferPool) {
        if !gathered.isEmpty { pool.giveBack(gathered) }
        gathered = []
    }
}
