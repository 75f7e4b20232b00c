#include "plugins.h"

#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
#include <stdlib.h>
#include <string.h>

/* The decode under way on this thread (pbheif_arm), or NULL: the plugins then decode with no limit of ours, keep
 * nothing and skip no tile. The only state the plugins keep between libheif's calls; the caller owns it. */
_Thread_local struct pbheif_call *pbheif_armed;

const char pbheif_kept_message[] = "photobook: the decoded picture was kept as its planes";


void pbheif_arm(struct pbheif_call *call, uint64_t pixels) {
    memset(call, 0, sizeof *call);
    /* The coded picture is the shown one padded to whole coding blocks (a 160x107 HEIC codes 160x112), and a
     * grid's tiles may overhang its canvas: room for both, still far from what a lying header could ask. */
    call->max_pixels = pixels == 0 ? 0 : pixels > UINT64_MAX / 4 ? UINT64_MAX : 2 * pixels + (1u << 20);
    pbheif_armed = call;
}

void pbheif_disarm(struct pbheif_call *call) {
    AVFrame *frame = call->kept_frame;
    av_frame_free(&frame);
    Dav1dPicture *picture = call->kept_av1;
    pbheif_free_av1(&picture);
    call->kept_frame = call->kept_av1 = NULL;
    if (pbheif_armed == call) pbheif_armed = NULL;
}

struct heif_error pbheif_ok(void) {
    struct heif_error e = {heif_error_Ok, heif_suberror_Unspecified, "Success"};
    return e;
}

/* libheif keeps the pointer to `message` past the call: only string literals are handed out. */
struct heif_error pbheif_failure(enum heif_suberror_code sub, const char *message) {
    struct heif_error e = {heif_error_Decoder_plugin_error, sub, message};
    return e;
}

struct heif_error pbheif_out_of_memory(void) {
    struct heif_error e = {heif_error_Memory_allocation_error, heif_suberror_Unspecified,
                           "not enough memory for the decoder"};
    return e;
}

/* A coded picture bigger than the limit is refused before the decoder allocates its planes. */
int pbheif_over_limit(uint64_t width, uint64_t height) {
    return pbheif_armed && pbheif_armed->max_pixels != 0 && width * height > pbheif_armed->max_pixels;
}

/* One decoded picture's planes copied into a new heif_image: `planes` of `bits` (8 to 16; above 8, two bytes a
 * sample, native order), the chroma planes subsampled by 2^shift_x and 2^shift_y. */
struct heif_error pbheif_picture_to_heif(int width, int height, int planes, int bits, int shift_x, int shift_y,
                                         uint8_t *const data[3], const ptrdiff_t stride[3],
                                         const struct heif_color_profile_nclx *nclx, struct heif_image **out) {
    enum heif_colorspace space = planes == 1 ? heif_colorspace_monochrome : heif_colorspace_YCbCr;
    enum heif_chroma chroma;
    if (planes == 1) chroma = heif_chroma_monochrome;
    else if (shift_x == 1 && shift_y == 1) chroma = heif_chroma_420;
    else if (shift_x == 1 && shift_y == 0) chroma = heif_chroma_422;
    else if (shift_x == 0 && shift_y == 0) chroma = heif_chroma_444;
    else return pbheif_failure(heif_suberror_Unsupported_color_conversion, "unsupported chroma subsampling");
    if (bits < 8 || bits > 16) return pbheif_failure(heif_suberror_Unsupported_bit_depth, "unsupported bit depth");

    struct heif_image *image = NULL;
    struct heif_error e = heif_image_create(width, height, space, chroma, &image);
    if (e.code != heif_error_Ok) return e;
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    size_t bytes = bits > 8 ? 2 : 1;
    for (int c = 0; c < planes; c++) {
        int w = c == 0 ? width : (width + (1 << shift_x) - 1) >> shift_x;
        int h = c == 0 ? height : (height + (1 << shift_y) - 1) >> shift_y;
        e = heif_image_add_plane(image, channels[c], w, h, bits);
        if (e.code != heif_error_Ok) {
            heif_image_release(image);
            return e;
        }
        int out_stride = 0;
        uint8_t *plane = heif_image_get_plane(image, channels[c], &out_stride);
        for (int y = 0; y < h; y++) memcpy(plane + (size_t)y * out_stride, data[c] + y * stride[c], (size_t)w * bytes);
    }
    if (nclx) heif_image_set_nclx_color_profile(image, nclx);
    *out = image;
    return pbheif_ok();
}

/* The colour description a bitstream carries; codes libheif's setters refuse stay "unspecified" (2), as
 * libheif's own plugins leave them. */
