/* libpng 1.6 low-level reading for photobook. See include/png_shim.h for the contract.
 *
 * Colour: samples are decoded as stored. gAMA, cHRM and sRGB are not applied (no png_set_gamma), which matches
 * what most viewers show. libpng skips iCCP: the probe inflates it (pbpng_inflate) and the PDF carries it as the
 * image's colour space, so the stored samples stay what the profile describes.
 */
#include "png_shim.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <zlib.h>

enum stage { STAGE_NEW, STAGE_HEADER, STAGE_ROWS, STAGE_DONE, STAGE_FAILED };

struct pbpng_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *bytes;
    size_t count;
    size_t offset;
    enum stage stage;
    uint64_t rows_left; /* passes * height once decoding has started */
    unsigned warnings;
    int data_ended;            /* the last failure was the bytes running out (see pbpng_data_ended) */
    size_t allocation_limit;   /* the most one libpng allocation may take now; 0: no limit */
    size_t largest_allocation; /* the largest one libpng has been given */
    char message[256];
    char last_warning[256];
};

/* Trap: libpng's error for an IHDR that breaks a rule is the bare "Invalid IHDR data"; the rule it broke
 * ("Invalid bit depth in IHDR") was sent a moment before as a warning, so the error message takes it from
 * there: "IHDR: Invalid bit depth". */
static const char invalid_ihdr[] = "Invalid IHDR data";

static void copy_text(char *to, size_t size, const char *from) {
    snprintf(to, size, "%s", from ? from : "");
}

static PNG_NORETURN void on_error(png_structp png, png_const_charp text) {
    pbpng_decoder *d = png_get_error_ptr(png);
    size_t warning_length = strlen(d->last_warning);
    static const char suffix[] = " in IHDR";
    if (text && strcmp(text, invalid_ihdr) == 0 && warning_length > sizeof suffix - 1 &&
        strcmp(d->last_warning + warning_length - (sizeof suffix - 1), suffix) == 0)
        snprintf(d->message, sizeof d->message, "IHDR: %.*s", (int)(warning_length - (sizeof suffix - 1)),
                 d->last_warning);
    else
        copy_text(d->message, sizeof d->message, text);
    if (d->message[0] == '\0')
        copy_text(d->message, sizeof d->message, "unknown libpng error");
    /* The custom error function must not return: libpng would fall back to its default handler, which
     * prints to stderr and then longjmps anyway (or aborts). */
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    pbpng_decoder *d = png_get_error_ptr(png);
    d->warnings++;
    copy_text(d->last_warning, sizeof d->last_warning, text);
}

static void read_from_memory(png_structp png, png_bytep out, size_t length) {
    pbpng_decoder *d = png_get_io_ptr(png);
    if (length > d->count - d->offset) {
        d->data_ended = 1;
        png_error(png, "truncated: the file ends before the PNG does");
    }
    memcpy(out, d->bytes + d->offset, length);
    d->offset += length;
}

/* The largest eXIf we keep. EXIF is born in JPEG, where it must fit one 64 KiB APP1 segment. */
#define MAX_EXIF_BYTES (1u << 20)

static uint32_t big_endian_32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Trap: libpng 1.6.39 allocates an eXIf chunk's full declared length without consulting
 * png_set_chunk_malloc_max (other ancillary chunks do). So look ahead in the bytes: if an eXIf before
 * the first IDAT is over our limit, have libpng skip eXIf chunks entirely (the CRC is still checked). */
static void skip_oversized_exif(pbpng_decoder *d) {
    size_t at = 8;
    while (d->count - at >= 8) {
        uint32_t length = big_endian_32(d->bytes + at);
        const uint8_t *type = d->bytes + at + 4;
        if (memcmp(type, "IDAT", 4) == 0 || memcmp(type, "IEND", 4) == 0)
            return;
        if (memcmp(type, "eXIf", 4) == 0 && length > MAX_EXIF_BYTES) {
            static const png_byte exif[] = "eXIf";
            png_set_keep_unknown_chunks(d->png, PNG_HANDLE_CHUNK_NEVER, exif, 1);
            d->warnings++;
            copy_text(d->last_warning, sizeof d->last_warning, "eXIf: chunk data is too large");
            return;
        }
        if ((uint64_t)length + 12 > d->count - at)
            return; /* libpng will report the truncation */
        at += (size_t)length + 12;
    }
}

