#ifndef PHOTOBOOK_JPEG_SHIM_H
#define PHOTOBOOK_JPEG_SHIM_H

/*
 * The C side of the JPEG module: every libjpeg call runs inside one of these functions, which owns its own
 * setjmp (the error frame, frame.h), so a libjpeg error never longjmps across a Swift frame. Each entry point
 * returns a pb_jpeg_status; on failure the handle keeps the formatted libjpeg message and the libjpeg message code.
 * After any failure a handle is spent: every later call returns the same status, only destroy is useful.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    PB_JPEG_OK = 0,
    PB_JPEG_ERROR = 1,           /* libjpeg error_exit: corrupt or unreadable data (see code and message) */
    PB_JPEG_WARNING = 2,         /* a libjpeg warning, made fatal: corrupt or truncated data */
    PB_JPEG_CANCELLED = 3,       /* the should_cancel callback asked to stop */
    PB_JPEG_TOO_MANY_SCANS = 4,  /* a progressive file with more scans than the limit */
    PB_JPEG_UNSUPPORTED = 5,     /* 12-bit, lossless, hierarchical or an unusual component layout */
    PB_JPEG_OUT_OF_MEMORY = 6,
    PB_JPEG_MISUSE = 7           /* called in the wrong order or with bad arguments */
} pb_jpeg_status;

/* Reasons for PB_JPEG_UNSUPPORTED (pb_jpeg_unsupported_reason). */
typedef enum {
    PB_JPEG_UNSUPPORTED_NONE = 0,
    PB_JPEG_UNSUPPORTED_PRECISION = 1,     /* detail: the data precision in bits */
    PB_JPEG_UNSUPPORTED_LOSSLESS = 2,      /* detail: the SOF marker */
    PB_JPEG_UNSUPPORTED_HIERARCHICAL = 3,  /* detail: the SOF marker */
    PB_JPEG_UNSUPPORTED_PROCESS = 4,       /* detail: the SOF marker */
    PB_JPEG_UNSUPPORTED_COLOR = 5          /* detail: the number of components */
} pb_jpeg_unsupported_reason;

/* Kinds of PB_JPEG_ERROR and PB_JPEG_WARNING we name (pb_jpeg_failure.reason). */
enum {
    PB_JPEG_CORRUPT_OTHER = 0,
    PB_JPEG_CORRUPT_TRUNCATED = 1,    /* the data ended early ("Premature end of JPEG file") */
    PB_JPEG_CORRUPT_EMPTY_IMAGE = 2   /* a zero width or height in the frame header */
};

/* Colour spaces, as libjpeg's J_COLOR_SPACE values for the ones we name. */
enum {
    PB_JPEG_CS_UNKNOWN = 0, PB_JPEG_CS_GRAYSCALE = 1, PB_JPEG_CS_RGB = 2, PB_JPEG_CS_YCBCR = 3,
    PB_JPEG_CS_CMYK = 4, PB_JPEG_CS_YCCK = 5
};

/* Returns nonzero to ask the running libjpeg call to stop; called from C between units of work. */
typedef int (*pb_jpeg_cancel_fn)(void *context);

/* Where a handle's libjpeg gets its large blocks (jpeg_get_large, large_blocks.c) of `minimum` bytes or more:
 * `take` returns one of at least `size` bytes, 8-byte aligned; `give` takes one back and returns 1, or returns 0
 * for a block `take` never handed out (a smaller one, malloc's: then it is freed). Both are called with `context`,
 * on the thread that is running the handle. A handle keeps the copy it was created with for its life, so that every
 * block goes back where it came from; one created with NULL uses malloc and free. */
typedef struct pb_large_blocks {
    size_t minimum;
    void *(*take)(void *context, size_t size);
    int (*give)(void *context, void *block);
    void *context;
} pb_large_blocks;

typedef struct pb_jpeg_failure {
    int status;        /* pb_jpeg_status */
    int code;          /* libjpeg msg_code of the error or warning, -1 if none */
    int reason;        /* pb_jpeg_unsupported_reason, or PB_JPEG_CORRUPT_* for errors and warnings */
    int detail;        /* see pb_jpeg_unsupported_reason */
    long warnings;     /* warnings seen so far */
    char message[200]; /* the libjpeg text (format_message) of the error or first warning, or our own */
} pb_jpeg_failure;

/* What a JPEG's header says (jpeg_read_header), for the decoder and the transcoder alike (header.c). */
typedef struct pb_jpeg_header {
    int width, height, components;
    int color_space;       /* PB_JPEG_CS_*, what libjpeg infers from the markers */
    int precision;
    int progressive;
    int arithmetic;
    int saw_adobe_marker;
    int adobe_transform;
    int saw_jfif_marker;
    int restart_interval;  /* in MCUs, 0 when the file has no restart markers */
    int max_h, max_v;      /* the largest sampling factors */
    int h[4], v[4];        /* each component's sampling factors (the first `components` entries) */
    int imcu_width, imcu_height;  /* one iMCU in pixels, unscaled: the grid a lossless crop starts on */
    const uint8_t *exif;   /* TIFF bytes inside the first APP1 "Exif\0\0", or NULL; valid until destroy */
    size_t exif_length;
} pb_jpeg_header;

