import CTIFF  // Trap: never called from here by name, but only a Swift import of it links libtiff (`link "tiff"`)
import CTIFFShim
import ImageCodec

// The only file that touches libtiff's handle: one open file is one `TIFFFile`, which closes it in deinit, and
// every C call goes through a method here, so the handle outlives the call and no C pointer leaves the module.

/// One libtiff handle over a `ByteSource`, with its own error and warning buffers (CTIFFShim); closed in deinit.
final class TIFFFile {
    /// The most libtiff may allocate at once (`TIFFOpenOptionsSetMaxSingleMemAlloc`): a strip, a tag's array.
    static let maxSingleAllocation = 256 << 20
    /// The file name libtiff is given (it names the file in some messages; the engine names it for the user).
    static let clientName = "photo"

    /// What the read callback sees: the source, and the first read failure (an I/O error, not a format one).
    fileprivate final class Reader {
        let source: any ByteSource
        var failure: CodecError?
        init(_ source: any ByteSource) { self.source = source }
    }

    private let file: OpaquePointer
    private let tif: OpaquePointer
    private let reader: Reader
    let fileSize: Int

    /// Opens `source` (`TIFFClientOpenExt`, read-only, not mapped); reads the first directory.
    init(_ source: any ByteSource) throws(CodecError) {
        let reader = Reader(source)
        let context = Unmanaged.passUnretained(reader).toOpaque()
        guard let file = pbtiff_open(Self.clientName, context, readCallback, UInt64(source.count),
                                     tmsize_t(Self.maxSingleAllocation)) else {
            throw .outOfMemory("not enough memory to open a TIFF")
        }
        guard let tif = pbtiff_tiff(file) else {
            let failure = reader.failure ?? .corrupt(Self.describe(String(cString: pbtiff_error(file))))
            pbtiff_close(file)
            throw failure
        }
        self.file = file
        self.tif = tif
        self.reader = reader
        fileSize = source.count
    }

    deinit { pbtiff_close(file) }

    /// The reason to give for the last failed call: the read failure, else libtiff's first error (with `place`
    /// when it does not say where), else the last warning since `warningsSince` (the call's start), else
    /// `fallback`.
    func failure(_ fallback: String, at place: String? = nil, warningsSince: Int? = nil) -> CodecError {
        if let failure = reader.failure { return failure }
        var text = String(cString: pbtiff_error(file))
        // Trap: libtiff's fax decoder only warns ("Premature EOL at line 15 of strip 0") and then fails with no
        // error of its own: the warning is the reason.
        if text.isEmpty, let since = warningsSince, let warning = lastWarning(since: since) { text = warning }
        if text.isEmpty { return .corrupt(Self.describe(fallback)) }
        if let place, !["strip", "tile", "scanline", "row"].contains(where: { text.contains($0) }) {
            text += " in \(place)"
        }
        return .corrupt(Self.describe(text))
    }

    /// libtiff's words as the photo's owner reads them: "corrupt TIFF (Read error on strip 3)".
    static func describe(_ libtiffText: String) -> String {
        var text = libtiffText
        // libtiff starts some messages with the name given to TIFFClientOpen: ours says nothing ("photo: ...").
        if text.hasPrefix(Self.clientName + ": ") { text.removeFirst(Self.clientName.count + 2) }
        // "Read error on strip 3; got 100 bytes, expected 2000": the counts say nothing to the photo's owner.
        if let cut = text.range(of: "; got ") { text = String(text[..<cut.lowerBound]) }
        if text == "not a TIFF file" { return text }
        return "corrupt TIFF (\(text))"
    }

    func clearError() { pbtiff_clear_error(file) }

