import CHaru
import Platform

// An image whose bytes stay in their file until the document is saved.
//
// libharu keeps every stream of a document in memory until it is freed: `HPDF_LoadJpegImageFromMem` copies the
// whole JPEG into the image's memory stream, so a book of 800 pages held 800 JPEGs. But an image XObject is only a
// dictionary with a `stream` member (hpdf_objects.h), and at save `HPDF_Dict_Write` copies that stream into the
// file with `HPDF_Stream_WriteToStream`: `HPDF_Stream_Size`, then `HPDF_Stream_Seek(0, SEEK_SET)`, then
// `HPDF_Stream_Read` in 4 kB pieces until `HPDF_STREAM_EOF`, each piece written as it is (the dictionary's filter
// is DCTDecode only, so nothing is re-compressed) and /Length set from the bytes written. Any stream with a read
// function will do there. So:
//
//   1. libharu builds the image dictionary as always, from the JPEG's head only (up to its frame header), which
//      is all `LoadJpegHeader` reads: the same keys, in the same order, as for the whole JPEG.
//   2. the dictionary's memory stream (holding that head) is freed and replaced by a callback stream
//      (`HPDF_CallbackReader_New`) that reads the file when the save asks for it.
//
// Not `HPDF_FileReader_New`: it opens the file at once and keeps it open until the document is freed, one
// descriptor per page. The callback stream opens its file at the save's seek to 0 and closes it at the end of
// the file, so a save has one image file open at a time, whatever the number of pages.

extension PDFDocument {
    /// Embeds the JPEG in the file at `path` like `loadJPEG(_:iccProfile:)`, but leaves its bytes in the file:
    /// they are read when the document is saved, so the document does not hold them in memory.
    ///
    /// The file must stay as it is until the save; it is not held open meanwhile. A file that is gone or has
    /// changed size by then fails the save with `.imageFile` naming it. With `removeWhenSaved` the file is
    /// removed as soon as the save has copied it (the book then needs the room of one copy, not two); a failed
    /// save leaves the files it had not reached yet. Only the JPEG's head is read here: hand it only JPEGs that
    /// were produced or fully decoded by us (see `loadJPEG(_:)`).
    public func loadJPEG(file path: String, iccProfile: [UInt8]? = nil,
                         removeWhenSaved: Bool = false) throws(PDFError) -> PDFImage {
        let (head, byteCount) = try ImageFile.readHead(of: path)
        let image = try embedJPEG(head, during: "embedding the JPEG \(path)")
        let file = ImageFile(path: path, byteCount: byteCount, removeWhenSaved: removeWhenSaved, document: self)
        let during = "reading the JPEG \(path) from its file"
        let handle = self.handle
        let stream = try haruObject(during) {
            HPDF_CallbackReader_New(handle.pointee.mmgr, imageFileRead, imageFileSeek, imageFileTell, imageFileSize,
                                    Unmanaged.passUnretained(file).toOpaque())
        }
        // The head libharu copied is of no further use; the dictionary frees whatever stream it has at HPDF_Free.
        HPDF_Stream_Free(image.handle.pointee.stream)
        image.handle.pointee.stream = stream
        imageFiles.append(file)
        return try attach(iccProfile, to: image)
    }

    /// Runs a save (`body`) with `monitor` asked before each image file is read; closes every image file after
    /// it, and turns a failure of an image file into `.imageFile` (or `.stopped` when `monitor` said stop).
    func savingImageFiles(monitor: ((_ index: Int, _ count: Int) -> Bool)?,
                          _ body: () throws(PDFError) -> Void) throws(PDFError) {
        for file in imageFiles { file.reset() }
        saveMonitor = monitor
        imageFilesOpened = 0
        defer {
            saveMonitor = nil
            for file in imageFiles { file.close() }
        }
        do {
            try body()
        } catch {
            // A book that could not be written is the cause even when an image file was then told to stop.
            if case .write = error { throw error }
            if let failed = imageFiles.first(where: { $0.failure != nil }), let failure = failed.failure {
                throw failure
            }
            throw error
        }
    }

    /// Called by an image file that is about to be opened by the save: false stops the save.
    fileprivate func imageFileWillOpen() -> Bool {
        let index = imageFilesOpened
        imageFilesOpened += 1
        return saveMonitor?(index, imageFiles.count) ?? true
    }
}

