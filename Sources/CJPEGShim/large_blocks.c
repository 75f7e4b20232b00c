/*
 * libjpeg's large blocks (whole-image coefficient arrays: 24 MB for a 12-megapixel photo's luma, 6 MB for each
 * chroma array; a lossless crop's output about half that), taken from the buffer pool of the handle that asks
 * (pb_large_blocks, set per handle: JPEG/LargeBlockLender.swift lends a pool's buffers) and given back to it, so
 * that they and the decoded photos and pages share one bounded set of buffers instead of each being a fresh
 * mapping.
 *
 * photobook fixes glibc's mmap threshold at 16 MB (Platform/ProcessMemory.swift) so that memory stays flat, which
 * makes every such block of 16 MB or more a fresh mapping, and the trim threshold that comes with it returns a
 * freed heap top to the kernel: about 6,000 page faults, 25 ms of system time, for each lossless crop. libjpeg
 * gets all its large memory through jpeg_get_large / jpeg_free_large (jmemnobs.c), which libjpeg.so exports and
 * calls through its PLT: defining them here, in the executable, takes their place (ELF symbol interposition).
 * They find the handle's pool through cinfo->err, the handle's frame (frame.h), as the error manager does: no
 * state is shared between handles here, so two handles with two pools on two threads never meet. Blocks under
 * the pool's minimum, and every block of a handle without a pool or of a libjpeg object that is not ours, are
 * plain malloc and free.
 *
 * Trap: this works only while the executable exports the two symbols (GNU ld does, because libjpeg.so refers
 * to them; `nm -D .build/release/photobook`); were it not, libjpeg would keep its own and only the pool's count
 * of reused buffers, which JPEGTests check, would tell.
 */
#include <stdlib.h>

#include "frame.h"

void *jpeg_get_large(j_common_ptr cinfo, size_t sizeofobject);
void jpeg_free_large(j_common_ptr cinfo, void *object, size_t sizeofobject);

void *jpeg_get_large(j_common_ptr cinfo, size_t sizeofobject) {
    const pb_frame *frame = pb_frame_of(cinfo);
    if (frame == NULL || frame->blocks.take == NULL || sizeofobject < frame->blocks.minimum)
        return malloc(sizeofobject);
    return frame->blocks.take(frame->blocks.context, sizeofobject);
}

void jpeg_free_large(j_common_ptr cinfo, void *object, size_t sizeofobject) {
    (void)sizeofobject;
    const pb_frame *frame = pb_frame_of(cinfo);
    /* The lender knows the blocks it handed out: whether this one is its own does not hang on the size here. */
    if (frame != NULL && frame->blocks.give != NULL && frame->blocks.give(frame->blocks.context, object))
        return;
    free(object);
}
