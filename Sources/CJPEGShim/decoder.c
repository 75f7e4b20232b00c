/*
 * The decoder: a frame (frame.h) with a source, read from memory to RGB or CMYK rows, whole or only a region
 * (crop_columns, skip_rows). See include/jpeg_shim.h for the contract.
 */
#include <string.h>

#include "frame.h"

struct pb_jpeg_decoder {
    pb_frame frame;  /* first: pb_frame_new makes the handle */
    int started;
};
PB_FRAME_FIRST(struct pb_jpeg_decoder);

pb_jpeg_decoder *pb_jpeg_decoder_create(int max_scans, pb_jpeg_cancel_fn should_cancel, void *cancel_context,
                                        const pb_large_blocks *blocks) {
    return pb_frame_new(sizeof(pb_jpeg_decoder), PB_FRAME_SOURCE, max_scans, should_cancel, cancel_context, blocks);
}

void pb_jpeg_decoder_destroy(pb_jpeg_decoder *decoder) { pb_frame_free(decoder); }

const pb_jpeg_failure *pb_jpeg_decoder_failure(const pb_jpeg_decoder *decoder) { return &decoder->frame.failure; }

int pb_jpeg_decoder_read_header(pb_jpeg_decoder *decoder, const uint8_t *data, size_t length, int save_metadata,
                                pb_jpeg_header *header) {
    return pb_frame_read_header(&decoder->frame, data, length, save_metadata, header);
}

int pb_jpeg_decoder_icc_chunk(pb_jpeg_decoder *decoder, int index, const uint8_t **data, size_t *length) {
    static const char id[12] = "ICC_PROFILE";  /* with its NUL: the 12-byte identifier of ICC.1 B.4 */
    if (!decoder->frame.header_read || data == NULL || length == NULL)
        return 0;
    for (jpeg_saved_marker_ptr marker = decoder->frame.source.marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 2 || marker->data_length < sizeof id ||
            memcmp(marker->data, id, sizeof id) != 0)
            continue;
        if (index-- == 0) {
            *data = marker->data + sizeof id;
            *length = marker->data_length - sizeof id;
            return 1;
        }
    }
    return 0;
}

int pb_jpeg_decoder_start(pb_jpeg_decoder *decoder, int scale_num, int *output_width, int *output_height,
                          int *output_components) {
    pb_frame *frame = &decoder->frame;
    PB_ADMIT(frame, !frame->header_read || decoder->started || scale_num < 1 || scale_num > 16,
             "start called out of order or with a scale outside 1...16");
    struct jpeg_decompress_struct *cinfo = &frame->source;
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE: case JCS_YCbCr: case JCS_RGB:
        cinfo->out_color_space = JCS_RGB;
        break;
    case JCS_CMYK: case JCS_YCCK:
        /* Trap: libjpeg turns YCCK into CMYK but refuses CMYK to RGB; that (and the Adobe inversion) is ours. */
        cinfo->out_color_space = JCS_CMYK;
        break;
    default:
        pb_record_unsupported(&frame->failure, PB_JPEG_UNSUPPORTED_COLOR, cinfo->num_components);
        snprintf(frame->failure.message, sizeof frame->failure.message,
                 "%d colour components without a known colour space", cinfo->num_components);
        return PB_JPEG_UNSUPPORTED;
    }
    cinfo->scale_num = (unsigned int)scale_num;
    cinfo->scale_denom = 8;

    PB_GUARD(frame);
    /* Trap: for progressive (and multi-scan) files jpeg_start_decompress reads every scan; poll cancel there. */
    PB_POLLED(frame, jpeg_start_decompress(cinfo));
    decoder->started = 1;
    *output_width = (int)cinfo->output_width;
    *output_height = (int)cinfo->output_height;
    *output_components = cinfo->output_components;
    return pb_frame_leave(frame);
}

