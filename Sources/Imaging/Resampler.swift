/// A rectangle in source pixels, with fractional edges so crops stay exact after DCT scaling.
public struct SourceRect: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

public enum ImagingError: Error, Sendable, Equatable {
    /// `shouldCancel` returned true at a safe point.
    case cancelled
}

extension RGBImage {
    /// The image as a person should see it, given the orientation it was stored with.
    public func applying(_ orientation: Orientation) -> RGBImage {
        fatalError("STUB: Imaging helper implements this")
    }
}

/// Resampling with a real filter (never nearest neighbour).
public enum Resampler {
    /// Resamples `region` of `image` to exactly `width` x `height` pixels.
    /// Checks `shouldCancel` between bands of rows and throws `.cancelled` when it returns true.
    public static func resample(_ image: RGBImage, region: SourceRect, width: Int, height: Int,
                                shouldCancel: () -> Bool = { false }) throws(ImagingError) -> RGBImage {
        fatalError("STUB: Imaging helper implements this")
    }
}