/* The most libpng allocates for one chunk's data (png_set_chunk_malloc_max). */
#define MAX_CHUNK_BYTES (8u << 20)

/* Trap: libpng 1.6.39 only warns ("chunk data is too large") when a chunk's declared length is over
 * png_set_chunk_malloc_max, then allocates the declared length anyway (pCAL, sCAL, eXIf, unknown chunks):
 * 12 bytes of header claiming 2 GiB made it malloc 2 GiB before finding out the file holds no such data.
 * So every allocation goes through here, and outside start_decode (where the row buffers, sized from the
 * already checked header, are made) none may exceed a chunk's worth. A refused chunk buffer is a benign
 * "out of memory" for libpng: it skips the chunk, and reading past the end of the data fails as truncated. */
static png_voidp bounded_malloc(png_structp png, png_alloc_size_t size) {
    pbpng_decoder *d = png_get_mem_ptr(png);
    if (d->allocation_limit != 0 && size > d->allocation_limit)
        return NULL;
    if (size > d->largest_allocation)
        d->largest_allocation = size;
    return malloc(size);
}

static void bounded_free(png_structp png, png_voidp pointer) {
    (void)png;
    free(pointer);
}

/* A refusal that did not come from libpng (calls out of order, unexpected output format). */
static pbpng_status fail(pbpng_decoder *d, const char *why) {
    copy_text(d->message, sizeof d->message, why);
    d->stage = STAGE_FAILED;
    return PBPNG_FAILED;
}

pbpng_decoder *pbpng_decoder_create(const uint8_t *bytes, size_t count) {
    pbpng_decoder *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->bytes = bytes;
    d->count = bytes ? count : 0;
    d->allocation_limit = MAX_CHUNK_BYTES + 1;  /* png_read_buffer asks for one byte more than the chunk */
    d->png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, d, on_error, on_warning, d, bounded_malloc,
                                      bounded_free);
    if (d->png)
        d->info = png_create_info_struct(d->png);
    if (!d->png || !d->info) {
        pbpng_decoder_destroy(d);
        return NULL;
    }
    png_set_read_fn(d->png, d, read_from_memory);

    /* Limits against hostile files. libpng's width/height limit is per dimension (default 1,000,000) and
     * exceeding it gives a vague "Invalid IHDR data"; photobook's real bound is the caller's pixel-area
     * limit, checked before start_decode, which is where libpng allocates row buffers. So let libpng
     * accept what the PNG spec accepts, and report honest sizes from read_header. */
    png_set_user_limits(d->png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    /* The most libpng allocates for one chunk (eXIf included). An ancillary chunk over it is dropped with
     * a warning ("chunk data is too large"), not an error, so a huge EXIF block costs the EXIF only. */
    png_set_chunk_malloc_max(d->png, MAX_CHUNK_BYTES);
    /* How many unknown, text and sPLT chunks libpng will store; we store none, this caps a flood. */
    png_set_chunk_cache_max(d->png, 128);
    /* Never parse or decompress what we do not use: text chunks (zTXt/iTXt are compressed), colour
     * profiles and suggested palettes. Skipped chunks still have their CRC checked. */
    static const png_byte skipped[] = "tEXt\0zTXt\0iTXt\0iCCP\0sPLT";
    png_set_keep_unknown_chunks(d->png, PNG_HANDLE_CHUNK_NEVER, skipped, 5);
    return d;
}

void pbpng_decoder_destroy(pbpng_decoder *d) {
    if (!d)
        return;
    if (d->png)
        png_destroy_read_struct(&d->png, d->info ? &d->info : NULL, NULL);
    free(d);
}

