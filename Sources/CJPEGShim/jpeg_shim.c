/*
 * libjpeg behind setjmp: see include/jpeg_shim.h for the contract.
 *
 * Every exported function that calls into libjpeg sets its own jmp_buf and points the error manager at it
 * for the duration of the call, so error_exit (and the progress monitor, and a warning) longjmp only into a
 * C frame of this file. The Swift cancel callback returns before any longjmp happens.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "jpeg_shim.h"

/* ---- errors shared by both directions ---- */

typedef struct pb_error_manager {
    struct jpeg_error_mgr pub;   /* first: libjpeg hands us &pub as cinfo->err */
    jmp_buf *jump;               /* the jmp_buf of the exported function running now, or NULL */
    int warnings_fatal;
    pb_jpeg_failure failure;
} pb_error_manager;

static void record_unsupported(pb_jpeg_failure *failure, int reason, int detail) {
    failure->status = PB_JPEG_UNSUPPORTED;
    failure->reason = reason;
    failure->detail = detail;
}

static void classify_error(j_common_ptr cinfo, pb_jpeg_failure *failure) {
    struct jpeg_error_mgr *err = cinfo->err;
    int parameter = err->msg_parm.i[0];
    failure->status = PB_JPEG_ERROR;
    switch (err->msg_code) {
    case JERR_BAD_PRECISION:
        /* Trap: 12-bit data is only refused at the first SOS (still inside jpeg_read_header), as a bare error. */
        record_unsupported(failure, PB_JPEG_UNSUPPORTED_PRECISION, parameter);
        break;
    case JERR_SOF_UNSUPPORTED:
        /* Trap: 2.1.5 reports lossless (SOF3/7/11/15) and hierarchical (SOF5/6/13/14) alike: only the marker tells. */
        switch (parameter) {
        case 0xC3: case 0xC7: case 0xCB: case 0xCF:
            record_unsupported(failure, PB_JPEG_UNSUPPORTED_LOSSLESS, parameter); break;
        case 0xC5: case 0xC6: case 0xCD: case 0xCE:
            record_unsupported(failure, PB_JPEG_UNSUPPORTED_HIERARCHICAL, parameter); break;
        default:
            record_unsupported(failure, PB_JPEG_UNSUPPORTED_PROCESS, parameter); break;
        }
        break;
    case JERR_NOT_COMPILED:
    case JERR_ARITH_NOTIMPL:
        record_unsupported(failure, PB_JPEG_UNSUPPORTED_PROCESS, 0);
        break;
    case JERR_OUT_OF_MEMORY:
        failure->status = PB_JPEG_OUT_OF_MEMORY;
        break;
    case JERR_EMPTY_IMAGE:
        failure->reason = PB_JPEG_CORRUPT_EMPTY_IMAGE;
        break;
    default:
        break;
    }
}

static void shim_error_exit(j_common_ptr cinfo) {
    pb_error_manager *manager = (pb_error_manager *)cinfo->err;
    if (manager->failure.status == PB_JPEG_OK) {
        manager->failure.code = cinfo->err->msg_code;
        (*cinfo->err->format_message)(cinfo, manager->failure.message);
        classify_error(cinfo, &manager->failure);
    }
    if (manager->jump != NULL)
        longjmp(*manager->jump, 1);
    /* Only reachable through a libjpeg call made outside an exported function: a bug in this file. */
    abort();
}

/* Warnings that leave every pixel intact: real camera files carry them, and refusing those photos would be wrong.
 * Stray bytes before the end-of-image marker come after the last scan (some phones pad their files). */
static int is_harmless_warning(j_common_ptr cinfo) {
    switch (cinfo->err->msg_code) {
    case JWRN_JFIF_MAJOR:
    case JWRN_BOGUS_ICC:
    case JWRN_ADOBE_XFORM:
        return 1;
    case JWRN_EXTRANEOUS_DATA:
        return cinfo->err->msg_parm.i[1] == 0xD9;
    default:
        return 0;
    }
}

static void shim_emit_message(j_common_ptr cinfo, int msg_level) {
    pb_error_manager *manager = (pb_error_manager *)cinfo->err;
    if (msg_level >= 0)
        return;  /* trace messages */
    if (is_harmless_warning(cinfo))
        return;
    cinfo->err->num_warnings++;
    manager->failure.warnings = cinfo->err->num_warnings;
    if (cinfo->err->num_warnings == 1 && manager->failure.status == PB_JPEG_OK) {
        manager->failure.code = cinfo->err->msg_code;
        (*cinfo->err->format_message)(cinfo, manager->failure.message);
    }
    /* Trap: libjpeg only warns on corrupt or truncated data and goes on to fill the rest with grey; we stop. */
    if (manager->warnings_fatal && manager->jump != NULL) {
        manager->failure.status = PB_JPEG_WARNING;
        if (cinfo->err->msg_code == JWRN_JPEG_EOF)
            manager->failure.reason = PB_JPEG_CORRUPT_TRUNCATED;
        longjmp(*manager->jump, 1);
    }
}

static void shim_output_message(j_common_ptr cinfo) {
    (void)cinfo;  /* Trap: the default output_message writes to stderr, and error_exit then calls exit() */
}

static void init_error_manager(pb_error_manager *manager) {
    memset(manager, 0, sizeof *manager);
    jpeg_std_error(&manager->pub);
    manager->pub.error_exit = shim_error_exit;
    manager->pub.emit_message = shim_emit_message;
    manager->pub.output_message = shim_output_message;
    manager->warnings_fatal = 1;
    manager->failure.code = -1;
}

/* Fails the running call with our own status and message; only from inside a libjpeg callback. */
static void fail_now(pb_error_manager *manager, int status, const char *message) {
    if (manager->failure.status == PB_JPEG_OK) {
        manager->failure.status = status;
        manager->failure.code = -1;
        snprintf(manager->failure.message, sizeof manager->failure.message, "%s", message);
    }
    if (manager->jump != NULL)
        longjmp(*manager->jump, 1);
    abort();
}

/* ---- decoder ---- */

struct pb_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    pb_error_manager errors;
    struct jpeg_progress_mgr progress;
    int created;
    int max_scans;
    int poll_cancel;       /* ask should_cancel from the progress monitor (inside start and finish) */
    int header_read, started;
    pb_jpeg_cancel_fn should_cancel;
    void *cancel_context;
};