void pbheif_describe(struct heif_color_profile_nclx *nclx, int primaries, int transfer, int matrix, int full) {
    nclx->color_primaries = heif_color_primaries_unspecified;
    nclx->transfer_characteristics = heif_transfer_characteristic_unspecified;
    nclx->matrix_coefficients = heif_matrix_coefficients_unspecified;
    heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)primaries);
    heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)transfer);
    heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)matrix);
    nclx->full_range_flag = (uint8_t)(full != 0);
}

/* ---- HEVC through libavcodec ---------------------------------------------------------------------------- */

/* libheif 1.15 pushes the hvcC header's NAL units and then the image's, each behind a 4-byte big-endian length
 * (what its own libde265 plugin assumes too); libavcodec without extradata wants Annex B: start codes. */
typedef struct {
    uint8_t *bytes;
    size_t length, capacity;
} hevc_stream;

static const char *hevc_name(void) { return "photobook: HEVC through libavcodec " LIBAVCODEC_IDENT; }

static int hevc_supports(enum heif_compression_format format) {
    return format == heif_compression_HEVC ? PRIORITY : 0;
}

static struct heif_error hevc_new(void **decoder) {
    hevc_stream *stream = calloc(1, sizeof *stream);
    if (!stream) return pbheif_out_of_memory();
    *decoder = stream;
    return pbheif_ok();
}

static void hevc_free(void *decoder) {
    hevc_stream *stream = decoder;
    if (!stream) return;
    av_free(stream->bytes);
    free(stream);
}

static struct heif_error hevc_push(void *decoder, const void *data, size_t size) {
    hevc_stream *stream = decoder;
    const uint8_t *p = data;
    size_t at = 0;
    while (at < size) {
        if (size - at < 4) return pbheif_failure(heif_suberror_End_of_data, "NAL unit length cut short");
        size_t n = ((size_t)p[at] << 24) | ((size_t)p[at + 1] << 16) | ((size_t)p[at + 2] << 8) | p[at + 3];
        at += 4;
        if (n > size - at) return pbheif_failure(heif_suberror_End_of_data, "NAL unit longer than the image data");
        size_t need = stream->length + 4 + n + AV_INPUT_BUFFER_PADDING_SIZE;
        if (need > stream->capacity) {
            size_t capacity = need > 2 * stream->capacity ? need : 2 * stream->capacity;
            /* av_realloc: the bytes become the packet's own buffer (hevc_decode), which av_free releases. */
            uint8_t *bytes = av_realloc(stream->bytes, capacity);
            if (!bytes) return pbheif_out_of_memory();
            stream->bytes = bytes;
            stream->capacity = capacity;
        }
        static const uint8_t start[4] = {0, 0, 0, 1};
        memcpy(stream->bytes + stream->length, start, 4);
        memcpy(stream->bytes + stream->length + 4, p + at, n);
        stream->length += 4 + n;
        at += n;
    }
    return pbheif_ok();
}

static struct heif_error hevc_frame_to_heif(const AVFrame *frame, struct heif_image **out) {
    const AVPixFmtDescriptor *format = av_pix_fmt_desc_get((enum AVPixelFormat)frame->format);
    if (!format || (format->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BE |
                                     AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_BITSTREAM)) ||
        !(format->flags & AV_PIX_FMT_FLAG_PLANAR || format->nb_components == 1) ||
        (format->nb_components != 1 && format->nb_components != 3))
        return pbheif_failure(heif_suberror_Unsupported_color_conversion, "libavcodec gave an unsupported pixel format");
    int bits = format->comp[0].depth;
    for (int c = 1; c < format->nb_components; c++)
        if (format->comp[c].depth != bits || format->comp[c].plane != c)
            return pbheif_failure(heif_suberror_Unsupported_bit_depth, "libavcodec gave planes of different depths");
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (!nclx) return pbheif_out_of_memory();
    /* FFmpeg's colour enums are the H.273 codes; the deprecated yuvj formats also mean full range. */
    int full = frame->color_range == AVCOL_RANGE_JPEG || frame->format == AV_PIX_FMT_YUVJ420P ||
               frame->format == AV_PIX_FMT_YUVJ422P || frame->format == AV_PIX_FMT_YUVJ444P;
    pbheif_describe(nclx, frame->color_primaries, frame->color_trc, frame->colorspace, full);
    uint8_t *data[3] = {frame->data[0], frame->data[1], frame->data[2]};
    ptrdiff_t stride[3] = {frame->linesize[0], frame->linesize[1], frame->linesize[2]};
    struct heif_error e = pbheif_picture_to_heif(frame->width, frame->height, format->nb_components, bits,
                                          format->log2_chroma_w, format->log2_chroma_h, data, stride, nclx, out);
    heif_nclx_color_profile_free(nclx);
    return e;
}

/* Takes `frame` into the keep slot when it is YCbCr in three planes of 8 bits, or of 10 or 12 in little-endian
 * 16-bit words (what HEIFYCbCrPicture converts); 0 leaves it to libheif. */
