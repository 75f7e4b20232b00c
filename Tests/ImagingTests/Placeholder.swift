import Testing
@testable import Imaging