/* ---- decoding (decoder.c) ---- */

typedef struct pb_jpeg_decoder pb_jpeg_decoder;

/* A new decoder, or NULL when out of memory. max_scans limits progressive scans (0: no limit); blocks, when not
 * NULL, is where its large blocks come from (pb_large_blocks). */
pb_jpeg_decoder *pb_jpeg_decoder_create(int max_scans, pb_jpeg_cancel_fn should_cancel, void *cancel_context,
                                        const pb_large_blocks *blocks);
void pb_jpeg_decoder_destroy(pb_jpeg_decoder *decoder);

/* Reads the markers up to the first scan (jpeg_read_header). data must stay valid until destroy.
 * save_metadata keeps APP1 and APP2 segments (jpeg_save_markers) so header->exif and
 * pb_jpeg_decoder_icc_chunk can point into them. */
int pb_jpeg_decoder_read_header(pb_jpeg_decoder *decoder, const uint8_t *data, size_t length, int save_metadata,
                                pb_jpeg_header *header);

/* The index-th (from 0, in file order) APP2 segment that starts with "ICC_PROFILE\0", that id removed: the
 * sequence number, the chunk count, then the profile's bytes. Returns 1 and sets *data, *length (valid until
 * destroy) when there is one; 0 when there is not, or before read_header (with save_metadata). */
int pb_jpeg_decoder_icc_chunk(pb_jpeg_decoder *decoder, int index, const uint8_t **data, size_t *length);

/* Starts decompression at scale scale_num/8 (1...16), to RGB (3 components) or, for CMYK and YCCK files,
 * to CMYK (4 components, as stored: Adobe files are inverted). Reports the output size. */
int pb_jpeg_decoder_start(pb_jpeg_decoder *decoder, int scale_num, int *output_width, int *output_height,
                          int *output_components);

/* Reads up to max_rows scanlines into buffer (row stride bytes apart); *rows_read says how many. */
int pb_jpeg_decoder_read_rows(pb_jpeg_decoder *decoder, uint8_t *buffer, size_t stride, int max_rows,
                              int *rows_read);

/* Reads to the end of the image (jpeg_finish_decompress); warnings seen there fail too. */
int pb_jpeg_decoder_finish(pb_jpeg_decoder *decoder);

/* ---- partial decoding (after start) ---- */

/* Decoder settings that trade quality for speed; call before start. The defaults (from jpeg_read_header) are
 * the accurate integer IDCT and smooth ("fancy") chroma upsampling. */
int pb_jpeg_decoder_set_speed(pb_jpeg_decoder *decoder, int fast_idct, int fancy_upsampling);

/* The size of one iMCU in output pixels, at the scale given to start: columns can only be cropped, and rows
 * only be skipped cheaply, in these units. */
int pb_jpeg_decoder_imcu_size(pb_jpeg_decoder *decoder, int *width, int *height);

/* Limits every later row to the columns [*x_offset, *x_offset + *width) of the scaled output
 * (jpeg_crop_scanline). Only before any row is read or skipped. libjpeg moves *x_offset left to an iMCU
 * boundary and widens *width to keep the right edge; rows are then *width pixels wide. */
int pb_jpeg_decoder_crop_columns(pb_jpeg_decoder *decoder, int *x_offset, int *width);

/* Skips up to count rows without colour-converting them (jpeg_skip_scanlines); *rows_skipped says how many.
 * Trap: a skip that reaches the last row marks the image as read without reading the rest of the data, so a
 * truncated or corrupt tail goes unnoticed; to have it checked, stop short of the last iMCU row and read that. */
int pb_jpeg_decoder_skip_rows(pb_jpeg_decoder *decoder, int count, int *rows_skipped);

/* The next output row to be read or skipped (cinfo->output_scanline). */
int pb_jpeg_decoder_next_row(const pb_jpeg_decoder *decoder);

const pb_jpeg_failure *pb_jpeg_decoder_failure(const pb_jpeg_decoder *decoder);

/* ---- encoding (encoder.c) ---- */

typedef struct pb_jpeg_encoder_options {
    int width, height;
    int input_components;  /* 3 (RGB) or 4 (CMYK as given, written with an Adobe marker) */
    int grayscale;         /* with 3 input components: write one luminance component */
    int ycck;              /* with 4 input components: write YCCK instead of plain CMYK */
    int quality;           /* 1...100 */
    int progressive;
    int arithmetic;
    int optimize_coding;   /* ignored with arithmetic coding */
    int chroma_h, chroma_v;/* luma sampling factors relative to chroma: 1x1 = 4:4:4, 2x1 = 4:2:2, 2x2 = 4:2:0 */
    int dots_per_inch;     /* JFIF density, 0 to leave it unspecified */
} pb_jpeg_encoder_options;

