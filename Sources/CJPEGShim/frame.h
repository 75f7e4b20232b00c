/*
 * What the decoder (decoder.c), the encoder (encoder.c) and the transcoder (transcoder.c) share, private to this
 * target: the frame every handle starts with, that is the libjpeg structs it owns and everything the failure
 * path touches.
 *
 * The frame's error manager turns error_exit, a warning, the scan limit and a cancellation into a longjmp back
 * into the exported function running now, with the failure recorded for pb_jpeg_*_failure. Every exported
 * function that calls into libjpeg checks its call (PB_ADMIT), opens a guard (PB_GUARD) and leaves through
 * pb_frame_leave; a libjpeg call anywhere in between that fails returns the recorded status from that function.
 * The Swift cancel callback returns before any longjmp happens, so no longjmp crosses a Swift frame.
 * See include/jpeg_shim.h for the contract.
 */
#ifndef PHOTOBOOK_JPEG_FRAME_H
#define PHOTOBOOK_JPEG_FRAME_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>  /* jpeglib.h needs FILE */

#include <jpeglib.h>

#include "jpeg_shim.h"

/* A growable output buffer the frame owns and frees on every path (jpeg_mem_dest cannot be cleaned up after an
 * error: see memory_destination.c). */
typedef struct pb_memory_destination {
    struct jpeg_destination_mgr pub;
    uint8_t *buffer;
    size_t capacity;
    size_t length;        /* set by term_destination */
} pb_memory_destination;

typedef struct pb_frame {
    struct jpeg_error_mgr pub;          /* first: libjpeg hands every callback &pub as cinfo->err */
    struct jpeg_progress_mgr progress;  /* the monitor finds its frame through cinfo->err, like error_exit */
    jmp_buf *jump;                      /* the guard of the exported function running now, or NULL */
    int max_scans;                      /* progressive scans the source may have (0: no limit) */
    int poll_cancel;                    /* ask should_cancel from the progress monitor (PB_POLLED) */
    pb_jpeg_cancel_fn should_cancel;
    void *cancel_context;
    pb_large_blocks blocks;             /* where libjpeg's large blocks come from (large_blocks.c); take NULL: malloc */
    pb_jpeg_failure failure;
    int has_source, has_output;         /* which structs were created, so are destroyed */
    int header_read;                    /* pb_frame_read_header succeeded */
    struct jpeg_decompress_struct source;
    struct jpeg_compress_struct output;
    pb_memory_destination destination;  /* the output's */
} pb_frame;

/* ---- a handle's life ---- */

/* Which libjpeg structs pb_frame_new creates. */
enum { PB_FRAME_SOURCE = 1, PB_FRAME_OUTPUT = 2 };

/* Every handle type's first member is its frame, so a handle and its frame share one address. */
#define PB_FRAME_FIRST(handle_type) \
    _Static_assert(offsetof(handle_type, frame) == 0, #handle_type " must start with its pb_frame")

/* A new handle of size bytes, zeroed, that starts with its pb_frame (PB_FRAME_FIRST): the source
 * (jpeg_create_decompress) and the output (jpeg_create_compress, writing to the frame's memory destination) that
 * structs asks for are created on the frame, with their large blocks from blocks (copied; NULL: malloc's). NULL
 * when out of memory or when libjpeg cannot create a struct. */
void *pb_frame_new(size_t size, int structs, int max_scans, pb_jpeg_cancel_fn should_cancel, void *cancel_context,
                   const pb_large_blocks *blocks);

/* The frame whose error manager cinfo reports to, or NULL for a libjpeg object that is not this target's. */
pb_frame *pb_frame_of(j_common_ptr cinfo);

/* Destroys the structs of a handle pb_frame_new made (every pool, also after an error), frees the output buffer
 * and the handle. NULL does nothing. */
void pb_frame_free(void *handle);

/* ---- an exported function's call ---- */

/* Returns from the calling function at once with the spent handle's status (every call after a failure returns
 * the same), or else with PB_JPEG_MISUSE (recorded with message) when misused is true; misused is only
 * evaluated for a handle that has not failed. */
#define PB_ADMIT(frame, misused, message)                      \
    do {                                                       \
        if ((frame)->failure.status != PB_JPEG_OK)             \
            return (frame)->failure.status;                    \
        if (misused)                                           \
            return pb_frame_misuse((frame), (message));        \
    } while (0)

/* Opens the guard of the exported function that names it, after PB_ADMIT: a failure in any later libjpeg call
 * returns the recorded status from that function. A macro because setjmp must run in the frame that stays alive
 * until the longjmp: the exported function's own. */
#define PB_GUARD(frame)                        \
    jmp_buf pb_guard_jump;                     \
    (frame)->jump = &pb_guard_jump;            \
    if (setjmp(pb_guard_jump))                 \
        return pb_frame_failed(frame)

/* Runs one libjpeg call, inside a guard, with should_cancel asked from the progress monitor: the calls that may
 * read or write every scan (start, finish, the coefficient passes). The others are not polled: the Swift side
 * asks between bands of rows. */
#define PB_POLLED(frame, call)     \
    do {                           \
        (frame)->poll_cancel = 1;  \
        call;                      \
        (frame)->poll_cancel = 0;  \
    } while (0)

/* Records PB_JPEG_MISUSE with message unless the frame has failed already; returns the frame's status. */
int pb_frame_misuse(pb_frame *frame, const char *message);

/* Where PB_GUARD lands: closes the guard and returns the recorded status. */
int pb_frame_failed(pb_frame *frame);

/* Closes the guard of a call that succeeded: returns PB_JPEG_OK. */
int pb_frame_leave(pb_frame *frame);

/* pb_frame_leave after the output is complete: *output and *output_length are the file in the frame's buffer,
 * valid until the handle is freed. */
int pb_frame_leave_with_output(pb_frame *frame, const uint8_t **output, size_t *output_length);

/* Fails the running call with our own status and message; only inside a guard or a libjpeg callback. */
void pb_frame_fail_now(pb_frame *frame, int status, const char *message);

/* Asks should_cancel now and fails the running call when it says stop; only inside a guard. */
void pb_frame_check_cancel(pb_frame *frame);

/* Records PB_JPEG_UNSUPPORTED with its reason and detail (pb_jpeg_unsupported_reason). */
void pb_record_unsupported(pb_jpeg_failure *failure, int reason, int detail);

/* ---- what the decoder and the transcoder share (header.c) ---- */

/* An exported read_header: jpeg_read_header of the source over data (which must stay valid until the handle is
 * freed), described in *header. save_metadata keeps APP1 and APP2 segments for header->exif and ICC chunks. */
int pb_frame_read_header(pb_frame *frame, const uint8_t *data, size_t length, int save_metadata,
                         pb_jpeg_header *header);

/* One iMCU of the source in pixels, unscaled: the grid a lossless crop starts on. */
void pb_source_imcu_size(const struct jpeg_decompress_struct *source, int *width, int *height);

/* ---- the memory destination (memory_destination.c) ---- */

/* Makes destination cinfo's destination; after jpeg_create_compress, which clears cinfo->dest. */
void pb_memory_destination_attach(pb_memory_destination *destination, j_compress_ptr cinfo);

#endif
