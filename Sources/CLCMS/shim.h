#include <lcms2.h>

/* Little CMS builds its pixel formats with function-like macros, which Swift does not import. */
static inline cmsUInt32Number pb_lcms_type_rgb_8(void) { return TYPE_RGB_8; }
static inline cmsUInt32Number pb_lcms_type_cmyk_8(void) { return TYPE_CMYK_8; }
/* Adobe's inverted CMYK (0 = full ink), as Photoshop writes CMYK JPEGs. */
static inline cmsUInt32Number pb_lcms_type_cmyk_8_reversed(void) { return TYPE_CMYK_8_REV; }
static inline cmsUInt32Number pb_lcms_type_gray_8(void) { return TYPE_GRAY_8; }
/* Grey read from the first of three bytes (an RGB row whose R, G and B are equal): the other two are skipped. */
static inline cmsUInt32Number pb_lcms_type_gray_8_in_rgb(void) {
    return COLORSPACE_SH(PT_GRAY) | EXTRA_SH(2) | CHANNELS_SH(1) | BYTES_SH(1);
}
