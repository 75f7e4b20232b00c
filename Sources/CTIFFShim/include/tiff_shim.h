/* The C side of photobook's TIFF reader: what libtiff offers only through C idioms Swift cannot use.
 *
 * - Error and warning handlers take a va_list: each open file gets its own pair (TIFFOpenOptions...ExtR) that
 *   formats the text into that file's own buffer, because libtiff's global handlers are process-wide and
 *   photobook reads several files at once. The global handlers are switched off once, so nothing reaches stderr.
 * - TIFFGetField and TIFFSetField are variadic: one small typed function per shape of tag used.
 * - The file is read through one callback (`pbtiff_read_fn`, positioned reads), never mapped.
 */
#ifndef PHOTOBOOK_TIFF_SHIM_H
#define PHOTOBOOK_TIFF_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <tiffio.h>

/* Reads up to `count` bytes at `offset` into `buffer`; returns how many (fewer only at the end of the file),
 * or -1 when the file cannot be read. */
typedef int64_t (*pbtiff_read_fn)(void *context, uint64_t offset, void *buffer, size_t count);

typedef struct pbtiff_file pbtiff_file;

/* Opens a TIFF of `size` bytes read through `read` (mode "rm": read-only, no memory mapping), with at most
 * `max_single_alloc` bytes in any one libtiff allocation. NULL only when out of memory; otherwise a file whose
 * pbtiff_tiff is NULL when libtiff refused it (pbtiff_error says why). */
pbtiff_file *pbtiff_open(const char *name, void *context, pbtiff_read_fn read, uint64_t size,
                         tmsize_t max_single_alloc);
/* Closes the TIFF (when open) and frees everything; NULL is allowed. */
void pbtiff_close(pbtiff_file *file);
TIFF *pbtiff_tiff(pbtiff_file *file);

/* The first error libtiff reported since the last pbtiff_clear_error ("" when none), as "text" without the
 * module name. */
const char *pbtiff_error(const pbtiff_file *file);
void pbtiff_clear_error(pbtiff_file *file);
/* How many warnings libtiff has given in all; the first PBTIFF_KEPT_WARNINGS are kept, "module: text". */
enum { PBTIFF_KEPT_WARNINGS = 16 };
int pbtiff_warning_count(const pbtiff_file *file);
const char *pbtiff_warning(const pbtiff_file *file, int index);

/* TIFFGetField for one value of these types; 1 when the tag is set. */
int pbtiff_get_u16(TIFF *tif, uint32_t tag, uint16_t *value);
int pbtiff_get_u32(TIFF *tif, uint32_t tag, uint32_t *value);
int pbtiff_get_u64(TIFF *tif, uint32_t tag, uint64_t *value);
/* TIFFGetFieldDefaulted for a uint16 tag (the value the specification gives when the tag is absent). */
int pbtiff_get_u16_defaulted(TIFF *tif, uint32_t tag, uint16_t *value);
/* An ASCII tag; NULL when it is not set. Valid until the directory changes. */
const char *pbtiff_get_string(TIFF *tif, uint32_t tag);
/* A counted byte tag (ICC profile, XMP packet: uint32 count, void *data); 1 when set. */
int pbtiff_get_bytes(TIFF *tif, uint32_t tag, uint32_t *count, const uint8_t **data);
/* ExtraSamples: how many and their meanings. */
int pbtiff_get_extra_samples(TIFF *tif, uint16_t *count, const uint16_t **types);
/* The colour map's three arrays of 2^bits 16-bit entries. */
int pbtiff_get_colormap(TIFF *tif, const uint16_t **red, const uint16_t **green, const uint16_t **blue);
/* Has libtiff's JPEG codec hand out RGB instead of YCbCr (TIFFTAG_JPEGCOLORMODE). */
int pbtiff_set_jpeg_rgb(TIFF *tif);

#endif
