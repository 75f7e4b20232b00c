/*
 * libjpeg's large blocks (whole-image coefficient arrays: 24 MB for a 12-megapixel photo's luma, 6 MB for each
 * chroma array; a lossless crop's output about half that), taken from photobook's buffer pool (Imaging's
 * BufferPool) and given back to it, so that they and the decoded photos and pages share one bounded set of
 * buffers instead of each being a fresh mapping.
 *
 * photobook fixes glibc's mmap threshold at 16 MB (Platform/ProcessMemory.swift) so that memory stays flat, which
 * makes every such block of 16 MB or more a fresh mapping, and the trim threshold that comes with it returns a
 * freed heap top to the kernel: about 6,000 page faults, 25 ms of system time, for each lossless crop. libjpeg
 * gets all its large memory through jpeg_get_large / jpeg_free_large (jmemnobs.c), which libjpeg.so exports and
 * calls through its PLT: defining them here, in the executable, takes their place (ELF symbol interposition).
 * The JPEG module installs the pool (pb_jpeg_use_large_block_pool) before it makes any libjpeg object; until
 * then, and for blocks under the pool's minimum, they are plain malloc and free.
 *
 * Trap: this works only while the executable exports the two symbols (GNU ld does, because libjpeg.so refers
 * to them; `nm -D .build/release/photobook`); were it not, libjpeg would keep its own and only the count of
 * reused blocks, which JPEGTests check, would tell.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>  /* jpeglib.h needs FILE */
#include <stdlib.h>

#include <jpeglib.h>

#include "jpeg_shim.h"

typedef struct {
    size_t minimum;
    pb_large_block_take take;
    pb_large_block_give give;
} block_pool;

/* Set once, before any libjpeg object exists; read by every worker. */
static _Atomic(const block_pool *) pool;
static atomic_ulong reused_count;

void *jpeg_get_large(j_common_ptr cinfo, size_t sizeofobject);
void jpeg_free_large(j_common_ptr cinfo, void *object, size_t sizeofobject);

void pb_jpeg_use_large_block_pool(size_t minimum, pb_large_block_take take, pb_large_block_give give) {
    /* The first pool stays: a block taken from it must go back to it. */
    static block_pool installed;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    if (atomic_load(&pool) == NULL) {
        installed.minimum = minimum;
        installed.take = take;
        installed.give = give;
        atomic_store(&pool, &installed);
    }
    pthread_mutex_unlock(&lock);
}

void *jpeg_get_large(j_common_ptr cinfo, size_t sizeofobject) {
    (void)cinfo;
    const block_pool *p = atomic_load(&pool);
    if (p == NULL || sizeofobject < p->minimum)
        return malloc(sizeofobject);
    int reused = 0;
    void *block = p->take(sizeofobject, &reused);
    if (reused)
        atomic_fetch_add(&reused_count, 1);
    return block;
}

void jpeg_free_large(j_common_ptr cinfo, void *object, size_t sizeofobject) {
    (void)cinfo;
    const block_pool *p = atomic_load(&pool);
    if (p == NULL || sizeofobject < p->minimum) {
        free(object);
        return;
    }
    p->give(object, sizeofobject);
}

unsigned long pb_jpeg_large_blocks_reused(void) {
    return atomic_load(&reused_count);
}
