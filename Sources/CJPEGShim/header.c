/*
 * The header read the decoder and the transcoder share: jpeg_read_header of the frame's source over a JPEG in
 * memory, and what it says (pb_jpeg_header).
 */
#include <string.h>

#include "frame.h"

static int color_space(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return PB_JPEG_CS_GRAYSCALE;
    case JCS_RGB: return PB_JPEG_CS_RGB;
    case JCS_YCbCr: return PB_JPEG_CS_YCBCR;
    case JCS_CMYK: return PB_JPEG_CS_CMYK;
    case JCS_YCCK: return PB_JPEG_CS_YCCK;
    default: return PB_JPEG_CS_UNKNOWN;
    }
}

/* A single-component file is coded one block at a time, whatever its sampling factors. */
void pb_source_imcu_size(const struct jpeg_decompress_struct *source, int *width, int *height) {
    if (source->num_components == 1) {
        *width = DCTSIZE;
        *height = DCTSIZE;
    } else {
        *width = DCTSIZE * source->max_h_samp_factor;
        *height = DCTSIZE * source->max_v_samp_factor;
    }
}

/* The first APP1 segment that starts with "Exif\0\0", that id removed. */
static void find_exif(const struct jpeg_decompress_struct *source, pb_jpeg_header *header) {
    for (jpeg_saved_marker_ptr marker = source->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length >= 6 &&
            memcmp(marker->data, "Exif\0\0", 6) == 0) {
            header->exif = marker->data + 6;
            header->exif_length = marker->data_length - 6;
            return;
        }
    }
}

int pb_frame_read_header(pb_frame *frame, const uint8_t *data, size_t length, int save_metadata,
                         pb_jpeg_header *header) {
    PB_ADMIT(frame, frame->header_read || data == NULL || header == NULL, "read_header called twice or without data");
    memset(header, 0, sizeof *header);
    PB_GUARD(frame);

    struct jpeg_decompress_struct *source = &frame->source;
    jpeg_mem_src(source, data, (unsigned long)length);
    if (save_metadata) {
        /* Trap: after read_header it keeps nothing */
        jpeg_save_markers(source, JPEG_APP0 + 1, 0xFFFF);
        jpeg_save_markers(source, JPEG_APP0 + 2, 0xFFFF);
    }
    jpeg_read_header(source, TRUE);
    frame->header_read = 1;

    header->width = (int)source->image_width;
    header->height = (int)source->image_height;
    header->components = source->num_components;
    header->color_space = color_space(source->jpeg_color_space);
    header->precision = source->data_precision;
    header->progressive = source->progressive_mode ? 1 : 0;
    header->arithmetic = source->arith_code ? 1 : 0;
    header->saw_adobe_marker = source->saw_Adobe_marker ? 1 : 0;
    header->adobe_transform = source->Adobe_transform;
    header->saw_jfif_marker = source->saw_JFIF_marker ? 1 : 0;
    header->restart_interval = (int)source->restart_interval;
    header->max_h = source->max_h_samp_factor;
    header->max_v = source->max_v_samp_factor;
    for (int ci = 0; ci < source->num_components && ci < 4; ci++) {
        header->h[ci] = source->comp_info[ci].h_samp_factor;
        header->v[ci] = source->comp_info[ci].v_samp_factor;
    }
    pb_source_imcu_size(source, &header->imcu_width, &header->imcu_height);
    find_exif(source, header);
    return pb_frame_leave(frame);
}
