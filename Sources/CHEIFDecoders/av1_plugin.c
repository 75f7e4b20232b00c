/* photobook's AV1 decoder plugin for libheif: dav1d with one thread (libheif 1.15's own takes one a CPU, which no
 * libheif option sets), so that --jobs still means what it says. */
#include "plugins.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    Dav1dContext *context;
    Dav1dData data;
} av1_decoder;

static const char *av1_name(void) { return "photobook: AV1 through dav1d, one thread"; }

static int av1_supports(enum heif_compression_format format) {
    return format == heif_compression_AV1 ? PRIORITY : 0;
}

static struct heif_error av1_new(void **decoder) {
    av1_decoder *d = calloc(1, sizeof *d);
    if (!d) return pbheif_out_of_memory();
    Dav1dSettings settings;
    dav1d_default_settings(&settings);
    settings.n_threads = 1;
    settings.max_frame_delay = 1;
    settings.all_layers = 0;
    /* dav1d checks this before it allocates a frame; 0 would be its own (no) limit. */
    uint64_t max_pixels = pbheif_armed ? pbheif_armed->max_pixels : 0;
    settings.frame_size_limit = max_pixels == 0 || max_pixels > UINT32_MAX ? 0 : (unsigned)max_pixels;
    if (dav1d_open(&d->context, &settings) != 0) {
        free(d);
        return pbheif_failure(heif_suberror_Unspecified, "dav1d cannot open a decoder");
    }
    *decoder = d;
    return pbheif_ok();
}

static void av1_free(void *decoder) {
    av1_decoder *d = decoder;
    if (!d) return;
    if (d->data.sz) dav1d_data_unref(&d->data);
    if (d->context) dav1d_close(&d->context);
    free(d);
}

static struct heif_error av1_push(void *decoder, const void *data, size_t size) {
    av1_decoder *d = decoder;
    if (d->data.sz) return pbheif_failure(heif_suberror_Unspecified, "image data pushed twice");
    uint8_t *bytes = dav1d_data_create(&d->data, size);
    if (!bytes) return pbheif_out_of_memory();
    memcpy(bytes, data, size);
    return pbheif_ok();
}

static struct heif_error av1_decode(void *decoder, struct heif_image **out) {
    av1_decoder *d = decoder;
    Dav1dPicture picture;
    memset(&picture, 0, sizeof picture);
    for (;;) {
        int sent = d->data.sz ? dav1d_send_data(d->context, &d->data) : 0;
        if (sent < 0 && sent != DAV1D_ERR(EAGAIN)) return pbheif_failure(heif_suberror_Unspecified, "dav1d refused the image data");
        int got = dav1d_get_picture(d->context, &picture);
        if (got == 0) break;
        if (got != DAV1D_ERR(EAGAIN) || d->data.sz == 0) {
            /* All data sent and no picture yet: one last try once dav1d has drained. */
            if (got == DAV1D_ERR(EAGAIN) && dav1d_get_picture(d->context, &picture) == 0) break;
            return pbheif_failure(heif_suberror_Unspecified, "dav1d decoded no picture");
        }
    }
    /* YCbCr in three planes of 8, 10 or 12 bits, when asked: kept for the caller, as an HEVC frame is (keep). */
    if (pbheif_armed && pbheif_armed->keep && (picture.p.bpc == 8 || picture.p.bpc == 10 || picture.p.bpc == 12) &&
        picture.p.layout != DAV1D_PIXEL_LAYOUT_I400) {
        Dav1dPicture *kept = pbheif_armed->kept_av1;
        pbheif_free_av1(&kept);
        kept = malloc(sizeof *kept);
        pbheif_armed->kept_av1 = kept;
        if (kept) {
            pbheif_describe(&pbheif_armed->kept_nclx, picture.seq_hdr->pri, picture.seq_hdr->trc, picture.seq_hdr->mtrx,
                     picture.seq_hdr->color_range);
            *kept = picture;  /* the reference moves into the slot */
            return pbheif_failure(heif_suberror_Unspecified, pbheif_kept_message);
        }
    }
    int planes = picture.p.layout == DAV1D_PIXEL_LAYOUT_I400 ? 1 : 3;
    int shift_x = picture.p.layout == DAV1D_PIXEL_LAYOUT_I420 || picture.p.layout == DAV1D_PIXEL_LAYOUT_I422;
    int shift_y = picture.p.layout == DAV1D_PIXEL_LAYOUT_I420;
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    struct heif_error e;
    if (!nclx) {
        e = pbheif_out_of_memory();
    } else {
        pbheif_describe(nclx, picture.seq_hdr->pri, picture.seq_hdr->trc, picture.seq_hdr->mtrx, picture.seq_hdr->color_range);
        uint8_t *data[3] = {picture.data[0], picture.data[1], picture.data[2]};
        ptrdiff_t stride[3] = {picture.stride[0], picture.stride[1], picture.stride[1]};
        e = pbheif_picture_to_heif(picture.p.w, picture.p.h, planes, picture.p.bpc, shift_x, shift_y, data, stride, nclx, out);
        heif_nclx_color_profile_free(nclx);
    }
    dav1d_picture_unref(&picture);
    return e;
}

const struct heif_decoder_plugin pbheif_av1_plugin = {
    3, av1_name, NULL, NULL, av1_supports, av1_new, av1_free, av1_push, av1_decode, pbheif_no_strictness,
    "photobook-dav1d",
};
