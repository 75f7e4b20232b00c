/*
 * The transcoder: a frame (frame.h) with a source and an output, copying a region of a JPEG's quantised DCT
 * coefficients, turned as EXIF orientation says, into a new JPEG in the frame's buffer (memory_destination.c): a
 * lossless crop, never a decode. See include/jpeg_shim.h for the contract.
 */
#include <string.h>

#include "frame.h"

struct pb_jpeg_transcoder {
    pb_frame frame;                        /* first: pb_frame_new makes the handle; one guard covers both structs */
    int coefficients_read, finished;
    jvirt_barray_ptr *coefficients;        /* the source's, owned by its memory manager */
};
PB_FRAME_FIRST(struct pb_jpeg_transcoder);

pb_jpeg_transcoder *pb_jpeg_transcoder_create(int max_scans, pb_jpeg_cancel_fn should_cancel, void *cancel_context,
                                              const pb_large_blocks *blocks) {
    return pb_frame_new(sizeof(pb_jpeg_transcoder), PB_FRAME_SOURCE | PB_FRAME_OUTPUT, max_scans, should_cancel,
                        cancel_context, blocks);
}

void pb_jpeg_transcoder_destroy(pb_jpeg_transcoder *transcoder) { pb_frame_free(transcoder); }

const pb_jpeg_failure *pb_jpeg_transcoder_failure(const pb_jpeg_transcoder *transcoder) {
    return &transcoder->frame.failure;
}

/* jdiv_round_up and jround_up are in libjpeg's private jpegint.h, which Debian does not install. */
static long div_round_up(long a, long b) { return (a + b - 1) / b; }
static long round_up(long a, long b) { return div_round_up(a, b) * b; }

int pb_jpeg_transcoder_read_header(pb_jpeg_transcoder *transcoder, const uint8_t *data, size_t length,
                                   pb_jpeg_header *header) {
    return pb_frame_read_header(&transcoder->frame, data, length, 0, header);
}

/* Runs inside an exported function's guard. */
static void read_coefficients_now(pb_jpeg_transcoder *transcoder) {
    if (transcoder->coefficients_read)
        return;
    /* Trap: jpeg_read_coefficients reads every scan, so the cancel poll and the scan limit live in the monitor. */
    pb_frame *frame = &transcoder->frame;
    PB_POLLED(frame, transcoder->coefficients = jpeg_read_coefficients(&frame->source));
    if (transcoder->coefficients == NULL)
        pb_frame_fail_now(frame, PB_JPEG_ERROR, "no coefficients returned (suspended data source)");
    transcoder->coefficients_read = 1;
}

int pb_jpeg_transcoder_read_coefficients(pb_jpeg_transcoder *transcoder) {
    pb_frame *frame = &transcoder->frame;
    PB_ADMIT(frame, !frame->header_read, "read_coefficients called before read_header");
    PB_GUARD(frame);
    read_coefficients_now(transcoder);
    return pb_frame_leave(frame);
}

/* Component index of the coefficients read, or NULL when they are not read yet or index names no component:
 * what component and dc_terms admit. Reads only fields the header and read_coefficients set. */
static jpeg_component_info *read_component(pb_jpeg_transcoder *transcoder, int index) {
    struct jpeg_decompress_struct *source = &transcoder->frame.source;
    if (!transcoder->coefficients_read || index < 0 || index >= source->num_components)
        return NULL;
    return &source->comp_info[index];
}

/* Row row of the source's stored blocks of component index, for reading; inside a guard, after
 * read_coefficients. */
static JBLOCKROW coefficient_row(pb_jpeg_transcoder *transcoder, int index, JDIMENSION row) {
    struct jpeg_decompress_struct *source = &transcoder->frame.source;
    return (*source->mem->access_virt_barray)((j_common_ptr)source, transcoder->coefficients[index], row, 1, FALSE)[0];
}

/* The blocks libjpeg keeps for a component: its real blocks rounded up to whole iMCUs (jdcoefct.c). */
static JDIMENSION stored_blocks(JDIMENSION blocks, int factor) {
    return (JDIMENSION)round_up((long)blocks, (long)factor);
}

