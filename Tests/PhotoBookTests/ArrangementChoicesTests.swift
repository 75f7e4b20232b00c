import Geometry
import Testing
@testable import PhotoBook

/// The arrangements the editor offers a page: those that hold its photos, the least cropping first, none whose
/// cells the automatic layout would refuse.
struct ArrangementChoicesTests {
    let portraitArea = Rect(x: 28, y: 28, width: 539, height: 785)

    @Test func twoLandscapesOnAPortraitPageAreStackedFirst() {
        let choices = PageArrangement.choices(aspects: [1.5, 1.5], area: portraitArea, gap: 8)
        #expect(choices.first?.description == "[1 / 2]")
        #expect(choices.contains { $0.description == "[1 | 2]" })
        #expect(choices.allSatisfy { $0.holds(2) })
        #expect(choices.contains(.grid(columns: 1, rows: 2)) && choices.contains(.grid(columns: 2, rows: 1)))
        #expect(!choices.contains(.single))
    }

    @Test func everyChoiceHoldsThePhotosAndTheCropGrowsDownTheList() throws {
        let aspects = [1.5, 0.67, 1.5, 1.33]
        let choices = PageArrangement.choices(aspects: aspects, area: portraitArea, gap: 8)
        let trees = choices.compactMap { choice -> Arrangement? in
            if case .arranged(let tree) = choice { return tree } else { return nil }
        }
        #expect(!trees.isEmpty && trees.count <= 12)
        var last = 0.0
        for tree in trees {
            let layout = try #require(ArrangementLayout(tree, aspects: aspects, in: portraitArea, gap: 8))
            #expect(layout.cropShare >= last - 1e-9)
            last = layout.cropShare
            #expect(layout.cells.allSatisfy { $0.width >= portraitArea.width * PagePricing.smallestSide
                                              && $0.height >= portraitArea.height * PagePricing.smallestSide })
        }
        // The 22 trees of four photos: the twelve that crop least of those the rule accepts are offered; a tree
        // left out crops more, or has a cell under the rule (some of those crop less: they are not offered).
        #expect(trees.count == 12)
        var refusedByTheRule = 0
        for tree in Arrangement.all(of: 4) where !trees.contains(tree) {
            guard let layout = ArrangementLayout(tree, aspects: aspects, in: portraitArea, gap: 8) else { continue }
            let accepted = layout.cells.allSatisfy { $0.width >= portraitArea.width * PagePricing.smallestSide
                                                     && $0.height >= portraitArea.height * PagePricing.smallestSide }
            if accepted {
                #expect(layout.cropShare >= last - 1e-9, "\(tree) crops less than the last offered")
            } else {
                refusedByTheRule += 1
            }
        }
        #expect(refusedByTheRule > 0)
    }

    @Test func onePhotoMayFillThePageOrStandWhole() {
        let choices = PageArrangement.choices(aspects: [0.75], area: portraitArea, gap: 8)
        #expect(choices.contains(.single))
        #expect(choices.contains { $0.description == "1" })
    }
}
