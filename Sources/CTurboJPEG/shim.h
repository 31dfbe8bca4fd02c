// libjpeg-turbo's TurboJPEG API (Debian libturbojpeg0-dev): whole-buffer JPEG encode and decode.
#ifndef TEGULA_CTURBOJPEG_SHIM_H
#define TEGULA_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>

/// The pixel formats and subsampling Tegula uses, as ints (TurboJPEG takes them as int).
static const int tegula_tjpf_rgb = TJPF_RGB;
static const int tegula_tjpf_rgba = TJPF_RGBA;
static const int tegula_tjsamp_420 = TJSAMP_420;
static const int tegula_tjflag_fastdct = TJFLAG_FASTDCT;
#endif
