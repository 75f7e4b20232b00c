import Imaging
import JPEG

/// Turns a decoded photo upright, crops and resamples it to its planned pixels, and encodes the JPEG that
/// goes into the book, written into the build's private directory.
final class ResizeCropOperation: BookOperation, @unchecked Sendable {
    let job: PhotoJob
    let decode: DecodeOperation
    let quality: Int
    let directory: String
    let sequence: Int
    let hooks: BuildHooks

    init(job: PhotoJob, decode: DecodeOperation, quality: Int, directory: String, sequence: Int,
         session: BuildSession, hooks: BuildHooks) {
        self.job = job
        self.decode = decode
        self.quality = quality
        self.directory = directory
        self.sequence = sequence
        self.hooks = hooks
        super.init(session: session)
        name = "resize \(job.info.file.path)"
        addDependency(decode)
    }

    override func run() -> Outcome {
        defer { hooks.photoFinished?(job.info.file.path) }
        // Take the decoded pixels whatever happens next, so they are freed when this body ends.
        let decoded = job.decoded.withLock { photo in defer { photo = nil }; return photo }
        if let reason = reasonToSkip(inputs: [("decoding", decode)]) { return .skipped(because: reason) }
        let bytes: [UInt8]
        switch decoded {
        case nil:
            return .failed("internal error: no decoded image")
        case .original(let original)?:
            bytes = original
        case .pixels(let image, let covers)?:
            switch render(image, covers: covers) {
            case .success(let encoded): bytes = encoded
            case .failure(let outcome): return outcome.outcome
            }
        }
        if shouldStop { return .cancelled }
        return write(bytes)
    }

    private struct Stopped: Error { var outcome: Outcome }

    /// Upright, crop, resample, encode.
    private func render(_ image: RGBImage, covers: SourceRect) -> Result<[UInt8], Stopped> {
        let upright = image.applying(job.info.orientation)
        let placement = job.placement
        // The plan's crop is in full-resolution upright pixels; the decode covers part of them, DCT-scaled.
        let sx = Double(upright.width) / covers.width
        let sy = Double(upright.height) / covers.height
        let region = SourceRect(x: (placement.crop.x - covers.x) * sx, y: (placement.crop.y - covers.y) * sy,
                                width: placement.crop.width * sx, height: placement.crop.height * sy)
        let stop = { [unowned self] in self.shouldStop }
        do {
            let page: RGBImage
            if let copy = Self.wholePixelCrop(region, width: placement.pixelWidth, height: placement.pixelHeight,
                                              within: upright) {
                page = upright.cropped(x: copy.x, y: copy.y, width: copy.width, height: copy.height)
            } else {
                page = try Resampler.resample(upright, region: region, width: placement.pixelWidth,
                                              height: placement.pixelHeight, shouldCancel: stop)
            }
            // Standard Huffman tables: a third of the encoding time for files about 4% larger, same pixels.
            let options = JPEGEncoder.Options(quality: quality, optimizeCoding: false)
            return .success(try JPEGEncoder.encode(page, options: options, shouldCancel: stop))
        } catch ImagingError.cancelled {
            return .failure(Stopped(outcome: .cancelled))
        } catch let error as JPEGError where error == .cancelled {
            return .failure(Stopped(outcome: .cancelled))
        } catch {
            return .failure(Stopped(outcome: .failed("cannot render: \(error)")))
        }
    }

    /// The integer rectangle when `region` is whole pixels of exactly the output size: a copy, no filter.
    static func wholePixelCrop(_ region: SourceRect, width: Int, height: Int, within image: RGBImage)
        -> (x: Int, y: Int, width: Int, height: Int)? {
        let x = region.x.rounded(), y = region.y.rounded()
        guard abs(region.x - x) < 1e-6, abs(region.y - y) < 1e-6,
              abs(region.width - Double(width)) < 1e-6, abs(region.height - Double(height)) < 1e-6,
              x >= 0, y >= 0, Int(x) + width <= image.width, Int(y) + height <= image.height else { return nil }
        return (Int(x), Int(y), width, height)
    }

    /// Writes the page's JPEG into the build's private directory.
    private func write(_ bytes: [UInt8]) -> Outcome {
        let path = "\(directory)/page-\(sequence).jpg"
        let fd: Int32
        // A temporary folder that is full or unwritable is the machine's fault, not this photo's: the whole
        // build stops and fails, rather than quietly leaving out every photo that did not fit.
        switch session.createTemporaryFile(path) {
        case .failure(let failure):
            if !session.isCancelled { session.abort(because: "cannot create a temporary file in \(directory): \(failure)") }
            return .cancelled
        case .success(let opened): fd = opened
        }
        let written = FileSystem.write(fd, bytes)
        let closed = FileSystem.close(fd)
        if case .failure(let failure) = written.flatMap({ closed }) {
            session.remove(temporaryFile: path)
            session.abort(because: "cannot write a temporary file in \(directory): \(failure)")
            return .cancelled
        }
        job.rendered.withLock { $0 = path }
        return .succeeded
    }
}
