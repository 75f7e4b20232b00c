#include "icu_shim.h"

#include <unicode/ubrk.h>
#include <unicode/utypes.h>

int32_t pbicu_line_breaks(const uint16_t *text, int32_t length, const char *locale, int32_t *breaks,
                          uint8_t *mandatory, int32_t capacity) {
    if (length < 0 || length > PBICU_MAX_LENGTH || (text == NULL && length > 0) || locale == NULL || capacity < 0
        || ((breaks == NULL || mandatory == NULL) && capacity > 0)) {
        return -(int32_t)U_ILLEGAL_ARGUMENT_ERROR;
    }
    if (length == 0) return 0;
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *iterator = ubrk_open(UBRK_LINE, locale, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) {
        ubrk_close(iterator);
        return -(int32_t)status;
    }
    int32_t count = 0;
    /* Boundaries only grow, so a text of n units has at most n after 0: the loop ends. */
    for (int32_t boundary = ubrk_next(iterator); boundary != UBRK_DONE; boundary = ubrk_next(iterator)) {
        if (count >= capacity) {
            status = U_BUFFER_OVERFLOW_ERROR;
            break;
        }
        int32_t rule = ubrk_getRuleStatus(iterator);
        breaks[count] = boundary;
        mandatory[count] = rule >= UBRK_LINE_HARD && rule < UBRK_LINE_HARD_LIMIT;
        count++;
    }
    ubrk_close(iterator);
    return U_FAILURE(status) ? -(int32_t)status : count;
}
