#ifndef PHOTOBOOK_ICU_SHIM_H
#define PHOTOBOOK_ICU_SHIM_H

/*
 * The C side of TextBreaks: ICU's bidi (ubidi) and line breaking (ubrk, UBRK_LINE) behind plain C.
 *
 * Only the .c files include ICU's headers. Swift cannot import them: the toolchain's Foundation carries its own
 * ICU (_FoundationICU) whose definitions of UErrorCode and friends clash with Debian's, and Debian's headers rename
 * every entry point by version (ubidi_open_72). This header has no ICU type, so Swift sees plain C, and both ICUs
 * live in one process under different symbol names (docs/research/words.md §3).
 *
 * Texts are UTF-16 with an explicit length (a NUL is a character like any other), at most PBICU_MAX_LENGTH units;
 * offsets are in UTF-16 units. A negative return is minus an ICU UErrorCode (1 U_ILLEGAL_ARGUMENT_ERROR, 7
 * U_MEMORY_ALLOCATION_ERROR, 15 U_BUFFER_OVERFLOW_ERROR...): pbicu_error_name names it. Nothing here keeps state
 * between calls, so any thread may call at any time.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest text taken, in UTF-16 units: what the 64 KB caption limit can hold (a scalar is never more UTF-16
 * units than UTF-8 bytes). Longer texts are refused with -U_ILLEGAL_ARGUMENT_ERROR; TextBreaks cuts them. */
enum { PBICU_MAX_LENGTH = 65536 };

/* pbicu_base_direction's answers, and pbicu_visual_runs's `base`. */
enum {
    PBICU_LTR = 0,
    PBICU_RTL = 1,
    PBICU_NEUTRAL = 2,  /* pbicu_base_direction: no strong character; pbicu_visual_runs: each paragraph by its text */
};

/* One bidi run: UTF-16 units [start, start + length) of the text, all at one embedding level. */
typedef struct pbicu_run {
    int32_t start;
    int32_t length;
    int32_t level;  /* even: left to right, odd: right to left */
} pbicu_run;

/* ICU's name of an error code, positive or negative ("U_ILLEGAL_ARGUMENT_ERROR"); never NULL. */
const char *pbicu_error_name(int32_t code);

/* The base direction of the text's first paragraph by its first strong character, skipping isolates (UAX #9
 * P2, P3): PBICU_LTR, PBICU_RTL or PBICU_NEUTRAL; 0 for an empty text. */
int32_t pbicu_base_direction(const uint16_t *text, int32_t length);

/* The text's bidi runs in visual order (ubidi_setPara, ubidi_getVisualRun): each paragraph ordered as one line,
 * the paragraphs in logical order. `base` PBICU_LTR or PBICU_RTL sets every paragraph's level; PBICU_NEUTRAL takes
 * each paragraph's from its text (left to right when it has no strong character). Writes the runs (never more
 * than `length`) to `runs` and returns how many; -U_BUFFER_OVERFLOW_ERROR when `capacity` is too small. */
int32_t pbicu_visual_runs(const uint16_t *text, int32_t length, int32_t base, pbicu_run *runs, int32_t capacity);

/* The boundaries of ICU's line break iterator for `locale` ("ja@lb=strict", "th", "en"), after 0 and up to and
 * including `length` (always the last one for a text that is not empty), ascending. `mandatory[i]` is 1 when
 * breaks[i] follows a hard line break (UBRK_LINE_HARD: LF, CR LF, NEL, U+2028, U+2029...), else 0. Returns how many
 * (never more than `length`); -U_BUFFER_OVERFLOW_ERROR when `capacity` is too small. */
int32_t pbicu_line_breaks(const uint16_t *text, int32_t length, const char *locale, int32_t *breaks,
                          uint8_t *mandatory, int32_t capacity);

#ifdef __cplusplus
}
#endif

#endif
