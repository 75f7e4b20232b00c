/* photobook's own libheif decoder plugins: HEVC through libavcodec, AV1 through dav1d, each with one thread.
 *
 * libheif 1.15 decodes HEVC with libde265, one worker thread a decode, ~1.0 s of CPU for a 12-megapixel HEIC
 * here; libavcodec's HEVC decoder gives the same picture (HEVC decoding is exact) in ~0.7 s. Its AV1 plugin
 * keeps dav1d's default of a thread per CPU, which no libheif option sets: ours asks for one, so that
 * `--jobs` still means what it says. libheif keeps doing everything else (boxes, grids, irot/imir/clap, alpha,
 * the YCbCr to RGB conversion with the file's nclx): the plugins only turn a coded picture into planes. The one
 * exception is asked for by the caller (pbheif_call.keep): an image libheif would only convert to RGB
 * keeps the decoder's planes, which photobook converts a row at a time (HEIFYCbCrPicture), 18 MB held for a
 * 12-megapixel picture instead of the 54 MB of libheif's copy and its RGB at once; for a 20-megapixel 10-bit AVIF
 * 60 MB instead of the 180 MB of libheif's 16-bit copy and its 16-bit RGB.
 */
#ifndef PHOTOBOOK_HEIF_DECODERS_H
#define PHOTOBOOK_HEIF_DECODERS_H

#include <stdint.h>
#include <libheif/heif.h>

/* Registers both plugins on `context` (libheif 1.15 prefers a context's plugins of higher priority to its
 * own). Returns heif_error_Ok, or libheif's error. */
struct heif_error pbheif_register_decoders(struct heif_context *context);

/* A decoded YCbCr picture as the decoder left it: three planes of `bits` bits a sample (8: a byte each; 10 or 12:
 * a little-endian 16-bit word each), the chroma ones subsampled by 2^chroma_shift_x and 2^chroma_shift_y, and the
 * bitstream's colour codes as libheif would take them (codes its setters refuse read 2, unspecified). `owner`
 * holds the planes until pbheif_release_planes. */
struct pbheif_planes {
    int width, height;
    int bits;
    int chroma_shift_x, chroma_shift_y;
    const uint8_t *data[3];
    int stride[3];
    int matrix_coefficients, color_primaries, full_range;
    void *owner;
    int owner_is_av1;  /* owner: dav1d's picture, else libavcodec's frame */
};

/* One call of heif_decode_image as the plugins see it: what the caller asks of them, and what they leave for it.
 * The caller owns it (on its stack, for the time of the call), arms it on the thread that calls
 * heif_decode_image (libheif calls the plugins on that thread when the context's max_decoding_threads is 0),
 * sets what it asks, decodes, reads what was left, and disarms it. */
struct pbheif_call {
    /* Asked (after pbheif_arm, which clears everything) --------------------------------------------------- */
    /* The most pixels a coded picture may have (set by pbheif_arm; 0: no limit of ours). The decoders allocate
     * what the bitstream's own header says, which libheif 1.15 never checks against the file's `ispe`. */
    uint64_t max_pixels;
    /* 1: the HEVC or AV1 picture decoded is kept as its planes when it is YCbCr of 8, 10 or 12 bits, instead of being copied
     * into a heif_image for libheif, which would convert it to RGB: heif_decode_image then fails
     * (heif_error_Decoder_plugin_error) and pbheif_take_kept_picture hands the planes out. Only for an image
     * libheif would do nothing more to than that conversion: one coded picture, no grid, alpha, irot, imir or
     * clap. */
    int keep;
    /* A grid's tiles, in libheif 1.15's row-major order: those whose byte in `skip` (`tile_count` of them, kept
     * alive by the caller) is 1 are not decoded, and libheif gets a 1x1 blank tile for each, leaving that part of
     * the grid's canvas unwritten. Only for a grid of 8-bit tiles with no alpha (HEIFGridTiles). */
    const uint8_t *skip;
    int tile_count;
    /* Left by the plugins ------------------------------------------------------------------------------- */
    int tile_index;
    int tiles_skipped;  /* how many tiles were left out */
    void *kept_frame;   /* the kept picture: libavcodec's AVFrame, or dav1d's picture */
    void *kept_av1;
    struct heif_color_profile_nclx kept_nclx;
};

/* Clears `call`, sets its pixel limit from `pixels` (0: none; a coded picture may be somewhat larger than the
 * picture shown: padding to whole coding blocks, tiles overhanging a grid) and makes it the one the plugins see
 * on this thread until pbheif_disarm. */
void pbheif_arm(struct pbheif_call *call, uint64_t pixels);

/* Releases a kept picture nobody took and leaves the thread with no call armed. */
void pbheif_disarm(struct pbheif_call *call);

/* 1 and the kept picture's planes (released with pbheif_release_planes), or 0 when none was kept. */
int pbheif_take_kept_picture(struct pbheif_call *call, struct pbheif_planes *planes);

void pbheif_release_planes(struct pbheif_planes *planes);

#endif
