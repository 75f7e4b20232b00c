import Testing
@testable import JPEG
