import ImageCodec
import Platform

/// The same photo twice: byte-identical files (a Takeout export holds every album photo again in its year folder)
/// and the two files of one shot (a phone's `IMG_1.HEIC` and `IMG_1.JPG`; a camera's `IMG_1.NEF` and `IMG_1.JPG`,
/// found by their camera and capture time or by their name in one folder). Each group goes into the book once,
/// as the photo with the most pixels (on a tie the first found), a raw's JPEG before the raw unless the raw is
/// preferred; the others are left out, said by name.
///
/// Cheap, as the probe is: no pixel is decoded; the probe's read gives each file's size and a hash of its first
/// 64 KB, and only files whose size and first 64 KB are another's are compared whole: by the SHA-256 the probe
/// read for the render cache when it has both (no file opened again), else read again and compared byte for
/// byte, not hashed: a comparison stops at the first difference and cannot be fooled by a collision.
enum Duplicates {
    /// A photo left out, the photo kept in its place (indices into the photos given), and why they are one.
    struct LeftOut: Equatable {
        var photo: Int
        var keptPhoto: Int
        var byteForByte: Bool
        /// One is a camera raw, the other not: a raw and the camera's JPEG of one shot.
        var rawAndJPEG = false
    }

    /// The photos to leave out of `photos` (in discovery order), in that order. `preferred` photos are kept
    /// whatever their size (the title page's photo: its copies are the ones left out); then, of a camera raw and
    /// a photo that is not one, the raw when `prefersRaw`, else the other (the camera's JPEG).
    static func find(_ photos: [PhotoInfo], preferred: Set<Int> = [], prefersRaw: Bool = false) -> [LeftOut] {
        var groups = UnionFind(count: photos.count)
        let identical = identicalFiles(photos)
        // A file's bytes stand for the first file found with the same bytes.
        let canonical = { (photo: PhotoInfo) in identical[photo.file.filePath] ?? photo.file.filePath }
        // Two pages of one multi-page file are two photos; the same page of two identical files is one.
        var pictures: [String: [Int: Int]] = [:]
        for (index, photo) in photos.enumerated() {
            if let first = pictures[canonical(photo)]?[photo.file.picture] {
                groups.join(index, first)
            } else {
                pictures[canonical(photo), default: [:]][photo.file.picture] = index
            }
        }
        var shots: [PhotoInfo.Shot: Int] = [:]
        for (index, photo) in photos.enumerated() {
            guard let shot = photo.shot else { continue }
            guard let first = shots[shot] else { shots[shot] = index; continue }
            // The pages of one file (a multi-page TIFF) may carry one EXIF: they are still pages of their own.
            if photos[first].file.filePath != photo.file.filePath { groups.join(index, first) }
        }
        // A camera raw and a photo that is not one, of one name in one folder (IMG_1.NEF, IMG_1.JPG): one shot,
        // whatever their EXIF says (a raw's maker notes may hold its time where the EXIF reader does not look).
        let isRaw = { (index: Int) in photos[index].format.codec.isCameraRaw }
        var byStem: [String: (raw: Int?, other: Int?)] = [:]
        for (index, photo) in photos.enumerated() where photo.file.picture == 0 {
            let stem = Self.stem(photo.file.filePath)
            var pair = byStem[stem] ?? (nil, nil)
            if isRaw(index) { pair.raw = pair.raw ?? index } else { pair.other = pair.other ?? index }
            byStem[stem] = pair
            if let raw = pair.raw, let other = pair.other { groups.join(raw, other) }
        }
        var members: [Int: [Int]] = [:]
        for index in photos.indices { members[groups.root(index), default: []].append(index) }
        var leftOut: [LeftOut] = []
        for group in members.values where group.count > 1 {
            let pixels = { (index: Int) in photos[index].storedWidth * photos[index].storedHeight }
            // The preferred first, then the raw or the JPEG as asked, then the most pixels, then the first found.
            let kept = group.min { a, b in
                let (pa, pb) = (preferred.contains(a), preferred.contains(b))
                if pa != pb { return pa }
                if isRaw(a) != isRaw(b) { return isRaw(a) == prefersRaw }
                return pixels(a) != pixels(b) ? pixels(a) > pixels(b) : a < b
            }!
            for index in group where index != kept {
                leftOut.append(LeftOut(photo: index, keptPhoto: kept,
                                       byteForByte: canonical(photos[index]) == canonical(photos[kept]),
                                       rawAndJPEG: isRaw(index) != isRaw(kept)))
            }
        }
        return leftOut.sorted { $0.photo < $1.photo }
    }

