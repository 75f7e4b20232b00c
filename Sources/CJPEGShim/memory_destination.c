/*
 * The growable output buffer the encoder and the transcoder write their JPEG into (see frame.h).
 */
#include <stdlib.h>

#include <jerror.h>

#include "frame.h"

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
 * leaks. This destination keeps the only pointer in the handle, which frees it on every path. */
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

void pb_memory_destination_attach(pb_memory_destination *destination, j_compress_ptr cinfo) {
    destination->pub.init_destination = destination_init;
    destination->pub.empty_output_buffer = destination_grow;
    destination->pub.term_destination = destination_term;
    cinfo->dest = &destination->pub;
}
