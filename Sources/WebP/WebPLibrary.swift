import CWebP

/// The libwebp decoder in use, for the render cache's keys.
public enum WebPLibrary {
    public static var version: String { "libwebp \(WebPGetDecoderVersion())" }
}
