/* The image data of the commonest large PNGs, read without libpng: non-interlaced 8-bit RGB (colour type 2) and
 * RGBA (colour type 6), the way photo editors and screenshots save them.
 *
 * Why: Debian's libpng 1.6.39 is built without its SIMD filter code, and undoing the Paeth filter byte by byte is
 * a third of decoding a 12-megapixel photo saved as PNG (~170 ms of ~470 ms). Here zlib inflates the IDAT chunks
 * (CRC checked, as libpng does) and each row is unfiltered a pixel at a time, all channels at once.
 *
 * libpng still reads and checks everything before the first IDAT (pbpng_read_header); these functions take over
 * from there and read the rest of the file up to IEND. The bytes are borrowed: they must outlive the reader.
 * Nothing here longjmps; after one error the reader is spent and every later call fails with the same message.
 */
#ifndef PHOTOBOOK_PNG_ROWS_H
#define PHOTOBOOK_PNG_ROWS_H

#include <stddef.h>
#include <stdint.h>
#include "png_shim.h"

typedef struct pbpng_rows pbpng_rows;

/** A reader of the image data of the PNG in `bytes` (the whole file), which libpng found to be `width` x
 *  `height`, non-interlaced, 8 bits a sample, with `channels` 3 (RGB) or 4 (RGBA). NULL when out of memory or
 *  when the arguments do not describe such an image. */
pbpng_rows *pbpng_rows_create(const uint8_t *bytes, size_t count, uint32_t width, uint32_t height, int channels);
/** Frees the reader; NULL is allowed. */
void pbpng_rows_destroy(pbpng_rows *rows);

/** The next `count` rows, as RGB (3 bytes a pixel; alpha composited over white, rounded) at `first_row`,
 *  `first_row + row_stride`, ... */
pbpng_status pbpng_rows_read(pbpng_rows *rows, uint8_t *first_row, size_t row_stride, uint32_t count);

/** After the last row: the compressed data ends where it should, and the chunks after it are whole up to IEND
 *  (critical chunks CRC-checked; a damaged ancillary chunk is skipped, as libpng does). */
pbpng_status pbpng_rows_finish(pbpng_rows *rows);

/** Why the last call failed, worded as libpng words it where libpng has words for it; empty when nothing failed. */
const char *pbpng_rows_message(const pbpng_rows *rows);

#endif