int pb_jpeg_decoder_read_rows(pb_jpeg_decoder *decoder, uint8_t *buffer, size_t stride, int max_rows,
                              int *rows_read) {
    *rows_read = 0;
    pb_frame *frame = &decoder->frame;
    PB_ADMIT(frame, !decoder->started || buffer == NULL || max_rows < 0,
             "read_rows called before start or without a buffer");
    PB_GUARD(frame);
    struct jpeg_decompress_struct *cinfo = &frame->source;
    int done = 0;
    while (done < max_rows && cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW rows[16];
        int wanted = max_rows - done;
        if (wanted > 16)
            wanted = 16;
        for (int i = 0; i < wanted; i++)
            rows[i] = buffer + (size_t)(done + i) * stride;
        JDIMENSION got = jpeg_read_scanlines(cinfo, rows, (JDIMENSION)wanted);
        if (got == 0)
            pb_frame_fail_now(frame, PB_JPEG_ERROR, "no scanlines returned (suspended data source)");
        done += (int)got;
        *rows_read = done;
    }
    return pb_frame_leave(frame);
}

int pb_jpeg_decoder_finish(pb_jpeg_decoder *decoder) {
    pb_frame *frame = &decoder->frame;
    PB_ADMIT(frame, !decoder->started || frame->source.output_scanline < frame->source.output_height,
             "finish called before every row was read");
    PB_GUARD(frame);
    PB_POLLED(frame, jpeg_finish_decompress(&frame->source));
    return pb_frame_leave(frame);
}

/* ---- partial decoding ---- */

int pb_jpeg_decoder_set_speed(pb_jpeg_decoder *decoder, int fast_idct, int fancy_upsampling) {
    pb_frame *frame = &decoder->frame;
    PB_ADMIT(frame, !frame->header_read || decoder->started, "set_speed called before read_header or after start");
    frame->source.dct_method = fast_idct ? JDCT_IFAST : JDCT_ISLOW;
    frame->source.do_fancy_upsampling = fancy_upsampling ? TRUE : FALSE;
    return PB_JPEG_OK;
}

int pb_jpeg_decoder_imcu_size(pb_jpeg_decoder *decoder, int *width, int *height) {
    PB_ADMIT(&decoder->frame, !decoder->started, "imcu_size called before start");
    struct jpeg_decompress_struct *cinfo = &decoder->frame.source;
    /* The alignment jpeg_crop_scanline imposes (jdapistd.c) and the row unit jpeg_skip_scanlines works in. */
    int scaled = cinfo->min_DCT_scaled_size;
    *width = (cinfo->comps_in_scan == 1 && cinfo->num_components == 1) ? scaled : scaled * cinfo->max_h_samp_factor;
    *height = scaled * cinfo->max_v_samp_factor;
    return PB_JPEG_OK;
}

int pb_jpeg_decoder_crop_columns(pb_jpeg_decoder *decoder, int *x_offset, int *width) {
    pb_frame *frame = &decoder->frame;
    struct jpeg_decompress_struct *cinfo = &frame->source;
    PB_ADMIT(frame, !decoder->started || cinfo->output_scanline != 0 || *x_offset < 0 || *width < 1 ||
                        (JDIMENSION)*x_offset + (JDIMENSION)*width > cinfo->output_width,
             "crop_columns called after a row was read, or outside the image");
    PB_GUARD(frame);
    JDIMENSION offset = (JDIMENSION)*x_offset, columns = (JDIMENSION)*width;
    jpeg_crop_scanline(cinfo, &offset, &columns);
    *x_offset = (int)offset;
    *width = (int)columns;
    return pb_frame_leave(frame);
}

int pb_jpeg_decoder_skip_rows(pb_jpeg_decoder *decoder, int count, int *rows_skipped) {
    *rows_skipped = 0;
    pb_frame *frame = &decoder->frame;
    PB_ADMIT(frame, !decoder->started || count < 0, "skip_rows called before start or with a negative count");
    PB_GUARD(frame);
    *rows_skipped = (int)jpeg_skip_scanlines(&frame->source, (JDIMENSION)count);
    return pb_frame_leave(frame);
}

int pb_jpeg_decoder_next_row(const pb_jpeg_decoder *decoder) {
    return (int)decoder->frame.source.output_scanline;
}