static int keep(AVFrame *frame) {
    const AVPixFmtDescriptor *format = av_pix_fmt_desc_get((enum AVPixelFormat)frame->format);
    if (!format || format->nb_components != 3 || !(format->flags & AV_PIX_FMT_FLAG_PLANAR) ||
        (format->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_HWACCEL |
                          AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_ALPHA)) ||
        format->log2_chroma_w > 1 || format->log2_chroma_h > format->log2_chroma_w)
        return 0;
    int depth = format->comp[0].depth;
    if (depth != 8 && depth != 10 && depth != 12) return 0;
    for (int c = 0; c < 3; c++)
        if (format->comp[c].depth != depth || format->comp[c].plane != c || format->comp[c].shift != 0 ||
            format->comp[c].step != (depth == 8 ? 1 : 2))
            return 0;
    int full = frame->color_range == AVCOL_RANGE_JPEG || frame->format == AV_PIX_FMT_YUVJ420P ||
               frame->format == AV_PIX_FMT_YUVJ422P || frame->format == AV_PIX_FMT_YUVJ444P;
    pbheif_describe(&pbheif_armed->kept_nclx, frame->color_primaries, frame->color_trc, frame->colorspace, full);
    AVFrame *earlier = pbheif_armed->kept_frame;
    av_frame_free(&earlier);
    pbheif_armed->kept_frame = frame;
    return 1;
}

void pbheif_free_av1(Dav1dPicture **picture) {
    if (!*picture) return;
    dav1d_picture_unref(*picture);
    free(*picture);
    *picture = NULL;
}

int pbheif_take_kept_picture(struct pbheif_call *call, struct pbheif_planes *planes) {
    call->keep = 0;
    if (call->kept_av1) {
        Dav1dPicture *picture = call->kept_av1;
        call->kept_av1 = NULL;
        planes->width = picture->p.w;
        planes->height = picture->p.h;
        planes->bits = picture->p.bpc;
        planes->chroma_shift_x = picture->p.layout != DAV1D_PIXEL_LAYOUT_I444;
        planes->chroma_shift_y = picture->p.layout == DAV1D_PIXEL_LAYOUT_I420;
        for (int c = 0; c < 3; c++) {
            planes->data[c] = picture->data[c];
            planes->stride[c] = (int)picture->stride[c == 0 ? 0 : 1];
        }
        planes->matrix_coefficients = call->kept_nclx.matrix_coefficients;
        planes->color_primaries = call->kept_nclx.color_primaries;
        planes->full_range = call->kept_nclx.full_range_flag;
        planes->owner = picture;
        planes->owner_is_av1 = 1;
        return 1;
    }
    AVFrame *frame = call->kept_frame;
    call->kept_frame = NULL;
    if (!frame) return 0;
    planes->owner_is_av1 = 0;
    const AVPixFmtDescriptor *format = av_pix_fmt_desc_get((enum AVPixelFormat)frame->format);
    planes->width = frame->width;
    planes->height = frame->height;
    planes->bits = format->comp[0].depth;
    planes->chroma_shift_x = format->log2_chroma_w;
    planes->chroma_shift_y = format->log2_chroma_h;
    for (int c = 0; c < 3; c++) {
        planes->data[c] = frame->data[c];
        planes->stride[c] = frame->linesize[c];
    }
    planes->matrix_coefficients = call->kept_nclx.matrix_coefficients;
    planes->color_primaries = call->kept_nclx.color_primaries;
    planes->full_range = call->kept_nclx.full_range_flag;
    planes->owner = frame;
    return 1;
}

void pbheif_release_planes(struct pbheif_planes *planes) {
    if (planes->owner_is_av1) {
        Dav1dPicture *picture = planes->owner;
        pbheif_free_av1(&picture);
    } else {
        AVFrame *frame = planes->owner;
        av_frame_free(&frame);
    }
    planes->owner = NULL;
}

/* A 1x1 planar RGB 4:4:4 picture: libheif 1.15 converts nothing (the grid's canvas is RGB 4:4:4), checks only the
 * chroma and the depth, and pastes min(tile, canvas) pixels: one. The rest of that tile's canvas stays unwritten. */
static struct heif_error blank_tile(struct heif_image **out) {
    struct heif_image *image = NULL;
    struct heif_error e = heif_image_create(1, 1, heif_colorspace_RGB, heif_chroma_444, &image);
    if (e.code != heif_error_Ok) return e;
    static const enum heif_channel channels[3] = {heif_channel_R, heif_channel_G, heif_channel_B};
    for (int c = 0; c < 3; c++) {
        e = heif_image_add_plane(image, channels[c], 1, 1, 8);
        if (e.code != heif_error_Ok) {
            heif_image_release(image);
            return e;
        }
        int stride = 0;
        *heif_image_get_plane(image, channels[c], &stride) = 0;
    }
    *out = image;
    return pbheif_ok();
}

