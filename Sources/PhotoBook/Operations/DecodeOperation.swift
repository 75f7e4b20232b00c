import Geometry
import ImageCodec
import Imaging
import Platform

/// Reads and decodes one photo through its format's codec, at the smallest scale that still covers its
/// planned pixels; or takes the file's own bytes, or a lossless crop of its blocks, when the plan allows.
final class DecodeOperation: BookOperation, @unchecked Sendable {
    let job: PhotoJob
    let maxPixels: Int
    /// The render cache and the request to look up there once the file's digest is read here: the plan did not
    /// know the digest (the probe of a build that chose its photos reads none). Nil when looked up already.
    let cacheLookup: (cache: RenderCache, request: RenderRequest)?
    /// Where the round keeps a file several of its decodes read; nil: the decode opens its file alone.
    let files: SharedFiles?

    init(job: PhotoJob, maxPixels: Int, cacheLookup: (cache: RenderCache, request: RenderRequest)? = nil,
         files: SharedFiles? = nil, context: Context) {
        self.job = job
        self.maxPixels = maxPixels
        self.cacheLookup = cacheLookup
        self.files = files
        files?.expect(job.info.file.filePath)
        super.init(context)
        name = "decode \(job.info.file.path)"
    }

    override func run() -> Outcome {
        hooks.decodeStarted?(job.info.file.path)
        // Given up when the render ends (ResizeCropOperation), or with the round (RenderPipeline.run).
        let reservation = pool.reserve(job.estimatedMemory)
        job.held.withLock { $0 = reservation }
        let info = job.info
        let source: FileSource
        defer { files?.done(info.file.filePath) }
        do {
            // Trap: `try files?.open(path) ?? FileSource(path:)` loses the typed throw (`??` rethrows).
            if let files { source = try files.open(info.file.filePath) } else { source = try FileSource(path: info.file.filePath) }
        } catch {
            return .failed(Probe.unreadable(error))
        }
        if let probed = info.fileSize, probed != source.count { return Self.changed }
        let codec = info.format.codec
        let signature: [UInt8]
        do {
            signature = try source.prefix(ImageFormat.signatureLength)
        } catch {
            return .failed(error.failure)
        }
        guard codec.recognises(signature) else {
            return .failed(.changedOnDisk("\(ImageFormat.unrecognised(signature).message) (the file changed while photobook ran)"))
        }
        // No sound file of the size the header declared needs much more than its raw pixels: refuse to load a
        // file far larger than that (a video renamed .jpg, or junk appended to a photo).
        if source.count > info.largestSoundFileSize {
            return .failed(.tooLarge("the file is \(source.count >> 20) MB, far more than a \(info.storedWidth)x\(info.storedHeight) image needs"))
        }
        if shouldStop { return .cancelled }
        if let (cache, request) = cacheLookup, lookUp(request, in: cache, source: source) { return .succeeded }
        if shouldStop { return .cancelled }

        let stop = { [unowned self] in self.shouldStop }
        do {
            let decoded: DecodedPhoto
            // A crop aimed here from the blocks a lossless crop reads (the crop is placed before they are copied);
            // any other is aimed first, from the map the probe would have made.
            // Trap: `try a ?? b()` loses typed throws (`??` takes a rethrowing autoclosure): the do block would then
            // catch `any Error`. Hence the variable.
            var lossless: LosslessCrop?
            if job.aimsAtRender, !aimByEXIFThumbnail(source) {
                if job.lossless { lossless = try aimedLosslessCrop(source, codec: codec, stop: stop) }
                if lossless == nil { aim(source) }
            }
            if shouldStop { return .cancelled }
            if job.lossless && lossless == nil { lossless = try losslessCrop(source, codec: codec, stop: stop) }
            if job.passThrough {
                // Only a format whose blocks the PDF reads is ever passed through (its probe said so).
                guard let blocks = codec.blocks else { return .failed(.internalError("internal error: \(codec.name) passed through")) }
                guard let original = try blocks.verifiedOriginal(source, maxPixels: maxPixels, pool: pool,
                                                                  shouldCancel: stop),
                      isProbedSize(original.storedWidth, original.storedHeight) else { return Self.changed }
                decoded = .original(original.bytes)
            } else if let crop = lossless {
                guard isProbedSize(crop.storedWidth, crop.storedHeight) else { return Self.changed }
                let stored = crop.storedRegion
                let blocksShown = info.orientation.uprightRect(
                    ofStored: Rect(x: Double(stored.x), y: Double(stored.y), width: Double(stored.width),
                                   height: Double(stored.height)),
                    storedWidth: Double(info.storedWidth), storedHeight: Double(info.storedHeight))
                decoded = .transcoded(crop.bytes, blocksShown: blocksShown)
            } else {
                let image = try codec.decode(source, request, pool: pool, shouldCancel: stop)
                // The plan is only valid for the photo that was probed.
                guard isProbedSize(image.storedWidth, image.storedHeight) else {
                    pool.giveBack(image.image.pixels)
                    return Self.changed
                }
                decoded = image.rows.map { .rows($0, covers: image.covers) }
                    ?? .pixels(image.image, covers: image.covers, scale: image.scale)
                job.decodeNotes.withLock { $0 = image.notes }
            }
            job.decoded.withLock { $0 = decoded }
            return .succeeded
        } catch .cancelled {
            return .cancelled
        } catch {
            return .failed(error.failure)
        }
    }

