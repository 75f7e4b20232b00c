#ifndef PHOTOBOOK_ZLIB_SHIM_H
#define PHOTOBOOK_ZLIB_SHIM_H

/*
 * zlib's deflateInit2 is a function-like macro (it passes ZLIB_VERSION and sizeof(z_stream) to deflateInit2_),
 * and Swift cannot call a macro with arguments: this wraps it as a function Swift can call.
 */

#include <zlib.h>

static inline int pbz_deflate_init2(z_streamp stream, int level, int method, int window_bits, int mem_level,
                                    int strategy) {
    return deflateInit2(stream, level, method, window_bits, mem_level, strategy);
}

#endif