static void decoder_progress(j_common_ptr cinfo) {
    pb_jpeg_decoder *decoder = (pb_jpeg_decoder *)cinfo;  /* the monitor gets no context: cinfo is our first member */
    if (decoder->max_scans > 0 && decoder->cinfo.input_scan_number > decoder->max_scans) {
        char text[80];
        snprintf(text, sizeof text, "too many progressive scans (more than %d)", decoder->max_scans);
        fail_now(&decoder->errors, PB_JPEG_TOO_MANY_SCANS, text);
    }
    if (decoder->poll_cancel && decoder->should_cancel != NULL && decoder->should_cancel(decoder->cancel_context))
        fail_now(&decoder->errors, PB_JPEG_CANCELLED, "cancelled");
}

pb_jpeg_decoder *pb_jpeg_decoder_create(int max_scans, pb_jpeg_cancel_fn should_cancel, void *cancel_context) {
    pb_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL)
        return NULL;
    init_error_manager(&decoder->errors);
    decoder->cinfo.err = &decoder->errors.pub;
    decoder->max_scans = max_scans;
    decoder->should_cancel = should_cancel;
    decoder->cancel_context = cancel_context;
    jmp_buf jump;
    decoder->errors.jump = &jump;
    if (setjmp(jump)) {
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = 1;
    decoder->errors.jump = NULL;
    decoder->progress.progress_monitor = decoder_progress;
    decoder->cinfo.progress = &decoder->progress;
    return decoder;
}

void pb_jpeg_decoder_destroy(pb_jpeg_decoder *decoder) {
    if (decoder == NULL)
        return;
    if (decoder->created)
        jpeg_destroy_decompress(&decoder->cinfo);  /* frees every pool, also after an error */
    free(decoder);
}

const pb_jpeg_failure *pb_jpeg_decoder_failure(const pb_jpeg_decoder *decoder) {
    return &decoder->errors.failure;
}

static int decoder_misuse(pb_jpeg_decoder *decoder, const char *message) {
    pb_jpeg_failure *failure = &decoder->errors.failure;
    if (failure->status == PB_JPEG_OK) {
        failure->status = PB_JPEG_MISUSE;
        snprintf(failure->message, sizeof failure->message, "%s", message);
    }
    return failure->status;
}

/* Runs after a longjmp back into an exported decoder function. */
static int decoder_failed(pb_jpeg_decoder *decoder) {
    decoder->errors.jump = NULL;
    decoder->poll_cancel = 0;
    return decoder->errors.failure.status;
}

static int map_color_space(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return PB_JPEG_CS_GRAYSCALE;
    case JCS_RGB: return PB_JPEG_CS_RGB;
    case JCS_YCbCr: return PB_JPEG_CS_YCBCR;
    case JCS_CMYK: return PB_JPEG_CS_CMYK;
    case JCS_YCCK: return PB_JPEG_CS_YCCK;
    default: return PB_JPEG_CS_UNKNOWN;
    }
}

/* One iMCU in pixels: a single-component file is coded one block at a time, whatever its sampling factors. */
static void imcu_size(const struct jpeg_decompress_struct *source, int *width, int *height) {
    if (source->num_components == 1) {
        *width = DCTSIZE;
        *height = DCTSIZE;
    } else {
        *width = DCTSIZE * source->max_h_samp_factor;
        *height = DCTSIZE * source->max_v_samp_factor;
    }
}

/* What the header says, after jpeg_read_header (the decoder and the transcoder alike). */
static void describe_header(const struct jpeg_decompress_struct *cinfo, pb_jpeg_header *header) {
    header->width = (int)cinfo->image_width;
    header->height = (int)cinfo->image_height;
    header->components = cinfo->num_components;
    header->color_space = map_color_space(cinfo->jpeg_color_space);
    header->precision = cinfo->data_precision;
    header->progressive = cinfo->progressive_mode ? 1 : 0;
    header->arithmetic = cinfo->arith_code ? 1 : 0;
    header->saw_adobe_marker = cinfo->saw_Adobe_marker ? 1 : 0;
    header->adobe_transform = cinfo->Adobe_transform;
    header->saw_jfif_marker = cinfo->saw_JFIF_marker ? 1 : 0;
    header->restart_interval = (int)cinfo->restart_interval;
    header->max_h = cinfo->max_h_samp_factor;
    header->max_v = cinfo->max_v_samp_factor;
    for (int ci = 0; ci < cinfo->num_components && ci < 4; ci++) {
        header->h[ci] = cinfo->comp_info[ci].h_samp_factor;
        header->v[ci] = cinfo->comp_info[ci].v_samp_factor;
    }
    imcu_size(cinfo, &header->imcu_width, &header->imcu_height);
    for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length >= 6 &&
            memcmp(marker->data, "Exif\0\0", 6) == 0) {
            header->exif = marker->data + 6;
            header->exif_length = marker->data_length - 6;
            break;
        }
    }
}

int pb_jpeg_decoder_read_header(pb_jpeg_decoder *decoder, const uint8_t *data, size_t length, int save_metadata,
                                pb_jpeg_header *header) {
    if (decoder->errors.failure.status != PB_JPEG_OK)
        return decoder->errors.failure.status;
    if (decoder->header_read || data == NULL || header == NULL)
        return decoder_misuse(decoder, "read_header called twice or without data");
    memset(header, 0, sizeof *header);
    jmp_buf jump;
    decoder->errors.jump = &jump;
    if (setjmp(jump))
        return decoder_failed(decoder);

    jpeg_mem_src(&decoder->cinfo, data, (unsigned long)length);
    if (save_metadata) {
        /* Trap: after read_header it keeps nothing */
        jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 1, 0xFFFF);
        jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 2, 0xFFFF);
    }
    jpeg_read_header(&decoder->cinfo, TRUE);
    decoder->header_read = 1;
    describe_header(&decoder->cinfo, header);
    decoder->errors.jump = NULL;
    return PB_JPEG_OK;
}

