import CHaru
import Foundation
import Platform
import Synchronization

/// A PDF document being built in memory by libharu; one thread at a time.
///
/// Backed by one `HPDF_Doc`, freed when the last reference (the document, a page or an image) goes away.
/// Every libharu failure is thrown as `PDFError` and the document's error state is reset, so the document
/// stays usable after a failed call. Content streams are Flate-compressed; JPEG images are embedded as the
/// caller's bytes, unchanged (`DCTDecode`).
public final class PDFDocument {
    let handle: HPDF_Doc
    let errorLog = HaruErrorLog()
    private var usesUTF8Encoder = false
    /// Fonts loaded, in load order: their objects, not `PDFFont`s, which would keep the document alive.
    var glyphFonts: [EmbeddedGlyphFont] = []
    /// Page labels are one number tree, written once.
    var hasPageLabels = false
    /// ICCBased colour-space streams already embedded, by profile: libharu's handles, freed with the document.
    var iccStreams: [ICCStreamKey: HPDF_Dict] = [:]
    /// The files whose bytes are image streams, in the order the save reads them; their streams point at them
    /// unretained, so the document keeps them (PDFDocument+FileImage.swift).
    var imageFiles: [ImageFile] = []
    /// Asked before each image file is read during `save(to:)`; nil outside a save.
    var saveMonitor: ((_ index: Int, _ count: Int) -> Bool)?
    /// Image files the current save has opened so far.
    var imageFilesOpened = 0
    /// What `setInfo` wrote, for the XMP packet of a PDF/X document, which must say the same.
    var info: RecordedInfo?
    /// Set by `conformToPDFX`: what the document's pages and images must then do differently.
    var pdfx: PDFXRules?
    /// The pictures of colour glyphs (emoji) embedded so far, by face and glyph: each once per document; nil for a
    /// glyph that has none (PDFPage+ColourGlyphs.swift).
    var colourGlyphImages: [ColourGlyphKey: ColourGlyphPicture?] = [:]

    /// Creates an empty document (`HPDF_New`, `HPDF_SetCompressionMode`).
    public init() throws(PDFError) {
        let log = errorLog
        guard let handle = HPDF_New(haruErrorHandler, Unmanaged.passUnretained(log).toOpaque()) else {
            throw .libharu(status: UInt(HPDF_FAILD_TO_ALLOC_MEM), detail: 0, during: "creating the PDF document")
        }
        self.handle = handle
        // Only page content and metadata: COMP_IMAGE only affects raw and PNG images today, but a JPEG is
        // already compressed and must stay the verbatim DCT stream, so we never ask for image compression.
        try haruStatus("setting the compression mode") {
            HPDF_SetCompressionMode(handle, HPDF_UINT(HPDF_COMP_TEXT | HPDF_COMP_METADATA))
        }
    }

    deinit {
        HPDF_Free(handle)
    }

    /// Sets the Info dictionary's Producer, Creator, CreationDate, ModDate (the same moment) and, when given,
    /// Title, Author, Subject and Keywords (`HPDF_SetInfoAttr`, `HPDF_SetInfoDateAttr`).
    ///
    /// The dates are written in `timeZone`: give UTC (`.gmt`) for output that must not depend on the machine's.
    ///
    /// Strings may be any Unicode; non-ASCII ones are written as UTF-16 text strings. Characters beyond U+FFFF
    /// (emoji) become U+FFFD, which libharu can encode.
    public func setInfo(
        producer: String, creator: String, title: String? = nil, author: String? = nil, subject: String? = nil,
        keywords: String? = nil, creationDate: Date = Date(), timeZone: TimeZone = .current
    ) throws(PDFError) {
        // Quirk: HPDF_New already wrote "Haru Free PDF Library 2.3.0" as Producer; setting it again replaces it.
        try setInfoText(HPDF_INFO_PRODUCER, producer, name: "Producer")
        try setInfoText(HPDF_INFO_CREATOR, creator, name: "Creator")
        let optional: [(HPDF_InfoType, String?, String)] = [
            (HPDF_INFO_TITLE, title, "Title"), (HPDF_INFO_AUTHOR, author, "Author"),
            (HPDF_INFO_SUBJECT, subject, "Subject"), (HPDF_INFO_KEYWORDS, keywords, "Keywords"),
        ]
        for case let (type, text?, name) in optional {
            try setInfoText(type, text, name: name)
        }
        let date = PDFDate(creationDate, timeZone: timeZone)
        info = RecordedInfo(producer: producer, creator: creator, title: title, author: author, subject: subject,
                            date: date)
        try haruStatus("setting the CreationDate \(date)") {
            HPDF_SetInfoDateAttr(handle, HPDF_INFO_CREATION_DATE, date.haruDate)
        }
        try haruStatus("setting the ModDate \(date)") {
            HPDF_SetInfoDateAttr(handle, HPDF_INFO_MOD_DATE, date.haruDate)
        }
    }

