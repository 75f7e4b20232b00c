import CJPEGShim
import Imaging

/// Crops and turns a JPEG without decoding it: the quantised DCT coefficients of the blocks under the crop are
/// copied into a new file, moved, transposed and sign-flipped as the orientation says (as `jpegtran` does), and
/// written with the source's quantisation tables. The pixels a reader decodes are the source's own; nothing is
/// lost, and the work is a fraction of a decode and an encode.
///
/// What can be copied, and what is refused (`.unsuitable`, for the caller to decode pixels instead):
/// - grey (1 component) and YCbCr (3 components) files, 8-bit; CMYK, YCCK and RGB-coded files are refused (a
///   PDF reader's handling of a 4-component JPEG depends on a Decode array, and photobook re-encodes them).
/// - progressive files are read whole and written as baseline; arithmetic-coded ones are written with Huffman
///   coding (PDF readers do not decode arithmetic coding); restart markers are dropped. All stay lossless.
/// - unusual sampling factors are refused: chroma sampled more finely than luma (luma 1x1, chroma 2x2), or at a
///   ratio that is not a whole number (3 against 2), which libjpeg cannot even decode.
/// - a crop starts on the iMCU grid (whole MCUs: 16 pixels for 4:2:0) and ends on it or at the image's edge.
///   A turn that moves the image's right or bottom edge to the new file's left or top cannot start the new file
///   with part of an iMCU (`jpegtran -perfect` refuses it, `-trim` drops it): the crop then runs on into the
///   padding the file holds beyond that edge, to the end of the iMCU, and the page's clipping path hides it.
public enum JPEGLosslessCrop {
    /// A new JPEG file and the stored pixels it shows.
    public struct Output: Sendable, Equatable {
        public var bytes: [UInt8]
        /// The stored (not yet turned) full-resolution pixels the file holds: the requested region grown outwards
        /// to the iMCU grid. It may reach past the image's right or bottom edge into the file's padding.
        public var storedRegion: JPEGRegion
    }

    public enum Result: Sendable, Equatable {
        case cropped(Output)
        /// The file cannot be copied block for block; says why, for the caller to decode its pixels instead.
        case unsuitable(String)
    }

    /// The blocks of `data` under `region` (stored pixels, clamped to the image), turned upright as
    /// `orientation` says, as a new baseline JPEG (`jpeg_read_coefficients`, `jpeg_write_coefficients`).
    ///
    /// Throws as decoding would for files that are corrupt or truncated (any libjpeg warning fails), too large
    /// (more than `maxPixels`), or when `shouldCancel` returns true (asked while reading and writing).
    /// `optimizeCoding` fits the Huffman tables to the blocks (one more pass over them, smaller files).
    /// libjpeg's large blocks (the source's coefficients, the new file's) come from `pool`.
    /// `place`, when given, chooses the region once the blocks are read, from the picture of their means
    /// (`JPEGBlockMeans`: 1/8 of the stored picture): a crop placed on what the file shows, at no second read.
    public static func crop(_ data: [UInt8], region: JPEGRegion, orientation: Orientation, maxPixels: Int,
                            optimizeCoding: Bool = true, pool: BufferPool = BufferPool(),
                            shouldCancel: () -> Bool = { false },
                            place: ((RGBImage) -> JPEGRegion)? = nil) throws(JPEGError) -> Result {
        try withJPEGBytes(data, shouldCancel: shouldCancel) { (bytes, probe) throws(JPEGError) -> Result in
            let (transcoder, layout) = try opened(bytes, maxPixels: maxPixels, probe: probe, pool: pool)
            let width = Int(layout.width), height = Int(layout.height)
            if let reason = unsuitability(layout) { return .unsuitable(reason) }
            // A file that cannot be read is broken, and fails; one that is read but cannot be copied as it is (a
            // quantisation table redefined between scans: jpeg_copy_critical_parameters refuses it) decodes all
            // the same, so it goes the pixel way.
            try transcoder.readCoefficients()
            let chosen = try place.map { (place) throws(JPEGError) in
                place(try JPEGBlockMeans.picture(transcoder, layout: layout))
            } ?? region
            let covering = coveringRegion(of: chosen, imageWidth: width, imageHeight: height,
                                          iMCUWidth: Int(layout.imcu_width), iMCUHeight: Int(layout.imcu_height),
                                          orientation: orientation)
            let file: [UInt8]
            do throws(JPEGError) {
                file = try transcoder.run(region: covering, orientation: orientation.rawValue,
                                          optimizeCoding: optimizeCoding)
            } catch {
                if error == .cancelled { throw error }
                return .unsuitable("its blocks cannot be copied: \(error)")
            }
            return .cropped(Output(bytes: file, storedRegion: covering))
        }
    }