typedef struct pb_jpeg_encoder pb_jpeg_encoder;

/* blocks as for the decoder. */
pb_jpeg_encoder *pb_jpeg_encoder_create(pb_jpeg_cancel_fn should_cancel, void *cancel_context,
                                        const pb_large_blocks *blocks);
/* Frees the encoder and its output buffer. */
void pb_jpeg_encoder_destroy(pb_jpeg_encoder *encoder);

int pb_jpeg_encoder_start(pb_jpeg_encoder *encoder, const pb_jpeg_encoder_options *options);
/* Compresses rows (stride bytes apart, input_components bytes per pixel). */
int pb_jpeg_encoder_write_rows(pb_jpeg_encoder *encoder, const uint8_t *rows, size_t stride, int row_count);
/* Finishes the file; *output points into the encoder's buffer, valid until destroy. */
int pb_jpeg_encoder_finish(pb_jpeg_encoder *encoder, const uint8_t **output, size_t *output_length);

const pb_jpeg_failure *pb_jpeg_encoder_failure(const pb_jpeg_encoder *encoder);


/* ---- lossless transcoding, the DCT coefficients and never pixels (transcoder.c) ---- */

/* One component's quantised coefficients, as libjpeg keeps them after jpeg_read_coefficients. */
typedef struct pb_jpeg_component_blocks {
    int h, v;                                /* sampling factors */
    int width_in_blocks, height_in_blocks;   /* the blocks that hold image pixels */
    int stored_width, stored_height;         /* the blocks kept: whole iMCUs, so the edge's padding too */
    uint16_t quantization[64];               /* the table used, in natural (row-major) order */
} pb_jpeg_component_blocks;

typedef struct pb_jpeg_transcoder pb_jpeg_transcoder;

/* A new transcoder (a decompress and a compress struct sharing one error manager and one blocks), or NULL when
 * out of memory. max_scans and blocks as for the decoder; should_cancel is polled while reading and writing. */
pb_jpeg_transcoder *pb_jpeg_transcoder_create(int max_scans, pb_jpeg_cancel_fn should_cancel, void *cancel_context,
                                              const pb_large_blocks *blocks);
/* Frees both structs and the output buffer. */
void pb_jpeg_transcoder_destroy(pb_jpeg_transcoder *transcoder);

/* jpeg_read_header over data, which must stay valid until destroy; the header's sampling factors and iMCU say
 * whether the coefficients can be copied. No APP segment is kept (header->exif is NULL). */
int pb_jpeg_transcoder_read_header(pb_jpeg_transcoder *transcoder, const uint8_t *data, size_t length,
                                   pb_jpeg_header *header);

/* jpeg_read_coefficients: entropy-decodes every scan (any warning fails, as when decoding). Called by run when
 * needed; on its own, for reading coefficients with pb_jpeg_transcoder_component. */
int pb_jpeg_transcoder_read_coefficients(pb_jpeg_transcoder *transcoder);

/* Describes component index (after read_coefficients) and, when blocks is not NULL, copies its stored blocks
 * (stored_width * stored_height blocks of 64 coefficients each, row by row, natural order inside a block). */
int pb_jpeg_transcoder_component(pb_jpeg_transcoder *transcoder, int index, pb_jpeg_component_blocks *info,
                                 int16_t *blocks);

/* After read_coefficients: the quantised DC coefficient of each of component index's real blocks
 * (width_in_blocks * height_in_blocks of them, row by row) into terms, which holds count. */
int pb_jpeg_transcoder_dc_terms(pb_jpeg_transcoder *transcoder, int index, int16_t *terms, size_t count);

/* Writes a new JPEG of the source's blocks under the stored region (x, y, width, height), turned as EXIF
 * orientation 1...8 says (blocks moved, transposed and sign-flipped, as jpegtran does), with the source's
 * quantisation tables (transposed with the blocks for 5-8): no decode, no requantisation. x and y lie on the
 * iMCU grid; the region ends on the grid, at the image's right or bottom edge, or at the end of the last iMCU
 * (the padding the file holds beyond the edge). A region edge that the turn moves to the left or top of the
 * output must end on the grid. The output is baseline, Huffman-coded, without restart markers or APP segments
 * other than JFIF. *output points into the transcoder's buffer, valid until destroy. */
int pb_jpeg_transcoder_run(pb_jpeg_transcoder *transcoder, int x, int y, int width, int height, int orientation,
                           int optimize_coding, const uint8_t **output, size_t *output_length);

const pb_jpeg_failure *pb_jpeg_transcoder_failure(const pb_jpeg_transcoder *transcoder);

#ifdef __cplusplus
}
#endif

#endif
