import Testing
@testable import PDF
