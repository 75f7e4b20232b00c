import Platform

/// XMP sidecars: the files darktable, digiKam and Lightroom write beside a photo for what they know of it. Each
/// belongs to its photo (`PhotoFile.sidecar`, read by the probe); none is a photo, or a file worth a warning.
extension Discovery {
    /// The sidecar of the photo at `path`: `IMG_1.jpg.xmp` (darktable's and digiKam's name, which stays apart from
    /// `IMG_1.cr2`'s) before `IMG_1.xmp` (Lightroom's, and digiKam's "compatible" one), each in lower or upper
    /// case; nil when there is none.
    static func sidecar(of path: String) -> String? {
        let name = FileSystem.baseName(path)
        var candidates = [path + ".xmp", path + ".XMP"]
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            let stem = String(path.dropLast(name.distance(from: dot, to: name.endIndex)))
            candidates += [stem + ".xmp", stem + ".XMP"]
        }
        return candidates.first { candidate in
            if case .success(let status) = FileSystem.status(candidate), status.kind == .regular { return true }
            return false
        }
    }

    /// What `--verbose` says of a sidecar, a file whose name ends in `.xmp` and whose bytes are no image.
    static func sidecarNote(_ path: String) -> String {
        let stripped = String(path.dropLast(4))
        let photo = ImageFormat.fileExtensions.contains(fileExtension(stripped))
            ? [stripped]
            : ImageFormat.fileExtensions.sorted().flatMap { [stripped + "." + $0, stripped + "." + $0.uppercased()] }
        let paired = photo.contains { (try? FileSystem.status($0).get())?.kind == .regular }
        return paired ? "XMP sidecar, read with its photo" : "XMP sidecar with no photo of that name beside it, skipped"
    }
}
