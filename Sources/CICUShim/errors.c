#include "icu_shim.h"

#include <unicode/utypes.h>

const char *pbicu_error_name(int32_t code) {
    /* u_errorName answers "[BOGUS UErrorCode]" for a code it does not know, never NULL. */
    return u_errorName((UErrorCode)(code < 0 ? -(int64_t)code : code));
}
