import Platform

extension BookBuilder {
    /// Where the build's private working folder is made, and the `mkdtemp` template for it.
    ///
    /// Beside the output, hidden (`.book.pdf.photobook-pages-XXXXXX`): the rendered pages wait there until the
    /// book is saved, and are copied into it from there (issue 14), so they take room on the filesystem the book
    /// is going to occupy anyway, never in `$TMPDIR`, which is often RAM (a tmpfs). Tests may put it elsewhere
    /// with `BuildOptions.temporaryDirectory`.
    var workingFolderTemplate: (parent: String, template: String) {
        if let parent = options.temporaryDirectory { return (parent, "\(parent)/photobook-XXXXXX") }
        let parent = FileSystem.directoryName(outputPath)
        return (parent, "\(parent)/.\(FileSystem.baseName(outputPath)).photobook-pages-XXXXXX")
    }
}
