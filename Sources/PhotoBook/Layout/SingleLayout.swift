/// `--layout single`: one photo per page, on the whole area inside the margins. With spreads, a panorama due on a
/// right-hand page waits while the photos after it fill that page (`Spreads.waiting`).
struct SingleLayout: SectionLayout {
    func steps(for section: Section, in frame: LayoutFrame) -> [LayoutStep]? {
        section.photos.indices.map { .page(page(first: $0 == 0, section, frame), positions: [$0]) }
    }

    func endings(for section: Section, startPage: Int, in frame: LayoutFrame) -> [Spreads.Ending]? {
        let steps = Spreads.waiting(panoramic: Spreads.panoramic(section.photos), perPage: 1, startPage: startPage) {
            _, first in page(first: first, section, frame)
        }
        return [Spreads.ending(of: steps, startPage: startPage)]
    }

    private func page(first: Bool, _ section: Section, _ frame: LayoutFrame) -> PageCells {
        PageCells(count: 1, cells: [first ? section.firstArea ?? frame.area : frame.area], arrangement: .single)
    }
}