    /// Warnings so far (the first 16 kept), "module: text".
    var warningCount: Int { Int(pbtiff_warning_count(file)) }
    /// `warningCount` when the current page's pixels began to be read (`startReadingPixels`): what libtiff
    /// says after it is about the pixels, not about the directories read again on the way to the page.
    private var pixelWarningsFrom: Int?
    func startReadingPixels() { pixelWarningsFrom = warningCount }
    /// What libtiff warned of while reading the page's pixels, as `warnings(from:)` words it.
    var pixelWarnings: [String] { pixelWarningsFrom.map { warnings(from: $0) } ?? [] }
    /// The text of the last warning kept from warning `index` on, without its "module: ".
    private func lastWarning(since index: Int) -> String? {
        let last = min(warningCount, Int(PBTIFF_KEPT_WARNINGS)) - 1
        guard last >= index else { return nil }
        let text = String(cString: pbtiff_warning(file, Int32(last)))
        return text.range(of: ": ").map { String(text[$0.upperBound...]) } ?? text
    }
    func warnings(from index: Int) -> [String] {
        let total = warningCount, kept = min(total, Int(PBTIFF_KEPT_WARNINGS))
        var texts = index < kept ? (index..<kept).map { "libtiff: " + String(cString: pbtiff_warning(file, Int32($0))) } : []
        let unkept = total - max(index, kept)
        if unkept > 0 { texts.append("libtiff: \(unkept) more warnings") }
        return texts
    }

    // MARK: directories

    /// `TIFFReadDirectory`: the next IFD of the main chain; false at its end (or when it cannot be read:
    /// `lastErrorText` then says why).
    func readNextDirectory() -> Bool { TIFFReadDirectory(tif) == 1 }
    /// `TIFFReadEXIFDirectory`: the EXIF IFD at `offset` becomes the current directory.
    func readEXIFDirectory(at offset: UInt64) -> Bool { TIFFReadEXIFDirectory(tif, offset) == 1 }
    var lastErrorText: String { String(cString: pbtiff_error(file)) }

    // MARK: tags of the current directory

    func u16(_ tag: Int32) -> UInt16? { number(tag, pbtiff_get_u16) }
    func u16Defaulted(_ tag: Int32) -> UInt16? { number(tag, pbtiff_get_u16_defaulted) }
    func u32(_ tag: Int32) -> UInt32? { number(tag, pbtiff_get_u32) }
    func u64(_ tag: Int32) -> UInt64? { number(tag, pbtiff_get_u64) }