int pb_jpeg_decoder_icc_chunk(pb_jpeg_decoder *decoder, int index, const uint8_t **data, size_t *length) {
    static const char id[12] = "ICC_PROFILE";  /* with its NUL: the 12-byte identifier of ICC.1 B.4 */
    if (!decoder->header_read || data == NULL || length == NULL)
        return 0;
    for (jpeg_saved_marker_ptr marker = decoder->cinfo.marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 2 || marker->data_length < sizeof id ||
            memcmp(marker->data, id, sizeof id) != 0)
            continue;
        if (index-- == 0) {
            *data = marker->data + sizeof id;
            *length = marker->data_length - sizeof id;
            return 1;
        }
    }
    return 0;
}

int pb_jpeg_decoder_start(pb_jpeg_decoder *decoder, int scale_num, int *output_width, int *output_height,
                          int *output_components) {
    if (decoder->errors.failure.status != PB_JPEG_OK)
        return decoder->errors.failure.status;
    if (!decoder->header_read || decoder->started || scale_num < 1 || scale_num > 16)
        return decoder_misuse(decoder, "start called out of order or with a scale outside 1...16");
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE: case JCS_YCbCr: case JCS_RGB:
        cinfo->out_color_space = JCS_RGB;
        break;
    case JCS_CMYK: case JCS_YCCK:
        /* Trap: libjpeg turns YCCK into CMYK but refuses CMYK to RGB; that (and the Adobe inversion) is ours. */
        cinfo->out_color_space = JCS_CMYK;
        break;
    default:
        record_unsupported(&decoder->errors.failure, PB_JPEG_UNSUPPORTED_COLOR, cinfo->num_components);
        snprintf(decoder->errors.failure.message, sizeof decoder->errors.failure.message,
                 "%d colour components without a known colour space", cinfo->num_components);
        return PB_JPEG_UNSUPPORTED;
    }
    cinfo->scale_num = (unsigned int)scale_num;
    cinfo->scale_denom = 8;

    jmp_buf jump;
    decoder->errors.jump = &jump;
    if (setjmp(jump))
        return decoder_failed(decoder);
    /* Trap: for progressive (and multi-scan) files jpeg_start_decompress reads every scan; poll cancel there. */
    decoder->poll_cancel = 1;
    jpeg_start_decompress(cinfo);
    decoder->poll_cancel = 0;
    decoder->started = 1;
    *output_width = (int)cinfo->output_width;
    *output_height = (int)cinfo->output_height;
    *output_components = cinfo->output_components;
    decoder->errors.jump = NULL;
    return PB_JPEG_OK;
}

int pb_jpeg_decoder_read_rows(pb_jpeg_decoder *decoder, uint8_t *buffer, size_t stride, int max_rows,
                              int *rows_read) {
    *rows_read = 0;
    if (decoder->errors.failure.status != PB_JPEG_OK)
        return decoder->errors.failure.status;
    if (!decoder->started || buffer == NULL || max_rows < 0)
        return decoder_misuse(decoder, "read_rows called before start or without a buffer");
    jmp_buf jump;
    decoder->errors.jump = &jump;
    if (setjmp(jump))
        return decoder_failed(decoder);
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    int done = 0;
    while (done < max_rows && cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW rows[16];
        int wanted = max_rows - done;
        if (wanted > 16)
            wanted = 16;
        for (int i = 0; i < wanted; i++)
            rows[i] = buffer + (size_t)(done + i) * stride;
        JDIMENSION got = jpeg_read_scanlines(cinfo, rows, (JDIMENSION)wanted);
        if (got == 0)
            fail_now(&decoder->errors, PB_JPEG_ERROR, "no scanlines returned (suspended data source)");
        done += (int)got;
        *rows_read = done;
    }
    decoder->errors.jump = NULL;
    return PB_JPEG_OK;
}

int pb_jpeg_decoder_finish(pb_jpeg_decoder *decoder) {
    if (decoder->errors.failure.status != PB_JPEG_OK)
        return decoder->errors.failure.status;
    if (!decoder->started || decoder->cinfo.output_scanline < decoder->cinfo.output_height)
        return decoder_misuse(decoder, "finish called before every row was read");
    jmp_buf jump;
    decoder->errors.jump = &jump;
    if (setjmp(jump))
        return decoder_failed(decoder);
    decoder->poll_cancel = 1;
    jpeg_finish_decompress(&decoder->cinfo);
    decoder->poll_cancel = 0;
    decoder->errors.jump = NULL;
    return PB_JPEG_OK;
}

/* ---- partial decoding ---- */

int pb_jpeg_decoder_set_speed(pb_jpeg_decoder *decoder, int fast_idct, int fancy_upsampling) {
    if (decoder->errors.failure.status != PB_JPEG_OK)
        return decoder->errors.failure.status;
    if (!decoder->header_read || decoder->started)
        return decoder_misuse(decoder, "set_speed called before read_header or after start");
    decoder->cinfo.dct_method = fast_idct ? JDCT_IFAST : JDCT_ISLOW;
    decoder->cinfo.do_fancy_upsampling = fancy_upsampling ? TRUE : FALSE;
    return PB_JPEG_OK;
}

int pb_jpeg_decoder_imcu_size(pb_jpeg_decoder *decoder, int *width, int *height) {
    if (decoder->errors.failure.status != PB_JPEG_OK)
        return decoder->errors.failure.status;
    if (!decoder->started)
        return decoder_misuse(decoder, "imcu_size called before start");
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    /* The alignment jpeg_crop_scanline imposes (jdapistd.c) and the row unit jpeg_skip_scanlines works in. */
    int scaled = cinfo->min_DCT_scaled_size;
    *width = (cinfo->comps_in_scan == 1 && cinfo->num_components == 1) ? scaled : scaled * cinfo->max_h_samp_factor;
    *height = scaled * cinfo->max_v_samp_factor;
    return PB_JPEG_OK;
}

int pb_jpeg_decoder_crop_columns(pb_jpeg_decoder *decoder, int *x_offset, int *width) {
    if (decoder->errors.failure.status != PB_JPEG_OK)
        return decoder->errors.failure.status;
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (!decoder->started || cinfo->output_scanline != 0 || *x_offset < 0 || *width < 1 ||
        (JDIMENSION)*x_offset + (JDIMENSION)*width > cinfo->output_width)
        return decoder_misuse(decoder, "crop_columns called after a row was read, or outside the image");
    jmp_buf jump;
    decoder->errors.jump = &jump;
    if (setjmp(jump))
        return decoder_failed(decoder);
    JDIMENSION offset = (JDIMENSION)*x_offset, columns = (JDIMENSION)*width;
    jpeg_crop_scanline(cinfo, &offset, &columns);
    *x_offset = (int)offset;
    *width = (int)columns;
    decoder->errors.jump = NULL;
    return PB_JPEG_OK;
}