int pb_jpeg_transcoder_component(pb_jpeg_transcoder *transcoder, int index, pb_jpeg_component_blocks *info,
                                 int16_t *blocks) {
    pb_frame *frame = &transcoder->frame;
    jpeg_component_info *component = read_component(transcoder, index);
    PB_ADMIT(frame, component == NULL || info == NULL, "component called before read_coefficients or for no component");
    PB_GUARD(frame);
    memset(info, 0, sizeof *info);
    info->h = component->h_samp_factor;
    info->v = component->v_samp_factor;
    info->width_in_blocks = (int)component->width_in_blocks;
    info->height_in_blocks = (int)component->height_in_blocks;
    JDIMENSION width = stored_blocks(component->width_in_blocks, component->h_samp_factor);
    JDIMENSION height = stored_blocks(component->height_in_blocks, component->v_samp_factor);
    info->stored_width = (int)width;
    info->stored_height = (int)height;
    /* The table the scans were decoded with (saved by the decoder), not one a later DQT may have replaced. */
    JQUANT_TBL *table = component->quant_table != NULL ? component->quant_table
                                                       : frame->source.quant_tbl_ptrs[component->quant_tbl_no];
    if (table == NULL)
        pb_frame_fail_now(frame, PB_JPEG_ERROR, "a component has no quantisation table");
    for (int k = 0; k < DCTSIZE2; k++)
        info->quantization[k] = table->quantval[k];
    if (blocks != NULL) {
        for (JDIMENSION row = 0; row < height; row++)
            memcpy(blocks + (size_t)row * width * DCTSIZE2, coefficient_row(transcoder, index, row),
                   (size_t)width * sizeof(JBLOCK));
    }
    return pb_frame_leave(frame);
}

int pb_jpeg_transcoder_dc_terms(pb_jpeg_transcoder *transcoder, int index, int16_t *terms, size_t count) {
    pb_frame *frame = &transcoder->frame;
    jpeg_component_info *component = read_component(transcoder, index);
    PB_ADMIT(frame, component == NULL || terms == NULL, "dc_terms called before read_coefficients or for no component");
    PB_GUARD(frame);
    JDIMENSION width = component->width_in_blocks, height = component->height_in_blocks;
    if ((size_t)width * height > count)
        pb_frame_fail_now(frame, PB_JPEG_ERROR, "too small a buffer for the DC terms");
    for (JDIMENSION row = 0; row < height; row++) {
        JBLOCKROW blocks = coefficient_row(transcoder, index, row);
        for (JDIMENSION column = 0; column < width; column++)
            terms[(size_t)row * width + column] = blocks[column][0];
    }
    return pb_frame_leave(frame);
}

/* For EXIF orientation o, where output coefficient k (natural order, row v = vertical frequency, column u)
 * comes from in the source block, and its sign. A left-right mirror negates odd horizontal frequencies, a
 * top-bottom mirror odd vertical ones; the orientations 5-8 transpose the block first (the TIFF meanings:
 * 6 is a quarter turn clockwise, 8 counter-clockwise, 5 the transpose, 7 the transverse). */
static void coefficient_map(int orientation, int source_index[DCTSIZE2], int sign[DCTSIZE2]) {
    int transpose = orientation >= 5;
    int mirror_columns = orientation == 2 || orientation == 3 || orientation == 6 || orientation == 7;
    int mirror_rows = orientation == 3 || orientation == 4 || orientation == 7 || orientation == 8;
    for (int v = 0; v < DCTSIZE; v++) {
        for (int u = 0; u < DCTSIZE; u++) {
            int k = v * DCTSIZE + u;
            source_index[k] = transpose ? u * DCTSIZE + v : k;
            int negative = (mirror_columns && (u & 1)) ^ (mirror_rows && (v & 1));
            sign[k] = negative ? -1 : 1;
        }
    }
}

