/*
 * The encoder: a frame (frame.h) with an output, compressing RGB or CMYK rows into the frame's buffer
 * (memory_destination.c). See include/jpeg_shim.h for the contract.
 */
#include "frame.h"

struct pb_jpeg_encoder {
    pb_frame frame;  /* first: pb_frame_new makes the handle */
    int started, finished;
};
PB_FRAME_FIRST(struct pb_jpeg_encoder);

pb_jpeg_encoder *pb_jpeg_encoder_create(pb_jpeg_cancel_fn should_cancel, void *cancel_context,
                                        const pb_large_blocks *blocks) {
    return pb_frame_new(sizeof(pb_jpeg_encoder), PB_FRAME_OUTPUT, 0, should_cancel, cancel_context, blocks);
}

void pb_jpeg_encoder_destroy(pb_jpeg_encoder *encoder) { pb_frame_free(encoder); }

const pb_jpeg_failure *pb_jpeg_encoder_failure(const pb_jpeg_encoder *encoder) { return &encoder->frame.failure; }

int pb_jpeg_encoder_start(pb_jpeg_encoder *encoder, const pb_jpeg_encoder_options *options) {
    pb_frame *frame = &encoder->frame;
    PB_ADMIT(frame, encoder->started || options == NULL ||
                        (options->input_components != 3 && options->input_components != 4),
             "start called twice or with other than 3 or 4 components");
    PB_GUARD(frame);

    struct jpeg_compress_struct *cinfo = &frame->output;
    cinfo->image_width = (JDIMENSION)options->width;
    cinfo->image_height = (JDIMENSION)options->height;
    cinfo->input_components = options->input_components;
    cinfo->in_color_space = options->input_components == 4 ? JCS_CMYK : JCS_RGB;
    jpeg_set_defaults(cinfo);
    if (options->input_components == 4)
        jpeg_set_colorspace(cinfo, options->ycck ? JCS_YCCK : JCS_CMYK);  /* also writes the Adobe marker */
    else if (options->grayscale)
        jpeg_set_colorspace(cinfo, JCS_GRAYSCALE);
    int quality = options->quality < 1 ? 1 : options->quality > 100 ? 100 : options->quality;
    jpeg_set_quality(cinfo, quality, TRUE);
    if (cinfo->jpeg_color_space == JCS_YCbCr || cinfo->jpeg_color_space == JCS_YCCK) {
        int h = options->chroma_h >= 1 && options->chroma_h <= 2 ? options->chroma_h : 2;
        int v = options->chroma_v >= 1 && options->chroma_v <= 2 ? options->chroma_v : 2;
        cinfo->comp_info[0].h_samp_factor = h;
        cinfo->comp_info[0].v_samp_factor = v;
        if (cinfo->jpeg_color_space == JCS_YCCK) {
            cinfo->comp_info[3].h_samp_factor = h;
            cinfo->comp_info[3].v_samp_factor = v;
        }
    }
    cinfo->arith_code = options->arithmetic ? TRUE : FALSE;
    cinfo->optimize_coding = (options->optimize_coding && !options->arithmetic) ? TRUE : FALSE;
    if (options->progressive)
        jpeg_simple_progression(cinfo);  /* after the colour space: the script depends on it */
    if (options->dots_per_inch > 0 && options->dots_per_inch <= 65535) {
        cinfo->density_unit = 1;
        cinfo->X_density = (UINT16)options->dots_per_inch;
        cinfo->Y_density = (UINT16)options->dots_per_inch;
    }
    jpeg_start_compress(cinfo, TRUE);
    encoder->started = 1;
    return pb_frame_leave(frame);
}

int pb_jpeg_encoder_write_rows(pb_jpeg_encoder *encoder, const uint8_t *rows, size_t stride, int row_count) {
    pb_frame *frame = &encoder->frame;
    PB_ADMIT(frame, !encoder->started || encoder->finished || rows == NULL || row_count < 0 ||
                        frame->output.next_scanline + (JDIMENSION)row_count > frame->output.image_height,
             "write_rows called out of order or with too many rows");
    PB_GUARD(frame);
    int done = 0;
    while (done < row_count) {
        JSAMPROW pointers[16];
        int batch = row_count - done > 16 ? 16 : row_count - done;
        for (int i = 0; i < batch; i++)
            pointers[i] = (JSAMPROW)(rows + (size_t)(done + i) * stride);  /* libjpeg only reads input rows */
        JDIMENSION written = jpeg_write_scanlines(&frame->output, pointers, (JDIMENSION)batch);
        if (written == 0)
            pb_frame_fail_now(frame, PB_JPEG_ERROR, "no scanlines accepted (suspended destination)");
        done += (int)written;
    }
    return pb_frame_leave(frame);
}

int pb_jpeg_encoder_finish(pb_jpeg_encoder *encoder, const uint8_t **output, size_t *output_length) {
    *output = NULL;
    *output_length = 0;
    pb_frame *frame = &encoder->frame;
    PB_ADMIT(frame, !encoder->started || encoder->finished || frame->output.next_scanline < frame->output.image_height,
             "finish called before every row was written");
    PB_GUARD(frame);
    /* Trap: with optimize_coding or progressive output the real work (every pass) happens in finish. */
    PB_POLLED(frame, jpeg_finish_compress(&frame->output));
    encoder->finished = 1;
    return pb_frame_leave_with_output(frame, output, output_length);
}
