import Testing
@testable import PNG
