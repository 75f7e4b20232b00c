import Foundation
import Geometry
import Testing
import TestSupport
@testable import PhotoBook

/// A build aims a JPEG's crop in its render's worker, from the blocks its lossless crop reads (PhotoJob.aimsAtRender);
/// the dry run measures the same picture beforehand: both must place every crop in the same place.
@Suite(.serialized) struct AimAtRenderTests {
    @Test("the dry run's crops are the build's, photo for photo, on pages that cut the EXIF orientation photos")
    func dryRunAgreesWithTheBuild() throws {
        let names = (0...8).map { "Landscape_\($0).jpg" } + (0...8).map { "Portrait_\($0).jpg" }
        let fixture = try ContractTests.Fixture(photos: try names.map { ($0, try Fixtures.bytes("exif-orientation/" + $0)) })
        var options = BuildOptions()
        options.jobs = 2
        options.temporaryDirectory = fixture.tmp
        options.layout.margin = 0
        // A strip: every photo, landscape or portrait, is cut along its long side.
        options.layout.pageSize = PageSize(width: 200 * Length.pointsPerMillimetre, height: 80 * Length.pointsPerMillimetre)
        let discovery = Discovery.discover([fixture.folder + "/in"], recursive: false)
        let pipeline = RenderPipeline(files: discovery.photos, outputPath: fixture.output, options: options)
        let preview = pipeline.preview()
        let report = pipeline.run()
        #expect(report.book == .succeeded)
        let planned = try #require(preview.plan).pages.flatMap(\.photos)
        #expect(planned.count == names.count)
        var aimed = 0
        for placed in planned {
            let built = report.photos[placed.photo.index]
            #expect(built.crop == placed.crop && built.cropSource == placed.cropSource,
                    "\(names[placed.photo.index]): dry run \(placed.crop) \(placed.cropSource), build \(String(describing: built.crop)) \(String(describing: built.cropSource))")
            if placed.cropSource == .attention { aimed += 1 }
        }
        // The comparison means something: most of these crops leave the centre.
        #expect(aimed >= names.count / 2, "\(aimed) crops placed by attention")
    }
}
