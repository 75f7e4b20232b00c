import ImageCodec
import Geometry
import Platform
import Synchronization

/// Rendered page images kept between builds, under `$XDG_CACHE_HOME/photobook` (docs/cache.md): each found by
/// the digest of everything that decides its bytes (`RenderRequest`), written atomically, checked when read.
/// A cache that cannot be read or written makes the build slower, never wrong: every failure is a miss.
public final class RenderCache: Sendable {
    /// `--cache-limit`'s default: 2 GB, a few thousand print pages.
    public static let defaultLimit: Int64 = 2 << 30

    let directory: String
    /// Entries larger in total than this are removed, least recently used first, after a build (`trim()`).
    let limit: Int64
    private let digests: DigestIndex
    /// This build's content digests, by path: each file is hashed (or looked up) once per build.
    private let known = Mutex<[String: String]>([:])

    /// What an entry holds besides the JPEG: what the render decided that the page needs to draw it.
    struct Metadata: Equatable, Sendable {
        /// A lossless crop's blocks (`PhotoJob.blocksShown`).
        var blocksShown: Rect?
        /// The crop the render aimed (`PhotoJob.aimed`) and where it came from.
        var aimedCrop: Rect?
        var aimedSource: CropSource?
    }

    /// Opens (making it if needed) the cache folder; nil when it cannot be made (a file in its place, a
    /// read-only disk): the build goes on without a cache.
    init?(directory: String, limit: Int64) {
        guard case .success = FileSystem.makeDirectories("\(directory)/entries"),
              case .success = FileSystem.makeDirectories("\(directory)/digests") else { return nil }
        self.directory = directory
        self.limit = limit
        digests = DigestIndex(directory: "\(directory)/digests")
    }

