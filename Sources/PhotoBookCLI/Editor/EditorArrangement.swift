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
        let command = try EditorProof.command(for: input, output: book.outputPath, proof: false)
        let ready = try EditorProof.ready(input, command: command, run: book.run, say: Diagnostics.capturing())
        // Each listed photo's file, in the order listed.
        var files: [[PhotoFile]] = []
        var next = 0
        for page in description.pages {
            files.append(Array(ready.photos[next..<next + page.photos.count]))
            next += page.photos.count
        }
        var pages: [BookDescription.Page] = []
        var run: [Int] = []
        func flush() throws(CLIError) {
            guard !run.isEmpty else { return }
            let photos = run.flatMap { description.pages[$0].photos }
            let runFiles = run.flatMap { files[$0] }
            var arranged = try layOut(runFiles, options: ready.options).map { group in
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

    /// The pages the automatic layout gives `files` in their order: each page's photos (indices into `files`) and
    /// its arrangement's name.
    private func layOut(_ files: [PhotoFile], options given: BuildOptions) throws(CLIError) -> [(indices: [Int], layout: String)] {
        var options = given
        options.given = nil
        options.choice = nil
        options.layout.mode = .auto
        options.layout.padTo = 1
        options.order.sort = .given
        options.order.reverse = false
        options.keepDuplicates = true
        // The run's pages only: no title page, and captions as the pages will carry them are the description's.
        options.text = nil
        let preview = RenderPipeline(files: files, outputPath: book.outputPath, options: options).preview()
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
