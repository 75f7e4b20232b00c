import PhotoBook
import Platform

/// Checks, before any work, that the book can be written where the user asked.
enum OutputCheck {
    /// What the temporary book adds to the output's name: a leading dot and `.photobook-XXXXXX`.
    static let temporarySuffix = 18

    /// Why `output` cannot be written, or nil when it can. `what` and `example` name the file in the messages (the
    /// same checks serve the book and the `--report`).
    static func problem(with output: String, inputs: Set<FileSystem.FileID>, writing what: String = "the book",
                        example: String = "book.pdf") -> String? {
        if output.hasSuffix("/") { return "the output must be a file, not a folder" }
        // The temporary book beside it is named `.NAME.photobook-XXXXXX`: that name must fit too (NAME_MAX 255).
        let nameBytes = FileSystem.baseName(output).utf8.count
        if nameBytes + temporarySuffix > 255 {
            return "the file name is too long (\(nameBytes) bytes; at most \(255 - temporarySuffix))"
        }
        let folder = FileSystem.directoryName(output)
        switch FileSystem.status(folder) {
        case .failure(let failure):
            return "cannot write \(what): its folder \(folder) does not exist (\(failure))"
        case .success(let status) where status.kind != .directory:
            return "cannot write \(what): \(folder) is not a folder"
        case .success:
            break
        }
        if case .failure(let failure) = FileSystem.status(output), !failure.isNoSuchFile {
            return "cannot write \(what): \(failure)"
        }
        if case .success(let status) = FileSystem.status(output) {
            if status.kind == .directory { return "the output is a folder; give a file name such as \(output)/\(example)" }
            if inputs.contains(status.id) { return "the output is one of the inputs; it would be overwritten" }
            if status.kind != .regular { return "the output exists and is not a regular file" }
        }
        if !FileSystem.isWritableDirectory(folder) { return "cannot write \(what): folder \(folder) is not writable" }
        return nil
    }
}
