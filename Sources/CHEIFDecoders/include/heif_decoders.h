/* photobook's own libheif decoder plugins: HEVC through libavcodec, AV1 through dav1d, each with one thread.
 *
 * libheif 1.15 decodes HEVC with libde265, one worker thread a decode, ~1.0 s of CPU for a 12-megapixel HEIC
 * here; libavcodec's HEVC decoder gives the same picture (HEVC decoding is exact) in ~0.7 s. Its AV1 plugin
 * keeps dav1d's default of a thread per CPU, which no libheif option sets: ours asks for one, so that
 * `--jobs` still means what it says. libheif keeps doing everything else (boxes, grids, irot/imir/clap, alpha,
 * the YCbCr to RGB conversion with the file's nclx): the plugins only turn a coded picture into planes. The one
 * exception is asked for by the caller (pbheif_keep_next_picture): an image libheif would only convert to RGB
 * keeps the decoder's planes, which photobook converts a row at a time (HEIFYCbCrPicture), 18 MB held for a
 * 12-megapixel picture instead of the 54 MB of libheif's copy and its RGB at once.
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

/* A decoded 8-bit YCbCr picture as the decoder left it: three planes, the chroma ones subsampled by
 * 2^chroma_shift_x and 2^chroma_shift_y, and the bitstream's colour codes as libheif would take them (codes its
 * setters refuse read 2, unspecified). `owner` holds the planes until pbheif_release_planes. */
struct pbheif_planes {
    int width, height;
    int chroma_shift_x, chroma_shift_y;
    const uint8_t *data[3];
    int stride[3];
    int matrix_coefficients, color_primaries, full_range;
    void *owner;
    int owner_is_av1;  /* owner: dav1d's picture, else libavcodec's frame */
};

/* With `keep` 1, the next HEVC or AV1 picture decoded on this thread that is 8-bit YCbCr is kept as its planes instead
 * of being copied into a heif_image for libheif, which would convert it to RGB: heif_decode_image then fails
 * (heif_error_Decoder_plugin_error) and pbheif_take_kept_picture hands the planes out. Only for an image libheif
 * would do nothing more to than that conversion: one coded picture, no grid, alpha, irot, imir or clap.
 * 0 drops what is kept and takes nothing more. */
void pbheif_keep_next_picture(int keep);

/* 1 and the kept picture's planes (released with pbheif_release_planes), or 0 when none was kept; either way
 * nothing more is kept on this thread until pbheif_keep_next_picture(1). */
int pbheif_take_kept_picture(struct pbheif_planes *planes);

void pbheif_release_planes(struct pbheif_planes *planes);

/* The HEVC pictures decoded on this thread from now on are a grid's tiles, in libheif 1.15's row-major order:
 * those whose byte in `skip` (`count` of them, kept alive by the caller) is 1 are not decoded, and libheif gets
 * a 1x1 blank tile for each, leaving that part of the grid's canvas unwritten. NULL stops it. Only for a grid
 * of 8-bit tiles with no alpha (HEIFGridTiles). */
void pbheif_skip_tiles(const uint8_t *skip, int count);

/* How many tiles were left out on this thread since the last pbheif_skip_tiles with tiles to skip. */
int pbheif_tiles_skipped(void);


#endif