int pb_jpeg_transcoder_run(pb_jpeg_transcoder *transcoder, int x, int y, int width, int height, int orientation,
                           int optimize_coding, const uint8_t **output, size_t *output_length) {
    *output = NULL;
    *output_length = 0;
    pb_frame *frame = &transcoder->frame;
    PB_ADMIT(frame, !frame->header_read || transcoder->finished, "run called before read_header or twice");
    struct jpeg_decompress_struct *source = &frame->source;
    struct jpeg_compress_struct *destination = &frame->output;
    int unit_width, unit_height;
    pb_source_imcu_size(source, &unit_width, &unit_height);
    if (orientation < 1 || orientation > 8)
        orientation = 1;
    int transpose = orientation >= 5;
    /* Which source edges end up on the output's left or top (see coefficient_map, in whole blocks). */
    int flips_x = orientation == 2 || orientation == 3 || orientation == 7 || orientation == 8;
    int flips_y = orientation == 3 || orientation == 4 || orientation == 6 || orientation == 7;
    long padded_width = round_up((long)source->image_width, unit_width);
    long padded_height = round_up((long)source->image_height, unit_height);
    if (x < 0 || y < 0 || width < 1 || height < 1 || x % unit_width != 0 || y % unit_height != 0 ||
        (long)x + width > padded_width || (long)y + height > padded_height ||
        ((long)x + width != (long)source->image_width && (x + width) % unit_width != 0) ||
        ((long)y + height != (long)source->image_height && (y + height) % unit_height != 0) ||
        (flips_x && width % unit_width != 0) || (flips_y && height % unit_height != 0))
        return pb_frame_misuse(frame, "run: the region is off the iMCU grid or outside the image");
    if (source->num_components != 1 && source->num_components != 3)
        return pb_frame_misuse(frame, "run: only 1 or 3 components can be copied");

    PB_GUARD(frame);
    read_coefficients_now(transcoder);

    /* The source's tables, component ids and sampling (jpeg_set_defaults first: Huffman, no restarts). */
    jpeg_copy_critical_parameters(source, destination);
    destination->image_width = (JDIMENSION)(transpose ? height : width);
    destination->image_height = (JDIMENSION)(transpose ? width : height);
    destination->optimize_coding = optimize_coding ? TRUE : FALSE;
    destination->arith_code = FALSE;  /* PDF readers do not decode arithmetic coding */
    destination->restart_interval = 0;
    destination->restart_in_rows = 0;
    if (source->num_components == 1) {
        destination->comp_info[0].h_samp_factor = 1;
        destination->comp_info[0].v_samp_factor = 1;
    } else if (transpose) {
        for (int ci = 0; ci < destination->num_components; ci++) {
            jpeg_component_info *component = &destination->comp_info[ci];
            int h = component->h_samp_factor;
            component->h_samp_factor = component->v_samp_factor;
            component->v_samp_factor = h;
        }
    }
    if (transpose) {
        /* A transposed block needs the transposed table: coefficient (u, v) now sits at (v, u). */
        for (int table = 0; table < NUM_QUANT_TBLS; table++) {
            JQUANT_TBL *quant = destination->quant_tbl_ptrs[table];
            if (quant == NULL)
                continue;
            for (int v = 0; v < DCTSIZE; v++) {
                for (int u = v + 1; u < DCTSIZE; u++) {
                    UINT16 swap = quant->quantval[v * DCTSIZE + u];
                    quant->quantval[v * DCTSIZE + u] = quant->quantval[u * DCTSIZE + v];
                    quant->quantval[u * DCTSIZE + v] = swap;
                }
            }
        }
    }

    int source_index[DCTSIZE2], sign[DCTSIZE2];
    coefficient_map(orientation, source_index, sign);
    jvirt_barray_ptr arrays[4] = {NULL, NULL, NULL, NULL};
    int output_max_h = 1, output_max_v = 1;
    for (int ci = 0; ci < destination->num_components; ci++) {
        if (destination->comp_info[ci].h_samp_factor > output_max_h)
            output_max_h = destination->comp_info[ci].h_samp_factor;
        if (destination->comp_info[ci].v_samp_factor > output_max_v)
            output_max_v = destination->comp_info[ci].v_samp_factor;
    }
    int output_unit_width = source->num_components == 1 ? DCTSIZE : DCTSIZE * output_max_h;
    int output_unit_height = source->num_components == 1 ? DCTSIZE : DCTSIZE * output_max_v;
    JDIMENSION output_imcus_x = (JDIMENSION)div_round_up((long)destination->image_width, output_unit_width);
    JDIMENSION output_imcus_y = (JDIMENSION)div_round_up((long)destination->image_height, output_unit_height);
    JDIMENSION columns[4], rows[4];
    for (int ci = 0; ci < destination->num_components; ci++) {
        jpeg_component_info *component = &destination->comp_info[ci];
        int h = source->num_components == 1 ? 1 : component->h_samp_factor;
        int v = source->num_components == 1 ? 1 : component->v_samp_factor;
        columns[ci] = output_imcus_x * (JDIMENSION)h;
        rows[ci] = output_imcus_y * (JDIMENSION)v;
        /* Unturned, the blocks move up and left inside the source's own arrays: no second copy of them. */
        if (orientation == 1)
            arrays[ci] = transcoder->coefficients[ci];
        else
            arrays[ci] = (*destination->mem->request_virt_barray)((j_common_ptr)destination, JPOOL_IMAGE, FALSE,
                                                                  columns[ci], rows[ci], (JDIMENSION)v);
    }
    if (orientation != 1)
        (*destination->mem->realize_virt_arrays)((j_common_ptr)destination);

    for (int ci = 0; ci < destination->num_components; ci++) {
        jpeg_component_info *from = &source->comp_info[ci];
        int h = source->num_components == 1 ? 1 : from->h_samp_factor;
        int v = source->num_components == 1 ? 1 : from->v_samp_factor;
        /* The region in this component's blocks, in the source's orientation. */
        JDIMENSION first_column = (JDIMENSION)(x / unit_width) * (JDIMENSION)h;
        JDIMENSION first_row = (JDIMENSION)(y / unit_height) * (JDIMENSION)v;
        JDIMENSION region_columns = transpose ? rows[ci] : columns[ci];
        JDIMENSION region_rows = transpose ? columns[ci] : rows[ci];
        JDIMENSION source_columns = stored_blocks(from->width_in_blocks, from->h_samp_factor);
        JDIMENSION source_rows = stored_blocks(from->height_in_blocks, from->v_samp_factor);
        if (source->num_components == 1) {
            source_columns = from->width_in_blocks;
            source_rows = from->height_in_blocks;
        }
        if (first_column + region_columns > source_columns || first_row + region_rows > source_rows)
            pb_frame_fail_now(frame, PB_JPEG_MISUSE, "run: the region reaches past the stored blocks");
        if (orientation == 1) {
            for (JDIMENSION row = 0; row < rows[ci] && (first_row > 0 || first_column > 0); row++) {
                /* Row first_row + row moves to row: never above a row still to be moved. In memory (no backing
                 * store is set up) a row pointer stays valid after the next access. */
                JBLOCKROW from = (*source->mem->access_virt_barray)((j_common_ptr)source, arrays[ci],
                                                                    first_row + row, 1, FALSE)[0];
                JBLOCKROW to = (*source->mem->access_virt_barray)((j_common_ptr)source, arrays[ci], row, 1, TRUE)[0];
                memmove(to, from + first_column, (size_t)columns[ci] * sizeof(JBLOCK));
            }
            continue;
        }
        for (JDIMENSION row = 0; row < rows[ci]; row++) {
            if ((row & 15) == 0) {
                pb_frame_check_cancel(frame);
            }
            JBLOCKROW target = (*destination->mem->access_virt_barray)((j_common_ptr)destination, arrays[ci],
                                                                       row, 1, TRUE)[0];
            JBLOCKROW straight = NULL;
            if (!transpose) {
                JDIMENSION source_row = first_row + (flips_y ? region_rows - 1 - row : row);
                straight = coefficient_row(transcoder, ci, source_row);
            }
            for (JDIMENSION column = 0; column < columns[ci]; column++) {
                JCOEFPTR block;
                if (transpose) {
                    /* Output (column, row) is source (row, column), each mirrored as the orientation says. */
                    JDIMENSION source_column = first_column + (flips_x ? region_columns - 1 - row : row);
                    JDIMENSION source_row = first_row + (flips_y ? region_rows - 1 - column : column);
                    block = coefficient_row(transcoder, ci, source_row)[source_column];
                } else {
                    JDIMENSION source_column = first_column + (flips_x ? region_columns - 1 - column : column);
                    block = straight[source_column];
                }
                JCOEFPTR out = target[column];
                for (int k = 0; k < DCTSIZE2; k++)
                    out[k] = (JCOEF)(sign[k] * block[source_index[k]]);
            }
        }
    }

    PB_POLLED(frame, jpeg_write_coefficients(destination, arrays));
    /* Trap: with optimize_coding both passes over the blocks happen in jpeg_finish_compress. */
    PB_POLLED(frame, jpeg_finish_compress(destination));
    transcoder->finished = 1;
    return pb_frame_leave_with_output(frame, output, output_length);
}
