import CRaw
import EXIF
import Geometry
import ImageCodec
import Imaging
import JPEG

/// Camera raw files through LibRaw 0.20 (DNG, CR2, CR3, NEF, ARW, ORF, RW2, RAF, PEF, SRW and the rest of its
/// camera list), placed as the camera shows them: the camera's white balance, its colour matrix into sRGB,
/// LibRaw's default demosaic, 8 bits, turned upright by the raw's own orientation.
///
/// Three ways to the pixels, the cheapest that gives the cell its pixels (`RawDecodePlan`): the camera's own
/// rendering, its embedded JPEG preview, decoded at a DCT scale by the JPEG module; LibRaw at half size
/// (`half_size`: a quarter of the work and of the memory); LibRaw at full size.
public struct RawCodec: SinglePictureCodec {
    /// Rows of each band of a full-size rendering (`RawBands`), and whether its white level comes from a first
    /// pass at full size instead of half: tests make a small raw take several bands, and check them exactly.
    let bandHeight: Int
    let exactWhite: Bool

    public init() { self.init(bandHeight: RawBands.defaultHeight) }

    init(bandHeight: Int, exactWhite: Bool = false) {
        self.bandHeight = bandHeight
        self.exactWhite = exactWhite
    }

    public var name: String { "camera raw" }
    public var libraryVersion: String { RawLibrary.version }
    public var fileExtensions: Set<String> {
        ["dng", "cr2", "cr3", "nef", "nrw", "arw", "srf", "sr2", "orf", "rw2", "raf", "pef", "srw", "erf", "3fr",
         "iiq", "mos", "mrw", "rwl", "kdc", "dcr"]
    }
    public var isCameraRaw: Bool { true }

    /// Raws with a mark of their own, and any TIFF: the registry tries the TIFF codec first, so a TIFF reaches
    /// this codec only when its name promises a raw (IMG_1.NEF), as a name is checked against the bytes.
    public func recognises(_ prefix: [UInt8]) -> Bool { RawSignature(prefix) != nil }

    // Measured on a 12-megapixel lossless DNG (RawPerformanceMeasurements): LibRaw's unpack and AHD demosaic take
    // about 100 ns per stored pixel at full size; the preview's and half size's costs are far less, which this
    // model cannot say (the engine only orders work by it).
    public var cost: DecodeCost { DecodeCost(perStoredPixel: 100, perDecodedPixel: 4) }
    /// LibRaw holds the sensor's data (2 bytes a stored pixel) and its own image of 4 16-bit samples a pixel
    /// rendered (8 bytes: a quarter of the stored pixels at half size) until it is copied out: 4 bytes a stored
    /// pixel at half size, 10 at full size; less from the embedded preview.
    public var memory: DecodeMemory { DecodeMemory(perStoredPixel: 2, perDecodedPixel: 8) }

    /// A raw holds its sensor data at 1 to 2 bytes a pixel, a linear DNG at 6, a pixel-shift file four frames,
    /// beside previews of up to 3 bytes a pixel: 12 bytes a pixel and 64 MB of slack refuse only a video.
    public func largestSoundFile(pixels: Int) -> Int {
        let (bytes, overflow) = pixels.multipliedReportingOverflow(by: 12)
        return overflow ? Int.max : bytes + (64 << 20)
    }

    public func probePicture(_ source: any ByteSource) throws(CodecError) -> ImageHeader {
        let signature = RawSignature(try source.prefix(imageSignatureLength))
        let handle = try LibRawHandle()
        let facts = try RawFacts.read(source, kind: signature, handle: handle)
        let kind = (signature ?? .tiff).kind(make: facts.make, isDNG: facts.isDNG)
        try Self.checkPlausible(facts, fileSize: source.count, kind: kind)
        try Self.checkWhole(source, signature: signature, kind: kind)
        var header = ImageHeader(width: facts.width, height: facts.height)
        // Trap: the IFD0 Orientation of a raw may be the preview's, or missing where the maker's notes hold it;
        // LibRaw's flip is the raw's own idea of upright, so EXIF's is not consulted.
        header.orientation = .fixed(facts.orientation)
        if let signature, signature.isTIFFStructure {
            header.exif = try Self.tiffStructure(source)
        }
        if header.exif == nil { header.captureDate = facts.captureDate }
        header.xmp = facts.xmp
        let camera = [facts.make, facts.model].filter { !$0.isEmpty }.joined(separator: " ")
        header.detail = [kind, camera.isEmpty ? nil : camera,
                         facts.preview.map { "\($0.width)x\($0.height) preview" }].compactMap { $0 }
            .joined(separator: ", ")
        return header
    }