    static let changed = Outcome.failed(.changed)

    /// Looks the render up in the cache under the digest of the bytes of `source`, read here (the decode's open of
    /// the file is the digest's: a photo chosen by --photos is opened once for its probe and once here); true on a
    /// hit, handed on to the render as it is. The key is the one the plan would have made with the digest.
    private func lookUp(_ request: RenderRequest, in cache: RenderCache, source: FileSource) -> Bool {
        guard let digest = cache.contentDigest(of: job.info.file.filePath, opened: source) else { return false }
        var request = request
        request.contentDigest = digest
        job.cacheKey.withLock { $0 = request.key }
        switch cache.entry(request.key) {
        case .hit(let jpeg, let metadata):
            job.aimed.withLock { $0 = metadata.aimed(job.placement) }
            job.blocksShown.withLock { $0 = metadata.blocksShown }
            job.cacheNote.withLock { $0 = .hit }
            job.decoded.withLock { $0 = .cached(jpeg) }
            return true
        case .damaged:
            job.cacheNote.withLock { $0 = .damaged }
            return false
        case .miss:
            return false
        }
    }

    private func isProbedSize(_ width: Int, _ height: Int) -> Bool {
        width == job.info.storedWidth && height == job.info.storedHeight
    }

    /// What to decode: the stored pixels under the planned crop (whole pixels), at the planned pixels' scale
    /// (one scale for both axes: the resampler does the rest).
    private var request: DecodeRequest {
        let info = job.info, placement = job.placed
        let wanted = job.storedCrop
        let x0 = max(0, Int(wanted.x.rounded(.down))), y0 = max(0, Int(wanted.y.rounded(.down)))
        let x1 = min(info.storedWidth, Int((wanted.x + wanted.width).rounded(.up)))
        let y1 = min(info.storedHeight, Int((wanted.y + wanted.height).rounded(.up)))
        let region = PixelRegion(x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0))
        // Trap: only libjpeg-turbo's 1/4, 1/2 and 8/8 IDCTs are SIMD (1/8 is the DC alone); 5/8 (4:2:0 chroma through a
        // 10x10 IDCT) is plain C, 59 against 55 ms in djpeg for a grid cell's crop, but 8/8 hands the resampler 2.5x
        // the pixels.
        let scale = min(1, Double(placement.pixelWidth) / placement.crop.width)
        var request = DecodeRequest(picture: info.file.picture, region: region,
                                    minimumWidth: Int((Double(region.width) * scale).rounded(.up)),
                                    minimumHeight: Int((Double(region.height) * scale).rounded(.up)),
                                    maxPixels: maxPixels)
        // The resize reads rows: a codec may keep its picture smaller than RGB until then (ResizeCropOperation).
        request.acceptsRows = true
        return request
    }
}

