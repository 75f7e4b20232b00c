/* Image data of non-interlaced 8-bit RGB and RGBA PNGs without libpng: see png_rows.h for why.
 * The PNG specification (ISO/IEC 15948, W3C PNG 2nd edition) sections cited: 5.3 chunk layout and CRC, 9 filters,
 * 10 compression (zlib), 11.2.4 IEND. */
#include "png_rows.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

struct pbpng_rows {
    const uint8_t *bytes;
    size_t count;
    uint32_t width, height;
    size_t channels;
    size_t row_bytes;
    /* Two rows, each with `channels` zero bytes before it (the pixel left of the first one, always 0) and spare
     * bytes after it (the SIMD code loads 4 bytes for a 3-byte pixel). */
    uint8_t *storage;
    uint8_t *previous, *current;
    uint32_t rows_read;
    /* The offset of the next chunk to read once the current IDAT's data is used up. */
    size_t next_chunk;
    z_stream zs;
    int zs_ready;
    int stream_ended;
    int failed;
    char message[200];
};

static uint32_t big_endian_32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static pbpng_status fail(pbpng_rows *r, const char *format, ...) {
    if (!r->failed) {
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(r->message, sizeof r->message, format, arguments);
        va_end(arguments);
        r->failed = 1;
    }
    return PBPNG_FAILED;
}

/* The same words as the shim's libpng read function, so a short file reads the same whichever code found it. */
static pbpng_status truncated(pbpng_rows *r) {
    return fail(r, "truncated: the file ends before the PNG does");
}

