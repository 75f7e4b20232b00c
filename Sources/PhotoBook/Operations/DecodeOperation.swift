import Imaging
import JPEG
import PNG
import Platform

/// Reads and decodes one photo, at the smallest DCT scale that still covers its planned pixels.
final class DecodeOperation: BookOperation, @unchecked Sendable {
    let job: PhotoJob
    let maxPixels: Int
    let hooks: BuildHooks

    init(job: PhotoJob, maxPixels: Int, session: BuildSession, hooks: BuildHooks) {
        self.job = job
        self.maxPixels = maxPixels
        self.hooks = hooks
        super.init(session: session)
        name = "decode \(job.info.file.path)"
    }

    override func run() -> Outcome {
        hooks.decodeStarted?(job.info.file.path)
        let info = job.info
        // No JPEG or PNG of the size the header declared needs much more than its raw pixels: refuse to load
        // a file far larger than that (a video renamed .jpg, or junk appended to a photo).
        let sizeLimit = max(64 << 20, info.storedWidth * info.storedHeight * 4 + (16 << 20))
        if case .success(let status) = FileSystem.status(info.file.path), status.size > Int64(sizeLimit) {
            return .failed("the file is \(status.size >> 20) MB, far more than a \(info.storedWidth)x\(info.storedHeight) image needs")
        }
        let bytes: [UInt8]
        switch FileSystem.readFile(info.file.path) {
        case .failure(let failure): return .failed("cannot read: \(failure)")
        case .success(let data): bytes = data
        }
        if shouldStop { return .cancelled }

        let stop = { [unowned self] in self.shouldStop }
        do {
            let decoded: DecodedPhoto
            switch ImageFormat(sniffing: bytes) {
            case .jpeg:
                // The plan is only valid for the photo that was probed.
                let current = try JPEGDecoder.readInfo(bytes)
                guard current.width == info.storedWidth, current.height == info.storedHeight else {
                    return .failed("the file changed while photobook ran")
                }
                if job.passThrough {
                    // libharu embeds a broken JPEG without complaint: decode it once (at 1/8 scale every
                    // coefficient is still read) so truncated or corrupt files fail here like any other.
                    let check = try JPEGDecoder.decode(bytes, minimumWidth: 1, minimumHeight: 1,
                                                       maxPixels: maxPixels, shouldCancel: stop)
                    BufferPool.shared.giveBack(check.pixels)
                    decoded = .original(bytes)
                } else if job.lossless, let page = try losslessCrop(bytes, stop: stop) {
                    decoded = page
                } else {
                    decoded = try decodeJPEG(bytes, stop: stop)
                }
            case .png where job.passThrough:
                return .failed("the file changed while photobook ran")
            case .png:
                let image = try PNGDecoder.decode(bytes, maxPixels: maxPixels, shouldCancel: stop)
                guard image.width == info.storedWidth, image.height == info.storedHeight else {
                    return .failed("the file changed while photobook ran")
                }
                let whole = SourceRect(x: 0, y: 0, width: Double(info.storedWidth), height: Double(info.storedHeight))
                decoded = .pixels(image, covers: whole, scale: 1)
            case nil:
                return .failed("\(Probe.unrecognised(bytes)) (the file changed while photobook ran)")
            }
            job.decoded.withLock { $0 = decoded }
            return .succeeded
        } catch let error as JPEGError where error == .cancelled {
            return .cancelled
        } catch let error as PNGError where error == .cancelled {
            return .cancelled
        } catch {
            return .failed(String(describing: error))
        }
    }

    /// Decodes only the stored pixels under the planned crop, at the smallest DCT scale that still gives the
    /// planned pixel size (libjpeg skips the columns and rows outside).
    private func decodeJPEG(_ bytes: [UInt8], stop: () -> Bool) throws(JPEGError) -> DecodedPhoto {
        let info = job.info, placement = job.placement
        let wanted = job.storedCrop
        let x0 = max(0, Int(wanted.x.rounded(.down))), y0 = max(0, Int(wanted.y.rounded(.down)))
        let x1 = min(info.storedWidth, Int((wanted.x + wanted.width).rounded(.up)))
        let y1 = min(info.storedHeight, Int((wanted.y + wanted.height).rounded(.up)))
        let region = JPEGRegion(x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0))
        // The planned pixels over the crop give one scale for both axes (the resampler does the rest).
        // Trap: only libjpeg-turbo's 1/4, 1/2 and 8/8 IDCTs are SIMD (1/8 is the DC alone); 5/8 (4:2:0 chroma through a
        // 10x10 IDCT) is plain C, 59 against 55 ms in djpeg for a grid cell's crop, but 8/8 hands the resampler 2.5x
        // the pixels.
        let scale = min(1, Double(placement.pixelWidth) / placement.crop.width)
        let decoded = try JPEGDecoder.decode(
            bytes, region: region,
            minimumWidth: Int((Double(region.width) * scale).rounded(.up)),
            minimumHeight: Int((Double(region.height) * scale).rounded(.up)),
            maxPixels: maxPixels, shouldCancel: stop)
        let covers = decoded.covers
        return .pixels(decoded.image, covers: SourceRect(x: Double(covers.x), y: Double(covers.y),
                                                         width: Double(covers.width), height: Double(covers.height)),
                       scale: Double(decoded.scale) / 8)
    }
}
