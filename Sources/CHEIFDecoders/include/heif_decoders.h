/* photobook's own libheif decoder plugins: HEVC through libavcodec, AV1 through dav1d, each with one thread.
 *
 * libheif 1.15 decodes HEVC with libde265, one worker thread a decode, ~1.0 s of CPU for a 12-megapixel HEIC
 * here; libavcodec's HEVC decoder gives the same picture (HEVC decoding is exact) in ~0.7 s. Its AV1 plugin
 * keeps dav1d's default of a thread per CPU, which no libheif option sets: ours asks for one, so that
 * `--jobs` still means what it says. libheif keeps doing everything else (boxes, grids, irot/imir/clap, alpha,
 * the YCbCr to RGB conversion with the file's nclx): the plugins only turn a coded picture into planes.
 */
#ifndef PHOTOBOOK_HEIF_DECODERS_H
#define PHOTOBOOK_HEIF_DECODERS_H

#include <stdint.h>
#include <libheif/heif.h>

/* Registers both plugins on `context` (libheif 1.15 prefers a context's plugins of higher priority to its
 * own). Returns heif_error_Ok, or libheif's error. */
struct heif_error pbheif_register_decoders(struct heif_context *context);

/* The most pixels a picture may have for the decodes that follow on this thread (0: no limit of ours); a coded
 * picture may be somewhat larger (padding to whole coding blocks, tiles overhanging a grid).
 * The decoders allocate what the bitstream's own header says, which libheif 1.15 never checks against the
 * file's `ispe`; libheif calls the plugins on the thread that called heif_decode_image when the context's
 * max_decoding_threads is 0. */
void pbheif_set_max_pixels(uint64_t pixels);


#endif
