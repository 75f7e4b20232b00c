import EXIF
import ImageCodec
import Imaging
import Platform

/// What photobook knows about a photo before decoding it: read from its headers only.
public struct PhotoInfo: Sendable, Equatable {
    public var file: PhotoFile
    /// The photo's caption sidecar (`PhotoFile.captionFile`) as read here, for `--captions auto`; nil without one.
    public var captionSidecar: CaptionSidecar?
    /// Pixel size as stored in the file.
    public var storedWidth: Int
    public var storedHeight: Int
    public var orientation: Orientation
    /// When the photo was taken: its XMP sidecar's exif:DateTimeOriginal or photoshop:DateCreated, else EXIF
    /// DateTimeOriginal with SubSecTimeOriginal and OffsetTimeOriginal (a PNG's eXIf chunk alike), else its Takeout
    /// JSON's photoTakenTime; nil when it has none that is a real date. `localText` is the camera's own
    /// reading, for captions; `PhotoOrder` orders by it.
    public var captureDate: CaptureDate?
    /// True when `captureDate` is only a moment, read in UTC (a Google Takeout JSON's `photoTakenTime`), not a
    /// camera's local reading: it orders the book, but lends no offset to photos without one (`PhotoOrder`).
    public var captureDateIsUTCOnly = false
    /// What the photo shows in its owner's words: its XMP sidecar's dc:description or dc:title, else its Takeout
    /// JSON's description, else EXIF ImageDescription, else XMP dc:description (x-default).
    ///
    /// EXIF wins when both are there, as the Metadata Working Group's guidelines have readers do (editors that
    /// follow them write both alike); a camera's stock text ("OLYMPUS DIGITAL CAMERA") does not count as one,
    /// so the XMP that an editor wrote beside it is used instead.
    public var description: String?
    /// The camera and the moment to the sub-second its EXIF says, when it says all of them: the two files of one
    /// shot (`IMG_1.HEIC` and `IMG_1.JPG`) share it (`Duplicates`).
    public var shot: Shot?
    /// The photo's format, as its bytes say.
    public var format = ImageFormat(codec: codecs[0])
    /// What of its format the photo is, for `--verbose` and the report ("progressive", "AVIF, 10-bit").
    public var formatDetail: String?
    /// The file's own bytes can go into the PDF unchanged (a grey or YCbCr, Huffman-coded JPEG).
    public var isEmbeddableAsIs: Bool = false
    /// The file's size when it was probed: the decode refuses a file of another size as changed (cut short or
    /// written on since), before its codec would call what is left of it corrupt.
    public var fileSize: Int?
    /// FNV-1a of the file's first 64 KB, from the probe's read (`Duplicates`: which files may be copies).
    public var headHash: UInt64?
    /// The SHA-256 of the file's bytes when the probe found it for the render cache (`DigestIndex`), else nil:
    /// `Duplicates` then proves copies equal without opening them again.
    public var contentDigest: String?
    /// The ICC profile the photo carries, checked against it; nil when it has none or one that cannot be used.
    public var colorProfile: ColorProfile?
    /// Why the photo's ICC profile cannot be used (the photo is then taken as sRGB): a warning for the report.
    public var colorProfileProblem: String?
    /// The faces, pets and focus points its XMP sidecar, else its own XMP, marks, in the upright picture.
    public var regions: [PhotoRegion] = []
    /// Where the eye goes in it, for a crop when it marks no region (`--crop auto`); nil when not measured.
    public var attention: AttentionMap?
    /// Its owner's marks: the sidecar's rating and pick label, else its own XMP's.
    public var marks = OwnerMarks()
    /// Starred in Google Photos (its Takeout JSON's `favorited`).
    public var isFavourite = false
    /// Its camera's make and model as EXIF says them; nil when it says neither (a screenshot, a stripped file).
    public var camera: String?
    /// What the choice of photos measures on its smallest decode (`PhotoTraits`); nil when not measured.
    public var traits: PhotoTraits?
    /// What its codec had to say of the photo, for a warning ("animated WebP: only its first frame is used").
    public var warnings: [String] = []
    /// What its codec noticed, for `--verbose` only (a library's warnings about a file it could read).
    public var notes: [String] = []

    /// Pixel size as a person sees the photo, orientation applied.
    public var uprightWidth: Int { orientation.swapsDimensions ? storedHeight : storedWidth }
    public var uprightHeight: Int { orientation.swapsDimensions ? storedWidth : storedHeight }
}

