import PhotoBookCLI
import Foundation
exit(PhotoBookCLI.main(CommandLine.arguments))
