import CHEIF
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
/// while it waits, so a worker still keeps one decode busy at a time. Threads below libheif's: libheif 1.15's
/// libde265 plugin starts one worker thread per decode (which does the work while libheif waits), and its
/// dav1d plugin keeps dav1d's default of a thread per CPU (`n_threads` 0; 3 threads seen on 2 cores), which
/// libheif offers no way to set.
final class HEIFDecodeJob: @unchecked Sendable {
    /// How long the caller waits between two calls of `shouldCancel`.
    static let pollInterval = DispatchTimeInterval.milliseconds(25)

    // Touched by the decoding thread only until `finished` is signalled, then by the caller only.
    private let file: HEIFFile
    private var outcome: Result<HEIFPicture, CodecError>?
    private let finished = DispatchSemaphore(value: 0)

    private init(_ file: HEIFFile) { self.file = file }

    /// How many decodes are still running on their threads, abandoned ones included.
    static let running = Mutex(0)

    /// The primary image of `file` decoded to 8-bit interleaved RGB, or RGBA when it has alpha; `.cancelled`
    /// as soon as `shouldCancel` says so while libheif works.
    static func decode(_ file: HEIFFile, shouldCancel: () -> Bool) throws(CodecError) -> HEIFPicture {
        let job = HEIFDecodeJob(file)
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
            throw .failed("cannot start a thread to decode the \(file.kind) image (\(error))")
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

    private func run() -> Result<HEIFPicture, CodecError> {
        guard let options = heif_decoding_options_alloc() else {
            return .failure(.failed("not enough memory to decode the \(file.kind) image"))
        }
        defer { heif_decoding_options_free(options) }
        // 10- and 12-bit images come out as 8 bits a sample (interleaved RGB would otherwise be 16).
        options.pointee.convert_hdr_to_8bit = 1
        let alpha = heif_image_handle_has_alpha_channel(file.handle) != 0
        var image: OpaquePointer?
        // Damaged image data may still "succeed": libheif 1.15's libde265 plugin stops at libde265's first error
        // and hands out whatever picture it has. A file cut short fails earlier, when its items are read.
        let error = heif_decode_image(file.handle, &image, heif_colorspace_RGB,
                                      alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, options)
        if let failure = file.failure(error) {
            if let image { heif_image_release(image) }
            return .failure(failure)
        }
        guard let image else { return .failure(.failed("corrupt \(file.kind) (libheif decoded no image)")) }
        guard let picture = HEIFPicture(image, premultiplied: heif_image_handle_is_premultiplied_alpha(file.handle) != 0)
        else {
            return .failure(.failed("corrupt \(file.kind) (libheif did not give 8-bit RGB)"))
        }
        return .success(picture)
    }
}