static struct heif_error hevc_decode(void *decoder, struct heif_image **out) {
    hevc_stream *stream = decoder;
    if (pbheif_armed && pbheif_armed->skip) {
        int index = pbheif_armed->tile_index++;
        if (index < pbheif_armed->tile_count && pbheif_armed->skip[index]) {
            pbheif_armed->tiles_skipped++;
            return blank_tile(out);
        }
    }
    if (stream->length == 0) return pbheif_failure(heif_suberror_End_of_data, "no image data");
    memset(stream->bytes + stream->length, 0, AV_INPUT_BUFFER_PADDING_SIZE);
    const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_HEVC);
    if (!codec) return pbheif_failure(heif_suberror_Unsupported_codec, "libavcodec has no HEVC decoder");
    AVCodecContext *context = avcodec_alloc_context3(codec);
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    struct heif_error e;
    if (!context || !packet || !frame) {
        e = pbheif_out_of_memory();
        goto done;
    }
    context->thread_count = 1;
    uint64_t max_pixels = pbheif_armed ? pbheif_armed->max_pixels : 0;
    if (max_pixels != 0) context->max_pixels = max_pixels > INT64_MAX ? INT64_MAX : (int64_t)max_pixels;
    if (avcodec_open2(context, codec, NULL) < 0) {
        e = pbheif_failure(heif_suberror_Unspecified, "libavcodec cannot open its HEVC decoder");
        goto done;
    }
    /* A packet without a buffer of its own is copied by avcodec_send_packet (av_packet_ref): the bitstream
     * (2-4 MB for a phone's 12 MP) is handed over instead, and freed with the decoder. */
    packet->buf = av_buffer_create(stream->bytes, stream->capacity, av_buffer_default_free, NULL, 0);
    if (!packet->buf) {
        e = pbheif_out_of_memory();
        goto done;
    }
    packet->data = stream->bytes;
    packet->size = stream->length > INT32_MAX ? INT32_MAX : (int)stream->length;
    stream->bytes = NULL;
    stream->length = stream->capacity = 0;
    /* Damaged slices are concealed, as libde265 does: a picture that comes out at all is handed on. */
    avcodec_send_packet(context, packet);
    avcodec_send_packet(context, NULL);
    int received = avcodec_receive_frame(context, frame);
    if (received < 0 || frame->width <= 0 || frame->height <= 0) {
        e = pbheif_failure(heif_suberror_Unspecified, "libavcodec decoded no picture");
        goto done;
    }
    if (pbheif_over_limit((uint64_t)frame->width, (uint64_t)frame->height)) {
        e = pbheif_failure(heif_suberror_Security_limit_exceeded, "coded picture larger than the limit");
        goto done;
    }
    /* The decoder's own state (its reference and SAO pictures, motion tables: ~20 MB for 12 MP) goes before the
     * picture is copied; the frame keeps its planes alive by reference. */
    avcodec_free_context(&context);
    if (pbheif_armed && pbheif_armed->keep && keep(frame)) {
        frame = NULL;
        e = pbheif_failure(heif_suberror_Unspecified, pbheif_kept_message);
        goto done;
    }
    e = hevc_frame_to_heif(frame, out);
done:
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&context);
    return e;
}

void pbheif_no_strictness(void *decoder, int flag) { (void)decoder; (void)flag; }

const struct heif_decoder_plugin pbheif_hevc_plugin = {
    3, hevc_name, NULL, NULL, hevc_supports, hevc_new, hevc_free, hevc_push, hevc_decode, pbheif_no_strictness,
    "photobook-libavcodec-hevc",
};

struct heif_error pbheif_register_decoders(struct heif_context *context) {
    /* A libheif other than the one photobook was built with (an upgrade without a rebuild) may call the plugins
     * differently: refused by name rather than decoded wrong. */
    if (heif_get_version_number_major() != 1 || heif_get_version_number_minor() != 15) {
        struct heif_error e = {heif_error_Unsupported_feature, heif_suberror_Unspecified,
                               "photobook's HEIF decoders are built for libheif 1.15 and this is another libheif: "
                               "rebuild photobook against it"};
        return e;
    }
    /* libavcodec logs damaged data to stderr: the reason a photo is refused is photobook's to tell. */
    av_log_set_level(AV_LOG_QUIET);
    /* heif_register_decoder is marked deprecated in 1.15 in favour of the process-wide registry, whose set of
     * plugins is not guarded against a decode running on another thread; a context's own list is. */
    struct heif_error e = heif_register_decoder(context, &pbheif_hevc_plugin);
    if (e.code != heif_error_Ok) return e;
    return heif_register_decoder(context, &pbheif_av1_plugin);
}
