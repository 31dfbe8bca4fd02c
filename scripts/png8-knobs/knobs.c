// PNG8 knob trials (scripts/png8-knobs/run): read RGBA tiles, quantize with libimagequant, deflate
// the indices with libdeflate, and report total PNG bytes (every chunk counted), PSNR pooled over
// opaque pixels, quantize+deflate CPU seconds and the mean palette size.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <png.h>
#include <libimagequant.h>
#include <libdeflate.h>
int main(int argc, char **argv) {
  // knobs.c LIST dither maxcolors speed qmin qmax level filter(0 none,1 sub,2 up,4 paeth) pack(0/1) posterize
  FILE *list = fopen(argv[1], "r");
  float dither = atof(argv[2]); int maxc = atoi(argv[3]), speed = atoi(argv[4]);
  int qmin = atoi(argv[5]), qmax = atoi(argv[6]), level = atoi(argv[7]), filt = atoi(argv[8]), pack = atoi(argv[9]);
  int post = argc > 10 ? atoi(argv[10]) : 0;
  struct libdeflate_compressor *c = libdeflate_alloc_compressor(level);
  liq_attr *attr = liq_attr_create();
  liq_set_max_colors(attr, maxc); liq_set_speed(attr, speed); liq_set_quality(attr, qmin, qmax);
  if (post) liq_set_min_posterization(attr, post);
  char path[4096]; double se = 0; long n = 0; long total = 0; int tiles = 0; double cpu = 0; long colsum = 0; int fails = 0;
  unsigned char *raw = malloc(300000), *out = malloc(400000), *idx = malloc(65536*2), *prev = calloc(1, 4096);
  while (fgets(path, sizeof path, list)) {
    path[strcspn(path, "\n")] = 0;
    png_image im; memset(&im, 0, sizeof im); im.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&im, path)) { fprintf(stderr, "read %s\n", path); return 1; }
    im.format = PNG_FORMAT_RGBA;
    unsigned char *px = malloc(PNG_IMAGE_SIZE(im));
    png_image_finish_read(&im, NULL, px, 0, NULL);
    int w = im.width, h = im.height;
    clock_t t0 = clock();
    liq_image *li = liq_image_create_rgba(attr, px, w, h, 0);
    liq_result *res = NULL;
    if (liq_image_quantize(li, attr, &res) != LIQ_OK) { fails++; liq_image_destroy(li); free(px); continue; }
    liq_set_dithering_level(res, dither);
    liq_write_remapped_image(res, li, idx, w * h);
    const liq_palette *pal = liq_get_palette(res);
    int ncol = pal->count; colsum += ncol;
    int bits = 8;
    if (pack) bits = ncol <= 2 ? 1 : ncol <= 4 ? 2 : ncol <= 16 ? 4 : 8;
    int stride = (w * bits + 7) / 8; size_t rawn = 0; int bpp = 1;
    unsigned char *pr = NULL; unsigned char row[4096];
    for (int y = 0; y < h; y++) {
      memset(row, 0, stride);
      for (int x = 0; x < w; x++) {
        int v = idx[y * w + x];
        if (bits == 8) row[x] = v; else row[x * bits / 8] |= v << (8 - bits - (x * bits) % 8);
      }
      raw[rawn++] = filt;
      for (int i = 0; i < stride; i++) {
        int a = i >= bpp ? row[i - bpp] : 0, b = pr ? prev[i] : 0, cc = (pr && i >= bpp) ? prev[i - bpp] : 0, p;
        switch (filt) { case 0: p = 0; break; case 1: p = a; break; case 2: p = b; break;
          default: { int pa = abs(b - cc), pb = abs(a - cc), pc = abs(a + b - 2 * cc); p = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : cc); } }
        raw[rawn++] = row[i] - p;
      }
      memcpy(prev, row, stride); pr = prev;
    }
    size_t z = libdeflate_zlib_compress(c, raw, rawn, out, 400000);
    int trns = 0; for (int i = 0; i < ncol; i++) if (pal->entries[i].a != 255) trns = i + 1;
    total += 8 + 25 + 12 + 3 * ncol + (trns ? 12 + trns : 0) + 12 + z + 12;
    cpu += (double)(clock() - t0) / CLOCKS_PER_SEC;
    for (int i = 0; i < w * h; i++) if (px[i * 4 + 3] == 255) {
      liq_color q = pal->entries[idx[i]];
      double d0 = q.r - px[i*4], d1 = q.g - px[i*4+1], d2 = q.b - px[i*4+2];
      se += d0*d0 + d1*d1 + d2*d2; n += 3;
    }
    liq_result_destroy(res); liq_image_destroy(li); free(px); tiles++;
  }
  double psnr = 10 * log10(255.0 * 255.0 / (se / n));
  printf("dither %.2f maxc %d speed %d q %d-%d level %d filter %d pack %d post %d: tiles %d fails %d bytes %ld psnr %.2f cpu %.2f s mean colours %.1f\n",
    dither, maxc, speed, qmin, qmax, level, filt, pack, post, tiles, fails, total, psnr, cpu, (double)colsum / tiles);
  return 0;
}
