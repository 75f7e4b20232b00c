import Colour
import Geometry
import ImageCodec
import Imaging
import JPEG
import Platform

/// Turns a decoded photo upright, crops and resamples it to its planned pixels, and encodes the JPEG that
/// goes into the book, written into the build's private directory.
final class ResizeCropOperation: BookOperation, @unchecked Sendable {
    let job: PhotoJob
    let decode: DecodeOperation
    let quality: Int
    let directory: String
    let sequence: Int
    /// The press's CMYK the page's pixels are converted to as they are encoded (a PDF/X-1a book); nil for RGB.
    let cmyk: CMYKTarget?
    /// Where the page's JPEG is kept for later builds, under the job's `cacheKey`.
    let cache: RenderCache?

    init(job: PhotoJob, decode: DecodeOperation, quality: Int, directory: String, sequence: Int, cmyk: CMYKTarget?,
         cache: RenderCache? = nil, context: Context) {
        self.job = job
        self.cache = cache
        self.cmyk = cmyk
        self.decode = decode
        self.quality = quality
        self.directory = directory
        self.sequence = sequence
        super.init(context)
        name = "resize \(job.info.file.path)"
        addDependency(decode)
    }

    override func run() -> Outcome {
        defer {
            job.held.withLock { $0 = nil }
            // Trap: what the libraries free in malloc's heaps (libde265's tiles, libjxl's groups, each thread's own
            // heap) stays resident until trimmed: a mixed folder's book peaked 212 MB now and then, 174 at most with this.
            ProcessMemory.returnFreedPages()
            hooks.photoFinished?(job.info.file.path)
        }
        if let reason = reasonToSkip(inputs: [("decoding", decode)]) {
            job.decoded.withLock { $0 = nil }
            return .skipped(because: reason)
        }
        let bytes: [UInt8]
        switch makePage() {
        case .failure(let stopped):
            return stopped.outcome
        case .success(.original(let original)):
            bytes = original
        case .success(.cached(let jpeg)):
            return write(jpeg, stores: false)
        case .success(.pixels(let page)):
            // The decoded photo is gone by now (it lived only inside makePage): one page in memory while encoding.
            // Its pixels go back to the pool for the next photo once encoded.
            defer { pool.giveBack(page.pixels) }
            let stop = { [unowned self] in self.shouldStop }
            do {
                // Standard Huffman tables: a third of the encoding time for files about 4% larger, same pixels.
                var options = JPEGEncoder.Options(quality: quality, optimizeCoding: false)
                if let cmyk {
                    // YCCK (Adobe transform 2), as Photoshop writes CMYK JPEGs: the same CMYK once decoded, a third
                    // smaller than plain CMYK at the same quality (54 against 81 MB for the bench's 24 photos).
                    options.colorModel = .ycck
                    let conversion: ConversionToCMYK
                    switch cmykConversion(to: cmyk) {
                    case .failure(let reason): return .failed(.unsupported(reason.description))
                    case .success(let made): conversion = made
                    }
                    // Band by band as the encoder takes them: the page's RGB and one band of CMYK, never a CMYK page.
                    bytes = try JPEGEncoder.encode(page, options: options, pool: pool, toCMYK: { rgb, out, count in
                        conversion.convert(rgb, into: out, pixels: count)
                    }, shouldCancel: stop)
                } else {
                    bytes = try JPEGEncoder.encode(page, options: options, pool: pool, shouldCancel: stop)
                }
            } catch .cancelled {
                return .cancelled
            } catch {
                // Its kind kept (out of memory is no fault of ours); the words say it was the page's encoding.
                return .failed(Failure(error.failure.kind == .outOfMemory ? .outOfMemory : .internalError,
                                       "cannot encode the page: \(error)"))
            }
        }
        if shouldStop { return .cancelled }
        return write(bytes)
    }

    private struct Stopped: Error { var outcome: Outcome }

    private enum Page {
        case original([UInt8])
        case cached([UInt8])
        case pixels(RGBImage)
    }

    /// Takes the decoded photo and makes the page's pixels: crop and resample in the stored orientation, each
    /// band of rows put straight in its upright place.
    private func makePage() -> Result<Page, Stopped> {
        let image: RGBImage, covers: Rect, scale: Double
        switch job.decoded.withLock({ photo in defer { photo = nil }; return photo }) {
        case nil: return .failure(Stopped(outcome: .failed(.internalError("internal error: no decoded image"))))
        case .original(let bytes)?: return .success(.original(bytes))
        case .cached(let bytes)?: return .success(.cached(bytes))
        case .transcoded(let bytes, let blocksShown)?:
            job.blocksShown.withLock { $0 = blocksShown }
            return .success(.original(bytes))
        case .pixels(let pixels, let region, let factor)?: (image, covers, scale) = (pixels, region, factor)
        case .rows(let rows, let region)?: return resampled(rows: rows, covers: region).map { .pixels($0) }
        }
        // The decoded photo dies here, once the page is made: two photo-sized buffers at once per worker (the
        // largest part of a build's peak memory), and no third for a turn.
        return resampled(consume image, covers: covers, scale: scale).map { .pixels($0) }
    }

