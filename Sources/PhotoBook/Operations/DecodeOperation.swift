import Imaging
import JPEG
import PNG

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
        let bytes: [UInt8]
        switch FileSystem.readFile(info.file.path) {
        case .failure(let failure): return .failed("cannot read: \(failure)")
        case .success(let data): bytes = data
        }
        if shouldStop { return .cancelled }

        // The decode must cover the crop at the planned pixel size; scale it back to the whole stored image.
        let placement = job.placement
        let scale = min(1, Double(placement.pixelWidth) / placement.crop.width)
        var minimumWidth = Int((Double(info.uprightWidth) * scale).rounded(.up))
        var minimumHeight = Int((Double(info.uprightHeight) * scale).rounded(.up))
        if info.orientation.swapsDimensions { swap(&minimumWidth, &minimumHeight) }

        let stop = { [unowned self] in self.shouldStop }
        if job.passThrough {
            // libharu embeds a broken JPEG without complaint: decode it once (at 1/8 scale, every coefficient is
            // still read) so truncated or corrupt files fail here like any other.
            do {
                _ = try JPEGDecoder.decode(bytes, minimumWidth: 1, minimumHeight: 1, maxPixels: maxPixels, shouldCancel: stop)
            } catch .cancelled {
                return .cancelled
            } catch {
                return .failed(error.description)
            }
            let probed = try? JPEGDecoder.readInfo(bytes)
            guard probed?.width == info.storedWidth, probed?.height == info.storedHeight else {
                return .failed("the file changed while photobook ran")
            }
            job.decoded.withLock { $0 = .original(bytes) }
            return .succeeded
        }
        do {
            let image: RGBImage
            switch ImageFormat(sniffing: bytes) {
            case .jpeg:
                image = try JPEGDecoder.decode(bytes, minimumWidth: minimumWidth, minimumHeight: minimumHeight,
                                               maxPixels: maxPixels, shouldCancel: stop)
            case .png:
                image = try PNGDecoder.decode(bytes, maxPixels: maxPixels, shouldCancel: stop)
            case nil:
                return .failed("\(Probe.unrecognised(bytes)) (the file changed while photobook ran)")
            }
            // The file may have been replaced since it was probed; the plan is only valid for the same shape.
            let sameShape = abs(Double(image.width) / Double(image.height)
                                - Double(info.storedWidth) / Double(info.storedHeight)) < 0.02
            guard sameShape, image.width <= info.storedWidth, image.height <= info.storedHeight else {
                return .failed("the file changed while photobook ran")
            }
            job.decoded.withLock { $0 = .pixels(image) }
            return .succeeded
        } catch let error as JPEGError where error == .cancelled {
            return .cancelled
        } catch let error as PNGError where error == .cancelled {
            return .cancelled
        } catch {
            return .failed(String(describing: error))
        }
    }
}