    /// Adds a page of `width` x `height` points (1/72 inch) at the end of the document.
    ///
    /// libharu accepts 3...14400 points per side; anything else throws and adds no page.
    public func addPage(width: Double, height: Double) throws(PDFError) -> PDFPage {
        let allowed = Double(HPDF_MIN_PAGE_SIZE)...Double(HPDF_MAX_PAGE_SIZE)
        // Quirk: libharu checks the size only after HPDF_AddPage, which would leave a default-size page behind.
        guard allowed.contains(width), allowed.contains(height) else {
            throw .libharu(
                status: UInt(HPDF_PAGE_INVALID_SIZE), detail: 0,
                during: "adding a page of \(width) x \(height) pt (each side must be 3...14400 pt)")
        }
        let handle = self.handle
        let page = try haruObject("adding a page") { HPDF_AddPage(handle) }
        try haruStatus("setting the page width to \(width) pt") { HPDF_Page_SetWidth(page, HPDF_REAL(width)) }
        try haruStatus("setting the page height to \(height) pt") { HPDF_Page_SetHeight(page, HPDF_REAL(height)) }
        return PDFPage(handle: page, document: self, width: width, height: height)
    }

    /// Embeds a JPEG once (`HPDF_LoadJpegImageFromMem`) so that it can be drawn on any number of pages.
    ///
    /// The bytes become the image stream unchanged (`DCTDecode`); a 4-component JPEG is marked as
    /// Adobe-inverted CMYK. libharu reads only the headers: a JPEG that is broken after its frame header is
    /// embedded without complaint, so hand it only JPEGs that were produced or fully decoded by us.
    public func loadJPEG(_ bytes: [UInt8]) throws(PDFError) -> PDFImage {
        try embedJPEG(bytes, during: "embedding a JPEG of \(bytes.count) bytes")
    }

    /// `loadJPEG(_:)`, saying `during` when it fails.
    func embedJPEG(_ bytes: [UInt8], during: String) throws(PDFError) -> PDFImage {
        guard let count = HPDF_UINT(exactly: bytes.count) else {
            throw .libharu(status: UInt(HPDF_INVALID_JPEG_DATA), detail: 0, during: during + " (too large)")
        }
        // Quirk: libharu adds the image object to the file before it parses the data, so a failed load leaves an
        // unused object behind; the common case, bytes that are not a JPEG at all, is refused before that.
        guard bytes.starts(with: [0xFF, 0xD8, 0xFF]) else {
            throw .libharu(
                status: UInt(HPDF_INVALID_JPEG_DATA), detail: 0, during: during + ": not a JPEG (no FF D8 FF start)")
        }
        let handle = self.handle
        // Quirk: data that is not a JPEG can come back as NULL with no error set; name it ourselves.
        let image = try haruObject(during, silentStatus: HPDF_INVALID_JPEG_DATA) {
            bytes.withUnsafeBufferPointer { HPDF_LoadJpegImageFromMem(handle, $0.baseAddress, count) }
        }
        let width = try haru(during, { HPDF_Image_GetWidth(image) }, succeeded: { $0 > 0 })
        let height = try haru(during, { HPDF_Image_GetHeight(image) }, succeeded: { $0 > 0 })
        let colorSpace = try haruObject(during) { HPDF_Image_GetColorSpace(image) }
        return PDFImage(
            handle: image, document: self, pixelWidth: Int(width), pixelHeight: Int(height),
            colorSpace: String(cString: colorSpace))
    }

