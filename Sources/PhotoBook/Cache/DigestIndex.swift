import ImageCodec
import Platform

/// The SHA-256 of a source file's bytes, remembered by the file's identity (path, device, inode, size, mtime,
/// ctime) so that a rebuild does not read every photo again: one small file per path in the cache's `digests`.
///
/// An entry is trusted only when the file's ctime is more than a second older than the moment the entry was
/// recorded. Trap: coarse file clock: a file replaced within one tick of the clock (or under its own name with an
/// old mtime, `touch -d`, inside the same second) has the same mtime and ctime as the file it replaced.
struct DigestIndex: Sendable {
    let directory: String

    /// The digest of the file at `path`, from the index, else read from `opened` (the probe's or the decode's open
    /// file, when it is the file now at `path`: one open of the photo for its headers and its digest), else read
    /// by path; with `readsFile` false, from the index only (nil when it does not know it).
    func digest(of path: String, opened: FileSource? = nil, readsFile: Bool = true) -> String? {
        guard case .success(let before) = FileSystem.status(path), before.kind == .regular else { return nil }
        let identity = "\(path)\u{0}\(before.id.device) \(before.id.inode) \(before.size) "
            + "\(before.modifiedNanoseconds) \(before.changedNanoseconds)"
        let indexPath = "\(directory)/\(SHA256.hex(Array(path.utf8)))"
        if case .success(let stored) = FileSystem.readFile(indexPath, limit: 1 << 16) {
            let lines = String(decoding: stored, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            if lines.count == 3, lines[0] == identity, let recorded = Int64(lines[1]),
               before.changedNanoseconds < recorded - 1_000_000_000, lines[2].count == 64 {
                return String(lines[2])
            }
        }
        guard readsFile else { return nil }
        let bytes: [UInt8]
        if let opened, opened.status.id == before.id, opened.status.size == before.size,
           opened.status.changedNanoseconds == before.changedNanoseconds {
            guard let read = try? opened.readAll() else { return nil }
            bytes = read
        } else {
            guard case .success(let read) = FileSystem.readFile(path) else { return nil }
            bytes = read
        }
        let digest = SHA256.hex(bytes)
        // The file changed while it was read: its digest is of neither version, so it is not remembered.
        guard case .success(let after) = FileSystem.status(path), after.id == before.id, after.size == before.size,
              after.changedNanoseconds == before.changedNanoseconds else { return digest }
        let record = Array("\(identity)\n\(FileSystem.now())\n\(digest)".utf8)
        if case .success(let (temporary, descriptor)) = FileSystem.makeTemporaryFile(template: "\(indexPath).tmp-XXXXXX") {
            let written: Bool
            do {
                try descriptor.closeAfter { (file) throws(FileSystem.Failure) in try file.writeAll(record) }
                written = true
            } catch { written = false }
            if !written || (try? FileSystem.rename(temporary, to: indexPath).get()) == nil { FileSystem.remove(temporary) }
        }
        return digest
    }
}
