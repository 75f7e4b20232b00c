import CGIF
import ImageCodec

/// One GIF opened with giflib's record-level reader (`DGifOpen`), fed from a `ByteSource` a chunk at a time, and
/// read only as far as asked: the screen, the records up to the first image, that image's rows. The handle is
/// closed when the reader goes.
///
/// Trap: `DGifSlurp` decodes every frame of an animation into memory; this reader never calls it.
final class GIFReader {
    /// What the records up to the first image say.
    struct FirstImage {
        var screenWidth: Int, screenHeight: Int
        /// The first frame's place on the screen (it may reach past the screen's edges).
        var frame: PixelRegion
        var interlaced: Bool
        /// 256 RGB entries: the frame's colour table (its own, else the global one); black past its end.
        var colors: [UInt8]
        var colorCount: Int
        /// The index the Graphics Control Extension before the frame calls transparent, if any.
        var transparentIndex: Int?
        var version: String
        var xmp: [UInt8]?
        var notes: [String] = []
    }

    private let gif: UnsafeMutablePointer<GifFileType>
    private let input: Input
    /// "GIF87a" or "GIF89a". (Trap: giflib's DGifGetGifVersion says GIF89 only once it has met a GIF89 extension.)
    let version: String

    /// Opens `source` and reads its header and logical screen descriptor (`DGifOpen`).
    init(_ source: any ByteSource) throws(CodecError) {
        // Trap: giflib checks only the first three bytes ("GIF"): "GIF90a" would be read as a GIF.
        let signature = try source.prefix(6)
        guard signature.elementsEqual("GIF87a".utf8) || signature.elementsEqual("GIF89a".utf8) else {
            throw .unsupported("not a GIF file")
        }
        version = String(decoding: signature, as: UTF8.self)
        let input = Input(source)
        var error: Int32 = 0
        let opened = DGifOpen(Unmanaged.passUnretained(input).toOpaque(), { gif, bytes, count in
            guard let gif, let bytes, count > 0, let user = gif.pointee.UserData else { return 0 }
            return Int32(Unmanaged<Input>.fromOpaque(user).takeUnretainedValue().read(into: bytes, count: Int(count)))
        }, &error)
        guard let opened else { throw Self.failure(code: error, input: input) }
        gif = opened
        self.input = input
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(gif, &error)
    }

    /// Reads the records up to the first image's descriptor (extensions before it: its Graphics Control
    /// Extension, an XMP packet), leaving the reader at that image's data.
    func readToFirstImage() throws(CodecError) -> FirstImage {
        let screenWidth = Int(gif.pointee.SWidth), screenHeight = Int(gif.pointee.SHeight)
        guard screenWidth > 0, screenHeight > 0 else {
            throw .corrupt("corrupt GIF (its screen is \(screenWidth)x\(screenHeight) pixels)")
        }
        var transparentIndex: Int?
        var xmp: [UInt8]?
        var notes: [String] = []
        while true {
            var type = UNDEFINED_RECORD_TYPE
            try check(DGifGetRecordType(gif, &type))
            switch type {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                try check(DGifGetExtension(gif, &code, &block))
                if code == GRAPHICS_EXT_FUNC_CODE, let block {
                    var control = GraphicsControlBlock()
                    if DGifExtensionToGCB(Int(block[0]), block + 1, &control) == GIF_OK {
                        transparentIndex = control.TransparentColor == NO_TRANSPARENT_COLOR
                            ? nil : Int(control.TransparentColor)
                    } else {
                        notes.append("a graphics control extension of \(block[0]) bytes was ignored")
                    }
                    try skipSubBlocks(after: block)
                } else if code == APPLICATION_EXT_FUNC_CODE, let block, block[0] == 11,
                          UnsafeBufferPointer(start: block + 1, count: 11).elementsEqual(Self.xmpIdentifier) {
                    xmp = try readXMP()
                    if xmp == nil { notes.append("an XMP packet without its end was ignored") }
                } else {
                    try skipSubBlocks(after: block)
                }
            case IMAGE_DESC_RECORD_TYPE:
                try check(DGifGetImageDesc(gif))
                let image = gif.pointee.Image
                guard image.Width > 0, image.Height > 0 else {
                    throw .corrupt("corrupt GIF (its first frame is \(image.Width)x\(image.Height) pixels)")
                }
                guard let map = image.ColorMap ?? gif.pointee.SColorMap, let entries = map.pointee.Colors else {
                    throw .corrupt("corrupt GIF (no colour table)")
                }
                let count = min(256, max(0, Int(map.pointee.ColorCount)))
                var colors = [UInt8](repeating: 0, count: 256 * 3)
                for i in 0..<count {
                    colors[i * 3] = entries[i].Red; colors[i * 3 + 1] = entries[i].Green; colors[i * 3 + 2] = entries[i].Blue
                }
                return FirstImage(screenWidth: screenWidth, screenHeight: screenHeight,
                                  frame: PixelRegion(x: Int(image.Left), y: Int(image.Top), width: Int(image.Width),
                                                     height: Int(image.Height)),
                                  interlaced: image.Interlace, colors: colors, colorCount: count,
                                  transparentIndex: transparentIndex, version: version, xmp: xmp, notes: notes)
            case TERMINATE_RECORD_TYPE:
                throw .corrupt("corrupt GIF (no image)")
            default:
                throw .corrupt("corrupt GIF (unknown record)")
            }
        }
    }

