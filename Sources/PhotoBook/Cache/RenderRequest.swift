import Colour
import Platform

/// Everything that decides the bytes of one rendered page image, written out as text: its SHA-256 is the
/// render cache's key (docs/cache.md). A field added to the render must be added here.
struct RenderRequest {
    /// The SHA-256 of the source file's bytes (`DigestIndex`): its name and mtime alone could show an old render.
    var contentDigest: String
    /// Which of the file's pictures (a page of a multi-page TIFF).
    var picture: Int
    /// The plan's crop (not the one aimed at render: that is decided by the content, and kept in the entry).
    var crop: String
    var pixelWidth: Int, pixelHeight: Int
    var orientation: Int
    var quality: Int
    /// "rgb", or the CMYK target: the output profile's digest and the intent.
    var colour: String
    var lossless: Bool
    var aimsAtRender: Bool

    /// photobook's and the codec libraries' versions, and which build of photobook this is: a new one may
    /// render other bytes.
    static let versions: String = ([PhotoBookVersion.string, executableIdentity] + codecs.map(\.libraryVersion)
                                   + [ColourLibrary.version]).joined(separator: "; ")

    /// The running executable's device, inode, size and modification time: a rebuilt or reinstalled photobook
    /// with the same version number (a fix between releases, a build from a checkout) does not read the renders
    /// of the one before. A stat, not a digest of the binary: tens of megabytes hashed would cost every build.
    static let executableIdentity: String = {
        guard case .success(let status) = FileSystem.status("/proc/self/exe") else { return "executable unknown" }
        return "executable \(status.id.device):\(status.id.inode) \(status.size) bytes \(status.modifiedNanoseconds)"
    }()

    var description: String {
        ["render-1", Self.versions, "content \(contentDigest) picture \(picture)", "crop \(crop)",
         "pixels \(pixelWidth)x\(pixelHeight)", "orientation \(orientation)", "quality \(quality)", "colour \(colour)",
         "lossless \(lossless)", "aims \(aimsAtRender)"].joined(separator: "\n")
    }

    /// The entry's file name.
    var key: String { SHA256.hex(Array(description.utf8)) }
}