/// One image stream's file: its path, the size it had when embedded, and while the save reads it, its descriptor.
/// Used by one document on its thread only.
final class ImageFile {
    let path: String
    let byteCount: Int
    let removeWhenSaved: Bool
    unowned let document: PDFDocument
    private var descriptor: FileDescriptor?
    /// How far the save has read.
    fileprivate(set) var offset = 0
    /// How far this file has been read: `offset` plus what waits in `readAhead`.
    private var fileOffset = 0
    /// libharu asks for 4 kB at a time (HPDF_STREAM_BUF_SIZ): the file is read a megabyte at a time into here
    /// and handed on from memory, one read(2) instead of 256 (the save is the one stage no other core helps).
    private var readAhead: UnsafeMutableRawBufferPointer?
    private var readAheadRange = 0..<0
    private static let readAheadSize = 1 << 20
    /// Why reading the file failed during the last save.
    private(set) var failure: PDFError?

    init(path: String, byteCount: Int, removeWhenSaved: Bool, document: PDFDocument) {
        self.path = path
        self.byteCount = byteCount
        self.removeWhenSaved = removeWhenSaved
        self.document = document
    }

    deinit { close() }

    func reset() {
        close()
        failure = nil
    }

    func close() {
        descriptor?.close()
        descriptor = nil
        readAhead?.deallocate()
        readAhead = nil
        readAheadRange = 0..<0
    }

    /// The bytes of the JPEG at `path` up to the end of its frame header, and the size of the whole file.
    static func readHead(of path: String) throws(PDFError) -> (head: [UInt8], byteCount: Int) {
        let descriptor: FileDescriptor
        switch FileSystem.openForReading(path) {
        case .failure(let failure): throw .imageFile(path: path, reason: failure.description)
        case .success(let opened): descriptor = opened
        }
        return try descriptor.closeAfter({ (file) throws(PDFError) in
            let size: Int
            do { size = Int(try file.status().size) } catch { throw .imageFile(path: path, reason: "\(error)") }
            guard size > 0, size <= Int(HPDF_UINT32.max) else {
                throw .imageFile(path: path, reason: size == 0 ? "empty file" : "too large for a PDF image stream")
            }
            var head: [UInt8] = []
            while true {
                switch JPEGFrameHeader.end(in: head) {
                case .found(let end): return (Array(head[..<end]), size)
                case .invalid(let reason): throw .imageFile(path: path, reason: reason)
                case .needMore:
                    var chunk = [UInt8](repeating: 0, count: 65536)
                    let count: Int
                    do {
                        // withUnsafeMutableBytes only rethrows `any Error`: the typed failure travels in a Result.
                        count = try chunk.withUnsafeMutableBytes { buffer in
                            Result { () throws(FileSystem.Failure) in try file.read(into: buffer) }
                        }.get()
                    } catch {
                        throw .imageFile(path: path, reason: "\(error)")
                    }
                    guard count > 0 else { throw .imageFile(path: path, reason: "not a JPEG: it ends before its frame header") }
                    head += chunk[..<count]
                }
            }
        }, closeFailure: { .imageFile(path: path, reason: $0.description) })
    }

    /// `HPDF_Stream_Seek`: the save seeks to 0 before it copies the stream; the file is opened there.
    fileprivate func seek(to position: Int, from whence: HPDF_WhenceMode, stream: HPDF_Stream) -> HPDF_STATUS {
        if descriptor == nil {
            guard whence == HPDF_SEEK_SET, position == 0 else {
                return fail(stream, status: HPDF_INVALID_OPERATION, reason: "read out of order")
            }
            guard document.imageFileWillOpen() else {
                return fail(stream, status: HPDF_INVALID_OPERATION, reason: nil)
            }
            switch FileSystem.openForReading(path) {
            case .failure(let failure): return fail(stream, status: HPDF_FILE_OPEN_ERROR, reason: failure.description)
            case .success(let opened): descriptor = opened
            }
            offset = 0
            fileOffset = 0
            return HPDF_STATUS(HPDF_OK)
        }
        // Only a rewind to the start is ever asked for (a second save); anything else is a misuse.
        guard whence == HPDF_SEEK_SET, position == 0 else {
            return fail(stream, status: HPDF_INVALID_OPERATION, reason: "read out of order")
        }
        close()
        return seek(to: 0, from: whence, stream: stream)
    }

