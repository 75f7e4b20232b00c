import Geometry
import Imaging
import Synchronization

/// One photo's way through the graph: what the planner decided for it and what its stages hand on.
final class PhotoJob: Sendable {
    let info: PhotoInfo
    /// The plan's placement; its crop moves at render when `aimsAtRender` (then `placed` is where it went).
    let placement: PlacedPhoto
    /// The crop is placed by the photo's attention map, measured in the render's worker from what the render
    /// reads anyway (a lossless crop's blocks) rather than in the probe: the plan left it at the centre.
    let aimsAtRender: Bool
    /// The placement after the render's worker aimed the crop; the plan's when it did not.
    let aimed = Mutex<PlacedPhoto?>(nil)
    /// The photo's own JPEG bytes go into the book unchanged (checked by a full decode first); its orientation
    /// and any crop go into the page's transformation matrix and a clipping path.
    let passThrough: Bool
    /// A JPEG shown at its own resolution but cropped: its DCT blocks under the crop are copied into a new file
    /// (`DecodeOperation.losslessCrop`), unless the file cannot take that path.
    let lossless: Bool
    /// The crop (full-resolution upright pixels) mapped into the photo as stored: decode picks the region to
    /// read from it and resize the region to sample, and they must agree to the pixel (both read it after the
    /// crop was aimed, which happens before either).
    var storedCrop: Rect {
        info.orientation.storedRect(ofUpright: placed.crop, storedWidth: Double(info.storedWidth),
                                    storedHeight: Double(info.storedHeight))
    }
    /// Where the photo goes: the plan's placement, its crop aimed at render when `aimsAtRender`.
    var placed: PlacedPhoto { aimed.withLock { $0 } ?? placement }
    /// What the photo holds from the start of its decode to the end of its render, by `estimatedMemory`, told to
    /// the build's pool so that it keeps no buffer in that room (`BufferPool.reserve`).
    let held = Mutex<BufferPool.Reservation?>(nil)
    /// The decoded photo, as stored (not yet oriented), from decode to resize; released as soon as it is used.
    let decoded = Mutex<DecodedPhoto?>(nil)
    /// What its codec said while decoding it, for `--verbose` (`DecodedImage.notes`).
    let decodeNotes = Mutex<[String]>([])
    /// The JPEG rendered for the page, in the build's private directory.
    let rendered = Mutex<String?>(nil)
    /// For a lossless render: the part of the upright photo (full-resolution pixels) its JPEG's whole blocks show,
    /// a little more than the plan's crop, which the page clips to.
    let blocksShown = Mutex<Rect?>(nil)
    /// The key its render is kept under in the render cache (`RenderRequest.key`); nil without a cache. Set when
    /// the chain is made if the file's digest is known then, else by the decode, from the bytes it reads.
    let cacheKey = Mutex<String?>(nil)
    /// What the decode's look-up in the render cache found worth a note (`DecodeOperation.lookUp`).
    let cacheNote = Mutex<RenderCache.Note?>(nil)

    /// - Parameter reencodes: every photo is decoded and encoded again (a PDF/X-1a book's CMYK): no pass-through,
    ///   no lossless crop.
    init(info: PhotoInfo, placement: PlacedPhoto, keepOriginals: Bool, losslessCrops: Bool, reencodes: Bool = false,
         aimsAtRender: Bool = false) {
        self.info = info
        self.placement = placement
        self.aimsAtRender = aimsAtRender
        passThrough = !reencodes && info.isEmbeddableAsIs
            && (keepOriginals || placement.usesWholePhoto(uprightWidth: info.uprightWidth, uprightHeight: info.uprightHeight))
        lossless = !reencodes && losslessCrops && info.format.codec.blocks != nil && !passThrough && placement.copiesPixels
    }
}

/// What decoding hands to the render stage.
enum DecodedPhoto: Sendable {
    /// Pixels as stored (not yet oriented), possibly DCT-scaled and cropped: `covers` is the part of the stored
    /// full-resolution photo they start at, `scale` decoded pixels per full-resolution pixel (M/8 for a JPEG).
    /// (Not width / covers.width: libjpeg rounds a scaled side up, so a last pixel at the image's edge is partial.)
    case pixels(RGBImage, covers: Rect, scale: Double)
    /// Pixels as stored at full resolution, read a row at a time from what the codec kept (`DecodedImage.rows`).
    case rows(any PixelRows, covers: Rect)
    /// The file's own bytes, fully decoded once to prove they are sound.
    case original([UInt8])
    /// A new JPEG of the photo's own blocks, cropped and turned upright; `blocksShown` is the part of the upright
    /// photo they show (full-resolution pixels).
    case transcoded([UInt8], blocksShown: Rect)
    /// The render an earlier build made, from the render cache: written as it is, not stored again.
    case cached([UInt8])
}

extension PhotoJob {
    /// A rough guess of the CPU this photo's decode and render take, in arbitrary units (about nanoseconds on the
    /// bench machine), used only to order the work: the longest jobs start first, so the last minutes of a build
    /// are not one 18 MB PNG decoding on one core while the others have nothing left to do. The codec says what
    /// its decode costs per stored and per decoded pixel (`ImageCodec.cost`); a lossless crop also writes its
    /// blocks again (as much again as reading them); page pixels are resampled and encoded (~25, measured with
    /// perf on 12-megapixel photos).
    var estimatedCost: Double {
        let stored = Double(info.storedWidth) * Double(info.storedHeight)
        let page = Double(placement.pixelWidth) * Double(placement.pixelHeight)
        let cost = info.format.codec.cost
        if passThrough { return cost.perStoredPixel * stored }
        if lossless { return 2 * cost.perStoredPixel * stored }
        return cost.total(stored: stored, decoded: decodedPixels) + 25 * page
    }

    /// The bytes this photo's decode and render hold at once, from the start of its decode to the end of its
    /// resampling: what the codec keeps of the whole picture and hands out (`ImageCodec.memory`), and the page's
    /// pixels. The file's own bytes hold about the file; a lossless crop holds libjpeg's coefficients of the
    /// whole picture (2 bytes each, 1.5 a pixel at 4:2:0: 36 MB for 12 megapixels, where the file's 4 MB were
    /// counted and the pool kept 90 MB beside two crops).
    var estimatedMemory: Int {
        let stored = Double(info.storedWidth) * Double(info.storedHeight)
        let page = Double(placement.pixelWidth) * Double(placement.pixelHeight) * 3
        if passThrough { return Int(min(stored * 3, 1e15)) / 8 }
        if lossless { return Int(min(stored * 3, 1e15)) }
        return Int(min(info.format.codec.memory.total(stored: stored, decoded: decodedPixels) + page, 1e15))
    }

    /// The pixels the decode hands out: the stored crop, at the scale the page needs (never above 1).
    private var decodedPixels: Double {
        let scale = min(1, Double(placement.pixelWidth) / placement.crop.width)
        return storedCrop.width * storedCrop.height * scale * scale
    }
}