extension PhotoInfo {
    /// The largest file a sound picture of the header's size needs (about its raw pixels): a larger one (a video
    /// renamed .jpg, junk after a header) is never read, since codecs read a file whole. Used by the render's
    /// decode, which refuses it by name, and by the attention map, which leaves it alone.
    var largestSoundFileSize: Int { format.codec.largestSoundFile(pixels: storedWidth * storedHeight) }

    /// One press of a camera's shutter: its make and model, and its DateTimeOriginal with SubSecTimeOriginal and
    /// any OffsetTimeOriginal. Without the sub-second a burst's photos of one second would be one shot.
    public struct Shot: Sendable, Hashable {
        public var camera: String
        public var date: CaptureDate

        init?(_ metadata: EXIFMetadata) {
            guard metadata.subSecTimeOriginal.flatMap(CaptureDate.nanosecondsIfReadable) != nil,
                  let date = metadata.captureDate, metadata.make != nil || metadata.model != nil else { return nil }
            camera = [metadata.make, metadata.model].compactMap { $0 }.joined(separator: " ")
            self.date = date
        }
    }

    /// Its format and what of it, for the report and `--verbose`: "JPEG", "HEIF (AVIF, 10-bit)".
    public var formatDescription: String { format.name + (formatDetail.map { " (\($0))" } ?? "") }

    /// What the probe found worth a warning: a profile that cannot be used, what its codec said.
    var probeWarnings: [BuildWarning] {
        (colorProfileProblem.map { ["\($0); taken as sRGB"] } ?? []).map { BuildWarning(path: file.path, message: $0) }
            + warnings.map { BuildWarning(path: file.path, message: $0) }
    }
}

/// When a photo was taken (defined by the EXIF module, which reads it).
public typealias CaptureDate = EXIF.CaptureDate
/// Its owner's rating and pick label (defined by the EXIF module, which reads them).
public typealias OwnerMarks = EXIF.OwnerMarks

/// A reason a photo cannot be used: its kind, and its words for the person who owns it.
public typealias PhotoError = Failure

/// Reads what photobook needs to know about a photo from its headers, never its pixels.
public enum Probe {
    /// Reads the headers of a photo file through its format's codec (JPEG and PNG: the first 512 KB, and again
    /// up to 64 MB only when a header goes on past them; a TIFF reads its directories where they are).
    /// Refuses images over `maxPixels` before any pixel buffer exists.
    ///
    /// `open` gives the file's bytes (tests count the reads through it).
    public static func probe(_ file: PhotoFile, maxPixels: Int,
                             open: (_ path: String) -> Result<any ByteSource, FileSystem.Failure>
                                 = { path in Result { () throws(FileSystem.Failure) in try FileSource(path: path) } })
        -> Result<PhotoInfo, PhotoError> {
        Result { () throws(PhotoError) in
            let source = try open(file.filePath).mapError(unreadable).get()
            return try probe(file, source: source, maxPixels: maxPixels)
        }
    }

    /// Why a photo's file cannot be opened, in its owner's words.
    static func unreadable(_ failure: FileSystem.Failure) -> PhotoError { .unreadable("cannot read: \(failure)", failure) }

    /// The headers of the photo `source` holds: its format from its first bytes, then what its codec reads.
    static func probe(_ photo: PhotoFile, source file: any ByteSource, maxPixels: Int) throws(PhotoError) -> PhotoInfo {
        try info(photo, of: read(format: photo.format, source: file), maxPixels: maxPixels)
    }

    /// What one read of a photo file gives each of its pictures: the format its bytes are, every picture's header,
    /// and the bytes read first (`PrefixCachedSource`).
    struct ProbedFile {
        var source: PrefixCachedSource
        var format: ImageFormat
        var headers: [ImageHeader]
    }

