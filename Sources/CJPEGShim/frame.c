/*
 * The frame every handle of this target starts with (see frame.h): the error manager that captures libjpeg's
 * message and longjmps, the progress monitor, a handle's creation and destruction, and the steps of a call.
 */
#include <stdlib.h>

#include <jerror.h>

#include "frame.h"

void pb_record_unsupported(pb_jpeg_failure *failure, int reason, int detail) {
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
        pb_record_unsupported(failure, PB_JPEG_UNSUPPORTED_PRECISION, parameter);
        break;
    case JERR_SOF_UNSUPPORTED:
        /* Trap: 2.1.5 reports lossless (SOF3/7/11/15) and hierarchical (SOF5/6/13/14) alike: only the marker tells. */
        switch (parameter) {
        case 0xC3: case 0xC7: case 0xCB: case 0xCF:
            pb_record_unsupported(failure, PB_JPEG_UNSUPPORTED_LOSSLESS, parameter); break;
        case 0xC5: case 0xC6: case 0xCD: case 0xCE:
            pb_record_unsupported(failure, PB_JPEG_UNSUPPORTED_HIERARCHICAL, parameter); break;
        default:
            pb_record_unsupported(failure, PB_JPEG_UNSUPPORTED_PROCESS, parameter); break;
        }
        break;
    case JERR_NOT_COMPILED:
    case JERR_ARITH_NOTIMPL:
        pb_record_unsupported(failure, PB_JPEG_UNSUPPORTED_PROCESS, 0);
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

static void frame_error_exit(j_common_ptr cinfo) {
    pb_frame *frame = (pb_frame *)cinfo->err;
    if (frame->failure.status == PB_JPEG_OK) {
        frame->failure.code = cinfo->err->msg_code;
        (*cinfo->err->format_message)(cinfo, frame->failure.message);
        classify_error(cinfo, &frame->failure);
    }
    if (frame->jump != NULL)
        longjmp(*frame->jump, 1);
    /* Only reachable through a libjpeg call made outside a guard: a bug in this target. */
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

static void frame_emit_message(j_common_ptr cinfo, int msg_level) {
    pb_frame *frame = (pb_frame *)cinfo->err;
    if (msg_level >= 0)
        return;  /* trace messages */
    if (is_harmless_warning(cinfo))
        return;
    cinfo->err->num_warnings++;
    frame->failure.warnings = cinfo->err->num_warnings;
    if (cinfo->err->num_warnings == 1 && frame->failure.status == PB_JPEG_OK) {
        frame->failure.code = cinfo->err->msg_code;
        (*cinfo->err->format_message)(cinfo, frame->failure.message);
    }
    /* Trap: libjpeg only warns on corrupt or truncated data and goes on to fill the rest with grey; we stop. */
    if (frame->jump != NULL) {
        frame->failure.status = PB_JPEG_WARNING;
        if (cinfo->err->msg_code == JWRN_JPEG_EOF)
            frame->failure.reason = PB_JPEG_CORRUPT_TRUNCATED;
        longjmp(*frame->jump, 1);
    }
}

static void frame_output_message(j_common_ptr cinfo) {
    (void)cinfo;  /* Trap: the default output_message writes to stderr, and error_exit then calls exit() */
}

/* The progress monitor of both structs on the frame: it gets no context of its own, so it finds the frame
 * through cinfo->err, as error_exit does. Only the source has scans to count. */
static void frame_progress(j_common_ptr cinfo) {
    pb_frame *frame = (pb_frame *)cinfo->err;
    if (cinfo->is_decompressor && frame->max_scans > 0 &&
        ((j_decompress_ptr)cinfo)->input_scan_number > frame->max_scans) {
        char text[80];
        snprintf(text, sizeof text, "too many progressive scans (more than %d)", frame->max_scans);
        pb_frame_fail_now(frame, PB_JPEG_TOO_MANY_SCANS, text);
    }
    if (frame->poll_cancel)
        pb_frame_check_cancel(frame);
}

static void frame_init(pb_frame *frame, int max_scans, pb_jpeg_cancel_fn should_cancel, void *cancel_context,
                       const pb_large_blocks *blocks) {
    jpeg_std_error(&frame->pub);
    frame->pub.error_exit = frame_error_exit;
    frame->pub.emit_message = frame_emit_message;
    frame->pub.output_message = frame_output_message;
    frame->progress.progress_monitor = frame_progress;
    frame->max_scans = max_scans;
    frame->should_cancel = should_cancel;
    frame->cancel_context = cancel_context;
    /* Set before any libjpeg struct exists and never changed: a block goes back to the pool it came from. */
    if (blocks != NULL)
        frame->blocks = *blocks;
    frame->failure.code = -1;
}

pb_frame *pb_frame_of(j_common_ptr cinfo) {
    /* Trap: jpeg_get_large is ours for every libjpeg object in the process (large_blocks.c), libtiff's JPEG codec's
     * too, whose error manager is its own: only an error_exit of ours says the object starts a pb_frame. */
    if (cinfo->err == NULL || cinfo->err->error_exit != frame_error_exit)
        return NULL;
    return (pb_frame *)cinfo->err;
}

/* Creates the frame's source (jpeg_create_decompress) or its output (jpeg_create_compress, writing to the
 * memory destination): which is PB_FRAME_SOURCE or PB_FRAME_OUTPUT. */
static int create_struct(pb_frame *frame, int which) {
    j_common_ptr cinfo = which == PB_FRAME_SOURCE ? (j_common_ptr)&frame->source : (j_common_ptr)&frame->output;
    cinfo->err = &frame->pub;  /* Trap: jpeg_create_* zeroes all but err (so progress comes after), and may fail */
    PB_GUARD(frame);
    if (which == PB_FRAME_SOURCE) {
        jpeg_create_decompress(&frame->source);
        frame->has_source = 1;
    } else {
        jpeg_create_compress(&frame->output);
        frame->has_output = 1;
        pb_memory_destination_attach(&frame->destination, &frame->output);
    }
    cinfo->progress = &frame->progress;
    return pb_frame_leave(frame);
}

void *pb_frame_new(size_t size, int structs, int max_scans, pb_jpeg_cancel_fn should_cancel, void *cancel_context,
                   const pb_large_blocks *blocks) {
    pb_frame *frame = calloc(1, size);
    if (frame == NULL)
        return NULL;
    frame_init(frame, max_scans, should_cancel, cancel_context, blocks);
    if (((structs & PB_FRAME_SOURCE) && create_struct(frame, PB_FRAME_SOURCE) != PB_JPEG_OK) ||
        ((structs & PB_FRAME_OUTPUT) && create_struct(frame, PB_FRAME_OUTPUT) != PB_JPEG_OK)) {
        pb_frame_free(frame);
        return NULL;
    }
    return frame;
}

void pb_frame_free(void *handle) {
    pb_frame *frame = handle;  /* every handle starts with its frame */
    if (frame == NULL)
        return;
    if (frame->has_output)
        jpeg_destroy_compress(&frame->output);
    if (frame->has_source)
        jpeg_destroy_decompress(&frame->source);  /* frees every pool, the coefficient arrays too */
    free(frame->destination.buffer);
    free(frame);
}

int pb_frame_misuse(pb_frame *frame, const char *message) {
    pb_jpeg_failure *failure = &frame->failure;
    if (failure->status == PB_JPEG_OK) {
        failure->status = PB_JPEG_MISUSE;
        snprintf(failure->message, sizeof failure->message, "%s", message);
    }
    return failure->status;
}

int pb_frame_failed(pb_frame *frame) {
    frame->jump = NULL;
    frame->poll_cancel = 0;
    return frame->failure.status;
}

int pb_frame_leave(pb_frame *frame) {
    frame->jump = NULL;
    return PB_JPEG_OK;
}

int pb_frame_leave_with_output(pb_frame *frame, const uint8_t **output, size_t *output_length) {
    *output = frame->destination.buffer;
    *output_length = frame->destination.length;
    return pb_frame_leave(frame);
}

void pb_frame_fail_now(pb_frame *frame, int status, const char *message) {
    if (frame->failure.status == PB_JPEG_OK) {
        frame->failure.status = status;
        frame->failure.code = -1;
        snprintf(frame->failure.message, sizeof frame->failure.message, "%s", message);
    }
    if (frame->jump != NULL)
        longjmp(*frame->jump, 1);
    abort();
}

void pb_frame_check_cancel(pb_frame *frame) {
    if (frame->should_cancel != NULL && frame->should_cancel(frame->cancel_context))
        pb_frame_fail_now(frame, PB_JPEG_CANCELLED, "cancelled");
}
