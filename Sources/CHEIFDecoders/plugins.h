/* What photobook's two libheif decoder plugins share (heif_decoders.c: the HEVC one, the call armed, the kept
 * planes; av1_plugin.c: the AV1 one): private to the CHEIFDecoders target. */
#ifndef PHOTOBOOK_HEIF_PLUGINS_H
#define PHOTOBOOK_HEIF_PLUGINS_H

#include "heif_decoders.h"

#include <libheif/heif_plugin.h>
#include <libavcodec/avcodec.h>
#include <dav1d/dav1d.h>
#include <stddef.h>
#include <stdint.h>

/* The plugins stand in for libheif 1.15's own and rely on how 1.15 calls them (a context's plugins of higher
 * priority first, on the thread of heif_decode_image when max_decoding_threads is 0, a grid's tiles in row-major
 * order, a plugin's failure ending heif_decode_image): a libheif whose behaviour may differ is refused when
 * photobook is built (here), and when it runs (pbheif_register_decoders), never decoded into wrong pixels. */
#if LIBHEIF_NUMERIC_VERSION < ((1 << 24) | (15 << 16)) || LIBHEIF_NUMERIC_VERSION >= ((1 << 24) | (16 << 16))
#error "photobook's HEIF decoder plugins are written for libheif 1.15 (Debian 12): check them against this libheif"
#endif
/* The HEVC frame (AVFrame's fields, AV_INPUT_BUFFER_PADDING_SIZE) and dav1d's picture kept across calls. */
#if LIBAVCODEC_VERSION_MAJOR != 59
#error "photobook's HEVC plugin is written for libavcodec 59 (FFmpeg 5.1, Debian 12): check it against this one"
#endif
#if DAV1D_API_VERSION_MAJOR != 6
#error "photobook's AV1 plugin is written for dav1d's API 6 (dav1d 1.0, Debian 12): check it against this one"
#endif

/* Above libheif 1.15's own plugins (libde265 100, dav1d 150, aom 100). */
enum { PRIORITY = 1000 };

#define PBHEIF_PRIVATE __attribute__((visibility("hidden")))

/* The decode under way on this thread (pbheif_arm), or NULL. */
PBHEIF_PRIVATE extern _Thread_local struct pbheif_call *pbheif_armed;
/* The words of the failure a plugin returns when it kept the picture for the caller. */
PBHEIF_PRIVATE extern const char pbheif_kept_message[];

PBHEIF_PRIVATE struct heif_error pbheif_ok(void);
/* libheif keeps the pointer to `message` past the call: only string literals are handed out. */
PBHEIF_PRIVATE struct heif_error pbheif_failure(enum heif_suberror_code sub, const char *message);
PBHEIF_PRIVATE struct heif_error pbheif_out_of_memory(void);
/* A coded picture bigger than the armed call's limit. */
PBHEIF_PRIVATE int pbheif_over_limit(uint64_t width, uint64_t height);
/* One decoded picture's planes copied into a new heif_image. */
PBHEIF_PRIVATE struct heif_error pbheif_picture_to_heif(int width, int height, int planes, int bits, int shift_x,
                                                        int shift_y, uint8_t *const data[3], const ptrdiff_t stride[3],
                                                        const struct heif_color_profile_nclx *nclx,
                                                        struct heif_image **out);
/* The colour description a bitstream carries, as libheif takes it. */
PBHEIF_PRIVATE void pbheif_describe(struct heif_color_profile_nclx *nclx, int primaries, int transfer, int matrix,
                                    int full);
PBHEIF_PRIVATE void pbheif_free_av1(Dav1dPicture **picture);
PBHEIF_PRIVATE void pbheif_no_strictness(void *decoder, int flag);

PBHEIF_PRIVATE extern const struct heif_decoder_plugin pbheif_hevc_plugin;
PBHEIF_PRIVATE extern const struct heif_decoder_plugin pbheif_av1_plugin;

#endif