    /// Reads the headers of every picture of the file `file` holds (one walk of a multi-page TIFF's directories),
    /// which discovery took for a `format` file (`PhotoFile.format`).
    static func read(format named: ImageFormat?, source file: any ByteSource) throws(PhotoError) -> ProbedFile {
        // One read for the signature and, for most formats, the whole header.
        let source: PrefixCachedSource, signature: [UInt8]
        do throws(CodecError) {
            source = try PrefixCachedSource(file)
            signature = try source.prefix(ImageFormat.signatureLength)
        } catch {
            throw error.failure
        }
        // The format travels from discovery, which took it from the file's name or its first bytes: it is checked
        // here against the bytes read anyway. A photo whose bytes are another format than its name says (a PNG
        // saved as .jpg, an iPhone's HEIC renamed), or that discovery knew no format of (named on the command line
        // or called like a photo), is read as what its bytes are, or refused by them.
        let format: ImageFormat
        if let known = named, known.codec.recognises(signature) {
            format = known
        } else {
            guard let sniffed = ImageFormat(sniffing: signature) else { throw ImageFormat.unrecognised(signature) }
            format = sniffed
        }
        let headers: [ImageHeader]
        do throws(CodecError) {
            headers = try format.codec.probe(source)
        } catch {
            throw error.failure
        }
        guard !headers.isEmpty else { throw .corrupt("the \(format.name) file holds no picture") }
        return ProbedFile(source: source, format: format, headers: headers)
    }

    /// What photobook knows of picture `photo.picture` of the file `probed` read.
    static func info(_ photo: PhotoFile, of probed: ProbedFile, maxPixels: Int) throws(PhotoError) -> PhotoInfo {
        let (source, format) = (probed.source, probed.format)
        guard photo.picture < probed.headers.count else { throw .changed }
        let header = probed.headers[photo.picture]
        let width = header.width, height = header.height
        guard width > 0, height > 0 else { throw .corrupt("image has no pixels (\(width)x\(height))") }
        guard width.multipliedReportingOverflow(by: height).partialValue <= maxPixels,
              width <= maxPixels, height <= maxPixels else {
            throw .tooLarge("image is \(width)x\(height) pixels, more than the limit of \(maxPixels) (see --max-pixels)")
        }
        let metadata = header.exif.map(EXIFParser.parse) ?? EXIFMetadata()
        let orientation: Orientation
        switch header.orientation {
        case .exif: orientation = Orientation(exifValue: metadata.orientation)
        case .fixed(let fixed): orientation = fixed
        }
        var warnings: [String] = []
        let sidecar = photo.sidecar.flatMap { Sidecar.read($0, warnings: &warnings) }
        let takeout = photo.takeout.flatMap { TakeoutSidecar.read($0, warnings: &warnings) }
        // Takeout's date is Google's guess when the photo carries none (an upload's time, a scan's): the photo's
        // own date wins. Its description is what the owner typed in Google Photos: a caption like a sidecar's.
        let ownDate = sidecar?.captureDate ?? header.captureDate ?? metadata.captureDate
        var info = PhotoInfo(file: photo, storedWidth: width, storedHeight: height, orientation: orientation,
                             captureDate: ownDate ?? takeout?.captureDate,
                             description: sidecar?.caption ?? takeout?.caption ?? header.description
                                 ?? metadata.imageDescription ?? header.xmp.flatMap(XMP.description(inPacket:)),
                             format: format, formatDetail: header.detail, isEmbeddableAsIs: header.isEmbeddableAsIs)
        info.captureDateIsUTCOnly = ownDate == nil && takeout?.captureDate != nil
        info.fileSize = source.count
        if source.cached.count >= min(Duplicates.headLength, source.count) {
            info.headHash = Duplicates.headHash(source.cached.prefix(Duplicates.headLength))
        }
        info.shot = PhotoInfo.Shot(metadata)
        info.marks = sidecar?.marks ?? header.xmp.flatMap(XMP.marks(inPacket:)) ?? OwnerMarks()
        info.isFavourite = takeout?.isFavourite ?? false
        let camera = [metadata.make, metadata.model].compactMap { $0 }
        info.camera = camera.isEmpty ? nil : camera.joined(separator: " ")
        // A HEIF's regions are taken as on the picture it decodes to (its own transformations applied), as its
        // orientation is: no sample was at hand to say otherwise.
        info.regions = regions(sidecar: sidecar, ownXMP: header.xmp, storedWidth: width, storedHeight: height,
                               orientation: orientation, warnings: &warnings)
        switch header.colorProfile {
        case .profile(let bytes)?:
            switch ColorProfile.check(bytes, components: header.colorComponents) {
            case .success(var checked):
                checked.describesDecodedPixels = header.profileDescribesDecodedPixels
                info.colorProfile = checked
            case .failure(let problem):
                info.colorProfileProblem = problem.description
            }
        case .unusable(let reason)?: info.colorProfileProblem = reason
        case nil: break
        }
        info.captionSidecar = photo.captionFile.map(Captions.readSidecar)
        info.warnings = header.warnings + warnings
        info.notes = header.notes
        return info
    }
}


