import Geometry
import Testing
@testable import Imaging

/// Release builds compile Imaging with `-Ounchecked`, which removes `precondition`: the kernels' entry checks
/// use `guarantee` (fatalError), so they stop the process in every build. These run the checks in a child
/// process and expect it to fail.
@Suite("Kernel entry checks")
struct KernelEntryCheckTests {
    /// `pixels` is settable, so an image can lose bytes after `init` checked them.
    @Test func orientationRefusesAnImageWhosePixelsWereShortened() async {
        await #expect(processExitsWith: .failure) {
            var image = RGBImage(width: 4, height: 4)
            image.pixels.removeLast(3)
            _ = image.applying(.rightTop)
        }
    }

    @Test func resamplingRefusesAnImageWhosePixelsWereShortened() async {
        await #expect(processExitsWith: .failure) {
            var image = RGBImage(width: 4, height: 4)
            image.pixels.removeLast(3)
            _ = try? Resampler.resample(image, region: Rect(x: 0, y: 0, width: 4, height: 4), width: 2, height: 2)
        }
    }

    /// A size whose byte count overflows must not wrap into a small, valid-looking one.
    @Test func anImageWhoseByteCountOverflowsIsRefused() async {
        #expect(RGBImage.byteCount(width: 1 << 31, height: 1 << 31) == nil)
        #expect(RGBImage.byteCount(width: -1, height: -3) == nil)
        await #expect(processExitsWith: .failure) {
            _ = RGBImage(width: 1 << 62, height: 4, pixels: [])
        }
    }

    @Test func aRegionBeyondAnyImageIsRefused() async {
        await #expect(processExitsWith: .failure) {
            _ = try? Resampler.resample(RGBImage(width: 4, height: 4),
                                        region: Rect(x: 1e300, y: 0, width: 4, height: 4), width: 2, height: 2)
        }
    }
}
