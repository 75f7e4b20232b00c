/* LibRaw reading a raw through photobook's own open file instead of opening it again by its path.
 *
 * LibRaw's C API opens a file by name (libraw_open_file: a std::filebuf of its own each time) or reads a buffer that
 * holds the whole file. The first made every probe, thumbnail and decode of a raw open the file again (9 opens of one
 * DNG in a build, where issue 32 allows 2) and let a file renamed over the photo mid-build be read as the new one;
 * the second would hold a 30 MB raw in memory beside its decode. Its C++ API takes any LibRaw_abstract_datastream:
 * this one reads through a callback (the codec's ByteSource: pread on the engine's open file) with a buffer of its
 * own, so that LibRaw's byte-at-a-time reads (lossless JPEG, Huffman bit readers) stay cheap.
 */
#ifndef PHOTOBOOK_RAW_STREAM_H
#define PHOTOBOOK_RAW_STREAM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Up to `count` bytes at `offset` into `buffer`: how many were read (fewer only where the file ends), or -1 when the
 * file could not be read. Called from LibRaw's threads too (OpenMP loops), one call at a time. */
typedef long (*pbraw_read_fn)(void *context, int64_t offset, void *buffer, long count);

typedef struct pbraw_stream pbraw_stream;

/* Opens the LibRaw processor `data` (a libraw_data_t * from libraw_init) on a file of `size` bytes read through
 * `read(context, ...)`; a read that fails is a short read to LibRaw, as the file's end would be. Returns LibRaw's
 * code (LIBRAW_SUCCESS is 0). *stream is set, success or not, to what must be freed with pbraw_stream_free once the
 * processor no longer reads it: after libraw_recycle or libraw_close (LibRaw leaves a stream it did not open itself
 * to its owner). raw_stream.cpp refuses to compile against any LibRaw but 0.20, whose stream class it implements. */
int pbraw_open(void *data, void *context, pbraw_read_fn read, int64_t size, pbraw_stream **stream);

void pbraw_stream_free(pbraw_stream *stream);

/* True (1) when the stream stopped LibRaw because it kept reading past the file's end (more than 65,536 reads that
 * found the end): LibRaw then returned LIBRAW_IO_ERROR. A damaged raw's counts can make LibRaw 0.20 loop for minutes
 * reading nothing (raw_stream.cpp says where); this ends such a loop in milliseconds. */
int pbraw_stream_ran_past_end(const pbraw_stream *stream);

/* The size of the repeating black-level pattern LibRaw subtracts (color.cblack[4] rows by cblack[5] columns, 0 by 0
 * for none) of the processor `data`: Swift cannot read cblack, an array of 4104 unsigned, through the C API. */
void pbraw_black_pattern(const void *data, unsigned *rows, unsigned *columns);

#ifdef __cplusplus
}
#endif

#endif