pbpng_status pbpng_read_header(pbpng_decoder *d, pbpng_header *header) {
    if (d->stage == STAGE_FAILED)
        return PBPNG_FAILED;
    if (d->stage != STAGE_NEW)
        return fail(d, "internal: read_header called twice");
    memset(header, 0, sizeof *header);

    size_t have = d->count < 8 ? d->count : 8;
    if (have == 0 || png_sig_cmp(d->bytes, 0, have) != 0) {
        copy_text(d->message, sizeof d->message, "not a PNG file");
        d->stage = STAGE_FAILED;
        return PBPNG_NOT_PNG;
    }
    if (have < 8) {
        d->data_ended = 1;
        return fail(d, "truncated: the data ends inside the PNG signature");
    }
    d->offset = 8;
    png_set_sig_bytes(d->png, 8);
    skip_oversized_exif(d);

    if (setjmp(png_jmpbuf(d->png))) {
        d->stage = STAGE_FAILED;
        return PBPNG_FAILED;
    }
    png_read_info(d->png, d->info);

    header->width = png_get_image_width(d->png, d->info);
    header->height = png_get_image_height(d->png, d->info);
    header->bit_depth = png_get_bit_depth(d->png, d->info);
    header->color_type = png_get_color_type(d->png, d->info);
    header->interlaced = png_get_interlace_type(d->png, d->info) != PNG_INTERLACE_NONE;
    png_uint_32 exif_length = 0;
    png_bytep exif = NULL;
    /* png_read_info stops at the first IDAT, so this is an eXIf before the image data, or none. */
    if (png_get_eXIf_1(d->png, d->info, &exif_length, &exif) && exif && exif_length > 0) {
        header->exif = exif;
        header->exif_length = exif_length;
    }
    d->stage = STAGE_HEADER;
    return PBPNG_OK;
}

pbpng_status pbpng_start_decode(pbpng_decoder *d, int *passes) {
    if (d->stage == STAGE_FAILED)
        return PBPNG_FAILED;
    if (d->stage != STAGE_HEADER)
        return fail(d, "internal: start_decode called before read_header or twice");

    if (setjmp(png_jmpbuf(d->png))) {
        d->allocation_limit = MAX_CHUNK_BYTES + 1;
        d->stage = STAGE_FAILED;
        return PBPNG_FAILED;
    }
    png_structp png = d->png;
    png_infop info = d->info;
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    /* Trap: a tRNS chunk that libpng judged invalid (e.g. in an image with an alpha channel) was
     * discarded with a warning; png_get_valid then says no, which is what we want. */
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;

    /* libpng applies these in its own fixed order whatever the order of the calls: expansion (palette,
     * low-bit grey, tRNS) first, at the original depth, then 16->8, then grey->RGB, then the filler. */
    if (color_type == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns)
        png_set_tRNS_to_alpha(png);
    if (bit_depth == 16)
        png_set_scale_16(png); /* round(v * 255 / 65535); png_set_strip_16 would truncate instead */
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0)
        png_set_gray_to_rgb(png);
    /* Opaque images get an alpha byte of 255; add_alpha rather than set_filler so that libpng reports
     * the output as RGBA. */
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns)
        png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    /* Must come before png_read_update_info, or libpng returns the raw passes' rows. */
    int pass_count = png_set_interlace_handling(png);
    /* Row buffers: the caller has checked the image's size against its pixel limit before calling. */
    d->allocation_limit = 0;
    png_read_update_info(png, info);
    d->allocation_limit = MAX_CHUNK_BYTES + 1;

    png_uint_32 width = png_get_image_width(png, info);
    if (png_get_bit_depth(png, info) != 8 || png_get_channels(png, info) != 4 ||
        png_get_rowbytes(png, info) != (size_t)width * 4)
        return fail(d, "internal: libpng did not produce 8-bit RGBA rows");

    *passes = pass_count;
    d->rows_left = (uint64_t)pass_count * png_get_image_height(png, info);
    d->stage = STAGE_ROWS;
    return PBPNG_OK;
}