    /// For each file whose bytes an earlier file (in `photos`' order) has, that earlier file's path. Only files
    /// whose size and first 64 KB (the probe's `fileSize` and `headHash`, from the read it made anyway) are
    /// another's are compared whole: by their `contentDigest`s when the probe found both, else opened again.
    static func identicalFiles(_ photos: [PhotoInfo]) -> [String: String] {
        var seen: Set<String> = []
        var bySize: [Int: [(path: String, head: UInt64)]] = [:]
        var digests: [String: String] = [:]
        for photo in photos where seen.insert(photo.file.filePath).inserted {
            guard let size = photo.fileSize, size > 0, let head = photo.headHash else { continue }
            bySize[size, default: []].append((photo.file.filePath, head))
            digests[photo.file.filePath] = photo.contentDigest
        }
        var first: [String: String] = [:]
        for (size, sameSize) in bySize where sameSize.count > 1 {
            var byHead: [UInt64: [String]] = [:]
            var order: [UInt64] = []
            for (path, head) in sameSize {
                if byHead[head] == nil { order.append(head) }
                byHead[head, default: []].append(path)
            }
            for head in order {
                guard let alike = byHead[head], alike.count > 1 else { continue }
                // Each file against the first of every set of equal files found so far, each opened once.
                var opened: [String: FileSource] = [:]
                let open = { (path: String) -> FileSource? in
                    if let source = opened[path] { return source }
                    let source = try? FileSource(path: path)
                    opened[path] = source
                    return source
                }
                var originals: [String] = []
                for path in alike {
                    if let original = originals.first(where: { original in
                        if let x = digests[original], let y = digests[path] { return x == y }
                        guard let x = open(original), let y = open(path) else { return false }
                        return sameBytes(x, y, size: size)
                    }) {
                        first[path] = original
                    } else {
                        originals.append(path)
                    }
                }
            }
        }
        return first
    }

    /// A file's folder and name without its extension, case folded: `photos/img_1` for `photos/IMG_1.NEF`.
    static func stem(_ path: String) -> String {
        let name = FileSystem.baseName(path)
        let folder = String(path.dropLast(name.count))
        let base = name.lastIndex(of: ".").map { name[..<$0] } ?? Substring(name)
        return (folder + base).lowercased()
    }

    static let headLength = 64 << 10
    static let chunkLength = 1 << 20

    /// FNV-1a of a file's first 64 KB (`bytes`, the probe's): which files of one size are worth comparing whole.
    static func headHash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }

    /// True when the two files hold the same `size` bytes, read a megabyte at a time until they differ.
    static func sameBytes(_ x: FileSource, _ y: FileSource, size: Int) -> Bool {
        guard x.count == size, y.count == size else { return false }
        var offset = 0
        while offset < size {
            guard let p = try? x.read(from: offset, count: chunkLength), let q = try? y.read(from: offset, count: chunkLength),
                  p == q, !p.isEmpty else { return false }
            offset += p.count
        }
        return true
    }
}

/// Groups of indices joined two at a time (a disjoint-set forest with path halving).
struct UnionFind {
    private var parent: [Int]
    init(count: Int) { parent = Array(0..<count) }

    mutating func root(_ index: Int) -> Int {
        var node = index
        while parent[node] != node {
            parent[node] = parent[parent[node]]
            node = parent[node]
        }
        return node
    }

    mutating func join(_ a: Int, _ b: Int) {
        let (x, y) = (root(a), root(b))
        if x != y { parent[max(x, y)] = min(x, y) }
    }
}

/// Which file of a camera raw and the camera's JPEG of one shot goes into the book (`--prefer`).
public enum ShotFile: String, Sendable, CaseIterable {
    /// The camera's JPEG (or HEIC...): its own rendering, what the photographer saw on the camera.
    case jpeg
    /// The raw, rendered by LibRaw.
    case raw
}
