#include "tiff_shim.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pbtiff_file {
    TIFF *tif;
    void *context;
    pbtiff_read_fn read;
    uint64_t size;
    uint64_t position;
    char error[512];
    int warning_count;
    char warnings[PBTIFF_KEPT_WARNINGS][256];
};

static pthread_once_t globals_once = PTHREAD_ONCE_INIT;

/* libtiff's default global handlers print to stderr. Ours return 1 (handled) so libtiff never calls them, but
 * a message about no file at all (tif NULL) still would: switched off once, for the whole process. */
static void silence_globals(void) {
    TIFFSetErrorHandler(NULL);
    TIFFSetWarningHandler(NULL);
    TIFFSetErrorHandlerExt(NULL);
    TIFFSetWarningHandlerExt(NULL);
}

static int on_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)module;
    pbtiff_file *file = user;
    /* The first error is the cause; libtiff often adds a vaguer one on the way out ("Cannot read ..."). */
    if (file->error[0] == 0) {
        vsnprintf(file->error, sizeof file->error, fmt, ap);
        if (file->error[0] == 0) snprintf(file->error, sizeof file->error, "unknown libtiff error");
    }
    return 1;
}

static int on_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif;
    pbtiff_file *file = user;
    if (file->warning_count < PBTIFF_KEPT_WARNINGS) {
        char *out = file->warnings[file->warning_count];
        size_t size = sizeof file->warnings[0];
        int used = snprintf(out, size, "%s: ", module ? module : "libtiff");
        if (used < 0 || (size_t)used >= size) used = 0;
        vsnprintf(out + used, size - (size_t)used, fmt, ap);
    }
    if (file->warning_count < 1000000) file->warning_count += 1;
    return 1;
}

static tmsize_t proc_read(thandle_t handle, void *buffer, tmsize_t count) {
    pbtiff_file *file = (pbtiff_file *)handle;
    if (count <= 0) return 0;
    int64_t got = file->read(file->context, file->position, buffer, (size_t)count);
    /* Trap: libtiff 4.5's TIFFReadAndRealloc adds a -1 from the read proc to the bytes it has, then memsets from one
       byte before its buffer (ASan saw it). A failed read is a short read of 0 bytes; the Swift side keeps the cause. */
    if (got < 0) return 0;
    file->position += (uint64_t)got;
    return (tmsize_t)got;
}

static tmsize_t proc_write(thandle_t handle, void *buffer, tmsize_t count) {
    (void)handle; (void)buffer; (void)count;
    return -1;
}

static toff_t proc_seek(thandle_t handle, toff_t offset, int whence) {
    pbtiff_file *file = (pbtiff_file *)handle;
    uint64_t base = whence == SEEK_CUR ? file->position : whence == SEEK_END ? file->size : 0;
    if (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END) return (toff_t)-1;
    /* Past the end is allowed (a read there returns 0 bytes), as lseek allows it; wrapping is not. */
    if (offset > UINT64_MAX - base) return (toff_t)-1;
    file->position = base + offset;
    return file->position;
}

static int proc_close(thandle_t handle) { (void)handle; return 0; }
static toff_t proc_size(thandle_t handle) { return ((pbtiff_file *)handle)->size; }
static int proc_map(thandle_t handle, void **base, toff_t *size) { (void)handle; (void)base; (void)size; return 0; }
static void proc_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

pbtiff_file *pbtiff_open(const char *name, void *context, pbtiff_read_fn read, uint64_t size,
                         tmsize_t max_single_alloc) {
    pthread_once(&globals_once, silence_globals);
    pbtiff_file *file = calloc(1, sizeof *file);
    if (file == NULL) return NULL;
    file->context = context;
    file->read = read;
    file->size = size;
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options == NULL) {
        snprintf(file->error, sizeof file->error, "out of memory");
        return file;
    }
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, max_single_alloc);
    TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, file);
    TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, file);
    /* "m": never mapped (the map proc refuses anyway); the reads go through the callback. */
    file->tif = TIFFClientOpenExt(name, "rm", (thandle_t)file, proc_read, proc_write, proc_seek, proc_close,
                                  proc_size, proc_map, proc_unmap, options);
    /* libtiff copies what it needs of the options into the TIFF handle. */
    TIFFOpenOptionsFree(options);
    if (file->tif == NULL && file->error[0] == 0) snprintf(file->error, sizeof file->error, "not a TIFF file");
    return file;
}

void pbtiff_close(pbtiff_file *file) {
    if (file == NULL) return;
    if (file->tif != NULL) TIFFClose(file->tif);
    free(file);
}

TIFF *pbtiff_tiff(pbtiff_file *file) { return file->tif; }
const char *pbtiff_error(const pbtiff_file *file) { return file->error; }
void pbtiff_clear_error(pbtiff_file *file) { file->error[0] = 0; }
int pbtiff_warning_count(const pbtiff_file *file) { return file->warning_count; }

const char *pbtiff_warning(const pbtiff_file *file, int index) {
    if (index < 0 || index >= file->warning_count || index >= PBTIFF_KEPT_WARNINGS) return "";
    return file->warnings[index];
}

int pbtiff_get_u16(TIFF *tif, uint32_t tag, uint16_t *value) { return TIFFGetField(tif, tag, value); }
int pbtiff_get_u32(TIFF *tif, uint32_t tag, uint32_t *value) { return TIFFGetField(tif, tag, value); }
int pbtiff_get_u64(TIFF *tif, uint32_t tag, uint64_t *value) { return TIFFGetField(tif, tag, value); }
int pbtiff_get_u16_defaulted(TIFF *tif, uint32_t tag, uint16_t *value) {
    return TIFFGetFieldDefaulted(tif, tag, value);
}

const char *pbtiff_get_string(TIFF *tif, uint32_t tag) {
    const char *value = NULL;
    if (!TIFFGetField(tif, tag, &value)) return NULL;
    return value;
}

int pbtiff_get_bytes(TIFF *tif, uint32_t tag, uint32_t *count, const uint8_t **data) {
    void *bytes = NULL;
    uint32_t n = 0;
    if (!TIFFGetField(tif, tag, &n, &bytes) || bytes == NULL) return 0;
    *count = n;
    *data = bytes;
    return 1;
}

int pbtiff_get_extra_samples(TIFF *tif, uint16_t *count, const uint16_t **types) {
    uint16_t *values = NULL;
    if (!TIFFGetField(tif, TIFFTAG_EXTRASAMPLES, count, &values)) return 0;
    *types = values;
    return 1;
}

int pbtiff_get_colormap(TIFF *tif, const uint16_t **red, const uint16_t **green, const uint16_t **blue) {
    uint16_t *r = NULL, *g = NULL, *b = NULL;
    if (!TIFFGetField(tif, TIFFTAG_COLORMAP, &r, &g, &b) || r == NULL || g == NULL || b == NULL) return 0;
    *red = r; *green = g; *blue = b;
    return 1;
}

int pbtiff_set_jpeg_rgb(TIFF *tif) { return TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB); }
