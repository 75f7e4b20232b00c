/* Everything is in include/zlib_shim.h; SwiftPM needs one source file to build a C target. */
#include "zlib_shim.h"