    /// A number tag through the shim's getter for its width: nil when the directory has no such tag.
    private func number<Value: FixedWidthInteger>(
        _ tag: Int32, _ get: (OpaquePointer, UInt32, UnsafeMutablePointer<Value>) -> Int32) -> Value? {
        var value: Value = 0
        return get(tif, UInt32(tag), &value) == 1 ? value : nil
    }
    func string(_ tag: Int32) -> String? {
        pbtiff_get_string(tif, UInt32(tag)).map { String(cString: $0) }
    }
    func bytes(_ tag: Int32) -> [UInt8]? {
        var count: UInt32 = 0
        var data: UnsafePointer<UInt8>?
        guard pbtiff_get_bytes(tif, UInt32(tag), &count, &data) == 1, let data, count > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(count)))
    }
    func extraSamples() -> [UInt16] {
        var count: UInt16 = 0
        var types: UnsafePointer<UInt16>?
        guard pbtiff_get_extra_samples(tif, &count, &types) == 1, let types else { return [] }
        return Array(UnsafeBufferPointer(start: types, count: Int(count)))
    }
    /// The colour map's entries (2^bits of each), or nil when there is none.
    func colorMap(entries: Int) -> (red: [UInt16], green: [UInt16], blue: [UInt16])? {
        var r: UnsafePointer<UInt16>?, g: UnsafePointer<UInt16>?, b: UnsafePointer<UInt16>?
        guard pbtiff_get_colormap(tif, &r, &g, &b) == 1, let r, let g, let b else { return nil }
        return (Array(UnsafeBufferPointer(start: r, count: entries)), Array(UnsafeBufferPointer(start: g, count: entries)),
                Array(UnsafeBufferPointer(start: b, count: entries)))
    }
    func setJPEGColorModeRGB() -> Bool { pbtiff_set_jpeg_rgb(tif) == 1 }

    var isTiled: Bool { TIFFIsTiled(tif) != 0 }
    var stripCount: Int { Int(TIFFNumberOfStrips(tif)) }
    var tileCount: Int { Int(TIFFNumberOfTiles(tif)) }
    var stripSize: Int { Int(clamping: TIFFStripSize64(tif)) }
    var tileSize: Int { Int(clamping: TIFFTileSize64(tif)) }
    var scanlineSize: Int { Int(clamping: TIFFScanlineSize64(tif)) }
    /// Where strip or tile `index` lies in the file (`TIFFGetStrileOffset`, `TIFFGetStrileByteCount`).
    func strile(_ index: Int) -> (offset: UInt64, byteCount: UInt64) {
        (TIFFGetStrileOffset(tif, UInt32(index)), TIFFGetStrileByteCount(tif, UInt32(index)))
    }
    func tileIndex(x: Int, y: Int, plane: Int) -> Int {
        Int(TIFFComputeTile(tif, UInt32(x), UInt32(y), 0, UInt16(plane)))
    }
    /// `TIFFRGBAImageOK`: whether libtiff's RGBA reader takes this directory, and if not why.
    func rgbaReaderRefusal() -> String? {
        var message = [CChar](repeating: 0, count: 1024)
        return message.withUnsafeMutableBufferPointer { buffer in
            TIFFRGBAImageOK(tif, buffer.baseAddress!) == 1 ? nil : String(cString: buffer.baseAddress!)
        }
    }

    // MARK: pixels

    /// `TIFFReadScanline` of `row` (and `plane`) into `buffer` (at least `scanlineSize` bytes).
    func readScanline(_ row: Int, plane: Int = 0, into buffer: UnsafeMutableRawPointer) throws(CodecError) {
        let before = warningCount
        guard TIFFReadScanline(tif, buffer, UInt32(row), UInt16(plane)) == 1 else {
            throw failure("Read error at row \(row)", at: "row \(row)", warningsSince: before)
        }
    }
    /// `TIFFReadEncodedStrip` of strip `index` into `buffer` (`size` bytes, at least `stripSize`).
    func readStrip(_ index: Int, into buffer: UnsafeMutableRawPointer, size: Int) throws(CodecError) {
        let before = warningCount
        guard TIFFReadEncodedStrip(tif, UInt32(index), buffer, tmsize_t(size)) >= 0 else {
            throw failure("Read error on strip \(index)", at: "strip \(index)", warningsSince: before)
        }
    }
    /// `TIFFReadEncodedTile` of tile `index` into `buffer` (`size` bytes, at least `tileSize`).
    func readTile(_ index: Int, into buffer: UnsafeMutableRawPointer, size: Int) throws(CodecError) {
        let before = warningCount
        guard TIFFReadEncodedTile(tif, UInt32(index), buffer, tmsize_t(size)) >= 0 else {
            throw failure("Read error on tile \(index)", at: "tile \(index)", warningsSince: before)
        }
    }
    /// `TIFFReadRGBAStrip` from `row` (the first row of a strip): `width * rowsPerStrip` pixels, bottom row first.
    func readRGBAStrip(row: Int, into raster: UnsafeMutablePointer<UInt32>) throws(CodecError) {
        let before = warningCount
        guard TIFFReadRGBAStrip(tif, UInt32(row), raster) == 1 else {
            throw failure("Read error at row \(row)", warningsSince: before)
        }
    }
    /// `TIFFReadRGBATile` at (`x`, `y`): `tileWidth * tileHeight` pixels, the tile's bottom row first.
    func readRGBATile(x: Int, y: Int, into raster: UnsafeMutablePointer<UInt32>) throws(CodecError) {
        let before = warningCount
        guard TIFFReadRGBATile(tif, UInt32(x), UInt32(y), raster) == 1 else {
            throw failure("Read error on the tile at \(x), \(y)", warningsSince: before)
        }
    }
}

/// The C read callback: a positioned read of the source; an I/O failure is kept for the error message.
private let readCallback: pbtiff_read_fn = { context, offset, buffer, count in
    guard let context, let buffer else { return -1 }
    let reader = Unmanaged<TIFFFile.Reader>.fromOpaque(context).takeUnretainedValue()
    guard offset < UInt64(Int.max), count <= Int.max else { return 0 }
    do throws(CodecError) {
        let bytes = try reader.source.read(from: Int(offset), count: count)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return Int64(bytes.count)
    } catch {
        if reader.failure == nil { reader.failure = error }
        return -1
    }
}
