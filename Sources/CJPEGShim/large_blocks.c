/*
 * libjpeg's large blocks (whole-image coefficient arrays: 24 MB for a 12-megapixel photo's luma), kept for the
 * next photo instead of being unmapped.
 *
 * photobook fixes glibc's mmap threshold at 16 MB (Platform/ProcessMemory.swift) so that memory stays flat, which
 * makes every such block a fresh mapping: about 6,000 page faults, 25 ms of system time, for each lossless crop.
 * libjpeg gets all its large memory through jpeg_get_large / jpeg_free_large (jmemnobs.c), which libjpeg.so
 * exports and calls through its PLT: defining them here, in the executable, takes their place (ELF symbol
 * interposition), and a few freed blocks wait here for the next photo of the same size.
 *
 * The blocks that wait here are resident beside the decode-and-resample path's own buffers when a book mixes the
 * two kinds of pages: at most KEPT_BYTES, whatever the number of photos (ResizeCropOperation frees the decoded
 * photo before turning the page upright, which more than makes up for it).
 *
 * Trap: this works only while the executable exports the two symbols (GNU ld does, because libjpeg.so refers
 * to them; `nm -D .build/release/photobook`); were it not, libjpeg would keep its own and only the count of
 * reused blocks, which JPEGTests check, would tell.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>  /* jpeglib.h needs FILE */
#include <stdlib.h>

#include <jpeglib.h>

#include "jpeg_shim.h"

/* Blocks under this size come from malloc's heaps anyway (the mmap threshold). */
#define LARGE_BLOCK ((size_t)16 << 20)
/* At most this much waits here unused: one 12-megapixel luma array (24 MB). Two, one per worker, saved a little
 * more system time but lifted the peak of an 800-photo book over 200 MB (make bench-memory). */
#define KEPT_BYTES ((size_t)32 << 20)
#define SLOTS 4

typedef struct {
    size_t capacity;   /* bytes after the header */
    size_t unused;     /* keeps the object 16-byte aligned, as malloc's */
} block_header;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static block_header *kept[SLOTS];
static size_t kept_bytes;
static unsigned long reused_count;

void *jpeg_get_large(j_common_ptr cinfo, size_t sizeofobject);
void jpeg_free_large(j_common_ptr cinfo, void *object, size_t sizeofobject);

void *jpeg_get_large(j_common_ptr cinfo, size_t sizeofobject) {
    (void)cinfo;
    if (sizeofobject < LARGE_BLOCK)
        return malloc(sizeofobject);
    block_header *found = NULL;
    pthread_mutex_lock(&lock);
    int best = -1;
    for (int i = 0; i < SLOTS; i++) {
        /* A block up to an eighth larger than asked for will do; a far larger one stays for a photo that needs it. */
        if (kept[i] != NULL && kept[i]->capacity >= sizeofobject && kept[i]->capacity - sizeofobject <= sizeofobject / 8
            && (best < 0 || kept[i]->capacity < kept[best]->capacity))
            best = i;
    }
    if (best >= 0) {
        found = kept[best];
        kept[best] = NULL;
        kept_bytes -= found->capacity;
        reused_count++;
    }
    pthread_mutex_unlock(&lock);
    if (found == NULL) {
        if (sizeofobject <= SIZE_MAX - sizeof(block_header))
            found = malloc(sizeof(block_header) + sizeofobject);
        if (found == NULL)
            return NULL;
        found->capacity = sizeofobject;
    }
    return found + 1;
}

void jpeg_free_large(j_common_ptr cinfo, void *object, size_t sizeofobject) {
    (void)cinfo;
    if (sizeofobject < LARGE_BLOCK) {
        free(object);
        return;
    }
    block_header *block = (block_header *)object - 1;
    block_header *evicted[SLOTS] = {NULL};
    pthread_mutex_lock(&lock);
    /* The newest block is the likeliest to fit the next photo (a book's photos come in runs of one camera): older
     * ones make room for it. Kept forever, one odd-sized block would otherwise stop all reuse. */
    if (block->capacity <= KEPT_BYTES) {
        for (int i = 0; i < SLOTS && kept_bytes + block->capacity > KEPT_BYTES; i++) {
            if (kept[i] != NULL) {
                kept_bytes -= kept[i]->capacity;
                evicted[i] = kept[i];
                kept[i] = NULL;
            }
        }
    }
    for (int i = 0; i < SLOTS && block != NULL; i++) {
        if (kept[i] == NULL && kept_bytes + block->capacity <= KEPT_BYTES) {
            kept[i] = block;
            kept_bytes += block->capacity;
            block = NULL;
        }
    }
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < SLOTS; i++)
        free(evicted[i]);
    free(block);
}

unsigned long pb_jpeg_large_blocks_reused(void) {
    pthread_mutex_lock(&lock);
    unsigned long count = reused_count;
    pthread_mutex_unlock(&lock);
    return count;
}
