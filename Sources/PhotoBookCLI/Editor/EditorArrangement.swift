import Foundation
import PhotoBook
import Platform

/// "Arrange the rest again": every run of pages that are not locked is laid out again as `build --layout auto`
/// would lay out its photos, in their order; a locked page stays as it is, and a page with a heading starts a run
/// (its section keeps its heading on its first page). Captions, focus points and languages go with their photos.
struct EditorArrangement {
    let book: EditorBook

    func arranged(_ description: BookDescription) throws(CLIError) -> BookDescription {
        let text = Array((try? description.encoded()) ?? Data())
        let input = try DescriptionInput.load(book.path, bytes: text)
        let command = try EditorProof.command(for: input, output: EditorProof.proofOutput(book.run), proof: false)
        let ready = try EditorProof.ready(input, command: command, run: book.run, say: Diagnostics.capturing())
        // Each listed photo's file and its place in the flattened list (its PhotoID in the description's build).
        var files: [[(file: PhotoFile, id: Int)]] = []
        var next = 0
        for page in description.pages {
            files.append((next..<next + page.photos.count).map { (ready.photos[$0], $0) })
            next += page.photos.count
        }
        var pages: [BookDescription.Page] = []
        var run: [Int] = []
        func flush() throws(CLIError) {
            guard !run.isEmpty else { return }
            let photos = run.flatMap { description.pages[$0].photos }
            let runFiles = run.flatMap { files[$0] }
            var arranged = try layOut(runFiles, given: input.given, options: ready.options).map { group in
                BookDescription.Page(heading: nil, layout: group.layout, photos: group.indices.map { photos[$0] })
            }
            if !arranged.isEmpty { arranged[0].heading = description.pages[run[0]].heading }
            pages += arranged
            run = []
        }
        for (index, page) in description.pages.enumerated() {
            if page.locked == true {
                try flush()
                pages.append(page)
            } else {
                if page.heading != nil { try flush() }
                run.append(index)
            }
        }
        try flush()
        var result = description
        result.pages = pages
        return result
    }

    /// The pages the automatic layout gives `files` in their order, with their captions (the room a caption takes
    /// changes the arrangement that fits), languages and focus points: each page's photos (indices into `files`)
    /// and its arrangement's name.
    private func layOut(_ files: [(file: PhotoFile, id: Int)], given described: GivenBook,
                        options start: BuildOptions) throws(CLIError) -> [(indices: [Int], layout: String)] {
        var options = start
        var given = GivenBook(pages: [])
        given.pagesGiven = false
        for (local, listed) in files.enumerated() {
            let id = PhotoID(listed.id), here = PhotoID(local)
            given.captions[here] = described.captions[id]
            given.captionLanguages[here] = described.captionLanguages[id]
            given.focus[here] = described.focus[id]
        }
        options.given = given
        options.choice = nil
        options.layout.mode = .auto
        options.layout.padTo = 1
        options.keepDuplicates = true
        // The run's pages only: no title page, no section opener (its heading stays on its first page).
        options.text?.title = nil
        options.text?.sections = .none
        let preview = RenderPipeline(files: files.map(\.file), outputPath: EditorProof.proofOutput(book.run), options: options).preview()
        guard let plan = preview.plan else { throw .usage("the pages cannot be arranged: \(preview.report.book)") }
        var groups: [(indices: [Int], layout: String)] = []
        var placed = Set<Int>()
        for page in plan.pages {
            guard case .photos(let arrangement) = page.kind else { continue }
            let indices = page.photos.map(\.photo.index)
            placed.formUnion(indices)
            groups.append((indices, arrangement.description))
        }
        // A photo the preview could not place (its probe failed) keeps a page of its own, as it was listed.
        for index in files.indices where !placed.contains(index) { groups.append(([index], "single")) }
        return groups
    }
}
