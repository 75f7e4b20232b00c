#include "icu_shim.h"

#include <unicode/ubidi.h>
#include <unicode/utypes.h>

/* ICU's UChar is uint16_t in C; a compile-time check rather than a silent reinterpretation. */
_Static_assert(sizeof(UChar) == sizeof(uint16_t), "UChar is not 16 bits");

static int32_t failure(UErrorCode status) {
    return -(int32_t)status;
}

static int text_is_valid(const uint16_t *text, int32_t length) {
    return length >= 0 && length <= PBICU_MAX_LENGTH && (text != NULL || length == 0);
}

/* The first paragraph's level with `default_level` (UBIDI_DEFAULT_LTR or _RTL) for a paragraph with no strong
 * character; also the first paragraph's limit when `limit` is not NULL. Negative on failure. */
static int32_t first_paragraph_level(const uint16_t *text, int32_t length, UBiDiLevel default_level, int32_t *limit) {
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(length, 0, &status);
    if (U_FAILURE(status)) return failure(status);
    ubidi_setPara(bidi, (const UChar *)text, length, default_level, NULL, &status);
    int32_t start = 0, end = length;
    UBiDiLevel level = 0;
    if (U_SUCCESS(status)) ubidi_getParagraphByIndex(bidi, 0, &start, &end, &level, &status);
    ubidi_close(bidi);
    if (U_FAILURE(status)) return failure(status);
    if (limit != NULL) *limit = end;
    return level;
}

int32_t pbicu_base_direction(const uint16_t *text, int32_t length) {
    if (!text_is_valid(text, length)) return failure(U_ILLEGAL_ARGUMENT_ERROR);
    if (length == 0) return PBICU_NEUTRAL;
    /* ICU's ubidi_getBaseDirection does not skip isolates (P2): the paragraph level ubidi_setPara resolves does.
     * ICU does not say whether a default level was taken, so the first paragraph is resolved twice, once with
     * each default: the same level both times means a strong character decided it. */
    int32_t limit = length;
    int32_t ltr = first_paragraph_level(text, length, UBIDI_DEFAULT_LTR, &limit);
    if (ltr < 0) return ltr;
    int32_t rtl = first_paragraph_level(text, limit, UBIDI_DEFAULT_RTL, NULL);
    if (rtl < 0) return rtl;
    if (ltr != rtl) return PBICU_NEUTRAL;
    return (ltr & 1) ? PBICU_RTL : PBICU_LTR;
}

int32_t pbicu_visual_runs(const uint16_t *text, int32_t length, int32_t base, pbicu_run *runs, int32_t capacity) {
    if (!text_is_valid(text, length) || capacity < 0 || (runs == NULL && capacity > 0)
        || (base != PBICU_LTR && base != PBICU_RTL && base != PBICU_NEUTRAL)) {
        return failure(U_ILLEGAL_ARGUMENT_ERROR);
    }
    if (length == 0) return 0;
    UBiDiLevel level = base == PBICU_LTR ? 0 : base == PBICU_RTL ? 1 : UBIDI_DEFAULT_LTR;
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(length, 0, &status);
    UBiDi *line = ubidi_openSized(length, 0, &status);
    if (U_FAILURE(status)) {
        ubidi_close(line);
        ubidi_close(bidi);
        return failure(status);
    }
    ubidi_setPara(bidi, (const UChar *)text, length, level, NULL, &status);
    int32_t paragraphs = U_SUCCESS(status) ? ubidi_countParagraphs(bidi) : 0;
    int32_t count = 0;
    /* ICU orders a text of several paragraphs as one line, runs of one paragraph interleaved with another's when
     * their directions differ: each paragraph is made a line of its own (ubidi_setLine) and ordered alone. */
    for (int32_t p = 0; p < paragraphs && U_SUCCESS(status); p++) {
        int32_t start = 0, limit = 0;
        ubidi_getParagraphByIndex(bidi, p, &start, &limit, NULL, &status);
        if (U_SUCCESS(status)) ubidi_setLine(bidi, start, limit, line, &status);
        int32_t line_runs = U_SUCCESS(status) ? ubidi_countRuns(line, &status) : 0;
        for (int32_t r = 0; r < line_runs && U_SUCCESS(status); r++) {
            int32_t run_start = 0, run_length = 0;
            ubidi_getVisualRun(line, r, &run_start, &run_length);
            if (count >= capacity) {
                status = U_BUFFER_OVERFLOW_ERROR;
                break;
            }
            runs[count].start = start + run_start;
            runs[count].length = run_length;
            runs[count].level = ubidi_getLevelAt(line, run_start);
            count++;
        }
    }
    ubidi_close(line);
    ubidi_close(bidi);
    return U_FAILURE(status) ? failure(status) : count;
}