int pb_jpeg_decoder_skip_rows(pb_jpeg_decoder *decoder, int count, int *rows_skipped) {
    *rows_skipped = 0;
    if (decoder->errors.failure.status != PB_JPEG_OK)
        return decoder->errors.failure.status;
    if (!decoder->started || count < 0)
        return decoder_misuse(decoder, "skip_rows called before start or with a negative count");
    jmp_buf jump;
    decoder->errors.jump = &jump;
    if (setjmp(jump))
        return decoder_failed(decoder);
    *rows_skipped = (int)jpeg_skip_scanlines(&decoder->cinfo, (JDIMENSION)count);
    decoder->errors.jump = NULL;
    return PB_JPEG_OK;
}

int pb_jpeg_decoder_next_row(const pb_jpeg_decoder *decoder) {
    return (int)decoder->cinfo.output_scanline;
}

/* ---- encoder ---- */

/* A growable output buffer we own: jpeg_mem_dest cannot be cleaned up after an error (see below). */
typedef struct pb_memory_destination {
    struct jpeg_destination_mgr pub;
    uint8_t *buffer;
    size_t capacity;
    size_t length;        /* set by term_destination */
} pb_memory_destination;

struct pb_jpeg_encoder {
    struct jpeg_compress_struct cinfo;
    pb_error_manager errors;
    struct jpeg_progress_mgr progress;
    pb_memory_destination destination;
    int created, started, finished;
    int poll_cancel;
    pb_jpeg_cancel_fn should_cancel;
    void *cancel_context;
};

static void destination_init(j_compress_ptr cinfo) {
    pb_memory_destination *destination = (pb_memory_destination *)cinfo->dest;
    if (destination->buffer == NULL) {
        size_t estimate = (size_t)cinfo->image_width * cinfo->image_height / 4;
        destination->capacity = estimate < 65536 ? 65536 : estimate;
        destination->buffer = malloc(destination->capacity);
        if (destination->buffer == NULL)
            ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 100);
    }
    destination->pub.next_output_byte = destination->buffer;
    destination->pub.free_in_buffer = destination->capacity;
}

/* Trap: jpeg_mem_dest frees its old buffer when it grows but updates the caller's pointer only in
 * term_destination, so after an error (or cancellation) the caller holds a freed pointer and the live buffer
 * leaks. This destination keeps the only pointer in the encoder, which frees it on every path. */
static boolean destination_grow(j_compress_ptr cinfo) {
    pb_memory_destination *destination = (pb_memory_destination *)cinfo->dest;
    size_t used = destination->capacity;  /* called only when the buffer is full */
    if (destination->capacity > SIZE_MAX / 2)
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 101);
    size_t capacity = destination->capacity * 2;
    uint8_t *buffer = realloc(destination->buffer, capacity);
    if (buffer == NULL)
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 102);
    destination->buffer = buffer;
    destination->capacity = capacity;
    destination->pub.next_output_byte = buffer + used;
    destination->pub.free_in_buffer = capacity - used;
    return TRUE;
}

static void destination_term(j_compress_ptr cinfo) {
    pb_memory_destination *destination = (pb_memory_destination *)cinfo->dest;
    destination->length = destination->capacity - destination->pub.free_in_buffer;
}

static void encoder_progress(j_common_ptr cinfo) {
    pb_jpeg_encoder *encoder = (pb_jpeg_encoder *)cinfo;  /* cinfo is the first member */
    if (encoder->poll_cancel && encoder->should_cancel != NULL && encoder->should_cancel(encoder->cancel_context))
        fail_now(&encoder->errors, PB_JPEG_CANCELLED, "cancelled");
}

pb_jpeg_encoder *pb_jpeg_encoder_create(pb_jpeg_cancel_fn should_cancel, void *cancel_context) {
    pb_jpeg_encoder *encoder = calloc(1, sizeof *encoder);
    if (encoder == NULL)
        return NULL;
    init_error_manager(&encoder->errors);
    encoder->cinfo.err = &encoder->errors.pub;
    encoder->should_cancel = should_cancel;
    encoder->cancel_context = cancel_context;
    jmp_buf jump;
    encoder->errors.jump = &jump;
    if (setjmp(jump)) {
        free(encoder);
        return NULL;
    }
    jpeg_create_compress(&encoder->cinfo);
    encoder->created = 1;
    encoder->errors.jump = NULL;
    encoder->progress.progress_monitor = encoder_progress;
    encoder->cinfo.progress = &encoder->progress;
    encoder->destination.pub.init_destination = destination_init;
    encoder->destination.pub.empty_output_buffer = destination_grow;
    encoder->destination.pub.term_destination = destination_term;
    encoder->cinfo.dest = &encoder->destination.pub;
    return encoder;
}

void pb_jpeg_encoder_destroy(pb_jpeg_encoder *encoder) {
    if (encoder == NULL)
        return;
    if (encoder->created)
        jpeg_destroy_compress(&encoder->cinfo);
    free(encoder->destination.buffer);
    free(encoder);
}

const pb_jpeg_failure *pb_jpeg_encoder_failure(const pb_jpeg_encoder *encoder) {
    return &encoder->errors.failure;
}

static int encoder_misuse(pb_jpeg_encoder *encoder, const char *message) {
    pb_jpeg_failure *failure = &encoder->errors.failure;
    if (failure->status == PB_JPEG_OK) {
        failure->status = PB_JPEG_MISUSE;
        snprintf(failure->message, sizeof failure->message, "%s", message);
    }
    return failure->status;
}

static int encoder_failed(pb_jpeg_encoder *encoder) {
    encoder->errors.jump = NULL;
    encoder->poll_cancel = 0;
    return encoder->errors.failure.status;
}