    /// How many more images follow the current one (whose data is not yet read), reading only the blocks'
    /// lengths' worth: no pixel is decoded. Stops at `limit` images or past `byteLimit` bytes of the file (then
    /// `complete` is false) and at a damaged or
    /// missing record after the first image (a truncated animation: what came before counts).
    func countImagesAfterCurrent(limit: Int, byteLimit: Int) throws(CodecError) -> (count: Int, complete: Bool) {
        try skipImageData()  // the first frame's data must be whole: that is the picture
        var count = 0
        while count < limit, input.position <= byteLimit {
            var type = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &type) == GIF_OK else { return (count, false) }
            switch type {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK,
                      (try? skipSubBlocks(after: block)) != nil else { return (count, false) }
            case IMAGE_DESC_RECORD_TYPE:
                // Trap: DGifGetImageDesc keeps a copy of every descriptor and colour table it reads (SavedImages)
                // until the file is closed: the limit bounds that memory too.
                guard DGifGetImageDesc(gif) == GIF_OK, (try? skipImageData()) != nil else { return (count, false) }
                count += 1
            default:
                return (count, type == TERMINATE_RECORD_TYPE)
            }
        }
        return (count, false)
    }

    /// Decodes the current image's next row of `into.count` (its width) indices (`DGifGetLine`).
    func readLine(_ line: UnsafeMutableBufferPointer<UInt8>) throws(CodecError) {
        try check(DGifGetLine(gif, line.baseAddress, Int32(line.count)))
    }

    // MARK: - Blocks

    static let xmpIdentifier = Array("XMP DataXMP".utf8)

    private func skipImageData() throws(CodecError) {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        try check(DGifGetCode(gif, &codeSize, &block))
        while block != nil { try check(DGifGetCodeNext(gif, &block)) }
    }

    private func skipSubBlocks(after first: UnsafeMutablePointer<GifByteType>?) throws(CodecError) {
        var block = first
        while block != nil { try check(DGifGetExtensionNext(gif, &block)) }
    }

    /// An XMP application extension's packet: XMP's GIF embedding stores the packet's bytes as they are, so the
    /// sub-blocks' length bytes are the packet's own bytes, and a 258-byte "magic trailer" follows it. Nil when
    /// the packet has no end (`<?xpacket end=...?>` or `</x:xmpmeta>`).
    private func readXMP() throws(CodecError) -> [UInt8]? {
        var bytes: [UInt8] = []
        var block: UnsafeMutablePointer<GifByteType>?
        try check(DGifGetExtensionNext(gif, &block))
        while let current = block {
            if bytes.count < EmbeddedProfile.maximumSize {
                bytes.append(contentsOf: UnsafeBufferPointer(start: current, count: Int(current[0]) + 1))
            }
            try check(DGifGetExtensionNext(gif, &block))
        }
        for end in [Array("<?xpacket end=".utf8), Array("</x:xmpmeta>".utf8)] {
            guard let at = Self.lastIndex(of: end, in: bytes) else { continue }
            if end.last == UInt8(ascii: ">") { return Array(bytes[..<(at + end.count)]) }
            guard let close = Self.firstIndex(of: Array("?>".utf8), in: bytes, from: at) else { continue }
            return Array(bytes[..<(close + 2)])
        }
        return nil
    }

    private static func lastIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return stride(from: bytes.count - needle.count, through: 0, by: -1).first {
            bytes[$0..<($0 + needle.count)].elementsEqual(needle)
        }
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    // MARK: - Errors

    private func check(_ status: Int32) throws(CodecError) {
        guard status == GIF_OK else { throw Self.failure(code: gif.pointee.Error, input: input) }
    }

    /// giflib's error code as a failure with the reason in words.
    static func failure(code: Int32, input: Input) -> CodecError {
        if let failure = input.failure { return failure }
        switch code {
        case D_GIF_ERR_NOT_GIF_FILE: return .unsupported("not a GIF file")
        case D_GIF_ERR_READ_FAILED, D_GIF_ERR_OPEN_FAILED, D_GIF_ERR_NO_SCRN_DSCR, D_GIF_ERR_NO_IMAG_DSCR:
            return .corrupt("corrupt GIF (truncated file)")
        case D_GIF_ERR_EOF_TOO_SOON: return .corrupt("corrupt GIF (its image data ends early)")
        case D_GIF_ERR_IMAGE_DEFECT: return .corrupt("corrupt GIF (damaged image data)")
        case D_GIF_ERR_DATA_TOO_BIG: return .corrupt("corrupt GIF (more image data than its size)")
        case D_GIF_ERR_WRONG_RECORD: return .corrupt("corrupt GIF (unknown record)")
        case D_GIF_ERR_NOT_ENOUGH_MEM: return .outOfMemory("out of memory reading a GIF")
        default:
            let words = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
            return .corrupt("corrupt GIF (giflib: \(words))")
        }
    }

    /// The bytes of a `ByteSource` handed to giflib's read callback, read 64 KB at a time.
    final class Input {
        let source: any ByteSource
        private var chunk: [UInt8] = []
        private var chunkStart = 0
        /// How far giflib has read.
        private(set) var position = 0
        /// What reading the source threw: the failure to report instead of giflib's "read failed".
        private(set) var failure: CodecError?

        init(_ source: any ByteSource) { self.source = source }

        func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
            var done = 0
            while done < count {
                if position >= chunkStart + chunk.count {
                    do {
                        chunk = try source.read(from: position, count: 64 * 1024)
                    } catch {
                        failure = error
                        return done
                    }
                    chunkStart = position
                    if chunk.isEmpty { return done }
                }
                let offset = position - chunkStart, length = min(count - done, chunk.count - offset)
                chunk.withUnsafeBufferPointer { (buffer + done).update(from: $0.baseAddress! + offset, count: length) }
                done += length
                position += length
            }
            return done
        }
    }
}
