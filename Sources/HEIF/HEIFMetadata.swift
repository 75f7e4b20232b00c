import CHEIF

/// The EXIF and XMP blocks attached to a HEIF image (libheif has read them into memory with the boxes).
enum HEIFMetadata {
    /// The largest block handed on: an EXIF or XMP block is a few KB; more is junk nobody needs in a photo book.
    static let maximumSize = 4 << 20

    /// The TIFF structure of the image's first usable `Exif` block; nil when there is none.
    static func exif(_ handle: OpaquePointer) -> [UInt8]? {
        for id in blockIDs(handle, type: "Exif") {
            if let block = data(handle, id), let tiff = tiffStructure(ofExifBlock: block) { return tiff }
        }
        return nil
    }

    /// The XMP packet: the first `mime` block of content type application/rdf+xml.
    static func xmp(_ handle: OpaquePointer) -> [UInt8]? {
        for id in blockIDs(handle, type: "mime") {
            guard let type = heif_image_handle_get_metadata_content_type(handle, id),
                  String(cString: type) == "application/rdf+xml" else { continue }
            if let block = data(handle, id), !block.isEmpty { return block }
        }
        return nil
    }

    /// An `Exif` item's payload starts with a 4-byte big-endian offset from its end to the TIFF header
    /// (ISO/IEC 23008-12 A.2.1). Some writers got the offset wrong or left "Exif\0\0" before the header:
    /// when the offset does not lead to a TIFF header, the first 64 bytes are searched for one.
    static func tiffStructure(ofExifBlock block: [UInt8]) -> [UInt8]? {
        guard block.count >= 12 else { return nil }
        let offset = block[0..<4].reduce(0) { $0 << 8 | Int($1) }
        if offset <= block.count - 12, isTIFFHeader(block, at: 4 + offset) { return Array(block[(4 + offset)...]) }
        for start in 4..<min(block.count - 8, 68) where isTIFFHeader(block, at: start) {
            return Array(block[start...])
        }
        return nil
    }

    private static func isTIFFHeader(_ bytes: [UInt8], at i: Int) -> Bool {
        guard i >= 0, i + 4 <= bytes.count else { return false }
        return (bytes[i] == 0x49 && bytes[i + 1] == 0x49 && bytes[i + 2] == 0x2A && bytes[i + 3] == 0)
            || (bytes[i] == 0x4D && bytes[i + 1] == 0x4D && bytes[i + 2] == 0 && bytes[i + 3] == 0x2A)
    }

    private static func blockIDs(_ handle: OpaquePointer, type: String) -> [heif_item_id] {
        let count = Int(heif_image_handle_get_number_of_metadata_blocks(handle, type))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let filled = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, type, &ids, Int32(count)))
        return Array(ids.prefix(max(0, min(filled, count))))
    }

    private static func data(_ handle: OpaquePointer, _ id: heif_item_id) -> [UInt8]? {
        let size = heif_image_handle_get_metadata_size(handle, id)
        guard size > 0, size <= maximumSize else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        let error = bytes.withUnsafeMutableBytes { heif_image_handle_get_metadata(handle, id, $0.baseAddress) }
        return error.code == heif_error_Ok ? bytes : nil
    }
}