static int is_letter(uint8_t c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/* The chunk at `at`: checks that its header, data and CRC are inside the file and its type is four letters. */
static pbpng_status chunk_at(pbpng_rows *r, size_t at, uint32_t *length, const uint8_t **type) {
    if (at > r->count || r->count - at < 8) return truncated(r);
    *length = big_endian_32(r->bytes + at);
    *type = r->bytes + at + 4;
    if (*length > 0x7fffffffu) return fail(r, "PNG unsigned integer out of range");
    for (int i = 0; i < 4; i++)
        if (!is_letter((*type)[i])) return fail(r, "invalid chunk type");
    if (r->count - at - 8 < (size_t)*length + 4) return truncated(r);
    return PBPNG_OK;
}

static int crc_matches(const uint8_t *type, uint32_t length) {
    uLong crc = crc32(0L, type, 4);
    crc = crc32(crc, type + 4, length);
    return crc == big_endian_32(type + 4 + length);
}

pbpng_rows *pbpng_rows_create(const uint8_t *bytes, size_t count, uint32_t width, uint32_t height, int channels) {
    if (bytes == NULL || count < 8 || width == 0 || height == 0 || (channels != 3 && channels != 4)) return NULL;
    if ((uint64_t)width * (uint64_t)channels > 0x7fffffffu) return NULL; /* zlib counts output in a 32-bit uInt */
    pbpng_rows *r = calloc(1, sizeof *r);
    if (r == NULL) return NULL;
    r->bytes = bytes;
    r->count = count;
    r->width = width;
    r->height = height;
    r->channels = (size_t)channels;
    r->row_bytes = (size_t)width * r->channels;
    /* Each row: `channels` zeros, the filter byte's slot is not kept (it is inflated into the row's first
     * zero and read back before the row is unfiltered), the row, 16 spare bytes. */
    size_t stride = r->row_bytes + r->channels + 16;
    r->storage = calloc(2, stride);
    if (r->storage == NULL) {
        free(r);
        return NULL;
    }
    r->previous = r->storage + r->channels;
    r->current = r->storage + stride + r->channels;

    /* libpng has read and checked every chunk before the first IDAT; find it, and refuse (NULL: the caller uses
     * libpng) an RGB image with a tRNS chunk, whose colour key would need compositing. */
    size_t at = 8;
    for (;;) {
        uint32_t length;
        const uint8_t *type;
        if (chunk_at(r, at, &length, &type) != PBPNG_OK || memcmp(type, "IEND", 4) == 0
            || (channels == 3 && memcmp(type, "tRNS", 4) == 0)) {
            pbpng_rows_destroy(r);
            return NULL;
        }
        if (memcmp(type, "IDAT", 4) == 0) break;
        at += 12 + (size_t)length;
    }
    r->next_chunk = at;
    if (inflateInit(&r->zs) != Z_OK) {
        pbpng_rows_destroy(r);
        return NULL;
    }
    r->zs_ready = 1;
    return r;
}

void pbpng_rows_destroy(pbpng_rows *r) {
    if (r == NULL) return;
    if (r->zs_ready) inflateEnd(&r->zs);
    free(r->storage);
    free(r);
}

const char *pbpng_rows_message(const pbpng_rows *r) { return r->failed ? r->message : ""; }

/* Points zlib at the next IDAT's data (CRC checked first). Fails with libpng's words when the image data ends
 * before the image does. */
static pbpng_status next_idat(pbpng_rows *r) {
    uint32_t length;
    const uint8_t *type;
    if (chunk_at(r, r->next_chunk, &length, &type) != PBPNG_OK) return PBPNG_FAILED;
    if (memcmp(type, "IDAT", 4) != 0) return fail(r, "Not enough image data");
    if (!crc_matches(type, length)) return fail(r, "IDAT: CRC error");
    r->zs.next_in = (Bytef *)(type + 4);
    r->zs.avail_in = length;
    r->next_chunk += 12 + (size_t)length;
    return PBPNG_OK;
}

/* Inflates exactly `length` bytes to `out`. */
static pbpng_status inflate_into(pbpng_rows *r, uint8_t *out, size_t length) {
    r->zs.next_out = out;
    r->zs.avail_out = (uInt)length;
    while (r->zs.avail_out > 0) {
        if (r->stream_ended) return fail(r, "Not enough image data");
        if (r->zs.avail_in == 0 && next_idat(r) != PBPNG_OK) return PBPNG_FAILED;
        int status = inflate(&r->zs, Z_NO_FLUSH);
        if (status == Z_STREAM_END) {
            r->stream_ended = 1;
        } else if (status == Z_BUF_ERROR && r->zs.avail_in == 0) {
            continue; /* the chunk's data is used up: the next IDAT goes on */
        } else if (status != Z_OK) {
            return fail(r, "IDAT: %s", r->zs.msg != NULL ? r->zs.msg : "damaged compressed data");
        }
    }
    return PBPNG_OK;
}

/* Undoes the filter of `row` (its `channels` bytes before it are 0) against `above` (likewise). 9.2 to 9.4. */
static void unfilter(uint8_t filter, uint8_t *row, const uint8_t *above, size_t length, size_t bpp) {
    switch (filter) {
    case 1: /* Sub */
        for (size_t i = 0; i < length; i++) row[i] = (uint8_t)(row[i] + row[(ptrdiff_t)i - (ptrdiff_t)bpp]);
        break;
    case 2: /* Up */
        for (size_t i = 0; i < length; i++) row[i] = (uint8_t)(row[i] + above[i]);
        break;
    case 3: /* Average */
        for (size_t i = 0; i < length; i++)
            row[i] = (uint8_t)(row[i] + ((row[(ptrdiff_t)i - (ptrdiff_t)bpp] + above[i]) >> 1));
        break;
    case 4: { /* Paeth: the left (a), above (b) or upper-left (c) neighbour nearest to a + b - c */
#if defined(__SSE2__)
        /* One pixel at a time, its channels side by side in 16-bit lanes; each pixel needs the one before it. */
        const __m128i zero = _mm_setzero_si128();
        __m128i a = zero, c = zero;
        for (size_t i = 0; i < length; i += bpp) {
            int32_t loaded;
            memcpy(&loaded, above + i, 4); /* a 3-byte pixel reads one spare byte; its lane is never stored */
            __m128i b = _mm_unpacklo_epi8(_mm_cvtsi32_si128(loaded), zero);
            memcpy(&loaded, row + i, 4);
            __m128i x = _mm_unpacklo_epi8(_mm_cvtsi32_si128(loaded), zero);
            __m128i bc = _mm_sub_epi16(b, c), ac = _mm_sub_epi16(a, c);
            __m128i sum = _mm_add_epi16(bc, ac);
            __m128i pa = _mm_max_epi16(bc, _mm_sub_epi16(zero, bc)); /* |p - a| = |b - c| */
            __m128i pb = _mm_max_epi16(ac, _mm_sub_epi16(zero, ac)); /* |p - b| = |a - c| */
            __m128i pc = _mm_max_epi16(sum, _mm_sub_epi16(zero, sum)); /* |p - c| = |a + b - 2c| */
            /* a when pa <= pb and pa <= pc; else b when pb <= pc; else c. */
            __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
            __m128i not_b = _mm_cmpgt_epi16(pb, pc);
            __m128i b_or_c = _mm_or_si128(_mm_and_si128(not_b, c), _mm_andnot_si128(not_b, b));
            __m128i predictor = _mm_or_si128(_mm_and_si128(not_a, b_or_c), _mm_andnot_si128(not_a, a));
            __m128i value = _mm_and_si128(_mm_add_epi16(x, predictor), _mm_set1_epi16(0xff));
            int32_t stored = _mm_cvtsi128_si32(_mm_packus_epi16(value, zero));
            memcpy(row + i, &stored, bpp);
            a = value;
            c = b;
        }
#else
        for (size_t i = 0; i < length; i++) {
            int left = i >= bpp ? row[i - bpp] : 0, up = above[i], corner = i >= bpp ? above[i - bpp] : 0;
            int pa = abs(up - corner), pb = abs(left - corner), pc = abs(left + up - 2 * corner);
            int predictor = (pa <= pb && pa <= pc) ? left : (pb <= pc ? up : corner);
            row[i] = (uint8_t)(row[i] + predictor);
        }
#endif
        break;
    }
    default:
        break;
    }
}

/* RGBA over white, rounded: out = (c * a + 255 * (255 - a) + 127) / 255 (255 is odd: never halfway). */
static void composite_over_white(const uint8_t *rgba, uint8_t *rgb, uint32_t pixels) {
    for (uint32_t x = 0; x < pixels; x++, rgba += 4, rgb += 3) {
        uint32_t alpha = rgba[3];
        if (alpha == 255) {
            rgb[0] = rgba[0];
            rgb[1] = rgba[1];
            rgb[2] = rgba[2];
        } else {
            uint32_t white = 255 * (255 - alpha) + 127;
            rgb[0] = (uint8_t)((rgba[0] * alpha + white) / 255);
            rgb[1] = (uint8_t)((rgba[1] * alpha + white) / 255);
            rgb[2] = (uint8_t)((rgba[2] * alpha + white) / 255);
        }
    }
}

pbpng_status pbpng_rows_read(pbpng_rows *r, uint8_t *first_row, size_t row_stride, uint32_t count) {
    if (r->failed) return PBPNG_FAILED;
    if (count > r->height - r->rows_read) return fail(r, "more rows asked for than the image has");
    for (uint32_t n = 0; n < count; n++) {
        /* The filter byte goes into the zero before the row, then the zero is put back. */
        uint8_t *slot = r->current - 1;
        if (inflate_into(r, slot, 1) != PBPNG_OK) return PBPNG_FAILED;
        uint8_t filter = *slot;
        *slot = 0;
        if (filter > 4) return fail(r, "bad adaptive filter value");
        if (inflate_into(r, r->current, r->row_bytes) != PBPNG_OK) return PBPNG_FAILED;
        unfilter(filter, r->current, r->previous, r->row_bytes, r->channels);
        uint8_t *out = first_row + (size_t)n * row_stride;
        if (r->channels == 3) memcpy(out, r->current, r->row_bytes);
        else composite_over_white(r->current, out, r->width);
        uint8_t *done = r->current;
        r->current = r->previous;
        r->previous = done;
        r->rows_read++;
    }
    return PBPNG_OK;
}

pbpng_status pbpng_rows_finish(pbpng_rows *r) {
    if (r->failed) return PBPNG_FAILED;
    if (r->rows_read != r->height) return fail(r, "the image was not read to its end");
    /* The compressed data must end (its Adler-32 read) before the IDAT chunks do, as libpng requires; more
     * data after the image, or damage in the checksum, libpng only warns about: so do we, by ignoring it. */
    uint8_t scratch[4096];
    while (!r->stream_ended) {
        if (r->zs.avail_in == 0 && next_idat(r) != PBPNG_OK) return PBPNG_FAILED;
        r->zs.next_out = scratch;
        r->zs.avail_out = sizeof scratch;
        int status = inflate(&r->zs, Z_NO_FLUSH);
        if (status == Z_STREAM_END) r->stream_ended = 1;
        else if (status == Z_BUF_ERROR && r->zs.avail_in == 0) continue;
        else if (status != Z_OK) break;
    }
    /* Then every chunk up to IEND must be whole; critical ones must have their CRC (5.3). */
    size_t at = r->next_chunk;
    for (;;) {
        uint32_t length;
        const uint8_t *type;
        if (chunk_at(r, at, &length, &type) != PBPNG_OK) return PBPNG_FAILED;
        int critical = (type[0] & 0x20) == 0;
        if (critical && !crc_matches(type, length)) return fail(r, "%.4s: CRC error", (const char *)type);
        if (memcmp(type, "IEND", 4) == 0) return PBPNG_OK;
        /* libpng only warns about a PLTE after the image data (a benign error), and so it is skipped here. */
        if (critical && memcmp(type, "IDAT", 4) != 0 && memcmp(type, "PLTE", 4) != 0)
            return fail(r, "%.4s: out of place", (const char *)type);
        at += 12 + (size_t)length;
    }
}