    /// Writes the whole document to `path` (`HPDF_SaveToFile`); give it a temporary path, the caller commits it.
    ///
    /// On failure the file at `path` may exist and be incomplete; the caller removes its temporary file.
    ///
    /// A failed write throws `.write` with the operating system's reason when there is one; an image file
    /// (`loadJPEG(file:)`) that cannot be read throws `.imageFile` naming it. `beforeImageFile` is asked before
    /// each image file is read, with its index among them and their count: false stops the save (`.stopped`).
    public func save(to path: String,
                     beforeImageFile: ((_ index: Int, _ count: Int) -> Bool)? = nil) throws(PDFError) {
        try writeGlyphFonts()
        try savingImageFiles(monitor: beforeImageFile) { () throws(PDFError) in try saveFile(to: path) }
    }

    /// libharu writes its file through stdio in 4 kB pieces (a stream copies HPDF_STREAM_BUF_SIZ at a time and
    /// glibc's buffer is st_blksize), each a write(2) that allocates and charges one page of cache: half of the
    /// save, which runs on one core at the end of a build. So libharu writes into a pipe (opened by name through
    /// /proc/self/fd) and a second thread, on a core that has nothing else left to do, copies the pipe into the
    /// file a megabyte at a time. Same bytes; without /proc or a pipe, libharu writes the file itself.
    private func saveFile(to path: String) throws(PDFError) {
        guard case .success(let pipe) = FileSystem.makePipe(capacity: 1 << 20) else { return try saveByHaru(to: path) }
        guard let pipePath = FileSystem.procPath(of: pipe.write),
              case .success(let target) = FileSystem.openForRewriting(path) else {
            pipe.read.close()
            pipe.write.close()
            return try saveByHaru(to: path)
        }
        let copier = PipeCopier(from: pipe.read, to: target)
        // A file that can take no more (the disk is full) stops the save before the next image, not after the last.
        let monitor = saveMonitor
        saveMonitor = { index, count in !copier.hasFailed && (monitor?(index, count) ?? true) }
        defer { saveMonitor = monitor }
        var saveFailure: PDFError?
        do throws(PDFError) { try saveByHaru(to: pipePath) } catch { saveFailure = error }
        // libharu has closed its own descriptor of the pipe; this last one closed, the copier reads the end.
        pipe.write.close()
        // The copier's failure first: the save stopped because of it (at the next image), or failed after it.
        if let copyFailure = copier.finish() {
            let text = copyFailure.description
            throw .write(reason: text.prefix(1).lowercased() + text.dropFirst())
        }
        if let saveFailure { throw saveFailure }
    }

    private func saveByHaru(to path: String) throws(PDFError) {
        let handle = self.handle
        var osError: Int32 = 0
        do {
            try haruStatus("writing the PDF to '\(path)'") {
                errno = 0
                let status = HPDF_SaveToFile(handle, path)
                osError = errno
                return status
            }
        } catch {
            // Trap: libharu's file error carries ferror()'s 1 as its detail; errno, read at once, has the reason.
            if error.status == UInt(HPDF_FILE_IO_ERROR) && osError != 0 {
                let text = String(cString: strerror(osError))
                throw .write(reason: text.prefix(1).lowercased() + text.dropFirst())
            }
            throw error
        }
    }

