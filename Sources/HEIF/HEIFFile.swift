import CHEIF
import CHEIFDecoders
import ImageCodec

/// One HEIF file opened by libheif over a `ByteSource`, and its primary image's handle; `deinit` releases the
/// handle, frees the context and then the reader table libheif kept a pointer to.
///
/// Only the primary image (`heif_context_get_primary_image_handle`) is ever looked at: thumbnails, depth maps,
/// alpha planes and other auxiliary images hang off it as separate handles and are never a photo.
final class HEIFFile {
    /// The longest side libheif accepts. In 1.15 `heif_context_set_maximum_image_size_limit(ctx, n)` is a limit on
    /// each side (width and height alike, despite its parameter's name `maximum_width`), checked against every
    /// `ispe` when the file is read and against a grid's output size when it is decoded; a larger size is refused
    /// before anything is allocated for it. 65535 is the largest JPEG side: no camera writes more.
    static let maximumSide = 65535

    let kind: String
    let handle: OpaquePointer
    /// The file as libheif reads it (HEIFLibheifView): the file itself, or its mended view.
    var source: any ByteSource { reader.source }
    private let original: any ByteSource
    private let context: OpaquePointer
    private let reader: HEIFByteReader
    private let table: UnsafeMutablePointer<heif_reader>

    /// Reads the file's boxes and finds the primary image. libheif 1.15 also reads the data of every item here
    /// (its metadata loop runs over images and tiles too), so a file cut short or with an extent past its end
    /// fails now, at probe; what it reads is bounded by the file's size, never by a size the file declares.
    init(_ source: any ByteSource, kind: String) throws(CodecError) {
        self.kind = kind
        guard let context = heif_context_alloc() else { throw .outOfMemory("not enough memory to read the \(kind) file") }
        let reader = HEIFByteReader(HEIFLibheifView.of(source))
        let table = UnsafeMutablePointer<heif_reader>.allocate(capacity: 1)
        table.initialize(to: HEIFByteReader.functions)
        heif_context_set_maximum_image_size_limit(context, Int32(Self.maximumSide))
        // 0, not 1: in 1.15 a value of 1 starts one background thread for a grid's tiles, 0 decodes them on the
        // thread that calls heif_decode_image. photobook already runs one decode per worker (--jobs).
        heif_context_set_max_decoding_threads(context, 0)
        if let failure = Self.failure(pbheif_register_decoders(context), kind: kind, reader: reader, source: source) {
            heif_context_free(context)
            table.deinitialize(count: 1)
            table.deallocate()
            throw failure
        }
        let failure = Self.failure(heif_context_read_from_reader(context, table, Unmanaged.passUnretained(reader).toOpaque(), nil),
                                   kind: kind, reader: reader, source: source)
        var handle: OpaquePointer?
        let primary = failure ?? Self.failure(heif_context_get_primary_image_handle(context, &handle), kind: kind,
                                              reader: reader, source: source)
        guard primary == nil, let handle else {
            heif_context_free(context)
            table.deinitialize(count: 1)
            table.deallocate()
            throw primary ?? .corrupt("corrupt \(kind) (no primary image)")
        }
        self.context = context
        self.original = source
        self.reader = reader
        self.table = table
        self.handle = handle
    }

    /// The primary image's item ID (`pitm`); nil when libheif cannot say.
    var primaryItemID: Int? {
        var id = heif_item_id(0)
        guard heif_context_get_primary_image_ID(context, &id).code == heif_error_Ok else { return nil }
        return Int(id)
    }

    deinit {
        heif_image_handle_release(handle)
        heif_context_free(context)
        table.deinitialize(count: 1)
        table.deallocate()
    }

    /// The colour codes (`colr` nclx: matrix, primaries, full range; nil: the bitstream's) libheif would convert
    /// the primary image with, when converting it to RGB is all libheif 1.15 would do to its decoder's picture:
    /// one HEVC or AV1 picture (no grid, overlay or derived image), no alpha, none of the properties libheif applies at
    /// decode (irot, imir, clap); nil (not `.some(nil)`) for any other image, or when its boxes cannot be read.
    var onlyConvertedByLibheif: (matrix: Int, primaries: Int, fullRange: Bool)?? {
        guard heif_image_handle_has_alpha_channel(handle) == 0, let items = HEIFItems(reader.source),
              ["hvc1", "av01"].contains(items.type(of: items.primary)), !items.isTransformed(items.primary)
        else { return nil }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        let error = heif_image_handle_get_nclx_color_profile(handle, &nclx)
        defer { if let nclx { heif_nclx_color_profile_free(nclx) } }  // allocated even on an error (HEIFColour)
        guard let nclx else { return .some(nil) }
        // Codes libheif cannot read: its own conversion decides what to do with them.
        guard error.code == heif_error_Ok else { return nil }
        return (Int(nclx.pointee.matrix_coefficients.rawValue), Int(nclx.pointee.color_primaries.rawValue),
                nclx.pointee.full_range_flag != 0)
    }

    /// The primary image's grid, when libheif may be spared its tiles outside a crop (HEIFGridTiles).
    var gridTiles: HEIFGridTiles? {
        guard let items = HEIFItems(reader.source) else { return nil }
        return HEIFGridTiles(items, lumaBits: Int(heif_image_handle_get_luma_bits_per_pixel(handle)),
                             hasAlpha: heif_image_handle_has_alpha_channel(handle) != 0)
    }

    /// How many top-level images the file holds (a burst, or an image collection); the primary one is the photo.
    var topLevelImageCount: Int { Int(heif_context_get_number_of_top_level_images(context)) }

    /// The reason for a libheif error, worded for the photo's owner; nil for `heif_error_Ok`.
    func failure(_ error: heif_error) -> CodecError? {
        Self.failure(error, kind: kind, reader: reader, source: original)
    }

    private static func failure(_ error: heif_error, kind: String, reader: HEIFByteReader,
                                source: any ByteSource) -> CodecError? {
        if error.code == heif_error_Ok { return nil }
        if let failure = reader.failure { return failure }
        // The message lives in the context or the image handle that failed: copied now, while both exist.
        let message = error.message.map { String(cString: $0) } ?? "unknown error"
        switch (error.code, error.subcode) {
        case (heif_error_Memory_allocation_error, heif_suberror_Security_limit_exceeded):
            return .tooLarge("\(kind) image is too large (libheif: \(message))")
        case (heif_error_Memory_allocation_error, _):
            return .outOfMemory("not enough memory to decode the \(kind) image (libheif: \(message))")
        case (heif_error_Unsupported_filetype, _):
            return .unsupported("not a \(kind) image libheif can read (\(message))")
        case (heif_error_Unsupported_feature, _):
            return .unsupported("\(kind) image uses a feature libheif \(libraryVersion) cannot decode (\(message))")
        default:
            // libheif 1.15 stops reading the top-level boxes at the first one cut short and then complains of a
            // missing box ("No 'meta' box"): the file's own box sizes tell a truncated file from a damaged one.
            if let cut = HEIFBoxes.truncation(of: source) { return .corrupt("corrupt \(kind) (truncated file: \(cut))") }
            return .corrupt("corrupt \(kind) (\(message))")
        }
    }

    static var libraryVersion: String { String(cString: heif_get_version()) }
}