int pb_jpeg_encoder_start(pb_jpeg_encoder *encoder, const pb_jpeg_encoder_options *options) {
    if (encoder->errors.failure.status != PB_JPEG_OK)
        return encoder->errors.failure.status;
    if (encoder->started || options == NULL ||
        (options->input_components != 3 && options->input_components != 4))
        return encoder_misuse(encoder, "start called twice or with other than 3 or 4 components");
    jmp_buf jump;
    encoder->errors.jump = &jump;
    if (setjmp(jump))
        return encoder_failed(encoder);

    struct jpeg_compress_struct *cinfo = &encoder->cinfo;
    cinfo->image_width = (JDIMENSION)options->width;
    cinfo->image_height = (JDIMENSION)options->height;
    cinfo->input_components = options->input_components;
    cinfo->in_color_space = options->input_components == 4 ? JCS_CMYK : JCS_RGB;
    jpeg_set_defaults(cinfo);
    if (options->input_components == 4)
        jpeg_set_colorspace(cinfo, options->ycck ? JCS_YCCK : JCS_CMYK);  /* also writes the Adobe marker */
    else if (options->grayscale)
        jpeg_set_colorspace(cinfo, JCS_GRAYSCALE);
    int quality = options->quality < 1 ? 1 : options->quality > 100 ? 100 : options->quality;
    jpeg_set_quality(cinfo, quality, TRUE);
    if (cinfo->jpeg_color_space == JCS_YCbCr || cinfo->jpeg_color_space == JCS_YCCK) {
        int h = options->chroma_h >= 1 && options->chroma_h <= 2 ? options->chroma_h : 2;
        int v = options->chroma_v >= 1 && options->chroma_v <= 2 ? options->chroma_v : 2;
        cinfo->comp_info[0].h_samp_factor = h;
        cinfo->comp_info[0].v_samp_factor = v;
        if (cinfo->jpeg_color_space == JCS_YCCK) {
            cinfo->comp_info[3].h_samp_factor = h;
            cinfo->comp_info[3].v_samp_factor = v;
        }
    }
    cinfo->arith_code = options->arithmetic ? TRUE : FALSE;
    cinfo->optimize_coding = (options->optimize_coding && !options->arithmetic) ? TRUE : FALSE;
    if (options->progressive)
        jpeg_simple_progression(cinfo);  /* after the colour space: the script depends on it */
    if (options->dots_per_inch > 0 && options->dots_per_inch <= 65535) {
        cinfo->density_unit = 1;
        cinfo->X_density = (UINT16)options->dots_per_inch;
        cinfo->Y_density = (UINT16)options->dots_per_inch;
    }
    jpeg_start_compress(cinfo, TRUE);
    encoder->started = 1;
    encoder->errors.jump = NULL;
    return PB_JPEG_OK;
}

int pb_jpeg_encoder_write_rows(pb_jpeg_encoder *encoder, const uint8_t *rows, size_t stride, int row_count) {
    if (encoder->errors.failure.status != PB_JPEG_OK)
        return encoder->errors.failure.status;
    if (!encoder->started || encoder->finished || rows == NULL || row_count < 0 ||
        encoder->cinfo.next_scanline + (JDIMENSION)row_count > encoder->cinfo.image_height)
        return encoder_misuse(encoder, "write_rows called out of order or with too many rows");
    jmp_buf jump;
    encoder->errors.jump = &jump;
    if (setjmp(jump))
        return encoder_failed(encoder);
    int done = 0;
    while (done < row_count) {
        JSAMPROW pointers[16];
        int batch = row_count - done > 16 ? 16 : row_count - done;
        for (int i = 0; i < batch; i++)
            pointers[i] = (JSAMPROW)(rows + (size_t)(done + i) * stride);  /* libjpeg only reads input rows */
        JDIMENSION written = jpeg_write_scanlines(&encoder->cinfo, pointers, (JDIMENSION)batch);
        if (written == 0)
            fail_now(&encoder->errors, PB_JPEG_ERROR, "no scanlines accepted (suspended destination)");
        done += (int)written;
    }
    encoder->errors.jump = NULL;
    return PB_JPEG_OK;
}

int pb_jpeg_encoder_finish(pb_jpeg_encoder *encoder, const uint8_t **output, size_t *output_length) {
    *output = NULL;
    *output_length = 0;
    if (encoder->errors.failure.status != PB_JPEG_OK)
        return encoder->errors.failure.status;
    if (!encoder->started || encoder->finished || encoder->cinfo.next_scanline < encoder->cinfo.image_height)
        return encoder_misuse(encoder, "finish called before every row was written");
    jmp_buf jump;
    encoder->errors.jump = &jump;
    if (setjmp(jump))
        return encoder_failed(encoder);
    /* Trap: with optimize_coding or progressive output the real work (every pass) happens in finish. */
    encoder->poll_cancel = 1;
    jpeg_finish_compress(&encoder->cinfo);
    encoder->poll_cancel = 0;
    encoder->finished = 1;
    encoder->errors.jump = NULL;
    *output = encoder->destination.buffer;
    *output_length = encoder->destination.length;
    return PB_JPEG_OK;
}

/* ---- lossless transcoding ---- */

struct pb_jpeg_transcoder {
    struct jpeg_decompress_struct source;
    struct jpeg_compress_struct output;
    pb_error_manager errors;               /* shared: one jmp_buf covers calls that touch both structs */
    struct jpeg_progress_mgr progress;     /* shared too; the monitor finds us through is_decompressor */
    pb_memory_destination destination;
    int source_created, output_created;
    int header_read, coefficients_read, finished;
    int max_scans;
    int poll_cancel;
    pb_jpeg_cancel_fn should_cancel;
    void *cancel_context;
    jvirt_barray_ptr *coefficients;        /* the source's, owned by its memory manager */
};

static pb_jpeg_transcoder *transcoder_of(j_common_ptr cinfo) {
    char *base = (char *)cinfo;
    if (cinfo->is_decompressor)
        return (pb_jpeg_transcoder *)(base - offsetof(pb_jpeg_transcoder, source));
    return (pb_jpeg_transcoder *)(base - offsetof(pb_jpeg_transcoder, output));
}

static void transcoder_poll(pb_jpeg_transcoder *transcoder) {
    if (transcoder->poll_cancel && transcoder->should_cancel != NULL &&
        transcoder->should_cancel(transcoder->cancel_context))
        fail_now(&transcoder->errors, PB_JPEG_CANCELLED, "cancelled");
}

