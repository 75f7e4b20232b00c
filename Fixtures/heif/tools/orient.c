// Writes a HEIC (or, with a 6th argument "avif", an AVIF) from a binary PPM through libheif's encoder, with
// irot/imir for an EXIF orientation value (heif_encoding_options.image_orientation), an EXIF block read from a
// file (a TIFF structure, or - for none) and, when NCLX=primaries,transfer,matrix is set, that nclx colour.
//   orient in.ppm orientation exif.tiff|- out.heic [quality] [avif]
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
  if (argc < 5) { fprintf(stderr, "orient in.ppm orientation exif.tiff|- out.heic [quality] [avif]\n"); return 2; }
  FILE* f = fopen(argv[1], "rb"); int w, h, max;
  if (fscanf(f, "P6 %d %d %d", &w, &h, &max) != 3) return 3; fgetc(f);
  struct heif_image* img; heif_image_create(w, h, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &img);
  heif_image_add_plane(img, heif_channel_interleaved, w, h, 8);
  int stride; uint8_t* p = heif_image_get_plane(img, heif_channel_interleaved, &stride);
  for (int y = 0; y < h; y++) fread(p + y * stride, 1, w * 3, f);
  fclose(f);
  struct heif_context* ctx = heif_context_alloc();
  struct heif_encoder* enc;
  int avif = argc > 6 && strcmp(argv[6], "avif") == 0;
  heif_context_get_encoder_for_format(ctx, avif ? heif_compression_AV1 : heif_compression_HEVC, &enc);
  heif_encoder_set_lossy_quality(enc, argc > 5 ? atoi(argv[5]) : 80);
  struct heif_encoding_options* o = heif_encoding_options_alloc();
  o->image_orientation = (enum heif_orientation)atoi(argv[2]);
  // NCLX=primaries,transfer,matrix in the environment: the colr box to write
  struct heif_color_profile_nclx* nclx = heif_nclx_color_profile_alloc();
  if (getenv("NCLX")) {
    int cp, tc, mc; sscanf(getenv("NCLX"), "%d,%d,%d", &cp, &tc, &mc);
    nclx->color_primaries = cp; nclx->transfer_characteristics = tc; nclx->matrix_coefficients = mc;
    nclx->full_range_flag = 1;
    o->output_nclx_profile = nclx; heif_image_set_nclx_color_profile(img, nclx);
  }
  struct heif_image_handle* handle;
  struct heif_error e = heif_context_encode_image(ctx, img, enc, o, &handle);
  if (e.code) { fprintf(stderr, "%s\n", e.message); return 1; }
  if (strcmp(argv[3], "-") != 0) {
    FILE* x = fopen(argv[3], "rb"); fseek(x, 0, SEEK_END); long n = ftell(x); fseek(x, 0, SEEK_SET);
    uint8_t* b = malloc(n); fread(b, 1, n, x); fclose(x);
    e = heif_context_add_exif_metadata(ctx, handle, b, (int)n);
    if (e.code) { fprintf(stderr, "%s\n", e.message); return 1; }
  }
  e = heif_context_write_to_file(ctx, argv[4]);
  if (e.code) { fprintf(stderr, "%s\n", e.message); return 1; }
  return 0;
}
