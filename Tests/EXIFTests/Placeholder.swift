import Testing
@testable import EXIF