static void transcoder_progress(j_common_ptr cinfo) {
    pb_jpeg_transcoder *transcoder = transcoder_of(cinfo);
    if (cinfo->is_decompressor && transcoder->max_scans > 0 &&
        transcoder->source.input_scan_number > transcoder->max_scans) {
        char text[80];
        snprintf(text, sizeof text, "too many progressive scans (more than %d)", transcoder->max_scans);
        fail_now(&transcoder->errors, PB_JPEG_TOO_MANY_SCANS, text);
    }
    transcoder_poll(transcoder);
}

pb_jpeg_transcoder *pb_jpeg_transcoder_create(int max_scans, pb_jpeg_cancel_fn should_cancel, void *cancel_context) {
    pb_jpeg_transcoder *transcoder = calloc(1, sizeof *transcoder);
    if (transcoder == NULL)
        return NULL;
    init_error_manager(&transcoder->errors);
    transcoder->source.err = &transcoder->errors.pub;
    transcoder->output.err = &transcoder->errors.pub;
    transcoder->max_scans = max_scans;
    transcoder->should_cancel = should_cancel;
    transcoder->cancel_context = cancel_context;
    jmp_buf jump;
    transcoder->errors.jump = &jump;
    if (setjmp(jump)) {
        if (transcoder->source_created)
            jpeg_destroy_decompress(&transcoder->source);
        free(transcoder);
        return NULL;
    }
    jpeg_create_decompress(&transcoder->source);
    transcoder->source_created = 1;
    jpeg_create_compress(&transcoder->output);
    transcoder->output_created = 1;
    transcoder->errors.jump = NULL;
    transcoder->progress.progress_monitor = transcoder_progress;
    transcoder->source.progress = &transcoder->progress;
    transcoder->output.progress = &transcoder->progress;
    transcoder->destination.pub.init_destination = destination_init;
    transcoder->destination.pub.empty_output_buffer = destination_grow;
    transcoder->destination.pub.term_destination = destination_term;
    transcoder->output.dest = &transcoder->destination.pub;
    return transcoder;
}

void pb_jpeg_transcoder_destroy(pb_jpeg_transcoder *transcoder) {
    if (transcoder == NULL)
        return;
    if (transcoder->output_created)
        jpeg_destroy_compress(&transcoder->output);
    if (transcoder->source_created)
        jpeg_destroy_decompress(&transcoder->source);  /* frees the source's coefficient arrays */
    free(transcoder->destination.buffer);
    free(transcoder);
}

const pb_jpeg_failure *pb_jpeg_transcoder_failure(const pb_jpeg_transcoder *transcoder) {
    return &transcoder->errors.failure;
}

static int transcoder_misuse(pb_jpeg_transcoder *transcoder, const char *message) {
    pb_jpeg_failure *failure = &transcoder->errors.failure;
    if (failure->status == PB_JPEG_OK) {
        failure->status = PB_JPEG_MISUSE;
        snprintf(failure->message, sizeof failure->message, "%s", message);
    }
    return failure->status;
}

static int transcoder_failed(pb_jpeg_transcoder *transcoder) {
    transcoder->errors.jump = NULL;
    transcoder->poll_cancel = 0;
    return transcoder->errors.failure.status;
}

/* jdiv_round_up and jround_up are in libjpeg's private jpegint.h, which Debian does not install. */
static long div_round_up(long a, long b) { return (a + b - 1) / b; }
static long round_up(long a, long b) { return div_round_up(a, b) * b; }

int pb_jpeg_transcoder_read_header(pb_jpeg_transcoder *transcoder, const uint8_t *data, size_t length,
                                   pb_jpeg_header *header) {
    if (transcoder->errors.failure.status != PB_JPEG_OK)
        return transcoder->errors.failure.status;
    if (transcoder->header_read || data == NULL || header == NULL)
        return transcoder_misuse(transcoder, "read_header called twice or without data");
    memset(header, 0, sizeof *header);
    jmp_buf jump;
    transcoder->errors.jump = &jump;
    if (setjmp(jump))
        return transcoder_failed(transcoder);
    struct jpeg_decompress_struct *source = &transcoder->source;
    jpeg_mem_src(source, data, (unsigned long)length);
    jpeg_read_header(source, TRUE);
    transcoder->header_read = 1;
    describe_header(source, header);
    transcoder->errors.jump = NULL;
    return PB_JPEG_OK;
}

/* Runs inside an exported function's setjmp. */
static void read_coefficients_now(pb_jpeg_transcoder *transcoder) {
    if (transcoder->coefficients_read)
        return;
    /* Trap: jpeg_read_coefficients reads every scan, so the cancel poll and the scan limit live in the monitor. */
    transcoder->poll_cancel = 1;
    transcoder->coefficients = jpeg_read_coefficients(&transcoder->source);
    transcoder->poll_cancel = 0;
    if (transcoder->coefficients == NULL)
        fail_now(&transcoder->errors, PB_JPEG_ERROR, "no coefficients returned (suspended data source)");
    transcoder->coefficients_read = 1;
}

int pb_jpeg_transcoder_read_coefficients(pb_jpeg_transcoder *transcoder) {
    if (transcoder->errors.failure.status != PB_JPEG_OK)
        return transcoder->errors.failure.status;
    if (!transcoder->header_read)
        return transcoder_misuse(transcoder, "read_coefficients called before read_header");
    jmp_buf jump;
    transcoder->errors.jump = &jump;
    if (setjmp(jump))
        return transcoder_failed(transcoder);
    read_coefficients_now(transcoder);
    transcoder->errors.jump = NULL;
    return PB_JPEG_OK;
}

/* The blocks libjpeg keeps for a component: its real blocks rounded up to whole iMCUs (jdcoefct.c). */
static JDIMENSION stored_blocks(JDIMENSION blocks, int factor) {
    return (JDIMENSION)round_up((long)blocks, (long)factor);
}