    /// The part of the decoded pixels to resample (the decode covers part of the stored photo, maybe DCT-scaled:
    /// the crop is taken relative to it) and the size to resample it to, along the stored axes.
    private func target(covers: Rect, scale: Double) -> (region: Rect, width: Int, height: Int) {
        let placement = job.placed
        let crop = job.storedCrop
        let region = Rect(x: (crop.x - covers.x) * scale, y: (crop.y - covers.y) * scale,
                          width: crop.width * scale, height: crop.height * scale)
        let (width, height) = job.info.orientation.swapsDimensions
            ? (placement.pixelHeight, placement.pixelWidth) : (placement.pixelWidth, placement.pixelHeight)
        return (region, width, height)
    }

    /// The page's pixels, upright, from the decoded part of the stored photo (`covers`, at `scale`).
    private func resampled(_ image: consuming RGBImage, covers: Rect, scale: Double) -> Result<RGBImage, Stopped> {
        let orientation = job.info.orientation
        let (region, width, height) = target(covers: covers, scale: scale)
        if let copy = Self.wholePixelCrop(region, width: width, height: height, within: (image.width, image.height)) {
            // A crop of the whole image, already upright, is the image itself: its buffer is the page's, not the pool's.
            let whole = copy.x == 0 && copy.y == 0 && copy.width == image.width && copy.height == image.height
                && orientation == .topLeft
            let page = image.cropped(x: copy.x, y: copy.y, width: copy.width, height: copy.height,
                                     applying: orientation, pool: pool)
            if !whole { pool.giveBack(image.pixels) }
            return .success(page)
        }
        // The decoded photo goes back to the pool once resampled (or cancelled): nothing else holds it.
        defer { pool.giveBack(image.pixels) }
        do {
            // `width` x `height` along the stored axes; the result is upright.
            return .success(try Resampler.resample(image, region: region, width: width, height: height,
                                                   orientation: orientation, pool: pool,
                                                   shouldCancel: { [unowned self] in self.shouldStop }))
        } catch {
            return .failure(Stopped(outcome: .cancelled))
        }
    }

    /// The page's pixels, upright, from rows of the stored photo at full resolution that show `covers`: only a
    /// window of them at a time, so the photo's RGB is never held whole (a HEIC's 36 MB beside the page's 26).
    private func resampled(rows: any PixelRows, covers: Rect) -> Result<RGBImage, Stopped> {
        let (region, width, height) = target(covers: covers, scale: 1)
        if Self.wholePixelCrop(region, width: width, height: height, within: (rows.width, rows.height)) != nil {
            // A copy with no filter: of the whole picture, as for any other decode.
            return resampled(RGBImage(rows: rows, pool: pool), covers: covers, scale: 1)
        }
        do {
            return .success(try Resampler.resample(rows: rows, region: region, width: width, height: height,
                                                   orientation: job.info.orientation, pool: pool,
                                                   shouldCancel: { [unowned self] in self.shouldStop }))
        } catch {
            return .failure(Stopped(outcome: .cancelled))
        }
    }

    /// The whole pixels `region` covers when they are exactly the output size: a copy, no filter.
    static func wholePixelCrop(_ region: Rect, width: Int, height: Int,
                               within image: (width: Int, height: Int)) -> PixelRegion? {
        let x = region.x.rounded(), y = region.y.rounded()
        guard abs(region.x - x) < 1e-6, abs(region.y - y) < 1e-6,
              abs(region.width - Double(width)) < 1e-6, abs(region.height - Double(height)) < 1e-6,
              x >= 0, y >= 0, Int(x) + width <= image.width, Int(y) + height <= image.height else { return nil }
        return PixelRegion(x: Int(x), y: Int(y), width: width, height: height)
    }

    /// Writes the page's JPEG into the build's private directory, and into the cache when `stores`.
    private func write(_ bytes: [UInt8], stores: Bool = true) -> Outcome {
        let path = "\(directory)/page-\(sequence).jpg"
        // A failed write aborts the whole build (BuildSession.writeTemporaryFile): this photo is not at fault.
        guard session.writeTemporaryFile(path, bytes, in: directory) else { return .cancelled }
        job.rendered.withLock { $0 = path }
        if stores, let cache, let key = job.cacheKey.withLock({ $0 }), !shouldStop {
            let aimed = job.aimed.withLock { $0 }
            cache.store(key, jpeg: bytes, metadata: .init(blocksShown: job.blocksShown.withLock { $0 },
                                                           aimedCrop: aimed?.crop, aimedSource: aimed?.cropSource))
        }
        return .succeeded
    }
}