    /// A transcoder over `bytes` with the header read, refusing a picture of more than `maxPixels`.
    static func opened(_ bytes: UnsafeBufferPointer<UInt8>, maxPixels: Int, probe: CancellationProbe,
                       pool: BufferPool) throws(JPEGError) -> (TranscoderHandle, pb_jpeg_header) {
        let transcoder = try TranscoderHandle(maxScans: JPEGDecoder.maximumProgressiveScans, probe: probe, pool: pool)
        let layout = try transcoder.readHeader(bytes)
        let width = Int(layout.width), height = Int(layout.height)
        guard width * height <= maxPixels else { throw .tooLarge(width: width, height: height, limit: maxPixels) }
        return (transcoder, layout)
    }

    /// Why a file with this layout cannot be copied block for block, or nil when it can.
    static func unsuitability(_ layout: pb_jpeg_header) -> String? {
        let space = JPEGColorSpace(shim: layout.color_space)
        switch (space, layout.components) {
        case (.ycbcr, 3), (.grayscale, 1): break
        default: return "\(layout.components) components in \(space) colour are re-encoded"
        }
        guard layout.precision == 8 else { return "\(layout.precision)-bit samples" }
        if layout.components == 3 {
            // Luma at full resolution and chroma at a whole fraction of it: what cameras write, and what every
            // reader decodes. (libjpeg reads any factors' coefficients, but cannot decode fractional ratios.)
            let factors = [(layout.h.0, layout.v.0), (layout.h.1, layout.v.1), (layout.h.2, layout.v.2)]
            let usual = factors[0] == (Int32(layout.max_h), Int32(layout.max_v))
                && factors.allSatisfy { h, v in h >= 1 && v >= 1 && layout.max_h % h == 0 && layout.max_v % v == 0 }
            if !usual {
                return "unusual sampling factors " + factors.map { "\($0.0)x\($0.1)" }.joined(separator: ",")
            }
        }
        return nil
    }

    /// The stored region a lossless crop of `region` copies: grown outwards to the iMCU grid, and at the
    /// image's right or bottom edge either stopped there or, when `orientation` moves that edge to the new
    /// file's left or top, run on to the end of its iMCU (into the file's padding).
    public static func coveringRegion(of region: JPEGRegion, imageWidth: Int, imageHeight: Int,
                                      iMCUWidth: Int, iMCUHeight: Int, orientation: Orientation) -> JPEGRegion {
        func span(_ start: Int, _ length: Int, limit: Int, unit: Int, flipped: Bool) -> (Int, Int) {
            let first = min(max(0, start), limit - 1), last = min(limit, max(first + 1, start + length))
            let from = first / unit * unit
            var to = (last + unit - 1) / unit * unit
            if to > limit && !flipped { to = limit }
            return (from, to - from)
        }
        let (x, width) = span(region.x, region.width, limit: imageWidth, unit: iMCUWidth,
                              flipped: orientation.mirrorsStoredColumns)
        let (y, height) = span(region.y, region.height, limit: imageHeight, unit: iMCUHeight,
                               flipped: orientation.mirrorsStoredRows)
        return JPEGRegion(x: x, y: y, width: width, height: height)
    }
}

extension Orientation {
    /// The stored image's last column ends up on the upright image's left or top edge (2, 3, 7, 8).
    var mirrorsStoredColumns: Bool { [.topRight, .bottomRight, .rightBottom, .leftBottom].contains(self) }
    /// The stored image's last row ends up on the upright image's left or top edge (3, 4, 6, 7).
    var mirrorsStoredRows: Bool { [.bottomRight, .bottomLeft, .rightTop, .rightBottom].contains(self) }
}
