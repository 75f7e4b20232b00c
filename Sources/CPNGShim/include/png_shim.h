/* The C side of photobook's PNG decoder: libpng's low-level read API behind functions that never longjmp.
 *
 * libpng reports errors by calling an error function that must not return; the only way out is longjmp.
 * Swift cannot call setjmp, and a longjmp across Swift frames is undefined behaviour, so every function
 * here sets its own setjmp around the libpng calls it makes and turns an error into a status code plus
 * libpng's message. After one error the decoder is spent: every later call fails with the same message.
 *
 * Typical use: create from bytes, read_header, start_decode, read_rows (passes * height rows in total,
 * in bands), finish, destroy. The bytes are borrowed, not copied: they must outlive the decoder.
 */
#ifndef PHOTOBOOK_PNG_SHIM_H
#define PHOTOBOOK_PNG_SHIM_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    PBPNG_OK = 0,
    /** The data does not start with the PNG signature. */
    PBPNG_NOT_PNG = 1,
    /** libpng (or the shim) stopped with an error; pbpng_message says why. */
    PBPNG_FAILED = 2,
} pbpng_status;

/** What IHDR and the chunks before the first IDAT say. */
typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    /** The PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA. */
    int color_type;
    int interlaced;
    /** The eXIf chunk's TIFF bytes, or NULL; owned by the decoder, valid until it is destroyed. */
    const uint8_t *exif;
    size_t exif_length;
} pbpng_header;

typedef struct pbpng_decoder pbpng_decoder;

/** A decoder over `count` borrowed bytes (`bytes` may be NULL when `count` is 0); NULL when out of memory. */
pbpng_decoder *pbpng_decoder_create(const uint8_t *bytes, size_t count);
/** Frees the decoder and everything libpng allocated for it; NULL is allowed. */
void pbpng_decoder_destroy(pbpng_decoder *decoder);

/** Checks the signature and reads IHDR and every chunk up to the first IDAT (png_read_info). */
pbpng_status pbpng_read_header(pbpng_decoder *decoder, pbpng_header *header);

/** Sets the transformations that turn every PNG into 8-bit RGBA and prepares to read rows.
 *  `passes` receives 1, or 7 for an Adam7 image: rows must then be read `passes * height` times in all,
 *  the whole image once per pass, into the same full-image buffer. */
pbpng_status pbpng_start_decode(pbpng_decoder *decoder, int *passes);

/** Reads the next `count` rows (RGBA, 4 bytes a pixel) to `first_row`, `first_row + row_stride`, ...
 *  For an interlaced image each pass only fills in its own pixels and keeps the others. */
pbpng_status pbpng_read_rows(pbpng_decoder *decoder, uint8_t *first_row, size_t row_stride, uint32_t count);

/** Reads the rest of the file up to IEND (png_read_end), so that a truncated or corrupt tail is an error. */
pbpng_status pbpng_finish(pbpng_decoder *decoder);

/** Why the last call failed, in libpng's words ("IDAT: CRC error"); empty when nothing failed. */
const char *pbpng_message(const pbpng_decoder *decoder);
/** Nonzero when the call failed because the bytes ended before libpng had read what it needed: with the first
 *  bytes of a longer file, reading more may succeed. Decided where the bytes run out, not from libpng's words. */
int pbpng_data_ended(const pbpng_decoder *decoder);
/** How many warnings libpng gave (damaged ancillary chunks and the like: not fatal). */
unsigned pbpng_warning_count(const pbpng_decoder *decoder);
/** The largest single allocation libpng has made for this decoder, in bytes (for tests). */
size_t pbpng_largest_allocation(const pbpng_decoder *decoder);
/** The last warning's text; empty when there was none. */
const char *pbpng_last_warning(const pbpng_decoder *decoder);

/* Inflates the zlib stream data[0..count) (an iCCP profile) into a new buffer of at most limit bytes.
 * Returns 0 and sets *out (free with pbpng_free) and *length; 1 when the output would exceed limit; 2 when the
 * data is not a complete, sound zlib stream; 3 when out of memory. */
int pbpng_inflate(const uint8_t *data, size_t count, size_t limit, uint8_t **out, size_t *length);
void pbpng_free(void *pointer);

#endif
