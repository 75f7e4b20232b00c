import Geometry

/// `--layout auto`: photos in their order, a page at a time, as many on each page and so arranged that as little
/// of each photo as possible is cut away while every page is filled to its margins.
///
/// Every arrangement of 1 to `maxPerPage` photos is tried for every run of photos and priced (`PagePricing`);
/// the cheapest book is found by dynamic programming over the photos in order: deterministic, and the order is
/// never changed. With spreads the programme also follows the side of the next page (`endings`).
struct AutoLayout: SectionLayout {
    let maxPerPage: Int

    func steps(for section: Section, in frame: LayoutFrame) -> [LayoutStep]? {
        guard let pages = pages(for: section.photos.map(\.aspect), pricing: pricing(for: section, in: frame)) else { return nil }
        var next = 0
        return pages.map { page in
            defer { next += page.count }
            return .page(page, positions: Array(next..<next + page.count))
        }
    }

    func endings(for section: Section, startPage: Int, in frame: LayoutFrame) -> [Spreads.Ending]? {
        endings(for: section.photos.map(\.aspect), panoramic: Spreads.panoramic(section.photos), startPage: startPage,
                pricing: pricing(for: section, in: frame))
    }

    /// The frame's pricing, with a photo alone on a page never cut by more than it can afford.
    func pricing(for section: Section, in frame: LayoutFrame) -> PagePricing {
        var pricing = frame.pricing(for: section)
        pricing.aloneCropLimit = PagePricing.affordableAloneCrop
        return pricing
    }

    /// The cheapest pages of photos of these aspects.
    func pages(for aspects: [Double], pricing: PagePricing) -> [PageCells]? {
        let n = aspects.count
        let perPage = max(1, min(maxPerPage, LayoutLimits.maxPerPage))
        let arrangements = (1...perPage).map { Arrangement.all(of: $0) }
        // best[i]: the cheapest way to lay out the first i photos, and its last page.
        var best: [(cost: Double, page: PageCells?)] = [(0, nil)] + Array(repeating: (.infinity, nil), count: n)
        for end in 1...max(1, n) where n > 0 {
            for count in 1...min(perPage, end) {
                let start = end - count
                guard best[start].cost.isFinite,
                      let page = pricing.bestPage(Array(aspects[start..<end]), first: start,
                                                  arrangements: arrangements[count - 1])
                else { continue }
                let cost = best[start].cost + page.cost
                // Strictly cheaper only: among equals the page with fewer photos, found first, stays.
                if cost < best[end].cost { best[end] = (cost, page.page) }
            }
        }
        guard n > 0 else { return [] }
        var pages: [PageCells] = []
        var end = n
        while end > 0 {
            guard let page = best[end].page else { return nil }
            pages.append(page)
            end -= page.count
        }
        return pages.reversed()
    }

    /// The cheapest paginations, photos in order, in which every panorama is a spread that starts on a left-hand
    /// page (first the fewest blank pages, then the least crop and the fewest pages), one for each side the page
    /// after them can be on. A dynamic programme over (photos placed, side of the next page).
    func endings(for aspects: [Double], panoramic: [Bool], startPage: Int, pricing: PagePricing) -> [Spreads.Ending]? {
        let n = aspects.count
        guard n > 0 else { return [Spreads.Ending(nextSide: startPage % 2, blanks: 0, cost: 0, steps: [])] }
        let perPage = max(1, min(maxPerPage, LayoutLimits.maxPerPage))
        let arrangements = (1...perPage).map { Arrangement.all(of: $0) }
        struct State {
            var blanks: Int
            var cost: Double
            var steps: [LayoutStep]
            var from: Int
            var side: Int
            func isWorse(than blanks: Int, _ cost: Double) -> Bool {
                blanks < self.blanks || (blanks == self.blanks && cost < self.cost)
            }
        }
        // best[i][side]: the cheapest way to lay out the first i photos, the next page even (0) or odd (1).
        var best = Array(repeating: [State?](repeating: nil, count: 2), count: n + 1)
        best[0][startPage % 2] = State(blanks: 0, cost: 0, steps: [], from: -1, side: -1)
        func offer(_ end: Int, _ side: Int, _ blanks: Int, _ cost: Double, _ steps: [LayoutStep], from: Int, _ previous: Int) {
            if best[end][side].map({ $0.isWorse(than: blanks, cost) }) ?? true {
                best[end][side] = State(blanks: blanks, cost: cost, steps: steps, from: from, side: previous)
            }
        }
        for start in 0..<n {
            if panoramic[start] {
                for side in 0..<2 {
                    guard let state = best[start][side] else { continue }
                    // On a right-hand page a spread would cross a sheet: a blank page first.
                    let blank = side == 1
                    offer(start + 1, 0, state.blanks + (blank ? 1 : 0), state.cost + PagePricing.pagePrice * (blank ? 3 : 2),
                          blank ? [.blank, .spread(start)] : [.spread(start)], from: start, side)
                }
                continue
            }
            for count in 1...min(perPage, n - start) {
                if panoramic[start + count - 1] { break }
                guard best[start][0] != nil || best[start][1] != nil,
                      let page = pricing.bestPage(Array(aspects[start..<start + count]), first: start,
                                          arrangements: arrangements[count - 1]) else { continue }
                for side in 0..<2 {
                    guard let state = best[start][side] else { continue }
                    offer(start + count, 1 - side, state.blanks, state.cost + page.cost,
                          [.page(page.page, positions: Array(start..<start + count))], from: start, side)
                }
            }
        }
        var endings: [Spreads.Ending] = []
        for last in 0..<2 {
            guard var state = best[n][last] else { continue }
            let (blanks, cost) = (state.blanks, state.cost)
            var steps: [LayoutStep] = []
            var end = n
            while end > 0 {
                steps.insert(contentsOf: state.steps, at: 0)
                let side = state.side
                end = state.from
                guard let previous = best[end][side] else { return nil }
                state = previous
            }
            endings.append(Spreads.Ending(nextSide: last, blanks: blanks, cost: cost, steps: steps))
        }
        return endings.isEmpty ? nil : endings
    }
}
