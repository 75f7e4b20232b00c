import CJPEG

/// The libjpeg-turbo photobook was built against, for the render cache's keys: a new library may encode other bytes.
public enum JPEGLibrary {
    public static var version: String { "libjpeg-turbo \(LIBJPEG_TURBO_VERSION_NUMBER)" }
}
