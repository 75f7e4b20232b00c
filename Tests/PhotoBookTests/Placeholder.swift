import Testing
@testable import PhotoBook