    /// `$XDG_CACHE_HOME/photobook`, or `~/.cache/photobook` when it is unset or not absolute (as the XDG base
    /// directory specification says); nil with neither.
    public static func defaultDirectory(environment: [String: String]) -> String? {
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return "\(base)/photobook" }
        if let home = environment["HOME"], !home.isEmpty { return "\(home)/.cache/photobook" }
        return nil
    }

    /// What a look-up found that the photo's report says (`PhotoReport.noteCache`).
    enum Note: Sendable { case hit, damaged }

    /// What a look-up found.
    enum Lookup {
        case hit(jpeg: [UInt8], metadata: Metadata)
        case miss
        /// An entry was there but failed its check (truncated, damaged): it is removed, the photo rendered again.
        case damaged
    }

    /// The content digest of a source file (`DigestIndex`), read from `opened` when it is given and the index does
    /// not know it; nil when it cannot be read. With `readsFile` false, only what this build or the index knows:
    /// the file is not read (the decode reads it, and its digest with it: `DecodeOperation.lookUp`).
    func contentDigest(of path: String, opened: FileSource? = nil, readsFile: Bool = true) -> String? {
        if let digest = known.withLock({ $0[path] }) { return digest }
        let digest = digests.digest(of: path, opened: opened, readsFile: readsFile)
        if let digest { known.withLock { $0[path] = digest } }
        return digest
    }

    private func entryPath(_ key: String) -> String { "\(directory)/entries/\(key)" }

    // An entry: magic, metadata length, JPEG length, SHA-256 of metadata and JPEG, then both.
    private static let magic = Array("PBCACHE1".utf8)
    private static let headerSize = 8 + 4 + 8 + 32

    /// The entry for `key`, checked against its length and checksum.
    func entry(_ key: String) -> Lookup {
        let path = entryPath(key)
        guard case .success(let bytes) = FileSystem.readFile(path) else { return .miss }
        guard let (jpeg, metadata) = Self.decode(bytes) else {
            FileSystem.remove(path)
            return .damaged
        }
        // Least recently used goes first when the cache is trimmed: a hit makes the entry new.
        FileSystem.touch(path)
        return .hit(jpeg: jpeg, metadata: metadata)
    }

    /// Stores an entry under a temporary name then renames it into place, so a reader (this build, another one
    /// at the same time, a later one after a Ctrl-C) sees the whole entry or none. Failures are ignored.
    func store(_ key: String, jpeg: [UInt8], metadata: Metadata) {
        let bytes = Self.encode(jpeg, metadata)
        guard case .success(let (temporary, descriptor)) = FileSystem.makeTemporaryFile(
            template: "\(directory)/entries/.tmp-\(key)-XXXXXX") else { return }
        do {
            try descriptor.closeAfter { (file) throws(FileSystem.Failure) in try file.writeAll(bytes) }
        } catch {
            FileSystem.remove(temporary)
            return
        }
        if case .failure = FileSystem.rename(temporary, to: entryPath(key)) { FileSystem.remove(temporary) }
    }

    static func encode(_ jpeg: [UInt8], _ metadata: Metadata) -> [UInt8] {
        let meta = Array(metadata.text.utf8)
        var hash = SHA256()
        hash.update(meta)
        hash.update(jpeg)
        var bytes = magic
        bytes.reserveCapacity(headerSize + meta.count + jpeg.count)
        withUnsafeBytes(of: UInt32(meta.count).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(jpeg.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: hash.finish())
        bytes.append(contentsOf: meta)
        bytes.append(contentsOf: jpeg)
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> ([UInt8], Metadata)? {
        guard bytes.count >= headerSize, Array(bytes[0..<8]) == magic else { return nil }
        var metaCount: UInt32 = 0, jpegCount: UInt64 = 0
        withUnsafeMutableBytes(of: &metaCount) { $0.copyBytes(from: bytes[8..<12]) }
        withUnsafeMutableBytes(of: &jpegCount) { $0.copyBytes(from: bytes[12..<20]) }
        let (m, j) = (Int(UInt32(littleEndian: metaCount)), UInt64(littleEndian: jpegCount))
        guard j <= UInt64(bytes.count), headerSize + m + Int(j) == bytes.count else { return nil }
        let meta = Array(bytes[headerSize..<(headerSize + m)])
        let jpeg = Array(bytes[(headerSize + m)...])
        var hash = SHA256()
        hash.update(meta)
        hash.update(jpeg)
        guard hash.finish() == Array(bytes[20..<52]), let metadata = Metadata(text: String(decoding: meta, as: UTF8.self))
        else { return nil }
        return (jpeg, metadata)
    }

    /// Removes the least recently used entries until the folder holds at most `limit` bytes, and temporary
    /// files a build that was stopped left behind (older than ten minutes: a running build's are younger).
    func trim() {
        let folder = "\(directory)/entries"
        guard case .success(let names) = FileSystem.directoryEntries(folder) else { return }
        let now = FileSystem.now()
        var entries: [(path: String, size: Int64, used: Int64)] = []
        for name in names {
            let path = "\(folder)/\(name)"
            guard case .success(let status) = FileSystem.status(path, followLinks: false), status.kind == .regular
            else { continue }
            if name.hasPrefix(".tmp-") {
                if now - status.changedNanoseconds > 600_000_000_000 { FileSystem.remove(path) }
                continue
            }
            entries.append((path, status.size, status.modifiedNanoseconds))
        }
        var total = entries.reduce(0) { $0 + $1.size }
        for entry in entries.sorted(by: { $0.used < $1.used }) where total > limit {
            if FileSystem.remove(entry.path) { total -= entry.size }
        }
    }
}

extension RenderCache.Metadata {
    /// `placed` with the crop the cached render aimed, when it aimed one.
    func aimed(_ placed: PlacedPhoto) -> PlacedPhoto {
        var placed = placed
        if let crop = aimedCrop { placed.crop = crop }
        if let source = aimedSource { placed.cropSource = source }
        return placed
    }

    /// One line per field, numbers written exactly (Double's description reads back to the same value).
    var text: String {
        var lines: [String] = []
        if let r = blocksShown { lines.append("blocks \(r.x) \(r.y) \(r.width) \(r.height)") }
        if let r = aimedCrop { lines.append("aimed \(r.x) \(r.y) \(r.width) \(r.height)") }
        if let s = aimedSource { lines.append("source \(s.rawValue)") }
        return lines.joined(separator: "\n")
    }

    init?(text: String) {
        // Trap: the first version parsed each line's rectangle in a nested function that set the property from
        // a switch case; in a release build `aimed` came back nil (blocks did not) and hits drew the plan's crop.
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let name = words.first else { return nil }
            if name == "source" {
                guard words.count == 2, let source = CropSource(rawValue: words[1]) else { return nil }
                aimedSource = source
                continue
            }
            let numbers = words.dropFirst().compactMap(Double.init)
            guard numbers.count == 4, words.count == 5 else { return nil }
            let rect = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            switch name {
            case "blocks": blocksShown = rect
            case "aimed": aimedCrop = rect
            default: return nil
            }
        }
    }
}