int pb_jpeg_transcoder_component(pb_jpeg_transcoder *transcoder, int index, pb_jpeg_component_blocks *info,
                                 int16_t *blocks) {
    if (transcoder->errors.failure.status != PB_JPEG_OK)
        return transcoder->errors.failure.status;
    struct jpeg_decompress_struct *source = &transcoder->source;
    if (!transcoder->coefficients_read || info == NULL || index < 0 || index >= source->num_components)
        return transcoder_misuse(transcoder, "component called before read_coefficients or for no component");
    jmp_buf jump;
    transcoder->errors.jump = &jump;
    if (setjmp(jump))
        return transcoder_failed(transcoder);
    jpeg_component_info *component = &source->comp_info[index];
    memset(info, 0, sizeof *info);
    info->h = component->h_samp_factor;
    info->v = component->v_samp_factor;
    info->width_in_blocks = (int)component->width_in_blocks;
    info->height_in_blocks = (int)component->height_in_blocks;
    JDIMENSION width = stored_blocks(component->width_in_blocks, component->h_samp_factor);
    JDIMENSION height = stored_blocks(component->height_in_blocks, component->v_samp_factor);
    info->stored_width = (int)width;
    info->stored_height = (int)height;
    /* The table the scans were decoded with (saved by the decoder), not one a later DQT may have replaced. */
    JQUANT_TBL *table = component->quant_table != NULL ? component->quant_table
                                                       : source->quant_tbl_ptrs[component->quant_tbl_no];
    if (table == NULL)
        fail_now(&transcoder->errors, PB_JPEG_ERROR, "a component has no quantisation table");
    for (int k = 0; k < DCTSIZE2; k++)
        info->quantization[k] = table->quantval[k];
    if (blocks != NULL) {
        for (JDIMENSION row = 0; row < height; row++) {
            JBLOCKARRAY rows = (*source->mem->access_virt_barray)((j_common_ptr)source,
                                                                  transcoder->coefficients[index], row, 1, FALSE);
            memcpy(blocks + (size_t)row * width * DCTSIZE2, rows[0], (size_t)width * sizeof(JBLOCK));
        }
    }
    transcoder->errors.jump = NULL;
    return PB_JPEG_OK;
}

/* For EXIF orientation o, where output coefficient k (natural order, row v = vertical frequency, column u)
 * comes from in the source block, and its sign. A left-right mirror negates odd horizontal frequencies, a
 * top-bottom mirror odd vertical ones; the orientations 5-8 transpose the block first (the TIFF meanings:
 * 6 is a quarter turn clockwise, 8 counter-clockwise, 5 the transpose, 7 the transverse). */
static void coefficient_map(int orientation, int source_index[DCTSIZE2], int sign[DCTSIZE2]) {
    int transpose = orientation >= 5;
    int mirror_columns = orientation == 2 || orientation == 3 || orientation == 6 || orientation == 7;
    int mirror_rows = orientation == 3 || orientation == 4 || orientation == 7 || orientation == 8;
    for (int v = 0; v < DCTSIZE; v++) {
        for (int u = 0; u < DCTSIZE; u++) {
            int k = v * DCTSIZE + u;
            source_index[k] = transpose ? u * DCTSIZE + v : k;
            int negative = (mirror_columns && (u & 1)) ^ (mirror_rows && (v & 1));
            sign[k] = negative ? -1 : 1;
        }
    }
}

