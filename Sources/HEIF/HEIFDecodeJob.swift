import CHEIF
import CHEIFDecoders
import Dispatch
import ImageCodec
import Platform
import Synchronization

/// One `heif_decode_image` run on a thread of its own while the caller keeps asking `shouldCancel`, so that a
/// stop is never held up by a decode libheif cannot interrupt.
///
/// libheif 1.15 has no cancel (its `on_progress` callbacks cannot stop it), and one 12-megapixel HEIC takes
/// 0.5-1.4 s of CPU here: checking only before and after would delay a stop by that much. The caller waits in
/// slices of `pollInterval` and asks between them; once told to stop it returns at once and the decode runs on
/// to its end on its own thread, which then releases the file and the picture. The caller does no work
/// while it waits, so a worker still keeps one decode busy at a time. No threads below it: photobook's own
/// decoder plugins (CHEIFDecoders) decode HEVC with libavcodec and AV1 with dav1d on this thread, one thread
/// each, where libheif 1.15's own start a libde265 worker thread per decode and dav1d's default of a thread per
/// CPU (3 seen on 2 cores), which libheif offers no way to set.
final class HEIFDecodeJob: @unchecked Sendable {
    /// How long the caller waits between two calls of `shouldCancel`.
    static let pollInterval = DispatchTimeInterval.milliseconds(25)

    // Touched by the decoding thread only until `finished` is signalled, then by the caller only.
    private let file: HEIFFile
    private let maxPixels: Int
    private let tilesOutside: [UInt8]?
    /// False leaves every picture to libheif's conversion (the tests compare the two).
    private let keepsPlanes: Bool
    private var outcome: Result<any HEIFRows, CodecError>?
    private let finished = DispatchSemaphore(value: 0)

    private init(_ file: HEIFFile, maxPixels: Int, tilesOutside: [UInt8]?, keepsPlanes: Bool) {
        self.file = file
        self.maxPixels = maxPixels
        self.tilesOutside = tilesOutside
        self.keepsPlanes = keepsPlanes
    }

    /// How many decodes are still running on their threads, abandoned ones included.
    static let running = Mutex(0)

    /// The primary image of `file` decoded (libheif's planar RGB and alpha, or the decoder's YCbCr planes when
    /// libheif would only convert them: HEIFYCbCrPicture), no coded picture in it over `maxPixels`;
    /// `.cancelled` as soon as `shouldCancel` says so while libheif works. Only `region` (nil: all of it) need be
    /// right: a grid's tiles wholly outside it may be left out (HEIFGridTiles). `keepsPlanes` false: libheif
    /// converts every picture (for the tests that compare the two ways).
    static func decode(_ file: HEIFFile, region: PixelRegion? = nil, maxPixels: Int, keepsPlanes: Bool = true,
                       shouldCancel: () -> Bool) throws(CodecError) -> any HEIFRows {
        var tilesOutside: [UInt8]?
        if let region, let grid = file.gridTiles,
           let inside = region.clamped(width: grid.turnedSize.width, height: grid.turnedSize.height) {
            tilesOutside = grid.tilesOutside(inside)
        }
        let job = HEIFDecodeJob(file, maxPixels: maxPixels, tilesOutside: tilesOutside, keepsPlanes: keepsPlanes)
        running.withLock { $0 += 1 }
        // A joinable POSIX thread, not Foundation's Thread.detachNewThread: a decode that ends normally is
        // joined, so nothing of its thread outlives the call (LeakSanitizer in the fuzzer saw Foundation's
        // Thread object still alive after the caller had returned). The thread keeps `job`, and with it the
        // file and its reader, until libheif is done.
        let thread: DetachableThread
        do {
            thread = try DetachableThread { job.runAndSignal() }
        } catch {
            running.withLock { $0 -= 1 }
            throw .outOfMemory("cannot start a thread to decode the \(file.kind) image (\(error))")
        }
        while job.finished.wait(timeout: .now() + pollInterval) == .timedOut {
            if shouldCancel() {
                thread.detach()
                throw .cancelled
            }
        }
        thread.join()
        return try job.outcome!.get()
    }

    /// The thread's whole work: the decode, then the word to the caller.
    fileprivate func runAndSignal() {
        outcome = run()
        Self.running.withLock { $0 -= 1 }
        finished.signal()
    }

    private func run() -> Result<any HEIFRows, CodecError> {
        guard let options = heif_decoding_options_alloc() else {
            return .failure(.outOfMemory("not enough memory to decode the \(file.kind) image"))
        }
        defer { heif_decoding_options_free(options) }
        // The bitstream's own picture size is what the decoders allocate: bounded as the file's sizes are. Our
        // plugins run on this thread (max_decoding_threads 0: HEIFFile) and see this call (pbheif_arm).
        var call = pbheif_call()
        return withUnsafeMutablePointer(to: &call) { call in
            pbheif_arm(call, UInt64(max(0, maxPixels)))
            defer { pbheif_disarm(call) }
            return decode(options, call: call)
        }
    }

    private func decode(_ options: UnsafeMutablePointer<heif_decoding_options>,
                        call: UnsafeMutablePointer<pbheif_call>) -> Result<any HEIFRows, CodecError> {
        var image: OpaquePointer?
        let keptColour = keepsPlanes ? file.onlyConvertedByLibheif : nil
        call.pointee.keep = keptColour == nil ? 0 : 1
        // Damaged image data may still "succeed": libavcodec conceals damaged slices and hands out the picture,
        // as libheif 1.15's libde265 plugin did. A file cut short fails earlier, when its items are read.
        let error = tilesOutside.map { outside in
            outside.withUnsafeBufferPointer { skip in
                (call.pointee.skip, call.pointee.tile_count) = (skip.baseAddress, Int32(skip.count))
                defer { call.pointee.skip = nil }
                return heif_decode_image(file.handle, &image, heif_colorspace_RGB, heif_chroma_444, options)
            }
        } ?? heif_decode_image(file.handle, &image, heif_colorspace_RGB, heif_chroma_444, options)
        let tilesLeftOut = Int(call.pointee.tiles_skipped)
        var planes = pbheif_planes()
        if pbheif_take_kept_picture(call, &planes) != 0 {
            // The plugin kept the picture and told libheif it failed: libheif has done nothing more with it.
            if let image { heif_image_release(image) }
            return .success(HEIFYCbCrPicture(planes, nclx: keptColour ?? nil))
        }
        if let failure = file.failure(error) {
            if let image { heif_image_release(image) }
            return .failure(failure)
        }
        guard let image else { return .failure(.corrupt("corrupt \(file.kind) (libheif decoded no image)")) }
        guard let picture = HEIFPicture(image, premultiplied: heif_image_handle_is_premultiplied_alpha(file.handle) != 0)
        else {
            return .failure(.corrupt("corrupt \(file.kind) (libheif did not give planar RGB of 8 to 16 bits)"))
        }
        picture.tilesLeftOut = tilesLeftOut
        return .success(picture)
    }
}