pbpng_status pbpng_read_rows(pbpng_decoder *d, uint8_t *first_row, size_t row_stride, uint32_t count) {
    if (d->stage == STAGE_FAILED)
        return PBPNG_FAILED;
    if (d->stage != STAGE_ROWS)
        return fail(d, "internal: read_rows called outside decoding");
    if (count > d->rows_left)
        return fail(d, "internal: read_rows asked for more rows than the image has");

    if (setjmp(png_jmpbuf(d->png))) {
        d->stage = STAGE_FAILED;
        return PBPNG_FAILED;
    }
    for (uint32_t i = 0; i < count; i++) {
        /* Trap: for Adam7, rows in the "sparkle" mode (display row NULL) only get this pass's pixels;
         * the rest of the row must still hold the earlier passes' pixels, so the caller keeps one full
         * image buffer across passes. */
        png_read_row(d->png, first_row + (size_t)i * row_stride, NULL);
        d->rows_left--;
    }
    return PBPNG_OK;
}

pbpng_status pbpng_finish(pbpng_decoder *d) {
    if (d->stage == STAGE_FAILED)
        return PBPNG_FAILED;
    if (d->stage != STAGE_ROWS || d->rows_left != 0)
        return fail(d, "internal: finish called before every row was read");

    if (setjmp(png_jmpbuf(d->png))) {
        d->stage = STAGE_FAILED;
        return PBPNG_FAILED;
    }
    /* Trap: the last row can be decoded before the end of the file is seen; without this a file cut
     * after its image data (no IEND) or with a damaged last IDAT CRC would pass. */
    png_read_end(d->png, d->info);
    d->stage = STAGE_DONE;
    return PBPNG_OK;
}

const char *pbpng_message(const pbpng_decoder *d) { return d->message; }

int pbpng_data_ended(const pbpng_decoder *d) { return d->data_ended; }

unsigned pbpng_warning_count(const pbpng_decoder *d) { return d->warnings; }

size_t pbpng_largest_allocation(const pbpng_decoder *d) { return d->largest_allocation; }

const char *pbpng_last_warning(const pbpng_decoder *d) { return d->last_warning; }

int pbpng_inflate(const uint8_t *data, size_t count, size_t limit, uint8_t **out, size_t *length) {
    *out = NULL;
    *length = 0;
    if (count > UINT_MAX)
        return 2;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK)
        return 3;
    size_t capacity = 0, filled = 0;
    uint8_t *buffer = NULL;
    stream.next_in = (Bytef *)data;
    stream.avail_in = (uInt)count;
    int status = Z_OK;
    while (status == Z_OK) {
        if (filled == capacity) {
            if (capacity > limit) {  /* one byte past the limit was produced: too large */
                status = Z_BUF_ERROR;
                break;
            }
            size_t grown = capacity == 0 ? 16384 : capacity * 2;
            if (grown > limit + 1)
                grown = limit + 1;
            uint8_t *bigger = realloc(buffer, grown);
            if (bigger == NULL) {
                inflateEnd(&stream);
                free(buffer);
                return 3;
            }
            buffer = bigger;
            capacity = grown;
        }
        stream.next_out = buffer + filled;
        stream.avail_out = (uInt)(capacity - filled);
        status = inflate(&stream, Z_NO_FLUSH);
        filled = capacity - stream.avail_out;
        if (status == Z_BUF_ERROR && stream.avail_in == 0)
            break;  /* the data ended before the stream did */
    }
    inflateEnd(&stream);
    if (status == Z_STREAM_END && filled <= limit) {
        *out = buffer;
        *length = filled;
        return 0;
    }
    free(buffer);
    return filled > limit ? 1 : 2;
}

void pbpng_free(void *pointer) { free(pointer); }