int pb_jpeg_transcoder_run(pb_jpeg_transcoder *transcoder, int x, int y, int width, int height, int orientation,
                           int optimize_coding, const uint8_t **output, size_t *output_length) {
    *output = NULL;
    *output_length = 0;
    if (transcoder->errors.failure.status != PB_JPEG_OK)
        return transcoder->errors.failure.status;
    if (!transcoder->header_read || transcoder->finished)
        return transcoder_misuse(transcoder, "run called before read_header or twice");
    struct jpeg_decompress_struct *source = &transcoder->source;
    struct jpeg_compress_struct *destination = &transcoder->output;
    int unit_width, unit_height;
    imcu_size(source, &unit_width, &unit_height);
    if (orientation < 1 || orientation > 8)
        orientation = 1;
    int transpose = orientation >= 5;
    /* Which source edges end up on the output's left or top (see coefficient_map, in whole blocks). */
    int flips_x = orientation == 2 || orientation == 3 || orientation == 7 || orientation == 8;
    int flips_y = orientation == 3 || orientation == 4 || orientation == 6 || orientation == 7;
    long padded_width = round_up((long)source->image_width, unit_width);
    long padded_height = round_up((long)source->image_height, unit_height);
    if (x < 0 || y < 0 || width < 1 || height < 1 || x % unit_width != 0 || y % unit_height != 0 ||
        (long)x + width > padded_width || (long)y + height > padded_height ||
        ((long)x + width != (long)source->image_width && (x + width) % unit_width != 0) ||
        ((long)y + height != (long)source->image_height && (y + height) % unit_height != 0) ||
        (flips_x && width % unit_width != 0) || (flips_y && height % unit_height != 0))
        return transcoder_misuse(transcoder, "run: the region is off the iMCU grid or outside the image");
    if (source->num_components != 1 && source->num_components != 3)
        return transcoder_misuse(transcoder, "run: only 1 or 3 components can be copied");

    jmp_buf jump;
    transcoder->errors.jump = &jump;
    if (setjmp(jump))
        return transcoder_failed(transcoder);
    read_coefficients_now(transcoder);

    /* The source's tables, component ids and sampling (jpeg_set_defaults first: Huffman, no restarts). */
    jpeg_copy_critical_parameters(source, destination);
    destination->image_width = (JDIMENSION)(transpose ? height : width);
    destination->image_height = (JDIMENSION)(transpose ? width : height);
    destination->optimize_coding = optimize_coding ? TRUE : FALSE;
    destination->arith_code = FALSE;  /* PDF readers do not decode arithmetic coding */
    destination->restart_interval = 0;
    destination->restart_in_rows = 0;
    if (source->num_components == 1) {
        destination->comp_info[0].h_samp_factor = 1;
        destination->comp_info[0].v_samp_factor = 1;
    } else if (transpose) {
        for (int ci = 0; ci < destination->num_components; ci++) {
            jpeg_component_info *component = &destination->comp_info[ci];
            int h = component->h_samp_factor;
            component->h_samp_factor = component->v_samp_factor;
            component->v_samp_factor = h;
        }
    }
    if (transpose) {
        /* A transposed block needs the transposed table: coefficient (u, v) now sits at (v, u). */
        for (int table = 0; table < NUM_QUANT_TBLS; table++) {
            JQUANT_TBL *quant = destination->quant_tbl_ptrs[table];
            if (quant == NULL)
                continue;
            for (int v = 0; v < DCTSIZE; v++) {
                for (int u = v + 1; u < DCTSIZE; u++) {
                    UINT16 swap = quant->quantval[v * DCTSIZE + u];
                    quant->quantval[v * DCTSIZE + u] = quant->quantval[u * DCTSIZE + v];
                    quant->quantval[u * DCTSIZE + v] = swap;
                }
            }
        }
    }

    int source_index[DCTSIZE2], sign[DCTSIZE2];
    coefficient_map(orientation, source_index, sign);
    jvirt_barray_ptr arrays[4] = {NULL, NULL, NULL, NULL};
    int output_max_h = 1, output_max_v = 1;
    for (int ci = 0; ci < destination->num_components; ci++) {
        if (destination->comp_info[ci].h_samp_factor > output_max_h)
            output_max_h = destination->comp_info[ci].h_samp_factor;
        if (destination->comp_info[ci].v_samp_factor > output_max_v)
            output_max_v = destination->comp_info[ci].v_samp_factor;
    }
    int output_unit_width = source->num_components == 1 ? DCTSIZE : DCTSIZE * output_max_h;
    int output_unit_height = source->num_components == 1 ? DCTSIZE : DCTSIZE * output_max_v;
    JDIMENSION output_imcus_x = (JDIMENSION)div_round_up((long)destination->image_width, output_unit_width);
    JDIMENSION output_imcus_y = (JDIMENSION)div_round_up((long)destination->image_height, output_unit_height);
    JDIMENSION columns[4], rows[4];
    for (int ci = 0; ci < destination->num_components; ci++) {
        jpeg_component_info *component = &destination->comp_info[ci];
        int h = source->num_components == 1 ? 1 : component->h_samp_factor;
        int v = source->num_components == 1 ? 1 : component->v_samp_factor;
        columns[ci] = output_imcus_x * (JDIMENSION)h;
        rows[ci] = output_imcus_y * (JDIMENSION)v;
        /* Unturned, the blocks move up and left inside the source's own arrays: no second copy of them. */
        if (orientation == 1)
            arrays[ci] = transcoder->coefficients[ci];
        else
            arrays[ci] = (*destination->mem->request_virt_barray)((j_common_ptr)destination, JPOOL_IMAGE, FALSE,
                                                                  columns[ci], rows[ci], (JDIMENSION)v);
    }
    if (orientation != 1)
        (*destination->mem->realize_virt_arrays)((j_common_ptr)destination);

    for (int ci = 0; ci < destination->num_components; ci++) {
        jpeg_component_info *from = &source->comp_info[ci];
        int h = source->num_components == 1 ? 1 : from->h_samp_factor;
        int v = source->num_components == 1 ? 1 : from->v_samp_factor;
        /* The region in this component's blocks, in the source's orientation. */
        JDIMENSION first_column = (JDIMENSION)(x / unit_width) * (JDIMENSION)h;
        JDIMENSION first_row = (JDIMENSION)(y / unit_height) * (JDIMENSION)v;
        JDIMENSION region_columns = transpose ? rows[ci] : columns[ci];
        JDIMENSION region_rows = transpose ? columns[ci] : rows[ci];
        JDIMENSION source_columns = stored_blocks(from->width_in_blocks, from->h_samp_factor);
        JDIMENSION source_rows = stored_blocks(from->height_in_blocks, from->v_samp_factor);
        if (source->num_components == 1) {
            source_columns = from->width_in_blocks;
            source_rows = from->height_in_blocks;
        }
        if (first_column + region_columns > source_columns || first_row + region_rows > source_rows)
            fail_now(&transcoder->errors, PB_JPEG_MISUSE, "run: the region reaches past the stored blocks");
        if (orientation == 1) {
            for (JDIMENSION row = 0; row < rows[ci] && (first_row > 0 || first_column > 0); row++) {
                /* Row first_row + row moves to row: never above a row still to be moved. In memory (no backing
                 * store is set up) a row pointer stays valid after the next access. */
                JBLOCKROW from = (*source->mem->access_virt_barray)((j_common_ptr)source, arrays[ci],
                                                                    first_row + row, 1, FALSE)[0];
                JBLOCKROW to = (*source->mem->access_virt_barray)((j_common_ptr)source, arrays[ci], row, 1, TRUE)[0];
                memmove(to, from + first_column, (size_t)columns[ci] * sizeof(JBLOCK));
            }
            continue;
        }
        for (JDIMENSION row = 0; row < rows[ci]; row++) {
            if ((row & 15) == 0) {
                transcoder->poll_cancel = 1;
                transcoder_poll(transcoder);
                transcoder->poll_cancel = 0;
            }
            JBLOCKROW target = (*destination->mem->access_virt_barray)((j_common_ptr)destination, arrays[ci],
                                                                       row, 1, TRUE)[0];
            JBLOCKROW straight = NULL;
            if (!transpose) {
                JDIMENSION source_row = first_row + (flips_y ? region_rows - 1 - row : row);
                straight = (*source->mem->access_virt_barray)((j_common_ptr)source, transcoder->coefficients[ci],
                                                              source_row, 1, FALSE)[0];
            }
            for (JDIMENSION column = 0; column < columns[ci]; column++) {
                JCOEFPTR block;
                if (transpose) {
                    /* Output (column, row) is source (row, column), each mirrored as the orientation says. */
                    JDIMENSION source_column = first_column + (flips_x ? region_columns - 1 - row : row);
                    JDIMENSION source_row = first_row + (flips_y ? region_rows - 1 - column : column);
                    block = (*source->mem->access_virt_barray)((j_common_ptr)source, transcoder->coefficients[ci],
                                                               source_row, 1, FALSE)[0][source_column];
                } else {
                    JDIMENSION source_column = first_column + (flips_x ? region_columns - 1 - column : column);
                    block = straight[source_column];
                }
                JCOEFPTR out = target[column];
                for (int k = 0; k < DCTSIZE2; k++)
                    out[k] = (JCOEF)(sign[k] * block[source_index[k]]);
            }
        }
    }

    transcoder->poll_cancel = 1;
    jpeg_write_coefficients(destination, arrays);
    /* Trap: with optimize_coding both passes over the blocks happen in jpeg_finish_compress. */
    jpeg_finish_compress(destination);
    transcoder->poll_cancel = 0;
    transcoder->finished = 1;
    transcoder->errors.jump = NULL;
    *output = transcoder->destination.buffer;
    *output_length = transcoder->destination.length;
    return PB_JPEG_OK;
}