// The third kind of render, beside the photo's own bytes (pass-through) and pixels (decode, resample, encode):
// a JPEG shown at its own resolution but cropped gets a new file of its own DCT blocks under the crop, turned
// upright, with no decode and no re-encode (`ImageCodec.losslessCrop`, `JPEGLosslessCrop`). The blocks come in whole iMCUs, so the file
// shows a little more than the plan's crop; the page draws it at the plan's scale and clips it to the cell.

extension DecodeOperation {
    /// The lossless render of a photo the page shows at its own resolution, or nil when the file cannot be
    /// copied block for block (CMYK, unusual sampling, a format without blocks): then its pixels are decoded as
    /// for any other photo. A corrupt or truncated file throws here as it would when decoded.
    func losslessCrop(_ source: any ByteSource, codec: any ImageCodec,
                      stop: () -> Bool) throws(CodecError) -> LosslessCrop? {
        guard let blocks = codec.blocks else { return nil }
        return try blocks.losslessCrop(source, region: Self.wholePixels(job.storedCrop), orientation: job.info.orientation,
                                       maxPixels: maxPixels, pool: pool, shouldCancel: stop)
    }

    static func wholePixels(_ crop: Rect) -> PixelRegion {
        PixelRegion(x: Int(crop.x.rounded()), y: Int(crop.y.rounded()),
                    width: Int(crop.width.rounded()), height: Int(crop.height.rounded()))
    }

    /// The lossless crop of a photo whose crop is aimed here: placed by the map of the blocks' means once they are
    /// read (`ImageCodec.losslessCrop(_:placing:...)`), then copied. Nil when its blocks cannot be copied.
    func aimedLosslessCrop(_ source: any ByteSource, codec: any ImageCodec,
                           stop: () -> Bool) throws(CodecError) -> LosslessCrop? {
        let job = self.job, pool = self.pool
        guard let blocks = codec.blocks else { return nil }
        return try blocks.losslessCrop(source, placing: { means in
            job.aim(with: AttentionProbe.measure(means, info: job.info, pool: pool))
            return Self.wholePixels(job.storedCrop)
        }, orientation: job.info.orientation, maxPixels: maxPixels, pool: pool, shouldCancel: stop)
    }

    /// Aims the crop by the photo's EXIF thumbnail when the probe's map would have come from it, as the render's
    /// aim then does; false when it has none. Read and decoded once: `aim` does not look for it again.
    func aimByEXIFThumbnail(_ source: FileSource) -> Bool {
        guard let thumbnail = AttentionProbe.exifThumbnail(of: job.info, source: source, pool: pool) else { return false }
        defer { pool.giveBack(thumbnail.pixels) }
        job.aim(with: AttentionMap.measure(thumbnail, orientation: job.info.orientation))
        return true
    }

    /// Aims the crop with the map the probe would have made (`AttentionProbe.map`) of a photo without an EXIF
    /// thumbnail (`aimByEXIFThumbnail` looked); a map that cannot be made leaves it at the centre (the decode then
    /// says what is wrong with the file).
    func aim(_ source: FileSource) {
        let stop = { [unowned self] in self.shouldStop }
        guard case .success(let map)? = AttentionProbe.map(of: job.info, source: source, maxPixels: maxPixels, pool: pool,
                                                           lookedForEXIFThumbnail: true, isCancelled: stop) else { return }
        job.aim(with: map)
    }
}

extension PhotoJob {
    /// Places the crop by `map` as the plan would have (`CropRule`): the plan left it at the centre.
    func aim(with map: AttentionMap) {
        var placed = placement
        placed.aim(at: BookPhoto(id: placement.photo, width: info.uprightWidth, height: info.uprightHeight,
                                 attention: map), mode: .auto)
        aimed.withLock { $0 = placed }
    }
}