    /// `HPDF_Stream_Read`: fills `buffer` unless the file ends first, then says `HPDF_STREAM_EOF` with the count.
    fileprivate func read(into buffer: UnsafeMutableRawBufferPointer, stream: HPDF_Stream) -> (HPDF_STATUS, Int) {
        guard let descriptor else {
            return (fail(stream, status: HPDF_INVALID_OPERATION, reason: "read before it was opened"), 0)
        }
        let ahead = readAhead ?? UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readAheadSize,
                                                                        alignment: MemoryLayout<UInt64>.alignment)
        readAhead = ahead
        var filled = 0
        while filled < buffer.count {
            if readAheadRange.isEmpty {
                let count: Int
                do {
                    count = try descriptor.read(into: ahead)
                } catch {
                    return (fail(stream, status: HPDF_FILE_IO_ERROR, reason: error.description), filled)
                }
                if count == 0 { break }
                fileOffset += count
                guard fileOffset <= byteCount else {
                    return (fail(stream, status: HPDF_FILE_IO_ERROR, reason: changedSize), filled)
                }
                readAheadRange = 0..<count
            }
            let count = min(buffer.count - filled, readAheadRange.count)
            (buffer.baseAddress! + filled).copyMemory(from: ahead.baseAddress! + readAheadRange.lowerBound, byteCount: count)
            readAheadRange = (readAheadRange.lowerBound + count)..<readAheadRange.upperBound
            filled += count
            offset += count
        }
        if filled == buffer.count { return (HPDF_STATUS(HPDF_OK), filled) }
        guard offset == byteCount else { return (fail(stream, status: HPDF_FILE_IO_ERROR, reason: changedSize), filled) }
        close()
        if removeWhenSaved { FileSystem.remove(path) }
        return (HPDF_STATUS(HPDF_STREAM_EOF), filled)
    }

    private var changedSize: String { "its size changed since it was embedded (\(byteCount) bytes then)" }

    /// Records why the save cannot go on and sets libharu's error (`HPDF_SetError`), which ends the save.
    /// A nil `reason` means the save was asked to stop.
    private func fail(_ stream: HPDF_Stream, status: Int32, reason: String?) -> HPDF_STATUS {
        close()
        failure = reason.map { .imageFile(path: path, reason: $0) } ?? .stopped
        return HPDF_SetError(stream.pointee.error, HPDF_STATUS(status), 0)
    }

    fileprivate static func from(_ stream: HPDF_Stream) -> ImageFile {
        Unmanaged<ImageFile>.fromOpaque(stream.pointee.attr).takeUnretainedValue()
    }
}

// The callback stream's functions: C function pointers, so they find their file through the stream's `attr`.
private let imageFileRead: HPDF_Stream_Read_Func = { stream, pointer, size in
    guard let stream, let pointer, let size else { return HPDF_STATUS(HPDF_INVALID_PARAMETER) }
    let (status, count) = ImageFile.from(stream).read(into: UnsafeMutableRawBufferPointer(start: pointer, count: Int(size.pointee)),
                                                      stream: stream)
    size.pointee = HPDF_UINT(count)
    return status
}

private let imageFileSeek: HPDF_Stream_Seek_Func = { stream, position, whence in
    guard let stream else { return HPDF_STATUS(HPDF_INVALID_PARAMETER) }
    return ImageFile.from(stream).seek(to: Int(position), from: whence, stream: stream)
}

private let imageFileTell: HPDF_Stream_Tell_Func = { stream in
    guard let stream else { return 0 }
    return HPDF_INT32(clamping: ImageFile.from(stream).offset)
}

// Trap: HPDF_Stream_WriteToStream writes nothing, successfully, for a stream whose size is 0: the size is the
// one recorded when the file was embedded (never 0), so a file that is gone by then fails at its opening instead.
private let imageFileSize: HPDF_Stream_Size_Func = { stream in
    guard let stream else { return 0 }
    return HPDF_UINT32(ImageFile.from(stream).byteCount)
}

/// Where a JPEG's frame header ends, found as libharu's `LoadJpegHeader` finds it: segment by segment from the
/// start, up to the first SOF0, SOF1, SOF2 or SOF9 marker and the 6 bytes it reads after its length.
enum JPEGFrameHeader {
    enum Scan: Equatable {
        case found(end: Int)
        case needMore
        case invalid(String)
    }

    static func end(in bytes: [UInt8]) -> Scan {
        guard bytes.count >= 3 else { return .needMore }
        guard bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF else { return .invalid("not a JPEG (no FF D8 FF start)") }
        var position = 2
        while true {
            guard position + 4 <= bytes.count else { return .needMore }
            let marker = bytes[position + 1]
            guard bytes[position] == 0xFF else { return .invalid("not a JPEG: no marker where a segment should start") }
            if [0xC0, 0xC1, 0xC2, 0xC9].contains(marker) {
                let end = position + 10
                return end <= bytes.count ? .found(end: end) : .needMore
            }
            if marker == 0xDA { return .invalid("no frame header the PDF library can read before the scan") }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length >= 2 else { return .invalid("not a JPEG: a segment of length \(length)") }
            position += 2 + length
        }
    }
}