    public func decodePicture(_ source: any ByteSource, _ request: DecodeRequest, pool: BufferPool,
                              shouldCancel: () -> Bool) throws(CodecError) -> DecodedImage {
        let signature = RawSignature(try source.prefix(imageSignatureLength))
        let handle = try LibRawHandle()
        let facts = try RawFacts.read(source, kind: signature, handle: handle)
        let kind = (signature ?? .tiff).kind(make: facts.make, isDNG: facts.isDNG)
        // By its sensor's size and by its rendering's, before LibRaw unpacks it.
        try request.checkPixels(width: facts.rawWidth, height: facts.rawHeight)
        try request.checkPixels(width: facts.width, height: facts.height)
        try Self.checkPlausible(facts, fileSize: source.count, kind: kind)
        try Self.checkWhole(source, signature: signature, kind: kind)
        guard let region = request.region.clamped(width: facts.width, height: facts.height) else {
            throw .internalError("the region asked for lies outside the \(facts.width)x\(facts.height) picture")
        }
        let plan = RawDecodePlan.make(facts: facts, region: region, minimumWidth: request.minimumWidth,
                                      minimumHeight: request.minimumHeight)
        var notes: [String] = []
        if case .preview = plan {
            do {
                var decoded = try RawPreview.decode(source, facts: facts, region: region, request: request,
                                                    kind: kind, handle: handle, pool: pool,
                                                    shouldCancel: shouldCancel)
                decoded.notes.append("decoded from its \(facts.preview!.width)x\(facts.preview!.height) "
                                     + "embedded JPEG preview (the camera's rendering)")
                return decoded
            } catch .cancelled {
                throw .cancelled
            } catch {
                notes.append("its embedded preview could not be used (\(error)): the raw data was decoded")
            }
        }
        let half = plan == .halfSize || (plan == .preview && RawDecodePlan.halfSizeServes(
            facts: facts, region: region, minimumWidth: request.minimumWidth, minimumHeight: request.minimumHeight))
        var decoded = try RawRendering.decode(source, facts: facts, region: region, halfSize: half, kind: kind,
                                              handle: handle, pool: pool, bandHeight: bandHeight,
                                              exactWhite: exactWhite, shouldCancel: shouldCancel)
        decoded.notes = notes + decoded.notes
        return decoded
    }

    public func thumbnail(_ source: any ByteSource, maxPixels: Int) -> RGBImage? {
        guard let signature = RawSignature((try? source.prefix(imageSignatureLength)) ?? []),
              let handle = try? LibRawHandle(),
              let facts = try? RawFacts.read(source, kind: signature, handle: handle),
              facts.preview != nil, RawDecodePlan.previewMatches(facts) else { return nil }
        return try? RawPreview.small(source, facts: facts, maxPixels: maxPixels, handle: handle)
    }

    // MARK: - Checks

    /// Refuses a raw whose file is far too small for its sensor: LibRaw decodes a stripped or cut file (a
    /// metadata sample, a copy that stopped) without complaint, as black or white, which nobody wants printed.
    /// Real raws hold 2 to 16 bits a pixel (a lossy DNG about 3); half a bit is far below any.
    static func checkPlausible(_ facts: RawFacts, fileSize: Int, kind: String) throws(CodecError) {
        let pixels = facts.rawWidth.multipliedReportingOverflow(by: facts.rawHeight)
        guard facts.rawWidth > 0, facts.rawHeight > 0, facts.width > 0, facts.height > 0, !pixels.overflow else {
            throw .corrupt("corrupt \(kind) (a picture of no pixels)")
        }
        // Trap: LibRaw fills what it cannot read with zeros and says nothing (exiftool's sample raws, their image
        // data stripped, "decode" to black frames); a file this short cannot hold its sensor data.
        guard fileSize >= pixels.partialValue / 16 else {
            throw .corrupt("corrupt \(kind) (\(fileSize) bytes cannot hold the data of a "
                           + "\(facts.rawWidth)x\(facts.rawHeight) sensor: truncated or stripped)")
        }
    }

    /// Refuses a TIFF-structured raw whose directories point past its end (`RawExtent`).
    static func checkWhole(_ source: any ByteSource, signature: RawSignature?, kind: String) throws(CodecError) {
        guard signature == .tiff || signature == .cr2, let end = try RawExtent.end(of: source),
              end > source.count else { return }
        throw .corrupt("corrupt \(kind) (truncated: its data runs to byte \(end) of a \(source.count)-byte file)")
    }

    /// A failure of LibRaw's `code` for a file of `kind`, in LibRaw's words.
    static func failure(_ code: Int32, kind: String) -> CodecError {
        let reason = "(LibRaw: \(LibRawHandle.reason(code)))"
        switch code {
        case LIBRAW_CANCELLED_BY_CALLBACK.rawValue: return .cancelled
        case LIBRAW_FILE_UNSUPPORTED.rawValue, LIBRAW_NOT_IMPLEMENTED.rawValue:
            return .unsupported("unsupported \(kind) \(reason)")
        case LIBRAW_UNSUFFICIENT_MEMORY.rawValue: return .outOfMemory("\(kind) too large to decode \(reason)")
        case LIBRAW_TOO_BIG.rawValue: return .tooLarge("\(kind) too large \(reason)")
        default: return .corrupt("corrupt \(kind) \(reason)")
        }
    }

    // MARK: - EXIF

    /// The file's first 512 KB as a TIFF structure for the EXIF reader (IFD0's camera, the EXIF directory's
    /// date, GPS): an ORF's or RW2's own magic number becomes TIFF's 42. Directories past 512 KB are not read.
    static func tiffStructure(_ source: any ByteSource) throws(CodecError) -> [UInt8]? {
        var bytes = try source.prefix(HeaderReading.prefixLength)
        guard bytes.count >= 8 else { return nil }
        if bytes[0] == 0x49 && bytes[1] == 0x49 {
            bytes[2] = 0x2A; bytes[3] = 0
        } else if bytes[0] == 0x4D && bytes[1] == 0x4D {
            bytes[2] = 0; bytes[3] = 0x2A
        } else {
            return nil
        }
        return bytes
    }
}