    /// The whole document as bytes (`HPDF_SaveToStream`, `HPDF_ReadFromStream`).
    ///
    /// libharu keeps this copy in memory as well until the document is freed: meant for tests and small books.
    public func saveToMemory() throws(PDFError) -> [UInt8] {
        let handle = self.handle
        try savingImageFiles(monitor: nil) { () throws(PDFError) in
            try haruStatus("writing the PDF to memory") { HPDF_SaveToStream(handle) }
        }
        // Quirk: HPDF_GetStreamSize returns an error code (0x1025) as if it were a size; the slot tells.
        let size = try haru("measuring the PDF in memory", { HPDF_GetStreamSize(handle) }, succeeded: { _ in true })
        try haruStatus("rewinding the PDF in memory") { HPDF_ResetStream(handle) }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        var filled = 0
        while filled < bytes.count {
            var chunk = HPDF_UINT32(bytes.count - filled)
            // Quirk: asking for more than is left returns HPDF_STREAM_EOF (0x1058), error slot clear: not a failure.
            try haru(
                "reading the PDF from memory",
                { bytes.withUnsafeMutableBufferPointer { HPDF_ReadFromStream(handle, $0.baseAddress! + filled, &chunk) } },
                succeeded: { $0 == HPDF_OK || $0 == HPDF_STREAM_EOF })
            if chunk == 0 { break }
            filled += Int(chunk)
        }
        guard filled == bytes.count else {
            throw .libharu(
                status: UInt(HPDF_STREAM_EOF), detail: 0,
                during: "reading the PDF from memory (got \(filled) of \(bytes.count) bytes)")
        }
        return bytes
    }

    func setInfoText(_ type: HPDF_InfoType, _ text: String, name: String) throws(PDFError) {
        let handle = self.handle
        let encoded = PDFTextString(text)
        if encoded.needsUnicode {
            // Quirk: without a current encoder libharu writes the raw UTF-8 bytes, which readers take as
            // PDFDocEncoding (mojibake); with the "UTF-8" encoder it writes UTF-16BE with a byte-order mark.
            try useUTF8Encoder()
        }
        try haruStatus("setting the document \(name) to '\(text)'") {
            encoded.cString.withUnsafeBufferPointer { HPDF_SetInfoAttr(handle, type, $0.baseAddress) }
        }
    }

    /// Makes "UTF-8" the current encoder (`HPDF_UseUTFEncodings`, `HPDF_SetCurrentEncoder`); safe to call again.
    func useUTF8Encoder() throws(PDFError) {
        guard !usesUTF8Encoder else { return }
        let handle = self.handle
        // Quirk: HPDF_UseUTFEncodings registers the encoder; a second call fails with 0x100E (duplicate).
        try haruStatus("enabling UTF-8 text") { HPDF_UseUTFEncodings(handle) }
        try haruStatus("selecting UTF-8 text") { HPDF_SetCurrentEncoder(handle, "UTF-8") }
        usesUTF8Encoder = true
    }
}

/// Copies a pipe into a file on its own thread, a megabyte at a time, until the pipe's writers have all closed it.
/// After a failed write it goes on reading (and drops what it reads), so the writer never blocks or meets a broken
/// pipe; `finish()` waits for the end and says what failed.
private final class PipeCopier: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var failure: FileSystem.Failure?
    private let failed = Atomic<Bool>(false)

    /// True once a read or write has failed: the save can stop, the rest of the book has nowhere to go.
    var hasFailed: Bool { failed.load(ordering: .acquiring) }

    init(from pipe: FileDescriptor, to file: FileDescriptor) {
        let thread = Thread { [self] in
            let size = 1 << 20
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let count: Int
                do throws(FileSystem.Failure) { count = try pipe.read(into: buffer) } catch {
                    failure = failure ?? error
                    failed.store(true, ordering: .releasing)
                    break
                }
                if count == 0 { break }
                if failure == nil {
                    do throws(FileSystem.Failure) { try file.writeAll(buffer.baseAddress!, count: count) } catch {
                        failure = error
                        failed.store(true, ordering: .releasing)
                    }
                }
            }
            pipe.close()
            if case .failure(let error) = file.close(), failure == nil { failure = error }
            done.signal()
        }
        thread.name = "photobook save copier"
        thread.start()
    }

    /// Waits until the pipe is copied (or its end read after a failure); the first failure, if any.
    func finish() -> FileSystem.Failure? {
        done.wait()
        return failure
    }
}
